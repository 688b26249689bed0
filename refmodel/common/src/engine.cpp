#include "tmu/engine.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "tmu/error.h"

namespace tmu {

namespace {

std::vector<std::unique_ptr<Engine>>& owned() {
  static std::vector<std::unique_ptr<Engine>> list;
  return list;
}

std::vector<const Engine*>& listed() {
  static std::vector<const Engine*> list;
  return list;
}

bool same_text(std::string_view a, std::string_view b, bool any_case) {
  if (!any_case) return a == b;
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

Error unsupported(const Engine& e, std::string_view what) {
  return Error(ErrorKind::BadInput, fmt::format("the {} engine has no {}", e.name(), what));
}

}  // namespace

void add_count(UnitCounts& counts, const std::string& unit, uint64_t n) {
  for (auto& [u, total] : counts)
    if (u == unit) {
      total += n;
      return;
    }
  counts.emplace_back(unit, n);
}

const std::vector<std::string>* option_value(const OptionValues& v, const std::string& name) {
  const auto it = v.find(name);
  return it == v.end() ? nullptr : &it->second;
}

std::string Engine::canonical_variant(std::string_view name) const {
  std::string known;
  for (const EngineVariant& v : variants()) {
    if (same_text(v.name, name, true)) return v.name;
    known += (known.empty() ? "" : ", ") + v.name;
  }
  throw Error(ErrorKind::BadInput, fmt::format("unknown {} variant '{}' ({})", this->name(), name, known));
}

const WordCodec& words_of(const Engine& e, std::string_view use) {
  if (const WordCodec* c = e.words()) return *c;
  throw unsupported(e, fmt::format("instruction words{}{}", use.empty() ? "" : " ", use));
}

const ProgramRunner& programs_of(const Engine& e) {
  if (const ProgramRunner* c = e.programs()) return *c;
  throw unsupported(e, "programs");
}

const VectorFiles& vectors_of(const Engine& e) {
  if (const VectorFiles* c = e.vectors()) return *c;
  throw unsupported(e, "vector files");
}

const ScoreboardFactory& scoreboards_of(const Engine& e) {
  if (const ScoreboardFactory* c = e.scoreboards()) return *c;
  throw unsupported(e, "generic scoreboard (tmu::EngineScoreboard)");
}

void register_engine(std::unique_ptr<Engine> engine) {
  auto& own = owned();
  auto& list = listed();
  const std::string name = engine->name();
  const auto it = std::find_if(own.begin(), own.end(), [&](const auto& e) { return e->name() == name; });
  if (it != own.end()) {
    const size_t at = static_cast<size_t>(it - own.begin());
    *it = std::move(engine);
    list[at] = own[at].get();
    return;
  }
  own.push_back(std::move(engine));
  list.push_back(own.back().get());
}

const std::vector<const Engine*>& engines() { return listed(); }

const Engine* find_engine(std::string_view name) {
  for (const Engine* e : listed())
    if (e->name() == name) return e;
  return nullptr;
}

const Engine& default_engine() {
  if (listed().empty()) throw Error(ErrorKind::Unsupported, "no engine is registered");
  return *listed().front();
}

void register_engine_plugins() {
  const char* list = std::getenv(kEnginePluginVariable);
  if (!list) return;
  const std::string paths = list;
  for (size_t start = 0; start <= paths.size();) {
    const size_t end = std::min(paths.find(':', start), paths.size());
    const std::string path = paths.substr(start, end - start);
    start = end + 1;
    if (path.empty()) continue;
    const auto refuse = [&](const std::string& why) {
      return Error(ErrorKind::BadInput, fmt::format("{}: engine plugin '{}': {}", kEnginePluginVariable, path, why));
    };
    // Never closed: the registry keeps the plugin's engine, whose code lives in the library.
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) throw refuse(dlerror());
    using Entry = Engine* (*)();
    const auto entry = reinterpret_cast<Entry>(dlsym(library, kEnginePluginEntry));
    if (!entry) throw refuse(fmt::format("it does not define {}", kEnginePluginEntry));
    std::unique_ptr<Engine> engine(entry());
    if (!engine) throw refuse(fmt::format("{} returned no engine", kEnginePluginEntry));
    register_engine(std::move(engine));
  }
}

std::string engine_names() {
  std::string out;
  const auto& list = listed();
  for (size_t i = 0; i < list.size(); ++i)
    out += (i == 0 ? "" : (i + 1 == list.size() ? " or " : ", ")) + list[i]->name();
  return out;
}

}  // namespace tmu

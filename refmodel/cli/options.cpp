#include "options.h"

#include <algorithm>

#include <fmt/format.h>

#include "tmu/error.h"

namespace tmu::cli {

const Engine& GlobalOptions::engine() const {
  if (!engine_given()) return default_engine();
  if (const Engine* e = find_engine(engine_name)) return *e;
  throw CLI::ValidationError("--engine", fmt::format("unknown engine '{}' ({})", engine_name, engine_names()));
}

std::string GlobalOptions::variant_given() const {
  const Engine& e = engine();
  std::string variant;
  for (const auto& [option, value] : variant_options) {
    if (option != "--variant" && option != e.variant_alias()) {
      std::string owners;
      for (const Engine* other : engines())
        if (other->variant_alias() == option) owners += (owners.empty() ? "" : ", ") + other->name();
      throw CLI::ValidationError(option, fmt::format("is an option of --engine {}; the {} engine's variant is --variant{}",
                                                     owners, e.name(),
                                                     e.variant_alias().empty() ? "" : " (or " + e.variant_alias() + ")"));
    }
    try {
      variant = e.canonical_variant(value);
    } catch (const Error& err) {
      throw CLI::ValidationError(option, err.message());
    }
  }
  return variant;
}

std::string GlobalOptions::variant() const {
  const std::string given = variant_given();
  return given.empty() ? engine().variants().front().name : given;
}

void add_engine_selection(CLI::App* app, GlobalOptions& global) {
  const bool on_sub = app->get_parent() != nullptr;
  const std::string where = on_sub ? "; the same as before the subcommand" : "";
  app->add_option("--engine", global.engine_name, fmt::format("Engine: {} (the first is the default){}", engine_names(), where));
  std::string variants;
  for (const Engine* e : engines()) {
    std::string names;
    for (const EngineVariant& v : e->variants()) names += (names.empty() ? "" : "|") + v.name;
    variants += fmt::format("{}{}: {}", variants.empty() ? "" : "; ", e->name(), names);
  }
  std::vector<std::string> spellings{"--variant"};
  for (const Engine* e : engines())
    if (!e->variant_alias().empty() && std::find(spellings.begin(), spellings.end(), e->variant_alias()) == spellings.end())
      spellings.push_back(e->variant_alias());
  for (const std::string& spelling : spellings) {
    const std::string help = spelling == "--variant"
                                 ? fmt::format("The engine's variant, the first its default ({}){}", variants, where)
                                 : fmt::format("Alias of --variant for the engine that spelled it so{}", where);
    app->add_option_function<std::string>(
        spelling, [&global, spelling](const std::string& v) { global.variant_options.emplace_back(spelling, v); }, help);
  }
}

EngineOptionSet::EngineOptionSet(CLI::App* sub, std::function<std::vector<EngineOption>(const Engine&)> which) {
  for (const Engine* e : engines()) {
    for (const EngineOption& o : which(*e)) {
      const std::string primary = o.names.substr(0, o.names.find(','));
      std::string key = primary;
      key.erase(0, key.find_first_not_of('-'));
      auto it = std::find_if(created_.begin(), created_.end(), [&](const Created& c) { return c.key == key; });
      if (it != created_.end()) {
        it->engines.push_back(e->name());
        continue;
      }
      Created c{key, primary, o.kind, {e->name()}, std::make_shared<std::vector<std::string>>(), nullptr};
      const std::string help = o.help + (o.default_text.empty() ? "" : fmt::format(" (default {})", o.default_text));
      auto given = c.given;
      if (o.kind == EngineOption::Kind::Flag) {
        c.option = sub->add_flag_callback(o.names, [given] { given->assign({"1"}); }, help);
      } else {
        c.option = sub->add_option(o.names, *c.given, help);
        if (o.kind == EngineOption::Kind::List) c.option->delimiter(',');
        else c.option->expected(1);
      }
      created_.push_back(std::move(c));
    }
  }
}

OptionValues EngineOptionSet::values() const {
  OptionValues out;
  for (const Created& c : created_)
    if (c.option->count() > 0) out[c.key] = *c.given;
  return out;
}

void EngineOptionSet::check(const Engine& chosen) const {
  for (const Created& c : created_) {
    if (c.option->count() == 0) continue;
    if (std::find(c.engines.begin(), c.engines.end(), chosen.name()) != c.engines.end()) continue;
    std::string owners;
    for (const std::string& n : c.engines) owners += (owners.empty() ? "" : ", ") + n;
    throw CLI::ValidationError(c.primary, fmt::format("is an option of --engine {}, not of {}", owners, chosen.name()));
  }
}

}  // namespace tmu::cli

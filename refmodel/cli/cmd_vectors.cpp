// tmu vectors (generate an engine's vector files and their MANIFEST) and tmu check (replay vector
// files, each with the engine it names, and verify a directory's MANIFEST). The work is the
// engine's (tmu/engine.h) and the shared framing's (tmu/vector_file.h); this file is options, files
// and messages.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "commands.h"
#include "options.h"
#include "tmu/error.h"
#include "tmu/program_error.h"
#include "tmu/rng.h"
#include "tmu/vector_file.h"

namespace tmu::cli {

namespace {

namespace fs = std::filesystem;

struct VectorOptions {
  std::string output = "vectors-out";
  unsigned level = 1, random_vectors = 16;
  uint64_t seed = 0;
  bool list = false, quiet = false;
  CLI::Option* level_opt = nullptr;
  CLI::Option* n_opt = nullptr;
  CLI::Option* seed_opt = nullptr;
  CLI::Option* out_opt = nullptr;
};

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

int cmd_vectors(const VectorOptions& o, const EngineOptionSet& engine_options, const GlobalOptions& global) {
  const Engine& engine = global.engine();
  engine_options.check(engine);
  VectorRequest r;
  r.level_given = o.level_opt->count() > 0;
  r.random_given = o.n_opt->count() > 0;
  r.seed_given = o.seed_opt->count() > 0;
  // -n or --seed alone ask for random vectors: level 2.
  r.level = r.level_given ? o.level : ((r.random_given || r.seed_given) ? 2 : 1);
  if (r.level < 1 || r.level > 2) {
    std::cerr << fmt::format("tmu vectors: --level {} is not 1 or 2\n", r.level);
    return kExitBadInput;
  }
  r.random = o.random_vectors;
  r.seed = r.seed_given ? o.seed : clock_seed();
  r.variant = global.variant_given();
  r.list_only = o.list;
  r.options = engine_options.values();

  // The default directory is written without being named on the command line (an engine's whole set
  // can be over a hundred megabytes): say where, before writing.
  if (!o.list && !o.out_opt->count())
    std::cerr << fmt::format("tmu vectors: no -o given: writing into {}\n", fs::absolute(o.output).string());
  const auto start = std::chrono::steady_clock::now();
  double writing_cpu = 0;
  std::vector<ManifestEntry> manifest;
  uint64_t vectors = 0, cases = 0, bytes = 0;
  bool write_failed = false;
  const double cpu0 = cpu_seconds();
  GeneratedSet set;
  try {
    set = vectors_of(engine).generate_vectors(r, [&](GeneratedFile&& f) {
      if (o.list) {
        std::cout << f.path << "\n";
        return;
      }
      if (write_failed) return;
      const double t0 = cpu_seconds();
      const fs::path path = fs::path(o.output) / f.path;
      fs::create_directories(path.parent_path());
      std::ofstream out(path, std::ios::binary);
      out << f.text;
      if (!out) {
        std::cerr << fmt::format("tmu vectors: cannot write {}\n", path.string());
        write_failed = true;
        return;
      }
      manifest.push_back(ManifestEntry{f.path, f.vectors, f.element_cases, sha256_hex(f.text)});
      vectors += f.vectors;
      cases += f.element_cases;
      bytes += f.text.size();
      writing_cpu += cpu_seconds() - t0;
    });
  } catch (const Error& e) {
    std::cerr << "tmu vectors: " << (e.kind() == ErrorKind::BadInput ? e.message() : std::string(e.what())) << "\n";
    return kExitBadInput;
  }
  if (write_failed) return kExitBadInput;
  if (o.list) return 0;
  if (set.random) std::cerr << fmt::format("tmu vectors: seed {} (replay with --seed {})\n", set.seed, set.seed);
  {
    std::ofstream out(fs::path(o.output) / kVectorManifestName, std::ios::binary);
    out << format_manifest(manifest, set.manifest_header);
    if (!out) {
      std::cerr << "tmu vectors: cannot write the manifest\n";
      return kExitBadInput;
    }
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = cpu_seconds() - cpu0 - writing_cpu;
  if (!o.quiet)
    std::cout << fmt::format(
        "tmu vectors: {} files ({:.1f} MB), {} vectors, {} element-cases in {} ({:.2f} s); generation took {:.2f} s "
        "of CPU: {:.2f} M element-cases/s\n",
        manifest.size(), static_cast<double>(bytes) / 1e6, vectors, cases, o.output, total, cpu,
        cpu > 0 ? cases / cpu / 1e6 : 0.0);
  return 0;
}

// ---- tmu check ----

struct CheckOptions {
  std::vector<std::string> paths;
  uint64_t poison_seed = 0;
  CLI::Option* poison_opt = nullptr;
  unsigned max_diffs = 16;
  unsigned jobs = 0;  // 0: one per core
};

struct CheckTotals {
  uint64_t files = 0, vectors = 0, failed = 0;
  UnitCounts counts;
  bool bad_input = false, mismatch = false;
  void add(const CheckTotals& o) {
    files += o.files, vectors += o.vectors, failed += o.failed;
    for (const auto& [unit, n] : o.counts) add_count(counts, unit, n);
    bad_input |= o.bad_input, mismatch |= o.mismatch;
  }
};

// One unit of tmu check's work (a file, or a directory's MANIFEST) and what it printed: the units run
// on any thread, and their output is printed in the order of the arguments, so -j N prints what a
// serial run prints.
struct CheckItem {
  enum class Kind { File, Manifest, Message } kind = Kind::File;  // Message: `err` says it all
  std::string path{};
  bool listed = false;  // a file of a directory with a MANIFEST: the replay hashes it for the check
  std::string out{}, err{};
  CheckTotals totals{};
};

// The engine that replays `path`: the one the file names (the default engine when it names none). An
// --engine that contradicts the file is an error naming both.
const Engine& file_engine(const std::string& path, const GlobalOptions& global) {
  std::ifstream in(path, std::ios::binary);
  const NamedEngine named = vector_file_engine(in, path);
  const Engine* e = named.name.empty() ? &default_engine() : find_engine(named.name);
  if (!e)
    throw ProgramError(path, static_cast<int>(named.line),
                       fmt::format("the file names engine '{}', which this tmu does not have ({})", named.name, engine_names()));
  if (global.engine_given() && global.engine().name() != e->name())
    throw ProgramError(path, static_cast<int>(named.line),
                       fmt::format("expected 'engine {}': the file is a vector file of the {} engine{}, and --engine {} "
                                   "contradicts it", global.engine().name(), e->name(),
                                   named.name.empty() ? " (it names none)" : "", global.engine().name()));
  return *e;
}

// The SHA-256 of each file a replay read to its end, for its directory's MANIFEST check, which then
// reads only the files no replay finished.
class Digests {
 public:
  void add(const std::string& path, std::string digest) {
    std::lock_guard lock(m_);
    by_path_[fs::path(path).lexically_normal().string()] = std::move(digest);
  }
  std::optional<std::string> of(const fs::path& normal_path) const {
    std::lock_guard lock(m_);
    const auto it = by_path_.find(normal_path.string());
    if (it == by_path_.end()) return std::nullopt;
    return it->second;
  }

 private:
  mutable std::mutex m_;
  std::map<std::string, std::string> by_path_;
};

void check_file(CheckItem& item, const CheckOptions& o, const GlobalOptions& global, Digests& digests) {
  const std::string& path = item.path;
  CheckTotals& t = item.totals;
  HashingFile in(path, item.listed);
  if (!in.is_open()) {
    item.err += fmt::format("{}: cannot open file\n", path);
    t.bad_input = true;
    return;
  }
  try {
    const Engine& engine = file_engine(path, global);
    ReplayRequest r;
    r.max_differences = o.max_diffs;
    if (o.poison_opt->count()) r.poison_seed = o.poison_seed;
    const ReplayResult result = vectors_of(engine).replay_vectors(in, path, r);
    if (auto digest = in.sha256_hex()) digests.add(path, std::move(*digest));
    ++t.files;
    t.vectors += result.vectors;
    t.failed += result.failed;
    for (const auto& [unit, n] : result.counts) add_count(t.counts, unit, n);
    for (const std::string& d : result.differences) item.out += d + "\n";
    if (result.failed) t.mismatch = true;
  } catch (const ProgramError& e) {
    item.err += std::string(e.what()) + "\n";
    t.bad_input = true;
  } catch (const Error& e) {
    item.err += fmt::format("tmu check: {}: {}\n", path, e.kind() == ErrorKind::BadInput ? e.message() : std::string(e.what()));
    t.bad_input = true;
  }
}

void check_manifest_of(CheckItem& item, const Digests& digests) {
  const ManifestCheck m = check_manifest(item.path, [&](const fs::path& p) { return digests.of(p); });
  for (const std::string& d : m.differences) item.out += d + "\n";
  for (const std::string& d : m.malformed) item.err += d + "\n";
  if (!m.differences.empty()) item.totals.mismatch = true;
  if (!m.malformed.empty()) item.totals.bad_input = true;
}

// Runs the files on `jobs` threads, printing each item's output as soon as it and all items before
// it are done. A directory's MANIFEST check runs on the printing thread when its turn comes: every
// file of the directory is done by then, and their replays have hashed them as they read them.
void run_items(std::vector<CheckItem>& items, unsigned jobs, const CheckOptions& o, const GlobalOptions& global,
               CheckTotals& t) {
  std::mutex m;
  std::condition_variable done_cv;
  std::vector<char> done(items.size(), 0);
  Digests digests;
  std::atomic<size_t> next{0};
  auto run = [&](CheckItem& item) {
    if (item.kind == CheckItem::Kind::File) check_file(item, o, global, digests);
  };
  auto work = [&] {
    for (size_t i; (i = next++) < items.size();) {
      run(items[i]);
      {
        std::lock_guard lock(m);
        done[i] = 1;
      }
      done_cv.notify_one();
    }
  };
  jobs = static_cast<unsigned>(std::min<size_t>(jobs, items.size()));
  std::vector<std::thread> threads;
  if (jobs > 1)
    for (unsigned j = 0; j < jobs; ++j) threads.emplace_back(work);
  for (size_t i = 0; i < items.size(); ++i) {
    if (jobs <= 1) {
      run(items[i]);
    } else {
      std::unique_lock lock(m);
      done_cv.wait(lock, [&] { return done[i] != 0; });
    }
    if (items[i].kind == CheckItem::Kind::Manifest) check_manifest_of(items[i], digests);
    std::cout << items[i].out << std::flush;
    std::cerr << items[i].err << std::flush;
    t.add(items[i].totals);
    items[i] = CheckItem{};  // the differences of a long run are not kept to the end
  }
  for (std::thread& th : threads) th.join();
}

int cmd_check(const CheckOptions& o, const GlobalOptions& global) {
  CheckTotals t;
  try {
    if (global.engine_given()) global.engine();  // an unknown --engine is refused before any file is read
    global.variant_given();
  } catch (const CLI::ValidationError& e) {
    std::cerr << "tmu check: " << e.what() << "\n";
    return kExitBadInput;
  }
  std::vector<CheckItem> items;
  for (const std::string& p : o.paths) {
    if (!fs::is_directory(p)) {
      items.push_back(CheckItem{.path = p});
      continue;
    }
    const std::vector<std::string> files = vector_files_below(p);
    if (files.empty()) {
      CheckItem none{.kind = CheckItem::Kind::Message, .path = p};
      none.err = fmt::format("{}: no {} files in this directory\n", p, kVectorFileExtension);
      none.totals.bad_input = true;
      items.push_back(std::move(none));
    }
    const bool manifest = fs::exists(fs::path(p) / kVectorManifestName);
    for (const std::string& f : files) items.push_back(CheckItem{.path = f, .listed = manifest});
    if (manifest) items.push_back(CheckItem{.kind = CheckItem::Kind::Manifest, .path = p});
  }
  const unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  run_items(items, jobs, o, global, t);
  std::string counted;
  for (const auto& [unit, n] : t.counts) counted += fmt::format(", {} {}", n, unit);
  std::cout << fmt::format("tmu check: {} files, {} vectors{}: {}\n", t.files, t.vectors, counted,
                           t.failed ? fmt::format("{} vectors differ", t.failed)
                                    : (t.mismatch ? "manifest differs" : (t.bad_input ? "stopped by bad input" : "all match")));
  if (t.bad_input) return kExitBadInput;
  return t.mismatch ? 1 : 0;
}

}  // namespace

void add_vector_commands(CLI::App& app, GlobalOptions& global, Registered& out) {
  auto o = std::make_shared<VectorOptions>();
  auto* gen = app.add_subcommand("vectors", "Generate the engine's test vector files (docs/vector-format.md) and their MANIFEST");
  o->out_opt = gen->add_option(kOutNames, o->output, "Output directory (--output: alias)")->capture_default_str();
  o->level_opt = gen->add_option("--level", o->level, "1: special-value classes crossed; 2: plus random vectors (default 1, "
                                                      "or 2 when -n or --seed is given)");
  o->n_opt = gen->add_option("-n", o->random_vectors, "Level 2: random vectors per file")->capture_default_str();
  o->seed_opt = gen->add_option("--seed", o->seed, "Level 2: regenerate a run byte for byte (default: from the clock, printed)");
  gen->add_flag("--list", o->list, "Only list the files that would be written");
  gen->add_flag("-q,--quiet", o->quiet, "No summary line");
  add_engine_selection(gen, global);
  auto engine_options = std::make_shared<EngineOptionSet>(gen, [](const Engine& e) {
    return e.vectors() ? e.vectors()->vector_options() : std::vector<EngineOption>{};
  });
  out.emplace_back(gen, [o, engine_options, &global] { return cmd_vectors(*o, *engine_options, global); });

  auto c = std::make_shared<CheckOptions>();
  auto* check = app.add_subcommand("check", "Replay vector files (or directories of them, of any engines) against the models");
  check->add_option("files", c->paths, "Vector files or directories (a directory's MANIFEST is verified too)")->required();
  c->poison_opt = check->add_option("--poison", c->poison_seed,
                                    "Start each vector from random state instead of reset (seeded): proves init lists every "
                                    "location read");
  check->add_option("--max-diffs", c->max_diffs, "Differences shown per vector")->capture_default_str();
  check->add_option("-j,--jobs", c->jobs, "Files replayed at once (default: one per core); the output is that of a serial run");
  add_engine_selection(check, global);  // optional: every file names its engine
  out.emplace_back(check, [c, &global] { return cmd_check(*c, global); });
}

}  // namespace tmu::cli

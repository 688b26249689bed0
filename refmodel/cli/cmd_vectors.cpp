// tmu vectors (generate vector files and their manifest) and tmu check (replay vector files against
// the model). The work is in tmu/vectors.h; this file is options, files and messages.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "commands.h"
#include "options.h"
#include "tmu/error.h"
#include "tmu/rng.h"
#include "tmu/vectors.h"

namespace tmu::cli {

namespace {

namespace fs = std::filesystem;
namespace tv = tmu::vectors;

// The checked-in corpus (vectors/corpus/README.md): tv::plan_corpus_files() for both architectures,
// one level-1 vector and one random vector per file, from a fixed seed.
constexpr unsigned kCorpusLevel1Limit = 1;
constexpr unsigned kCorpusRandomVectors = 1;
constexpr uint64_t kCorpusSeed = 20240601;

struct VectorOptions {
  std::string output = "vectors-out";
  std::vector<std::string> families, formats;
  std::vector<int> phases, dst_bits;
  unsigned level = 1, random_vectors = 16, level1_limit = 0;
  uint64_t seed = 0;
  bool corpus = false, list = false, quiet = false;
  CLI::Option* level_opt = nullptr;
  CLI::Option* n_opt = nullptr;
  CLI::Option* seed_opt = nullptr;
};

bool write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

struct RunTotals {
  uint64_t vectors = 0, cases = 0;
  double generate_cpu_seconds = 0;
};

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// Generates `files` into out/prefix, adding their manifest lines (paths relative to out).
bool generate_set(const std::vector<tv::FileSpec>& files, const tv::GenerateOptions& gen, const fs::path& out,
                  const std::string& prefix, std::vector<tv::ManifestEntry>& manifest, RunTotals& totals) {
  for (const tv::FileSpec& spec : files) {
    const double t0 = cpu_seconds();
    const tv::VectorFile file = tv::generate_file(spec, gen);
    const std::string text = tv::format_vector_file(file);
    totals.generate_cpu_seconds += cpu_seconds() - t0;
    const std::string rel = prefix + spec.relative_path();
    tv::ManifestEntry e{rel, file.vectors.size(), 0, tv::sha256_hex(text)};
    for (const tv::Vector& v : file.vectors) e.element_cases += tv::element_cases(v);
    if (!write_file(out / rel, text)) {
      std::cerr << fmt::format("tmu vectors: cannot write {}\n", (out / rel).string());
      return false;
    }
    totals.vectors += e.vectors;
    totals.cases += e.element_cases;
    manifest.push_back(std::move(e));
  }
  return true;
}

int cmd_vectors(VectorOptions& o, Arch arch) {
  tv::GenerateOptions gen;
  gen.arch = arch;
  // The corpus is both architectures, each in its own directory.
  std::vector<std::pair<Arch, std::vector<tv::FileSpec>>> sets;
  if (o.corpus) {
    if (!o.families.empty() || !o.formats.empty() || !o.phases.empty() || !o.dst_bits.empty() || o.level_opt->count() ||
        o.n_opt->count() || o.seed_opt->count() || o.level1_limit) {
      std::cerr << "tmu vectors: --corpus fixes the selection, level, -n, --seed and --level1-limit; give only -o\n";
      return kExitBadInput;
    }
    gen.level = 2;
    gen.random_vectors = kCorpusRandomVectors;
    gen.seed = kCorpusSeed;
    gen.level1_limit = kCorpusLevel1Limit;
    for (Arch a : {Arch::Blackhole, Arch::Wormhole}) sets.emplace_back(a, tv::plan_corpus_files(a));
  } else {
    // -n or --seed alone ask for random vectors: level 2.
    gen.level = o.level_opt->count() ? o.level : ((o.n_opt->count() || o.seed_opt->count()) ? 2 : 1);
    if (gen.level < 1 || gen.level > 2) {
      std::cerr << fmt::format("tmu vectors: --level {} is not 1 or 2\n", gen.level);
      return kExitBadInput;
    }
    gen.random_vectors = o.random_vectors;
    gen.level1_limit = o.level1_limit;
    gen.seed = o.seed_opt->count() ? o.seed : clock_seed();
    try {
      sets.emplace_back(arch, tv::plan_files(tv::FileFilter{o.families, o.formats, o.phases, o.dst_bits}));
    } catch (const tmu::Error& e) {
      std::cerr << "tmu vectors: " << e.what() << "\n";
      return kExitBadInput;
    }
  }
  auto prefix = [&](Arch a) { return o.corpus ? std::string(arch_name(a)) + "/" : std::string(); };
  if (o.list) {
    for (const auto& [a, files] : sets)
      for (const tv::FileSpec& f : files) std::cout << prefix(a) << f.relative_path() << "\n";
    return 0;
  }
  if (gen.level >= 2 && gen.random_vectors)
    std::cerr << fmt::format("tmu vectors: seed {} (replay with --seed {})\n", gen.seed, gen.seed);

  const auto start = std::chrono::steady_clock::now();
  std::vector<tv::ManifestEntry> manifest;
  RunTotals totals;
  size_t file_count = 0;
  for (const auto& [a, files] : sets) {
    gen.arch = a;
    if (!generate_set(files, gen, o.output, prefix(a), manifest, totals)) return kExitBadInput;
    file_count += files.size();
  }
  std::vector<std::string> header;
  if (o.corpus) {
    header.push_back("regenerate: tmu vectors --corpus -o DIR  (both architectures)");
  } else {
    header.push_back(fmt::format("generated by: tmu{} vectors --level {}{}{}", arch == Arch::Blackhole ? "" : " --arch wormhole",
                                 gen.level, gen.level >= 2 ? fmt::format(" -n {} --seed {}", gen.random_vectors, gen.seed) : "",
                                 gen.level1_limit ? fmt::format(" --level1-limit {}", gen.level1_limit) : ""));
    header.push_back(fmt::format("architecture: {}", arch_name(arch)));
  }
  if (!write_file(fs::path(o.output) / tv::kManifestName, tv::format_manifest(manifest, header))) {
    std::cerr << "tmu vectors: cannot write the manifest\n";
    return kExitBadInput;
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = totals.generate_cpu_seconds;
  if (!o.quiet)
    std::cout << fmt::format(
        "tmu vectors: {} files, {} vectors, {} element-cases in {} ({:.2f} s); generation took {:.2f} s of CPU: "
        "{:.2f} M element-cases/s\n",
        file_count, totals.vectors, totals.cases, o.output, total, cpu, cpu > 0 ? totals.cases / cpu / 1e6 : 0.0);
  return 0;
}

// ---- tmu check ----

struct CheckOptions {
  std::vector<std::string> paths;
  uint64_t poison_seed = 0;
  CLI::Option* poison_opt = nullptr;
  unsigned max_diffs = 16;
};

struct CheckTotals {
  uint64_t files = 0, vectors = 0, failed = 0, cases = 0, locations = 0;
  bool bad_input = false, mismatch = false;
};

void check_file(const std::string& path, const CheckOptions& o, CheckTotals& t) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << fmt::format("{}: cannot open file\n", path);
    t.bad_input = true;
    return;
  }
  try {
    const tv::VectorFile file = tv::parse_vector_file(in, path);
    tv::ReplayOptions ro;
    ro.poison = o.poison_opt->count() > 0;
    ro.poison_seed = o.poison_seed;
    ro.max_differences_per_vector = o.max_diffs;
    const tv::ReplayReport r = tv::replay_file(file, path, ro);
    ++t.files;
    t.vectors += r.vectors;
    t.failed += r.failed_vectors;
    t.cases += r.element_cases;
    t.locations += r.locations;
    for (const tv::Difference& d : r.differences)
      std::cout << fmt::format("{}:{}: vector {}: {}\n", path, d.line, d.vector, d.text);
    if (r.failed_vectors) t.mismatch = true;
  } catch (const tv::VectorError& e) {
    std::cerr << e.what() << "\n";
    t.bad_input = true;
  }
}

// A directory with a MANIFEST: every listed file must be there with its vector count and
// SHA-256, and every vector file must be listed.
void check_manifest(const fs::path& dir, CheckTotals& t) {
  const fs::path manifest = dir / tv::kManifestName;
  std::ifstream in(manifest);
  std::vector<std::string> listed;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::string rel, sha;
    uint64_t vectors = 0, cases = 0;
    if (!(ss >> rel >> vectors >> cases >> sha)) {
      std::cerr << fmt::format("{}:{}: malformed manifest line (PATH VECTORS ELEMENT-CASES SHA-256)\n", manifest.string(), number);
      t.bad_input = true;
      continue;
    }
    listed.push_back(rel);
    std::ifstream f(dir / rel, std::ios::binary);
    if (!f) {
      std::cout << fmt::format("{}:{}: {} is listed but missing\n", manifest.string(), number, rel);
      t.mismatch = true;
      continue;
    }
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const std::string actual = tv::sha256_hex(text);
    if (actual != sha) {
      std::cout << fmt::format("{}:{}: {}: SHA-256 {} does not match the manifest's {}\n", manifest.string(), number, rel, actual, sha);
      t.mismatch = true;
    }
  }
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != tv::kFileExtension) continue;
    const std::string rel = fs::relative(entry.path(), dir).generic_string();
    if (std::find(listed.begin(), listed.end(), rel) == listed.end()) {
      std::cout << fmt::format("{}: {} is not listed in the manifest\n", manifest.string(), rel);
      t.mismatch = true;
    }
  }
}

int cmd_check(const CheckOptions& o) {
  CheckTotals t;
  for (const std::string& p : o.paths) {
    if (fs::is_directory(p)) {
      std::vector<std::string> files;
      for (const auto& entry : fs::recursive_directory_iterator(p))
        if (entry.path().extension() == tv::kFileExtension) files.push_back(entry.path().string());
      std::sort(files.begin(), files.end());
      if (files.empty()) {
        std::cerr << fmt::format("{}: no {} files in this directory\n", p, tv::kFileExtension);
        t.bad_input = true;
      }
      for (const std::string& f : files) check_file(f, o, t);
      if (fs::exists(fs::path(p) / tv::kManifestName)) check_manifest(p, t);
    } else {
      check_file(p, o, t);
    }
  }
  std::cout << fmt::format("tmu check: {} files, {} vectors, {} element-cases, {} locations: {}\n", t.files, t.vectors,
                           t.cases, t.locations,
                           t.failed ? fmt::format("{} vectors differ", t.failed)
                                    : (t.mismatch ? "manifest differs" : (t.bad_input ? "stopped by bad input" : "all match")));
  if (t.bad_input) return kExitBadInput;
  return t.mismatch ? 1 : 0;
}

}  // namespace

void add_vector_commands(CLI::App& app, GlobalOptions& global, Registered& out) {
  auto o = std::make_shared<VectorOptions>();
  auto* gen = app.add_subcommand("vectors", "Generate test vector files (docs/vector-format.md) and their MANIFEST");
  gen->add_option(kOutNames, o->output, "Output directory (--output: alias)")->capture_default_str();
  gen->add_option(kFamilyNames, o->families,
                  "Families, comma-separated: mvmul elwmul elwadd elwsub gmpool mov zeroacc src rwc shift legacy gpr "
                  "(--ops: alias)")
      ->delimiter(',');
  gen->add_option(kFormatNames, o->formats, "Data formats, comma-separated: bf16 fp16 tf32 int8 (--formats: alias)")
      ->delimiter(',');
  gen->add_option(kFidelityNames, o->phases,
                  std::string("Only files whose vectors run this fidelity phase, comma-separated: ") + kFidelitySpellings +
                      " (--phase: alias)")
      ->delimiter(',')
      ->transform(fidelity_names());
  gen->add_option("--dst", o->dst_bits, "Dst modes, comma-separated: 16 32")->delimiter(',');
  o->level_opt = gen->add_option("--level", o->level, "1: special-value classes crossed; 2: plus random vectors (default 1, "
                                                      "or 2 when -n or --seed is given)");
  o->n_opt = gen->add_option("-n", o->random_vectors, "Level 2: random vectors per file")->capture_default_str();
  o->seed_opt = gen->add_option("--seed", o->seed, "Level 2: regenerate a run byte for byte (default: from the clock, printed)");
  gen->add_option("--level1-limit", o->level1_limit, "At most this many level-1 vectors per file, evenly spread (0: all)");
  gen->add_flag("--corpus", o->corpus, "The settings of the checked-in corpus (vectors/corpus/README.md)");
  gen->add_flag("--list", o->list, "Only list the files that would be written");
  gen->add_flag("-q,--quiet", o->quiet, "No summary line");
  add_arch_option(gen, global);
  out.emplace_back(gen, [o, &global] {
    if (global.engine() != Engine::Tensix) {
      EngineVectorArgs a;
      a.output = o->output;
      a.level = o->level;
      a.random_vectors = o->random_vectors;
      a.seed = o->seed;
      a.level_given = o->level_opt->count() > 0;
      a.n_given = o->n_opt->count() > 0;
      a.seed_given = o->seed_opt->count() > 0;
      a.list = o->list;
      a.quiet = o->quiet;
      if (!o->families.empty()) a.tensix_option = "--family";
      else if (!o->formats.empty()) a.tensix_option = "--format";
      else if (!o->phases.empty()) a.tensix_option = "--fidelity";
      else if (!o->dst_bits.empty()) a.tensix_option = "--dst";
      else if (o->level1_limit) a.tensix_option = "--level1-limit";
      else if (o->corpus) a.tensix_option = "--corpus";
      return global.engine() == Engine::Amx ? amx_vectors(a, global) : pto_vectors(a, global);
    }
    return cmd_vectors(*o, global.arch());
  });

  auto c = std::make_shared<CheckOptions>();
  auto* check = app.add_subcommand("check", "Replay vector files (or directories of them) against the model");
  check->add_option("files", c->paths, "Vector files or directories (a directory's MANIFEST is verified too)")->required();
  c->poison_opt = check->add_option("--poison", c->poison_seed,
                                    "Start each vector from random state instead of reset (seeded): proves init lists every "
                                    "location read");
  check->add_option("--max-diffs", c->max_diffs, "Differences shown per vector")->capture_default_str();
  add_arch_option(check, global);  // accepted for uniformity; vector files name their architecture
  out.emplace_back(check, [c, &global] {
    if (global.engine() == Engine::Amx)
      return amx_check(c->paths, c->poison_opt->count() ? &c->poison_seed : nullptr, c->max_diffs, global);
    if (global.engine() == Engine::Pto) {
      if (c->poison_opt->count()) {
        std::cerr << "tmu check: --poison: a PTO vector gives every element of every tile it reads; there is no "
                     "state left to poison\n";
        return kExitBadInput;
      }
      return pto_check(c->paths, c->max_diffs, global);
    }
    return cmd_check(*c);
  });
}

}  // namespace tmu::cli

// The generated set of files, one generation run per file, and the manifest.
#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gen.h"
#include "tmu/error.h"

namespace tmu::tensix::vectors {

namespace {

using namespace detail;

const std::vector<FileSpec>& all_files() {
  static const std::vector<FileSpec> files = [] {
    std::vector<FileSpec> out;
    plan_matrix_files(out);
    plan_gmpool_files(out);
    plan_mov_files(out);
    plan_housekeeping_files(out);
    plan_gpr_files(out);
    plan_l1_files(out);
    plan_l1_insn_files(out);
    return out;
  }();
  return files;
}

// INT8 ELWADD/ELWSUB have only phase 0 (the integer add neither slices nor scales).
bool is_single_phase(const FileSpec& s) { return s.format == "int8" && (s.family == "elwadd" || s.family == "elwsub"); }

template <typename T>
bool selected(const std::vector<T>& wanted, const T& value) {
  return wanted.empty() || std::find(wanted.begin(), wanted.end(), value) != wanted.end();
}

std::unique_ptr<FileGenerator> make_generator(const FileSpec& spec, Arch arch) {
  const std::string& f = spec.family;
  if (f == "mvmul" || f == "elwmul" || f == "elwadd" || f == "elwsub") return make_matrix_generator(spec, arch);
  if (f == "gmpool") return make_gmpool_generator(spec, arch);
  if (f == "mov") return make_mov_generator(spec, arch);
  if (f == "gpr") return make_gpr_generator(spec, arch);
  if (f == "l1") return make_l1_generator(spec, arch);
  if (f == "unpacr" || f == "pacr") return make_l1_insn_generator(spec, arch);
  return make_housekeeping_generator(spec, arch);
}

std::string regenerate_command(const FileSpec& spec, const GenerateOptions& o) {
  std::string cmd = "tmu";
  if (o.arch != Arch::Blackhole) cmd += fmt::format(" --arch {}", arch_name(o.arch));
  cmd += fmt::format(" vectors --family {}", spec.family);
  if (!spec.format.empty()) cmd += " --format " + spec.format;
  if (spec.phase >= 0) cmd += fmt::format(" --phase {}", spec.phase);
  if (spec.dst_bits) cmd += fmt::format(" --dst {}", spec.dst_bits);
  cmd += fmt::format(" --level {}", o.level);
  if (o.level >= 2) cmd += fmt::format(" -n {} --seed {}", o.random_vectors, o.seed);
  if (o.level1_limit) cmd += fmt::format(" --level1-limit {}", o.level1_limit);
  return cmd;
}

}  // namespace

std::vector<std::string> family_names() {
  return {"mvmul", "elwmul", "elwadd", "elwsub", "gmpool", "mov", "zeroacc", "src", "rwc", "shift", "legacy", "gpr", "l1", "unpacr", "pacr"};
}

std::vector<FileSpec> plan_files(const FileFilter& filter) {
  const auto families = family_names();
  for (const std::string& f : filter.families)
    if (std::find(families.begin(), families.end(), f) == families.end())
      throw Error(ErrorKind::BadInput, fmt::format("unknown family '{}' ({})", f, fmt::join(families, " ")));
  for (const std::string& f : filter.formats) {
    Fmt parsed;
    if (!parse_fmt(f, &parsed)) throw Error(ErrorKind::BadInput, fmt::format("unknown data format '{}' (bf16 fp16 tf32 int8)", f));
  }
  for (int p : filter.phases)
    if (p < 0 || p > 3) throw Error(ErrorKind::BadInput, fmt::format("fidelity phase {} is not 0..3", p));
  for (int d : filter.dst_bits)
    if (d != 16 && d != 32) throw Error(ErrorKind::BadInput, fmt::format("Dst mode {} is neither 16 nor 32", d));

  // A filter on an axis keeps only files that have that axis.
  std::vector<FileSpec> out;
  for (const FileSpec& s : all_files()) {
    if (!selected(filter.families, s.family)) continue;
    if (!filter.formats.empty() && (s.format.empty() || !selected(filter.formats, s.format))) continue;
    if (!filter.phases.empty() && (s.phase < 0 || !selected(filter.phases, s.phase))) continue;
    if (!filter.dst_bits.empty() && (s.dst_bits == 0 || !selected(filter.dst_bits, s.dst_bits))) continue;
    out.push_back(s);
  }
  return out;
}

std::vector<FileSpec> plan_corpus_files(Arch arch) {
  // Each (family, format, Dst mode, option) combination keeps one fidelity phase, rotating through
  // 0..3 in plan order so that every family and format still meets every phase; Wormhole keeps
  // every fourth of those files of each family.
  std::vector<FileSpec> out;
  std::vector<std::string> combinations;
  std::map<std::string, unsigned> kept;
  for (const FileSpec& s : all_files()) {
    if (s.phase >= 0 && !is_single_phase(s)) {
      const std::string key = fmt::format("{}/{}/{}/{}", s.family, s.format, s.dst_bits, s.option);
      auto it = std::find(combinations.begin(), combinations.end(), key);
      if (it == combinations.end()) it = combinations.insert(combinations.end(), key);
      if (static_cast<size_t>(s.phase) != static_cast<size_t>(it - combinations.begin()) % 4) continue;
    }
    if (arch == Arch::Wormhole && kept[s.family]++ % 4 != 0) continue;
    out.push_back(s);
  }
  return out;
}

uint64_t file_seed(uint64_t run_seed, const FileSpec& spec) {
  return derive_seed(run_seed, spec.relative_path());
}

VectorFile generate_file(const FileSpec& spec, const GenerateOptions& o) {
  const auto gen = make_generator(spec, o.arch);
  VectorFile file;
  file.arch = o.arch;
  const size_t total = gen->level1_count();
  const size_t chosen = (o.level1_limit && o.level1_limit < total) ? o.level1_limit : total;
  const size_t randoms = o.level >= 2 ? o.random_vectors : 0;

  file.header.push_back("tmu test vectors (format: docs/vector-format.md)");
  for (std::string& line : gen->describe()) file.header.push_back(std::move(line));
  std::string levels = chosen == total ? fmt::format("level 1: {} special-value vectors", total)
                                       : fmt::format("level 1: {} of {} special-value vectors, evenly spread", chosen, total);
  if (randoms) levels += fmt::format("; level 2: {} random vectors, seed {} (file seed {:#018x})", randoms, o.seed, file_seed(o.seed, spec));
  file.header.push_back(levels);
  file.header.push_back(fmt::format("regenerate: {}  (this is {})", regenerate_command(spec, o), spec.relative_path()));

  file.vectors.reserve(chosen + randoms);
  for (size_t k = 0; k < chosen; ++k) {
    const size_t index = (2 * k + 1) * total / (2 * chosen);  // midpoints of `chosen` equal parts
    Vector v = gen->level1(index);
    v.name = fmt::format("{}/l1/{:04}", spec.stem, index);
    file.vectors.push_back(std::move(v));
  }
  Rng rng(file_seed(o.seed, spec));
  for (size_t k = 0; k < randoms; ++k) {
    Vector v = gen->random(rng);
    v.name = fmt::format("{}/l2/{:04}", spec.stem, k);
    file.vectors.push_back(std::move(v));
  }
  return file;
}

}  // namespace tmu::tensix::vectors

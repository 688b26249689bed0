// `tmu vectors` and `tmu check` for the engines whose vector files each engine writes and reads
// itself (amx, pto): the level, seed and output handling of generation, and the list of files a
// check reads. The engine supplies its generator and writer.
#pragma once

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.h"
#include "tmu/program_error.h"
#include "tmu/rng.h"

namespace tmu::cli {

// Level 1 unless -n or --seed asks for random vectors; the seed printed whenever one is used.
// GenOptions has level, random and seed; generate(GenOptions) returns files with .path and .file
// (whose .vectors is counted); write(std::ostream&, file) writes one.
template <class GenOptions, class Generate, class Write>
int write_engine_vectors(const EngineVectorArgs& args, Generate generate, Write write) {
  GenOptions gen;
  gen.level = args.level_given ? args.level : ((args.n_given || args.seed_given) ? 2 : 1);
  if (gen.level < 1 || gen.level > 2) {
    std::cerr << fmt::format("tmu vectors: --level {} is not 1 or 2\n", gen.level);
    return kExitBadInput;
  }
  gen.random = args.random_vectors;
  gen.seed = args.seed_given ? args.seed : tmu::clock_seed();
  if (gen.level >= 2 && !args.list)
    std::cerr << fmt::format("tmu vectors: seed {} (replay with --seed {})\n", gen.seed, gen.seed);
  const auto files = generate(gen);
  size_t vectors = 0;
  for (const auto& f : files) {
    if (args.list) {
      std::cout << f.path << "\n";
      continue;
    }
    const std::filesystem::path path = std::filesystem::path(args.output) / f.path;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    write(out, f.file);
    if (!out) {
      std::cerr << fmt::format("tmu vectors: {}: cannot write\n", path.string());
      return kExitBadInput;
    }
    vectors += f.file.vectors.size();
  }
  if (!args.list && !args.quiet)
    std::cout << fmt::format("tmu vectors: {} files, {} vectors in {}\n", files.size(), vectors, args.output);
  return 0;
}

// The files `tmu check` reads: each directory's .tmv files (recursively, sorted), other paths as
// given. nullopt, with the reason on stderr, for a directory without any.
inline std::optional<std::vector<std::string>> vector_file_paths(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(p, ec)) {
      files.push_back(p);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& e : std::filesystem::recursive_directory_iterator(p))
      if (e.is_regular_file() && e.path().extension() == ".tmv") found.push_back(e.path().string());
    if (found.empty()) {
      std::cerr << fmt::format("tmu check: {}: no .tmv files in this directory\n", p);
      return std::nullopt;
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

// Reads and replays every file `paths` names (vector_file_paths), printing each difference and a
// summary line; exit status 0 when all match, 1 when a vector differs, 2 for a missing or malformed
// file. replay_file(std::istream&, path, diffs) reads one file and replays it, returning its counts;
// `unit` names what `units` counts ("Z rows", "dst elements").
struct EngineReplay {
  uint64_t vectors = 0, failed = 0, units = 0;
};
template <class ReplayFile>
int check_engine_files(const std::vector<std::string>& paths, const char* unit, ReplayFile replay_file) {
  const auto files = vector_file_paths(paths);
  if (!files) return kExitBadInput;
  EngineReplay total;
  try {
    for (const std::string& path : *files) {
      std::ifstream in(path, std::ios::binary);
      if (!in) {
        std::cerr << fmt::format("tmu check: {}: cannot open file\n", path);
        return kExitBadInput;
      }
      std::vector<std::string> diffs;
      const EngineReplay c = replay_file(in, path, diffs);
      for (const std::string& d : diffs) std::cout << d << "\n";
      total.vectors += c.vectors;
      total.failed += c.failed;
      total.units += c.units;
    }
  } catch (const tmu::ProgramError& e) {
    std::cerr << e.what() << "\n";
    return kExitBadInput;
  }
  std::cout << fmt::format("tmu check: {} files, {} vectors, {} {}: {}\n", files->size(), total.vectors, total.units,
                           unit, total.failed ? fmt::format("{} vectors differ", total.failed) : std::string("all match"));
  return total.failed ? 1 : 0;
}

}  // namespace tmu::cli

// tmu --engine pto run / vectors / check: PTO programs and vector files.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "engine_vectors.h"
#include "tmu/error.h"
#include "tmu/program_error.h"
#include "tmu/pto/cycles.h"
#include "tmu/pto/program.h"
#include "tmu/pto/vectors.h"
#include "tmu/rng.h"

namespace tmu::cli {

namespace {

tmu::pto::Profile pto_profile(const GlobalOptions& global) {
  global.require(Engine::Pto, "this command");
  const auto p = tmu::pto::profile_from_name(global.pto_profile_name);
  if (!p) throw CLI::ValidationError("--profile", "unknown profile '" + global.pto_profile_name + "' (cpusim or a2a3)");
  return *p;
}

// A tile as the program sees it: rows of element patterns and values by (row, column), whatever
// the layout; the lanes outside the valid region included.
nlohmann::ordered_json tile_json(const tmu::pto::Tile& t) {
  nlohmann::ordered_json j;
  j["type"] = tmu::pto::elem_name(t.type);
  j["shape"] = {t.rows, t.cols};
  j["layout"] = tmu::pto::layout_name(t.layout);
  j["valid"] = {t.valid_rows, t.valid_cols};
  nlohmann::ordered_json bits = nlohmann::ordered_json::array(), values = nlohmann::ordered_json::array();
  const unsigned digits = tmu::pto::width_bytes(t.type) * 2;
  for (unsigned r = 0; r < t.rows; ++r) {
    nlohmann::ordered_json brow = nlohmann::ordered_json::array(), vrow = nlohmann::ordered_json::array();
    for (unsigned c = 0; c < t.cols; ++c) {
      brow.push_back(fmt::format("{:#0{}x}", t.at(r, c), digits + 2));
      vrow.push_back(tmu::pto::lane_to_text(t.type, t.at(r, c)));
    }
    bits.push_back(std::move(brow));
    values.push_back(std::move(vrow));
  }
  j["bits"] = std::move(bits);
  j["values"] = std::move(values);
  return j;
}

// Each operation with the A2/A3 cost model's estimate of it (whatever the profile: the estimate is
// of the A2/A3 implementation), or the reason there is none; and the total over those estimated.
nlohmann::ordered_json cycles_json(const tmu::pto::ProgramRun& run) {
  nlohmann::ordered_json ops = nlohmann::ordered_json::array();
  uint64_t total = 0;
  unsigned estimated = 0;
  for (size_t i = 0; i < run.steps.size(); ++i) {
    const std::vector<tmu::pto::Tile>& t = run.operands[i];
    std::vector<const tmu::pto::Tile*> srcs;
    for (size_t k = 0; k + 1 < t.size(); ++k) srcs.push_back(&t[k]);
    nlohmann::ordered_json op;
    op["line"] = run.steps[i].line;
    op["operation"] = tmu::pto::step_text(run.steps[i]);
    try {
      const tmu::pto::CycleEstimate e = tmu::pto::a2a3_cycles(run.steps[i].op, t.back(), srcs, run.steps[i].params);
      op["cycles"] = e.cycles;
      nlohmann::ordered_json calls = nlohmann::ordered_json::array();
      for (const tmu::pto::CycleStep& c : e.steps) calls.push_back({{"call", c.call}, {"repeats", c.repeats}, {"cycles", c.cycles}});
      op["calls"] = std::move(calls);
      total += e.cycles;
      ++estimated;
    } catch (const tmu::Error& e) {
      op["cycles"] = nullptr;
      op["reason"] = e.what();
    }
    ops.push_back(std::move(op));
  }
  nlohmann::ordered_json j;
  j["model"] = "A2/A3 cost model (pto-isa include/pto/costmodel/a2a3)";
  j["total"] = total;
  j["estimated"] = estimated;
  j["operations"] = std::move(ops);
  return j;
}

}  // namespace

int pto_run(const std::string& path, const GlobalOptions& global, const std::vector<std::string>& tiles, bool trace,
            int indent, const std::string& values) {
  tmu::pto::ProgramOptions opts;
  opts.profile = pto_profile(global);
  if (trace) opts.trace = &std::cerr;
  if (!values.empty()) {
    std::cerr << "tmu run: --values: PTO tiles always print their values, in each tile's own element type\n";
    return kExitBadInput;
  }
  std::ifstream in(path);
  if (!in) {
    std::cerr << fmt::format("tmu run: {}: cannot open file\n", path);
    return kExitBadInput;
  }
  try {
    const tmu::pto::ProgramRun run = tmu::pto::run_program(in, path, opts);
    for (const std::string& name : tiles)
      if (std::none_of(run.tiles.begin(), run.tiles.end(), [&](const auto& t) { return t.name == name; })) {
        std::cerr << fmt::format("tmu run: --show: the program declares no tile '{}'\n", name);
        return kExitBadInput;
      }
    nlohmann::ordered_json j;
    j["engine"] = "pto";
    j["profile"] = tmu::pto::profile_name(run.profile);
    j["operations"] = run.steps.size();
    j["a2a3_cycles"] = cycles_json(run);
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const tmu::pto::NamedTile& t : run.tiles)
      if (tiles.empty() || std::find(tiles.begin(), tiles.end(), t.name) != tiles.end()) out[t.name] = tile_json(t.tile);
    j["tiles"] = std::move(out);
    std::cout << j.dump(indent) << "\n";
  } catch (const tmu::ProgramError& e) {
    std::cerr << e.what() << "\n";
    return kExitBadInput;
  } catch (const tmu::Error& e) {
    std::cerr << fmt::format("tmu run: {}: {}\n", path, e.what());
    return kExitBadInput;
  }
  return 0;
}

int pto_vectors(const EngineVectorArgs& args, const GlobalOptions& global) {
  global.require(Engine::Pto, "vectors");
  if (global.pto_profile_given) {
    std::cerr << "tmu vectors: --profile: the pto engine writes the files of both profiles, each naming its own\n";
    return kExitBadInput;
  }
  if (!args.tensix_option.empty()) {
    std::cerr << fmt::format("tmu vectors: {} selects Tensix files; the pto engine writes every PTO file\n",
                             args.tensix_option);
    return kExitBadInput;
  }
  return write_engine_vectors<tmu::pto::GenOptions>(
      args, tmu::pto::generate_vectors,
      [](std::ostream& out, const tmu::pto::VectorFile& f) { tmu::pto::write_vector_file(out, f); });
}

int pto_check(const std::vector<std::string>& paths, unsigned max_diffs, const GlobalOptions& global) {
  global.require(Engine::Pto, "check");
  return check_engine_files(paths, "dst elements", [&](std::istream& in, const std::string& path,
                                                       std::vector<std::string>& diffs) {
    const tmu::pto::ReplayCounts c = tmu::pto::replay(tmu::pto::read_vector_file(in, path), path, diffs, max_diffs);
    return EngineReplay{c.vectors, c.failed, c.lanes};
  });
}

}  // namespace tmu::cli

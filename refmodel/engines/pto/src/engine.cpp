// PTO elementwise tile operations behind the engine interface: programs with their tiles and the A2/A3
// cost model's estimate as JSON, the vector files of vectors.h and their replay, and the generic
// scoreboard. PTO has no instruction words.
#include <algorithm>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "profile_rules.h"
#include "tmu/engine.h"
#include "tmu/engine_vectors.h"
#include "tmu/error.h"
#include "tmu/pto/cycles.h"
#include "tmu/pto/program.h"
#include "tmu/pto/scoreboard.h"
#include "tmu/pto/text.h"
#include "tmu/pto/vectors.h"

namespace tmu {

namespace {

Error bad(std::string text) { return Error(ErrorKind::BadInput, std::move(text)); }

pto::Profile profile_of(const std::string& variant) {
  const auto p = pto::profile_from_name(variant);
  if (!p) throw bad(fmt::format("unknown profile '{}' ({})", variant, pto::profile_names(", ")));
  return *p;
}

// A tile as the program sees it: rows of element patterns and values by (row, column), whatever
// the layout; the lanes outside the valid region included.
nlohmann::ordered_json tile_json(const pto::Tile& t) {
  nlohmann::ordered_json j;
  j["type"] = pto::elem_name(t.type);
  j["shape"] = {t.rows, t.cols};
  j["layout"] = pto::layout_name(t.layout);
  j["valid"] = {t.valid_rows, t.valid_cols};
  nlohmann::ordered_json bits = nlohmann::ordered_json::array(), values = nlohmann::ordered_json::array();
  const unsigned digits = pto::width_bytes(t.type) * 2;
  for (unsigned r = 0; r < t.rows; ++r) {
    nlohmann::ordered_json brow = nlohmann::ordered_json::array(), vrow = nlohmann::ordered_json::array();
    for (unsigned c = 0; c < t.cols; ++c) {
      brow.push_back(fmt::format("{:#0{}x}", t.at(r, c), digits + 2));
      vrow.push_back(pto::lane_to_text(t.type, t.at(r, c)));
    }
    bits.push_back(std::move(brow));
    values.push_back(std::move(vrow));
  }
  j["bits"] = std::move(bits);
  j["values"] = std::move(values);
  return j;
}

// Each operation with a cost model's estimate of it (A2/A3's whatever the profile: the estimate is
// of the A2/A3 implementation; A5's under --profile a5), or the reason there is none; and the total
// over those estimated.
using Estimator = pto::CycleEstimate (*)(pto::Op, const pto::Tile&, std::span<const pto::Tile* const>,
                                         const pto::OpParams&);
nlohmann::ordered_json cycles_json(const pto::ProgramRun& run, Estimator estimate, const char* model) {
  nlohmann::ordered_json ops = nlohmann::ordered_json::array();
  uint64_t total = 0;
  unsigned estimated = 0;
  for (size_t i = 0; i < run.steps.size(); ++i) {
    const std::vector<pto::Tile>& t = run.operands[i];
    std::vector<const pto::Tile*> srcs;
    for (size_t k = 0; k + 1 < t.size(); ++k) srcs.push_back(&t[k]);
    nlohmann::ordered_json op;
    op["line"] = run.steps[i].line;
    op["operation"] = pto::step_text(run.steps[i]);
    try {
      const pto::CycleEstimate e = estimate(run.steps[i].op, t.back(), srcs, run.steps[i].params);
      op["cycles"] = e.cycles;
      nlohmann::ordered_json calls = nlohmann::ordered_json::array();
      for (const pto::CycleStep& c : e.steps) calls.push_back({{"call", c.call}, {"repeats", c.repeats}, {"cycles", c.cycles}});
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
  j["model"] = model;
  j["total"] = total;
  j["estimated"] = estimated;
  j["operations"] = std::move(ops);
  return j;
}

class PtoPrograms final : public ProgramRunner {
 public:
  std::string state_parts() const override { return "tile names"; }
  nlohmann::ordered_json run_program(std::istream& in, const std::string& path, const RunRequest& r) const override {
    pto::ProgramOptions opts;
    opts.profile = profile_of(r.variant);
    opts.trace = r.trace;
    if (!r.values.empty()) throw bad("--values: PTO tiles always print their values, in each tile's own element type");
    const pto::ProgramRun run = pto::run_program(in, path, opts);
    for (const std::string& name : r.parts)
      if (std::none_of(run.tiles.begin(), run.tiles.end(), [&](const auto& t) { return t.name == name; }))
        throw bad(fmt::format("--show: the program declares no tile '{}'", name));
    nlohmann::ordered_json j;
    j["engine"] = "pto";
    j["profile"] = pto::profile_name(run.profile);
    j["operations"] = run.steps.size();
    // A float tile on either side (TCVT) of a step rests on a5-ieee, except TAND and TOR's raw bits.
    bool assumed = false;
    for (size_t i = 0; i < run.steps.size() && i < run.operands.size(); ++i)
      assumed = assumed || (run.steps[i].op != pto::Op::TAND && run.steps[i].op != pto::Op::TOR &&
                            std::any_of(run.operands[i].begin(), run.operands[i].end(),
                                        [](const pto::Tile& t) { return pto::is_float(t.type); }));
    const pto::detail::ProfileRules& rules = pto::detail::rules(run.profile);
    if (rules.assumption != nullptr && run.a5_ieee && assumed) j["assumption"] = rules.assumption;
    j["a2a3_cycles"] = cycles_json(run, &pto::a2a3_cycles, "A2/A3 cost model (pto-isa include/pto/costmodel/a2a3)");
    if (rules.own_cycles != nullptr)
      j[fmt::format("{}_cycles", pto::profile_name(run.profile))] =
          cycles_json(run, rules.own_cycles, rules.own_cycles_model);
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const pto::NamedTile& t : run.tiles)
      if (r.parts.empty() || std::find(r.parts.begin(), r.parts.end(), t.name) != r.parts.end()) out[t.name] = tile_json(t.tile);
    j["tiles"] = std::move(out);
    return j;
  }
};

class PtoVectors final : public VectorFiles {
 public:
  GeneratedSet generate_vectors(const VectorRequest& r, const FileSink& sink) const override {
    if (!r.variant.empty()) throw bad("--profile: the pto engine writes the files of every profile, each naming its own");
    pto::GenOptions gen;
    gen.level = r.level;
    gen.random = r.random;
    gen.seed = r.seed;
    return hand_over_vector_files(
        pto::generate_vectors(gen), r, sink, "pto", [](const pto::Vector& v) { return uint64_t{v.expect.rows} * v.expect.cols; },
        [](std::ostream& out, const pto::VectorFile& f) { pto::write_vector_file(out, f); });
  }

  ReplayResult replay_vectors(std::istream& in, const std::string& path, const ReplayRequest& r) const override {
    if (r.poison_seed)
      throw bad("--poison: a PTO vector gives every element of every tile it reads; there is no state left to poison");
    std::vector<std::string> diffs;
    const pto::ReplayCounts c = pto::replay(pto::read_vector_file(in, path), path, diffs, r.max_differences);
    return ReplayResult{c.vectors, c.failed, {{"dst elements", c.lanes}}, std::move(diffs)};
  }
};

class PtoScoreboards final : public ScoreboardFactory {
 public:
  std::unique_ptr<EngineScoreboard> scoreboard(const std::string& variant) const override {
    return pto::make_scoreboard(profile_of(variant));
  }
};

class PtoEngine final : public Engine {
 public:
  std::string name() const override { return "pto"; }
  std::string summary() const override { return "PTO elementwise tile operations"; }
  std::vector<EngineVariant> variants() const override {
    return {{"cpusim", "pto-isa's CPU simulator (the default)"}, {"a2a3", "the A2/A3 NPU sources"},
            {"a5", "the A5 NPU sources (float lanes under the assumption a5-ieee)"}};
  }
  std::string variant_alias() const override { return "--profile"; }

  const ProgramRunner* programs() const override { return &programs_; }
  const VectorFiles* vectors() const override { return &vectors_; }
  const ScoreboardFactory* scoreboards() const override { return &scoreboards_; }

 private:
  PtoPrograms programs_;
  PtoVectors vectors_;
  PtoScoreboards scoreboards_;
};

}  // namespace

std::unique_ptr<Engine> make_pto_engine() { return std::make_unique<PtoEngine>(); }

}  // namespace tmu

// Apple AMX matfp behind the engine interface: 64-bit operands (dis, asm), programs with X, Y, Z and
// the GPRs as JSON, the vector files of vectors.h and their replay, and the generic scoreboard.
#include <algorithm>
#include <charconv>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tmu/amx/matfp.h"
#include "tmu/amx/program.h"
#include "tmu/amx/scoreboard.h"
#include "tmu/amx/vectors.h"
#include "tmu/engine.h"
#include "tmu/engine_vectors.h"
#include "tmu/error.h"

namespace tmu {

namespace {

Error bad(std::string text) { return Error(ErrorKind::BadInput, std::move(text)); }

uint64_t hex_value(std::string_view text, unsigned bits) {
  std::string_view t = text;
  if (t.starts_with("0x") || t.starts_with("0X")) t.remove_prefix(2);
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 16);
  if (t.empty() || t.size() > bits / 4 || ec != std::errc() || end != t.data() + t.size())
    throw bad(fmt::format("'{}' is not a {}-bit hex value", text, bits));
  return v;
}

// A row as lanes of the chosen type: {"bits": [...]} and, with a typed view, {"values": [...]}.
nlohmann::ordered_json row_json(const amx::Row& row, const amx::LaneType& t, bool values) {
  nlohmann::ordered_json bits = nlohmann::ordered_json::array();
  nlohmann::ordered_json decoded = nlohmann::ordered_json::array();
  for (unsigned i = 0; i < amx::kRowBytes / t.bytes; ++i) {
    const uint64_t b = amx::get_lane(row, t.bytes, i);
    bits.push_back(fmt::format("{:#0{}x}", b, 2 + 2 * t.bytes));
    if (values) decoded.push_back(amx::lane_to_text(t, b));
  }
  nlohmann::ordered_json out;
  out["bits"] = std::move(bits);
  if (values) out["values"] = std::move(decoded);
  return out;
}

bool zero_row(const amx::Row& r) {
  return std::all_of(r.begin(), r.end(), [](uint8_t b) { return b == 0; });
}

class AmxWords final : public WordCodec {
 public:
  std::vector<EngineOption> word_options() const override {
    return {{"--word", "The arguments are 32-bit A64 instruction words (0x00201000 | 21 << 5 | GPR), not 64-bit operands (dis)",
             EngineOption::Kind::Flag, ""}};
  }
  std::string disassemble(std::string_view text, const std::string& variant, const OptionValues& o) const override {
    if (option_value(o, "word")) {
      const auto word = static_cast<uint32_t>(hex_value(text, 32));
      return fmt::format("{:08x}  matfp x{}", word, amx::decode_matfp_word(word));
    }
    const uint64_t operand = hex_value(text, 64);
    return fmt::format("{:016x}  {}", operand, amx::disassemble_matfp(amx::decode_matfp(operand), amx::parse_version(variant)));
  }
  std::string assemble(std::string_view line, const std::string& variant, const OptionValues&) const override {
    return fmt::format("{:#018x}", amx::encode_matfp(amx::assemble_matfp(line, amx::parse_version(variant))));
  }
};

class AmxPrograms final : public ProgramRunner {
 public:
  std::string state_parts() const override { return "x y z gprs"; }
  std::string value_readings() const override { return "every row's lanes as f16, bf16, f32 or f64"; }
  nlohmann::ordered_json run_program(std::istream& in, const std::string& path, const RunRequest& r) const override {
    amx::ProgramOptions opts;
    opts.version = amx::parse_version(r.variant);
    opts.trace = r.trace;
    for (const std::string& p : r.parts)
      if (p != "x" && p != "y" && p != "z" && p != "gprs") throw bad(fmt::format("--show: unknown part '{}' (x y z gprs)", p));
    amx::LaneType view;  // f32-wide raw lanes unless --values names a type
    if (!r.values.empty()) {
      if (r.values != "f16" && r.values != "bf16" && r.values != "f32" && r.values != "f64")
        throw bad(fmt::format("--values {}: amx lanes read as f16, bf16, f32 or f64", r.values));
      view = amx::parse_lane_type(r.values);
    }
    const amx::ProgramRun run = amx::run_program(in, path, opts);
    const auto shown = [&](const char* part) {
      return r.parts.empty() || std::find(r.parts.begin(), r.parts.end(), part) != r.parts.end();
    };
    nlohmann::ordered_json j;
    j["engine"] = "amx";
    j["version"] = amx::version_name(run.version);
    j["instructions"] = run.instructions;
    const bool typed = !r.values.empty();
    for (const char* pool : {"x", "y"}) {
      if (!shown(pool)) continue;
      nlohmann::ordered_json regs = nlohmann::ordered_json::object();
      for (unsigned reg = 0; reg < amx::kPoolRegs; ++reg) {
        const amx::Row row = amx::pool_register(pool[0] == 'x' ? run.state.x : run.state.y, reg);
        if (!zero_row(row)) regs[std::to_string(reg)] = row_json(row, view, typed);
      }
      j[pool] = std::move(regs);
    }
    if (shown("z")) {
      nlohmann::ordered_json rows = nlohmann::ordered_json::object();
      for (unsigned z = 0; z < amx::kZRows; ++z)
        if (!zero_row(run.state.z[z])) rows[std::to_string(z)] = row_json(run.state.z[z], view, typed);
      j["z"] = std::move(rows);
    }
    if (shown("gprs")) {
      nlohmann::ordered_json gprs = nlohmann::ordered_json::object();
      for (unsigned g = 0; g < run.gpr.size(); ++g)
        if (run.gpr[g]) gprs[fmt::format("x{}", g)] = fmt::format("{:#018x}", run.gpr[g]);
      j["gprs"] = std::move(gprs);
    }
    return j;
  }
};

class AmxVectors final : public VectorFiles {
 public:
  GeneratedSet generate_vectors(const VectorRequest& r, const FileSink& sink) const override {
    amx::GenOptions gen;
    gen.level = r.level;
    gen.random = r.random;
    gen.seed = r.seed;
    return hand_over_vector_files(
        amx::generate_vectors(gen), r, sink, "amx", [](const amx::Vector& v) { return v.expect.size(); },
        [](std::ostream& out, const amx::VectorFile& f) { amx::write_vector_file(out, f); });
  }

  ReplayResult replay_vectors(std::istream& in, const std::string& path, const ReplayRequest& r) const override {
    std::vector<std::string> diffs;
    const uint64_t poison = r.poison_seed.value_or(0);
    const amx::ReplayCounts c =
        amx::replay(amx::read_vector_file(in, path), path, diffs, r.poison_seed ? &poison : nullptr, r.max_differences);
    return ReplayResult{c.vectors, c.failed, {{"Z rows", c.rows}}, std::move(diffs)};
  }
};

class AmxScoreboards final : public ScoreboardFactory {
 public:
  std::unique_ptr<EngineScoreboard> scoreboard(const std::string& variant) const override {
    return amx::make_scoreboard(amx::parse_version(variant));
  }
};

class AmxEngine final : public Engine {
 public:
  std::string name() const override { return "amx"; }
  std::string summary() const override { return "Apple AMX matfp (M1-M4)"; }
  std::vector<EngineVariant> variants() const override {
    return {{"M1", "M1 (the default)"}, {"M2", "M2: bf16 lane widths"}, {"M3", "M3"}, {"M4", "M4"}};
  }
  std::string variant_alias() const override { return "--amx-version"; }

  const WordCodec* words() const override { return &words_; }
  const ProgramRunner* programs() const override { return &programs_; }
  const VectorFiles* vectors() const override { return &vectors_; }
  const ScoreboardFactory* scoreboards() const override { return &scoreboards_; }

 private:
  AmxWords words_;
  AmxPrograms programs_;
  AmxVectors vectors_;
  AmxScoreboards scoreboards_;
};

}  // namespace

std::unique_ptr<Engine> make_amx_engine() { return std::make_unique<AmxEngine>(); }

}  // namespace tmu

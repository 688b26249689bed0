// tmu --engine amx dis / asm / run: matfp operands and AMX programs.
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
#include "options.h"
#include "tmu/amx/matfp.h"
#include "tmu/amx/program.h"
#include "tmu/amx/vectors.h"
#include "tmu/error.h"
#include "tmu/program_error.h"
#include "tmu/rng.h"

namespace tmu::cli {

namespace {

tmu::amx::Version amx_version(const GlobalOptions& global) {
  global.require(Engine::Amx, "this command");
  try {
    return tmu::amx::parse_version(global.amx_version_name);
  } catch (const tmu::Error& e) {
    throw CLI::ValidationError("--amx-version", e.what());
  }
}

// A row as lanes of the chosen type: {"bits": [...]} and, with a typed view, {"values": [...]}.
nlohmann::ordered_json row_json(const tmu::amx::Row& row, const tmu::amx::LaneType& t, bool values) {
  nlohmann::ordered_json bits = nlohmann::ordered_json::array();
  nlohmann::ordered_json decoded = nlohmann::ordered_json::array();
  for (unsigned i = 0; i < tmu::amx::kRowBytes / t.bytes; ++i) {
    const uint64_t b = tmu::amx::get_lane(row, t.bytes, i);
    bits.push_back(fmt::format("{:#0{}x}", b, 2 + 2 * t.bytes));
    if (values) decoded.push_back(tmu::amx::lane_to_text(t, b));
  }
  nlohmann::ordered_json out;
  out["bits"] = std::move(bits);
  if (values) out["values"] = std::move(decoded);
  return out;
}

bool zero_row(const tmu::amx::Row& r) {
  for (uint8_t b : r)
    if (b) return false;
  return true;
}

}  // namespace

int amx_dis(const std::vector<std::string>& operands, const GlobalOptions& global, bool words) {
  const tmu::amx::Version v = amx_version(global);
  int status = 0;
  for (const std::string& text : operands) {
    try {
      if (words) {
        const auto word = static_cast<uint32_t>(parse_hex(text, 32, "value"));
        std::cout << fmt::format("{:08x}  matfp x{}\n", word, tmu::amx::decode_matfp_word(word));
      } else {
        const uint64_t operand = parse_hex(text, 64, "value");
        std::cout << fmt::format("{:016x}  {}\n", operand,
                                 tmu::amx::disassemble_matfp(tmu::amx::decode_matfp(operand), v));
      }
    } catch (const tmu::Error& e) {
      std::cerr << fmt::format("tmu dis: {}: {}\n", text, e.what());
      status = kExitBadInput;
    }
  }
  return status;
}

int amx_asm(const std::vector<std::string>& lines, const GlobalOptions& global) {
  const tmu::amx::Version v = amx_version(global);
  int status = 0;
  for (const std::string& line : lines) {
    try {
      std::cout << fmt::format("{:#018x}\n", tmu::amx::encode_matfp(tmu::amx::assemble_matfp(line, v)));
    } catch (const tmu::Error& e) {
      std::cerr << fmt::format("tmu asm: \"{}\": {}\n", line, e.what());
      status = kExitBadInput;
    }
  }
  return status;
}

int amx_run(const std::string& path, const GlobalOptions& global, const std::vector<std::string>& parts, bool trace,
            int indent, const std::string& values) {
  tmu::amx::ProgramOptions opts;
  opts.version = amx_version(global);
  if (trace) opts.trace = &std::cerr;
  for (const std::string& p : parts) {
    if (p != "x" && p != "y" && p != "z" && p != "gprs") {
      std::cerr << fmt::format("tmu run: --show: unknown part '{}' for --engine amx (x y z gprs)\n", p);
      return kExitBadInput;
    }
  }
  tmu::amx::LaneType view;  // f32-wide raw lanes unless --values names a type
  if (!values.empty()) {
    if (values != "f16" && values != "bf16" && values != "f32" && values != "f64") {
      std::cerr << fmt::format("tmu run: --values {}: amx lanes read as f16, bf16, f32 or f64\n", values);
      return kExitBadInput;
    }
    view = tmu::amx::parse_lane_type(values);
  }
  std::ifstream in(path);
  if (!in) {
    std::cerr << fmt::format("tmu run: {}: cannot open file\n", path);
    return kExitBadInput;
  }
  try {
    const tmu::amx::ProgramRun run = tmu::amx::run_program(in, path, opts);
    const auto shown = [&](const char* part) {
      return parts.empty() || std::find(parts.begin(), parts.end(), part) != parts.end();
    };
    nlohmann::ordered_json j;
    j["engine"] = "amx";
    j["version"] = tmu::amx::version_name(run.version);
    j["instructions"] = run.instructions;
    const bool typed = !values.empty();
    for (const char* pool : {"x", "y"}) {
      if (!shown(pool)) continue;
      nlohmann::ordered_json regs = nlohmann::ordered_json::object();
      for (unsigned r = 0; r < tmu::amx::kPoolRegs; ++r) {
        const tmu::amx::Row row = tmu::amx::pool_register(pool[0] == 'x' ? run.state.x : run.state.y, r);
        if (!zero_row(row)) regs[std::to_string(r)] = row_json(row, view, typed);
      }
      j[pool] = std::move(regs);
    }
    if (shown("z")) {
      nlohmann::ordered_json rows = nlohmann::ordered_json::object();
      for (unsigned r = 0; r < tmu::amx::kZRows; ++r)
        if (!zero_row(run.state.z[r])) rows[std::to_string(r)] = row_json(run.state.z[r], view, typed);
      j["z"] = std::move(rows);
    }
    if (shown("gprs")) {
      nlohmann::ordered_json gprs = nlohmann::ordered_json::object();
      for (unsigned g = 0; g < run.gpr.size(); ++g)
        if (run.gpr[g]) gprs[fmt::format("x{}", g)] = fmt::format("{:#018x}", run.gpr[g]);
      j["gprs"] = std::move(gprs);
    }
    std::cout << j.dump(indent) << "\n";
  } catch (const tmu::ProgramError& e) {
    std::cerr << e.what() << "\n";
    return kExitBadInput;
  } catch (const tmu::Error& e) {
    std::cerr << e.what() << "\n";
    return kExitBadInput;
  }
  return 0;
}

int amx_vectors(const EngineVectorArgs& args, const GlobalOptions& global) {
  amx_version(global);  // refuses --arch and an unknown version; the files name their generation
  if (!args.tensix_option.empty()) {
    std::cerr << fmt::format("tmu vectors: {} selects Tensix files; the amx engine writes every AMX file\n",
                             args.tensix_option);
    return kExitBadInput;
  }
  return write_engine_vectors<tmu::amx::GenOptions>(
      args, tmu::amx::generate_vectors,
      [](std::ostream& out, const tmu::amx::VectorFile& f) { tmu::amx::write_vector_file(out, f); });
}

int amx_check(const std::vector<std::string>& paths, const uint64_t* poison, unsigned max_diffs,
              const GlobalOptions& global) {
  amx_version(global);
  return check_engine_files(paths, "Z rows", [&](std::istream& in, const std::string& path,
                                                 std::vector<std::string>& diffs) {
    const tmu::amx::ReplayCounts c =
        tmu::amx::replay(tmu::amx::read_vector_file(in, path), path, diffs, poison, max_diffs);
    return EngineReplay{c.vectors, c.failed, c.rows};
  });
}

}  // namespace tmu::cli

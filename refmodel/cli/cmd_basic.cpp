// tmu dis / asm / run / isa: the instruction table, words and programs.
#include <algorithm>
#include <fstream>
#include <optional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.h"
#include "options.h"
#include "tmu/decode.h"
#include "tmu/error.h"
#include "tmu/formats.h"
#include "tmu/program.h"
#include "tmu/state_json.h"

namespace tmu::cli {

namespace {

uint32_t parse_word(const std::string& text) { return static_cast<uint32_t>(parse_hex(text, 32, "word")); }

int cmd_dis(const std::vector<std::string>& words, tmu::Arch arch, bool rotated) {
  int status = 0;
  for (const std::string& w : words) {
    try {
      const uint32_t word = parse_word(w);
      const uint32_t raw = tmu::to_raw(word, rotated ? tmu::WordForm::Rotated : tmu::WordForm::Raw);
      std::cout << fmt::format("{:08x}  {}\n", raw, tmu::disassemble(tmu::decode(raw, arch)));
    } catch (const tmu::Error& e) {
      std::cerr << fmt::format("tmu dis: {}: {}\n", w, e.what());
      status = kExitBadInput;
    }
  }
  return status;
}

int cmd_asm(const std::vector<std::string>& lines, tmu::Arch arch, bool rotated) {
  int status = 0;
  for (const std::string& line : lines) {
    try {
      const uint32_t raw = tmu::encode(tmu::assemble(line, arch));
      std::cout << fmt::format("0x{:08x}\n", rotated ? tmu::from_raw(raw, tmu::WordForm::Rotated) : raw);
    } catch (const tmu::Error& e) {
      std::cerr << fmt::format("tmu asm: \"{}\": {}\n", line, e.what());
      status = kExitBadInput;
    }
  }
  return status;
}

int cmd_isa(tmu::Arch arch) {
  for (const tmu::InsnSpec& spec : tmu::instructions(arch)) {
    std::string fields;
    for (const tmu::FieldSpec& f : spec.fields())
      fields += fmt::format(" {}[{}:{}]", tmu::field_name(f.id), f.lo + f.width - 1, f.lo);
    std::cout << fmt::format("{:<13} 0x{:02x} {:<10}{}  # {}\n", spec.mnemonic, spec.opcode,
                             spec.unit == tmu::Unit::MatrixUnit ? "MatrixUnit" : "ScalarUnit", fields, spec.summary);
  }
  return 0;
}

// --values: how a kernel author reads the Dst rows' bits. The 16-bit rows (Dst16b) hold bf16, fp16 or
// int8; the 32-bit view (Dst32b) holds every float format as FP32 and the integers as INT32.
struct DstReading {
  std::optional<SrcStyle> dst16;  // nullopt: the format has no 16-bit Dst form
  bool dst32_int = false;
};

DstReading dst_reading(const std::string& format) {
  if (format == "bf16") return {SrcStyle::BF16, false};
  if (format == "fp16") return {SrcStyle::FP16, false};
  if (format == "int8") return {SrcStyle::INT8, true};
  return {std::nullopt, format == "int32"};  // tf32, fp32, int32
}

// nlohmann::json keeps object keys sorted as strings, which lists Dst rows as 0, 1, 10, 100, ...; the
// printed document keeps every other key's order and lists the rows of "dst" and "dst32" numerically.
// With a reading, each row also gets "values": its data decoded in that format, exactly.
nlohmann::ordered_json printed_state(const nlohmann::json& state, const TensixState& s, const std::string& values) {
  auto out = nlohmann::ordered_json::parse(state.dump());
  const DstReading reading = dst_reading(values);
  for (const char* part : {"dst", "dst32"}) {
    if (!out.contains(part)) continue;
    const bool wide = std::string_view(part) == "dst32";
    std::vector<std::pair<unsigned, nlohmann::ordered_json>> rows;
    for (auto& [key, row] : out[part].items()) rows.emplace_back(static_cast<unsigned>(std::stoul(key)), row);
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    nlohmann::ordered_json sorted = nlohmann::ordered_json::object();
    for (auto& [r, row] : rows) {
      if (!values.empty()) {
        nlohmann::ordered_json decoded = nlohmann::ordered_json::array();
        for (unsigned c = 0; c < kDstCols; ++c) {
          // The bits as printed (whatever the row's validity); Dst32b[r] = DstBits[hi] << 16 | DstBits[lo].
          const uint32_t bits32 = (uint32_t{s.Dst.DstBits[DstRegs::hi_row(r)][c]} << 16) | s.Dst.DstBits[DstRegs::lo_row(r)][c];
          const double v = wide ? dst32_value(bits32, reading.dst32_int) : dst16_value(s.Dst.DstBits[r][c], *reading.dst16);
          // Integers in full ("-100000", not "-1e+05"); floats as the shortest text that reads back exactly.
          const bool integer = wide ? reading.dst32_int : reading.dst16 == SrcStyle::INT8;
          decoded.push_back(integer ? fmt::format("{}", static_cast<int64_t>(v)) : format_exact_value(v));
        }
        row["values"] = std::move(decoded);
      }
      sorted[std::to_string(r)] = std::move(row);
    }
    out[part] = std::move(sorted);
  }
  return out;
}

int cmd_run(const std::string& path, tmu::Arch arch, const std::vector<std::string>& parts, bool trace, int indent,
            const std::string& values) {
  for (const std::string& p : parts) {
    if (!tmu::is_state_part(p)) {
      std::cerr << fmt::format("tmu run: --show: unknown part '{}' (rwcs gprs config threadconfig banks srca srcb dst dst32)\n", p);
      return kExitBadInput;
    }
  }
  if (values == "f16" || values == "f32" || values == "f64") {
    std::cerr << fmt::format("tmu run: --values {} is an amx lane type; Tensix Dst reads as bf16 fp16 int8 tf32 fp32 int32\n",
                             values);
    return kExitBadInput;
  }
  const bool shows_dst16 = parts.empty() || std::find(parts.begin(), parts.end(), "dst") != parts.end();
  if (!values.empty() && shows_dst16 && !dst_reading(values).dst16) {
    std::cerr << fmt::format("tmu run: --values {}: Dst16b rows hold bf16, fp16 or int8; read {} data in the 32-bit view "
                             "(--show dst32)\n", values, values);
    return kExitBadInput;
  }
  std::ifstream in(path);
  if (!in) {
    std::cerr << fmt::format("tmu run: {}: cannot open file\n", path);
    return kExitBadInput;
  }
  tmu::ProgramOptions opts;
  opts.arch = arch;
  if (trace) opts.trace = &std::cerr;
  try {
    const tmu::ProgramRun run = tmu::run_program(in, path, opts);
    nlohmann::json j = tmu::state_to_json(run.state, parts);
    j["instructions"] = run.instructions;
    j["matrix_unit_cycles"] = run.matrix_unit_cycles;
    j["scalar_unit_cycles"] = run.scalar_unit_cycles;
    std::cout << printed_state(j, run.state, values).dump(indent) << "\n";
  } catch (const tmu::ProgramError& e) {
    std::cerr << e.what() << "\n";
    return kExitBadInput;
  }
  return 0;
}

}  // namespace

void add_basic_commands(CLI::App& app, GlobalOptions& global, Registered& out) {
  struct Options {
    std::vector<std::string> dis_words, asm_lines, run_parts;
    bool dis_rotated = false, dis_word = false, asm_rotated = false, run_trace = false;
    std::string run_path, run_values;
    int run_indent = 1;
  };
  auto o = std::make_shared<Options>();

  auto* dis = app.add_subcommand("dis", "Disassemble instruction words (hex); amx: 64-bit matfp operands");
  dis->add_option("words", o->dis_words, "Instruction words in hex, e.g. 0x10184000")->required();
  dis->add_flag("--rotated", o->dis_rotated, "Words are rotated left by 2, as embedded in kernel binaries");
  add_arch_option(dis, global);
  dis->add_flag("--word", o->dis_word,
                "amx: the arguments are 32-bit A64 instruction words (0x00201000 | 21 << 5 | GPR), not 64-bit operands");
  out.emplace_back(dis, [o, &global] {
    if (global.engine() == Engine::Amx) return amx_dis(o->dis_words, global, o->dis_word);
    global.require(Engine::Tensix, "dis");
    return cmd_dis(o->dis_words, global.arch(), o->dis_rotated);
  });

  auto* as = app.add_subcommand("asm", "Assemble instructions: \"MNEMONIC Field=value ...\"; amx: \"matfp f32 z+=x*y x=0x40 ...\" "
                                       "(docs/program-format.md)");
  as->add_option("instructions", o->asm_lines, "One quoted instruction per argument")->required();
  as->add_flag("--rotated", o->asm_rotated, "Print the rotated-left-by-2 form kernels embed");
  add_arch_option(as, global);
  out.emplace_back(as, [o, &global] {
    if (global.engine() == Engine::Amx) return amx_asm(o->asm_lines, global);
    global.require(Engine::Tensix, "asm");
    return cmd_asm(o->asm_lines, global.arch(), o->asm_rotated);
  });

  auto* isa = app.add_subcommand("isa", "List every instruction of the architecture: opcode, unit, fields [hi:lo]");
  add_arch_option(isa, global);
  out.emplace_back(isa, [&global] {
    global.require(Engine::Tensix, "isa");
    return cmd_isa(global.arch());
  });

  auto* run = app.add_subcommand("run", "Run a program (docs/program-format.md) and print the final state as JSON");
  run->add_option("program", o->run_path, "Program file")->required();
  run->add_option("--show", o->run_parts,
                  "Only these parts: rwcs gprs config threadconfig banks srca srcb dst dst32; amx: x y z gprs; pto: "
                  "tile names")
      ->delimiter(',');
  run->add_option("--values", o->run_values,
                  "Also print each Dst datum as a number (\"values\" beside \"bits\"), read as this format: bf16, fp16 "
                  "or int8 (16-bit rows; in dst32 as FP32 / INT32), tf32, fp32 or int32 (dst32 only); any case. amx: "
                  "the lanes of every row as f16, bf16, f32 or f64")
      ->transform(CLI::IsMember({"bf16", "fp16", "int8", "tf32", "fp32", "int32", "f16", "f32", "f64"}, CLI::ignore_case));
  run->add_flag("--trace", o->run_trace, "Print each retired instruction to stderr");
  run->add_option("--indent", o->run_indent, "JSON indent (-1 for one line)")->capture_default_str();
  add_arch_option(run, global);
  out.emplace_back(run, [o, &global] {
    if (global.engine() == Engine::Amx)
      return amx_run(o->run_path, global, o->run_parts, o->run_trace, o->run_indent, o->run_values);
    if (global.engine() == Engine::Pto)
      return pto_run(o->run_path, global, o->run_parts, o->run_trace, o->run_indent, o->run_values);
    return cmd_run(o->run_path, global.arch(), o->run_parts, o->run_trace, o->run_indent, o->run_values);
  });
}

}  // namespace tmu::cli

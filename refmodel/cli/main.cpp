// tmu: command-line front end of the reference model.
//   tmu dis WORD...            decode instruction words (raw, or --rotated as embedded in kernels)
//   tmu asm "MNEMONIC F=V ..."  encode one instruction
//   tmu run PROGRAM            execute a program and print the final state as JSON
//   tmu isa                    list the instruction table of an architecture
// Exit status: 0 success, 2 bad input (with file:line or word and reason), 1 internal failure.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "tmu/decode.h"
#include "tmu/error.h"
#include "tmu/program.h"
#include "tmu/state_json.h"

namespace {

constexpr int kExitBadInput = 2;

tmu::Arch arch_from_option(const std::string& name) {
  auto a = tmu::parse_arch(name);
  if (!a) throw CLI::ValidationError("--arch", "unknown architecture '" + name + "' (blackhole or wormhole)");
  return *a;
}

uint32_t parse_word(const std::string& text) {
  std::string t = text;
  if (t.rfind("0x", 0) == 0 || t.rfind("0X", 0) == 0) t = t.substr(2);
  if (t.empty() || t.size() > 8 || t.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    throw tmu::Error(tmu::ErrorKind::BadInput, fmt::format("'{}' is not a 32-bit hex word", text));
  return static_cast<uint32_t>(std::stoul(t, nullptr, 16));
}

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

int cmd_run(const std::string& path, tmu::Arch arch, const std::vector<std::string>& parts, bool trace, int indent) {
  for (const std::string& p : parts) {
    if (!tmu::is_state_part(p)) {
      std::cerr << fmt::format("tmu run: --show: unknown part '{}' (rwcs gprs config threadconfig banks srca srcb dst dst32)\n", p);
      return kExitBadInput;
    }
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
    std::cout << j.dump(indent) << "\n";
  } catch (const tmu::ProgramError& e) {
    std::cerr << e.what() << "\n";
    return kExitBadInput;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tmu: verification kit for the Tenstorrent Tensix Matrix Unit (FPU) and Scalar Unit GPR ops"};
  app.require_subcommand(1);
  std::string arch_name = "blackhole";
  app.add_option("--arch", arch_name, "Architecture: blackhole (default) or wormhole")->capture_default_str();

  auto* dis = app.add_subcommand("dis", "Disassemble 32-bit instruction words (hex)");
  std::vector<std::string> dis_words;
  bool dis_rotated = false;
  dis->add_option("words", dis_words, "Instruction words in hex, e.g. 0x10184000")->required();
  dis->add_flag("--rotated", dis_rotated, "Words are rotated left by 2, as embedded in kernel binaries");

  auto* as = app.add_subcommand("asm", "Assemble instructions: \"MNEMONIC Field=value ...\"");
  std::vector<std::string> asm_lines;
  bool asm_rotated = false;
  as->add_option("instructions", asm_lines, "One quoted instruction per argument")->required();
  as->add_flag("--rotated", asm_rotated, "Print the rotated-left-by-2 form kernels embed");

  auto* isa = app.add_subcommand("isa", "List every instruction of the architecture: opcode, unit, fields [hi:lo]");

  auto* run = app.add_subcommand("run", "Run a program (docs/program-format.md) and print the final state as JSON");
  std::string run_path;
  std::vector<std::string> run_parts;
  bool run_trace = false;
  int run_indent = 1;
  run->add_option("program", run_path, "Program file")->required();
  run->add_option("--show", run_parts, "Only these parts: rwcs gprs config threadconfig banks srca srcb dst dst32")
      ->delimiter(',');
  run->add_flag("--trace", run_trace, "Print each retired instruction to stderr");
  run->add_option("--indent", run_indent, "JSON indent (-1 for one line)")->capture_default_str();

  try {
    app.parse(argc, argv);
    const tmu::Arch arch = arch_from_option(arch_name);
    if (*dis) return cmd_dis(dis_words, arch, dis_rotated);
    if (*as) return cmd_asm(asm_lines, arch, asm_rotated);
    if (*isa) return cmd_isa(arch);
    if (*run) return cmd_run(run_path, arch, run_parts, run_trace, run_indent);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "tmu: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

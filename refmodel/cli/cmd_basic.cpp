// tmu dis / asm / run / isa: words and programs, for whichever engine --engine chose.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "options.h"
#include "tmu/error.h"
#include "tmu/program_error.h"

namespace tmu::cli {

namespace {

// The engine must have words for dis, asm and isa.
const WordCodec& word_codec(const GlobalOptions& global, const char* command) {
  const Engine& e = global.engine();
  if (!e.words()) throw CLI::ValidationError(command, "is not a command of --engine " + e.name() + " (it has no instruction words)");
  return *e.words();
}

// Runs `body` on each argument, reporting a refused one on stderr ("tmu dis: ARG: reason") and going on.
int each_argument(const char* command, const std::vector<std::string>& args, const std::function<std::string(const std::string&)>& body,
                  bool quote) {
  int status = 0;
  for (const std::string& a : args) {
    try {
      std::cout << body(a) << "\n";
    } catch (const Error& e) {
      std::cerr << fmt::format("tmu {}: {}: {}\n", command, quote ? "\"" + a + "\"" : a, e.what());
      status = kExitBadInput;
    }
  }
  return status;
}

// The JSON state as lines "path: value" (an array of scalars on one line, its items separated by
// spaces), in the document's order: every engine's state reads compactly the same way.
void print_lines(const nlohmann::ordered_json& j, const std::string& path) {
  const auto scalar = [](const nlohmann::ordered_json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) print_lines(value, path.empty() ? key : path + "." + key);
  } else if (j.is_array() && std::all_of(j.begin(), j.end(), [](const auto& v) { return v.is_primitive(); })) {
    std::string line;
    for (const auto& v : j) line += (line.empty() ? "" : " ") + scalar(v);
    std::cout << path << ": " << line << "\n";
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) print_lines(j[i], path + "." + std::to_string(i));
  } else {
    std::cout << path << ": " << scalar(j) << "\n";
  }
}

int run_program(const GlobalOptions& global, const std::string& path, RunRequest r, bool lines, int indent) {
  const Engine& e = global.engine();
  r.variant = global.variant();
  std::ifstream in(path);
  if (!in) {
    std::cerr << fmt::format("tmu run: {}: cannot open file\n", path);
    return kExitBadInput;
  }
  try {
    const nlohmann::ordered_json state = programs_of(e).run_program(in, path, r);
    if (lines) print_lines(state, "");
    else std::cout << state.dump(indent) << "\n";
  } catch (const ProgramError& err) {
    std::cerr << err.what() << "\n";
    return kExitBadInput;
  } catch (const Error& err) {
    std::cerr << fmt::format("tmu run: {}\n", err.kind() == ErrorKind::BadInput ? err.message() : std::string(err.what()));
    return kExitBadInput;
  }
  return 0;
}

}  // namespace

void add_basic_commands(CLI::App& app, GlobalOptions& global, Registered& out) {
  struct Options {
    std::vector<std::string> dis_words, asm_lines, run_parts;
    bool run_trace = false;
    std::string run_path, run_values, run_format = "json";
    int run_indent = 1;
  };
  auto o = std::make_shared<Options>();
  const auto word_options = [](const Engine& e) { return e.words() ? e.words()->word_options() : std::vector<EngineOption>{}; };

  auto* dis = app.add_subcommand("dis", "Disassemble instruction words (hex) of the engine");
  dis->add_option("words", o->dis_words, "Instruction words in hex, e.g. 0x10184000")->required();
  add_engine_selection(dis, global);
  auto dis_options = std::make_shared<EngineOptionSet>(dis, word_options);
  out.emplace_back(dis, [o, &global, dis_options] {
    const WordCodec& codec = word_codec(global, "dis");
    dis_options->check(global.engine());
    const std::string variant = global.variant();
    const OptionValues values = dis_options->values();
    return each_argument("dis", o->dis_words, [&](const std::string& w) { return codec.disassemble(w, variant, values); }, false);
  });

  auto* as = app.add_subcommand("asm", "Assemble instructions of the engine (docs/program-format.md)");
  as->add_option("instructions", o->asm_lines, "One quoted instruction per argument")->required();
  add_engine_selection(as, global);
  auto asm_options = std::make_shared<EngineOptionSet>(as, word_options);
  out.emplace_back(as, [o, &global, asm_options] {
    const WordCodec& codec = word_codec(global, "asm");
    asm_options->check(global.engine());
    const std::string variant = global.variant();
    const OptionValues values = asm_options->values();
    return each_argument("asm", o->asm_lines, [&](const std::string& l) { return codec.assemble(l, variant, values); }, true);
  });

  auto* isa = app.add_subcommand("isa", "List every instruction of the engine's variant: opcode, unit, fields [hi:lo]");
  add_engine_selection(isa, global);
  out.emplace_back(isa, [&global] {
    const Engine& e = global.engine();
    const std::vector<std::string> lines = e.words() ? e.words()->instruction_table(global.variant()) : std::vector<std::string>{};
    if (lines.empty()) throw CLI::ValidationError("isa", "is not a command of --engine " + e.name() + " (it has no instruction table)");
    for (const std::string& l : lines) std::cout << l << "\n";
    return 0;
  });

  auto* list = app.add_subcommand("engines", "List the registered engines: name, variants (the default first), summary");
  out.emplace_back(list, [] {
    for (const Engine* e : engines()) {
      std::string variants;
      for (const EngineVariant& v : e->variants()) variants += (variants.empty() ? "" : ",") + v.name;
      std::cout << fmt::format("{}  {}  {}\n", e->name(), variants, e->summary());
    }
    return 0;
  });

  auto* run = app.add_subcommand("run", "Run a program (docs/program-format.md) and print the final state as JSON");
  run->add_option("program", o->run_path, "Program file")->required();
  std::string parts, readings;
  for (const Engine* e : engines()) {
    const ProgramRunner* p = e->programs();
    if (!p) continue;
    parts += fmt::format("{}{}: {}", parts.empty() ? "" : "; ", e->name(), p->state_parts());
    if (!p->value_readings().empty())
      readings += fmt::format("{}{}: {}", readings.empty() ? "" : "; ", e->name(), p->value_readings());
  }
  run->add_option("--show", o->run_parts, "Only these parts of the state, comma-separated (" + parts + ")")->delimiter(',');
  run->add_option("--values", o->run_values, "Also print the data as numbers, read as this type (any case; " + readings + ")")
      ->transform(CLI::Validator(
          [](std::string& v) {
            for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            return std::string();
          },
          ""));
  run->add_flag("--trace", o->run_trace, "Print each retired instruction to stderr");
  run->add_option("--indent", o->run_indent, "JSON indent (-1 for one line)")->capture_default_str();
  run->add_option("--format", o->run_format,
                  "json, or lines: one line per value or list of values, named by its path in the JSON "
                  "(dst.4.values: 1 2 ...), for reading and grep")
      ->check(CLI::IsMember({"json", "lines"}))
      ->capture_default_str();
  add_engine_selection(run, global);
  out.emplace_back(run, [o, &global] {
    RunRequest r;
    r.parts = o->run_parts;
    r.values = o->run_values;
    r.trace = o->run_trace ? &std::cerr : nullptr;
    return run_program(global, o->run_path, r, o->run_format == "lines", o->run_indent);
  });
}

}  // namespace tmu::cli

// Options that several subcommands take, spelled once here. Each concept has one primary spelling;
// the spellings earlier versions used stay accepted as aliases, so old command lines keep working,
// and --help lists every alias beside the primary name.
//   -o, --out       (alias --output)   output directory
//   --engine, --variant                before or after the subcommand, with the same meaning; each
//                                      engine's older name for its variant (--arch, ...) is an alias
// Engines add their own options to a subcommand (EngineOption); add_engine_options creates them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.h"

namespace tmu::cli {

inline constexpr const char* kOutNames = "-o,--out,--output";

// `--engine`, `--variant` and the engines' variant aliases, on the app or on a subcommand.
void add_engine_selection(CLI::App* app, GlobalOptions& global);

// The options every registered engine adds to one subcommand (`which` picks the list), created once
// each even when several engines declare the same one. values() returns what was given, by primary
// name; check() refuses an option the chosen engine does not declare, naming the engines that do.
class EngineOptionSet {
 public:
  EngineOptionSet(CLI::App* sub, std::function<std::vector<EngineOption>(const Engine&)> which);
  OptionValues values() const;
  void check(const Engine& chosen) const;

 private:
  struct Created {
    std::string key;  // primary name without dashes
    std::string primary;
    EngineOption::Kind kind;
    std::vector<std::string> engines;  // those that declare it
    std::shared_ptr<std::vector<std::string>> given;
    CLI::Option* option = nullptr;
  };
  std::vector<Created> created_;
};

}  // namespace tmu::cli

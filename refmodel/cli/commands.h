// Each family of `tmu` subcommands lives in its own file and registers itself here: it adds its
// subcommand(s) to the app and returns what to run when one of them is chosen. The engine a command
// runs on comes from the registry (tmu/engine.h); no file here names one.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "tmu/engine.h"

namespace tmu::cli {

inline constexpr int kExitBadInput = 2;

struct GlobalOptions {
  std::string engine_name;  // "" until --engine is given: the default engine
  // --variant, or an engine's older spelling of it (Engine::variant_alias): the option
  // used and its value, in the order given.
  std::vector<std::pair<std::string, std::string>> variant_options;

  // The engine asked for; CLI::ValidationError for an unknown name.
  const Engine& engine() const;
  bool engine_given() const { return !engine_name.empty(); }
  // The variant asked for, canonical, or "" when none was given; CLI::ValidationError for an unknown
  // variant or an engine's alias given with another engine.
  std::string variant_given() const;
  // The variant to run: the one given or the engine's default.
  std::string variant() const;
};

// The function to run when the paired subcommand was selected; returns the exit status.
using Registered = std::vector<std::pair<CLI::App*, std::function<int()>>>;

void add_basic_commands(CLI::App& app, GlobalOptions& global, Registered& out);    // dis asm isa engines run
void add_vector_commands(CLI::App& app, GlobalOptions& global, Registered& out);   // vectors check
void add_audit_commands(CLI::App& app, GlobalOptions& global, Registered& out);    // audit

// The whole command line: parses argv and runs the chosen subcommand over the registered engines.
int run(int argc, const char* const* argv);

}  // namespace tmu::cli

// Each family of `tmu` subcommands lives in its own file and registers itself here: it adds its
// subcommand(s) to the app and returns what to run when one of them is chosen. main.cpp only parses
// and dispatches, so families can be added without touching each other.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "tmu/isa.h"

namespace tmu::cli {

inline constexpr int kExitBadInput = 2;

struct GlobalOptions {
  std::string arch_name = "blackhole";
  Arch arch() const;  // throws CLI::ValidationError for an unknown name
};

// The function to run when the paired subcommand was selected; returns the exit status.
using Registered = std::vector<std::pair<CLI::App*, std::function<int()>>>;

// Each also adds --arch to its subcommands (options.h), hence the non-const GlobalOptions.
void add_basic_commands(CLI::App& app, GlobalOptions& global, Registered& out);    // dis asm run isa
void add_vector_commands(CLI::App& app, GlobalOptions& global, Registered& out);   // vectors check
void add_audit_commands(CLI::App& app, GlobalOptions& global, Registered& out);    // audit

}  // namespace tmu::cli

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

// The engines (docs/architecture.md): tensix, the default, amx and pto.
enum class Engine { Tensix, Amx, Pto };

struct GlobalOptions {
  std::string engine_name = "tensix";
  std::string arch_name = "blackhole";
  std::string amx_version_name = "M1";
  std::string pto_profile_name = "cpusim";
  Engine engine() const;  // throws CLI::ValidationError for an unknown name
  Arch arch() const;      // throws CLI::ValidationError for an unknown name
  // Throws CLI::ValidationError when an engine-specific option was given for another engine, or a
  // command only one engine has is asked of another.
  void require(Engine e, const char* command) const;
  bool arch_given = false, amx_version_given = false, pto_profile_given = false;
};

// The function to run when the paired subcommand was selected; returns the exit status.
using Registered = std::vector<std::pair<CLI::App*, std::function<int()>>>;

// Each also adds --arch to its subcommands (options.h), hence the non-const GlobalOptions.
void add_basic_commands(CLI::App& app, GlobalOptions& global, Registered& out);    // dis asm run isa
void add_vector_commands(CLI::App& app, GlobalOptions& global, Registered& out);   // vectors check
void add_audit_commands(CLI::App& app, GlobalOptions& global, Registered& out);    // audit

// The amx engine's command bodies (cmd_amx.cpp); the tensix ones are local to their files.
int amx_dis(const std::vector<std::string>& operands, const GlobalOptions& global, bool words);
int amx_asm(const std::vector<std::string>& lines, const GlobalOptions& global);
// `tmu vectors` for the amx and pto engines.
struct EngineVectorArgs {
  std::string output;
  unsigned level = 1, random_vectors = 16;
  uint64_t seed = 0;
  bool level_given = false, n_given = false, seed_given = false, list = false, quiet = false;
  std::string tensix_option;  // the first Tensix-only option given, to refuse it by name
};
int amx_vectors(const EngineVectorArgs& args, const GlobalOptions& global);
int amx_check(const std::vector<std::string>& paths, const uint64_t* poison, unsigned max_diffs,
              const GlobalOptions& global);
int amx_run(const std::string& path, const GlobalOptions& global, const std::vector<std::string>& parts, bool trace,
            int indent, const std::string& values);

// The pto engine's command bodies (cmd_pto.cpp).
int pto_run(const std::string& path, const GlobalOptions& global, const std::vector<std::string>& tiles, bool trace,
            int indent, const std::string& values);
int pto_vectors(const EngineVectorArgs& args, const GlobalOptions& global);
int pto_check(const std::vector<std::string>& paths, unsigned max_diffs, const GlobalOptions& global);

}  // namespace tmu::cli

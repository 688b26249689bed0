// tmu: command-line front end of the reference model. The subcommand families register themselves
// (commands.h); this file parses and dispatches.
// Exit status: 0 success, 2 bad input (reported with the place and the reason), 1 internal failure.
#include <iostream>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "options.h"

namespace tmu::cli {

Engine GlobalOptions::engine() const {
  if (engine_name == "tensix") return Engine::Tensix;
  if (engine_name == "amx") return Engine::Amx;
  if (engine_name == "pto") return Engine::Pto;
  throw CLI::ValidationError("--engine", "unknown engine '" + engine_name + "' (tensix, amx or pto)");
}

Arch GlobalOptions::arch() const {
  require(Engine::Tensix, "--arch");
  auto a = parse_arch(arch_name);
  if (!a) throw CLI::ValidationError("--arch", "unknown architecture '" + arch_name + "' (blackhole or wormhole)");
  return *a;
}

void GlobalOptions::require(Engine e, const char* command) const {
  const Engine given = engine();
  if (given != Engine::Amx && amx_version_given)
    throw CLI::ValidationError("--amx-version", "is an option of --engine amx");
  if (given != Engine::Pto && pto_profile_given)
    throw CLI::ValidationError("--profile", "is an option of --engine pto");
  if (given == Engine::Amx && arch_given)
    throw CLI::ValidationError("--arch", "names a Tensix architecture; the amx engine takes --amx-version");
  if (given == Engine::Pto && arch_given)
    throw CLI::ValidationError("--arch", "names a Tensix architecture; the pto engine takes --profile cpusim|a2a3");
  if (given != e)
    throw CLI::ValidationError(command, std::string("is not a command of --engine ") + engine_name);
}

}  // namespace tmu::cli

int main(int argc, char** argv) {
  using namespace tmu::cli;
  CLI::App app{"tmu: verification kit for matrix engines: the Tenstorrent Tensix Matrix Unit (FPU) with the Scalar "
               "Unit GPR ops, Apple AMX matfp (--engine amx) and PTO elementwise tile operations (--engine pto)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("tmu ") + TMU_VERSION);
  GlobalOptions global;
  add_engine_options(app, global);
  Registered commands;
  add_basic_commands(app, global, commands);
  add_vector_commands(app, global, commands);
  add_audit_commands(app, global, commands);
  try {
    app.parse(argc, argv);
    for (auto& [sub, run] : commands)
      if (sub->parsed()) return run();
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "tmu: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

// tmu: command-line front end of the reference model. The subcommand families register themselves
// (commands.h); this file parses and dispatches.
// Exit status: 0 success, 2 bad input (reported with the place and the reason), 1 internal failure.
#include <iostream>

#include <CLI/CLI.hpp>

#include "commands.h"

namespace tmu::cli {

Arch GlobalOptions::arch() const {
  auto a = parse_arch(arch_name);
  if (!a) throw CLI::ValidationError("--arch", "unknown architecture '" + arch_name + "' (blackhole or wormhole)");
  return *a;
}

}  // namespace tmu::cli

int main(int argc, char** argv) {
  using namespace tmu::cli;
  CLI::App app{"tmu: verification kit for the Tenstorrent Tensix Matrix Unit (FPU) and Scalar Unit GPR ops"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("tmu ") + TMU_VERSION);
  GlobalOptions global;
  app.add_option("--arch", global.arch_name, "Architecture: blackhole (default) or wormhole; also accepted after the subcommand")
      ->capture_default_str();
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

// The command line as a whole: the subcommand families register themselves (commands.h); this file
// parses and dispatches. A library function, so the unit tests can run it with an engine of their own.
#include <iostream>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "options.h"

namespace tmu::cli {

int run(int argc, const char* const* argv) {
  CLI::App app{"tmu: verification kit for matrix engines (" + engine_names() + "; tmu --engine NAME)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("tmu ") + TMU_VERSION);
  GlobalOptions global;
  add_engine_selection(&app, global);
  Registered commands;
  add_basic_commands(app, global, commands);
  add_vector_commands(app, global, commands);
  add_audit_commands(app, global, commands);
  try {
    app.parse(argc, argv);
    for (auto& [sub, command] : commands)
      if (sub->parsed()) return command();
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "tmu: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace tmu::cli

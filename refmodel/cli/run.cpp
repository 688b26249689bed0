// The command line as a whole: the subcommand families register themselves (commands.h); this file
// parses and dispatches. A library function, so the unit tests can run it with an engine of their own.
#include <iostream>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "options.h"
#include "tmu/suggest.h"

namespace tmu::cli {

namespace {

// For each unexpected "--name" left over by the parse, the nearest option of the subcommand given
// (or of the app): "--famly: did you mean '--family'?".
void suggest_options(const CLI::App& app) {
  const CLI::App* where = &app;
  for (const CLI::App* sub : app.get_subcommands()) where = sub;
  std::vector<std::string> extras = app.remaining();
  if (where != &app)
    for (const std::string& e : where->remaining()) extras.push_back(e);
  std::vector<std::string> names;
  for (const CLI::App* scope : {where, &app})
    for (const CLI::Option* o : scope->get_options())
      for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
  const std::vector<std::string_view> candidates(names.begin(), names.end());
  for (const std::string& e : extras)
    if (e.starts_with("--"))
      if (const std::string hint = did_you_mean(e.substr(0, e.find('=')), candidates); !hint.empty())
        std::cerr << "tmu: unknown option " << e << hint << "\n";
}

}  // namespace

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
    if (code != 0) suggest_options(app);
    return code == 0 ? 0 : kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "tmu: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace tmu::cli

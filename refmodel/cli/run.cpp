// The command line as a whole: the subcommand families register themselves (commands.h); this file
// parses and dispatches. A library function, so the unit tests can run it with an engine of their own.
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "options.h"
#include "tmu/suggest.h"

namespace tmu::cli {

namespace {

// The names of a scope's options, "--name" for each long name.
std::vector<std::string> option_names(const CLI::App& scope) {
  std::vector<std::string> names;
  for (const CLI::Option* o : scope.get_options())
    for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
  return names;
}

std::string nearest(const std::string& given, const std::vector<std::string>& names) {
  const std::vector<std::string_view> candidates(names.begin(), names.end());
  return did_you_mean(given, candidates);
}

// What CLI11 left over, said in the user's terms: a misspelt subcommand ("tmu: unknown command 'chek'
// (did you mean 'check'?)") and each unknown "--name", with the nearest option of the subcommand given
// or, failing that, of another subcommand, saying which one has it. CLI11 alone says "A subcommand is
// required", or that an argument after the unknown option "was not expected" (it took the option's
// value for the positional). Returns whether anything was unknown, so CLI11's message can be left out.
bool explain_unknown(CLI::App& app) {
  const CLI::App* where = &app;
  for (const CLI::App* sub : app.get_subcommands()) where = sub;
  std::vector<std::string> extras = app.remaining();
  if (where != &app)
    for (const std::string& e : where->remaining()) extras.push_back(e);
  const std::vector<CLI::App*> subs = app.get_subcommands([](CLI::App*) { return true; });
  const std::string prefix = where == &app ? "tmu" : "tmu " + where->get_name();
  bool unknown = false;
  if (where == &app && !extras.empty() && !extras.front().starts_with("-")) {
    std::vector<std::string> names;
    for (const CLI::App* sub : subs) names.push_back(sub->get_name());
    std::cerr << fmt::format("tmu: unknown command '{}'{} (tmu --help lists them: {})\n", extras.front(),
                             nearest(extras.front(), names), fmt::join(names, " "));
    unknown = true;
  }
  std::vector<std::string> here = option_names(*where);
  for (const std::string& n : option_names(app)) here.push_back(n);
  for (const std::string& e : extras) {
    if (!e.starts_with("--")) continue;
    const std::string name = e.substr(0, e.find('='));
    std::string hint = nearest(name, here);
    for (const CLI::App* sub : subs) {
      if (!hint.empty()) break;
      if (sub == where) continue;
      if (const std::string h = nearest(name, option_names(*sub)); !h.empty())
        hint = fmt::format("{} It is an option of tmu {}, not of {})", h.substr(0, h.size() - 1), sub->get_name(), prefix);
    }
    std::cerr << fmt::format("{}: unknown option {}{}{}\n", prefix, name, hint,
                             hint.empty() ? fmt::format(" ({} --help lists the options)", prefix) : "");
    unknown = true;
  }
  return unknown;
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
    if (e.get_exit_code() == 0) return app.exit(e);
    // Leftovers caused the error: naming them is the whole message.
    const bool leftovers = dynamic_cast<const CLI::ExtrasError*>(&e) ||
                           (dynamic_cast<const CLI::RequiredError*>(&e) && app.get_subcommands().empty());
    if (!(leftovers && explain_unknown(app))) {
      app.exit(e);
      explain_unknown(app);
    }
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "tmu: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace tmu::cli

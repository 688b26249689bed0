#include "options.h"

#include <charconv>
#include <map>

#include <fmt/format.h>

#include "tmu/error.h"

namespace tmu::cli {

CLI::Validator fidelity_names() {
  static const std::map<std::string, std::string> kNumbers{{"lofi", "0"}, {"hifi2", "1"}, {"hifi3", "2"}, {"hifi4", "3"}};
  // Checked: besides the names, only the numbers they map to ("0".."3") pass. The message is ours.
  const CLI::Validator names = CLI::CheckedTransformer(kNumbers, CLI::ignore_case);
  return CLI::Validator(
      [names](std::string& value) {
        const std::string given = value;
        return names(value).empty() ? std::string() : "'" + given + "' is not a fidelity: " + kFidelitySpellings;
      },
      "");
}

namespace {

void add_options(CLI::App* app, GlobalOptions& global, const char* where) {
  app->add_option_function<std::string>(
      "--arch",
      [&global](const std::string& v) {
        global.arch_name = v;
        global.arch_given = true;
      },
      std::string("Tensix architecture: blackhole (default) or wormhole") + where);
  app->add_option("--engine", global.engine_name, std::string("Engine: tensix (default), amx or pto") + where);
  app->add_option_function<std::string>(
      "--amx-version",
      [&global](const std::string& v) {
        global.amx_version_name = v;
        global.amx_version_given = true;
      },
      std::string("AMX generation: M1 (default), M2, M3 or M4 (bf16 lane widths from M2)") + where);
  app->add_option_function<std::string>(
      "--profile",
      [&global](const std::string& v) {
        global.pto_profile_name = v;
        global.pto_profile_given = true;
      },
      std::string("PTO profile: cpusim (default: pto-isa's CPU simulator) or a2a3 (the A2/A3 NPU sources)") + where);
}

}  // namespace

uint64_t parse_hex(const std::string& text, unsigned bits, const char* noun) {
  std::string_view t = text;
  if (t.starts_with("0x") || t.starts_with("0X")) t.remove_prefix(2);
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 16);
  if (t.empty() || t.size() > bits / 4 || ec != std::errc() || end != t.data() + t.size())
    throw tmu::Error(tmu::ErrorKind::BadInput, fmt::format("'{}' is not a {}-bit hex {}", text, bits, noun));
  return v;
}

void add_arch_option(CLI::App* sub, GlobalOptions& global) {
  add_options(sub, global, "; the same as before the subcommand");
}

void add_engine_options(CLI::App& app, GlobalOptions& global) { add_options(&app, global, ""); }

}  // namespace tmu::cli

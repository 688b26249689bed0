#include "options.h"

#include <map>

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

void add_arch_option(CLI::App* sub, GlobalOptions& global) {
  sub->add_option("--arch", global.arch_name,
                  "Architecture: blackhole (default) or wormhole; the same as tmu --arch before the subcommand");
}

}  // namespace tmu::cli

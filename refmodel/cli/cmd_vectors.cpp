// tmu vectors / tmu check: not written yet (issue 6); registers nothing until then.
#include "commands.h"

namespace tmu::cli {

void add_vector_commands(CLI::App&, const GlobalOptions&, Registered&) {}

}  // namespace tmu::cli

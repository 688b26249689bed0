// Fidelity levels by name, the one spelling every front end (the command line, the audit, Python)
// accepts: a level's name in any case or the digit of its last phase.
#pragma once

#include <optional>
#include <string_view>

namespace tmu::tensix {

// "lofi", "hifi2", "hifi3", "hifi4" (any case), or "0".."3", the level's last phase: the number of
// fidelity phases the level runs, 1..4; nullopt for anything else.
std::optional<unsigned> fidelity_phases(std::string_view text);

}  // namespace tmu::tensix

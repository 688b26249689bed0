// How the Tensix engine's options read their values. A fidelity is a level: LoFi runs fidelity
// phase 0 only, HiFi2 phases 0..1, HiFi3 0..2, HiFi4 0..3. A phase is one pass's index, 0..3.
#pragma once

#include <string>

namespace tmu::tensix {

inline constexpr const char* kFidelitySpellings = "lofi|hifi2|hifi3|hifi4 (any case; 0..3: the level ending at that phase)";
inline constexpr const char* kPhaseSpellings = "0..3 (a level's name: its last phase)";

// The number of phases a fidelity level runs, 1..4: lofi, hifi2, hifi3, hifi4 in any case, or the
// older spelling 0..3 (the level whose last phase that is). tmu::Error (BadInput) otherwise.
unsigned parse_fidelity_level(const std::string& text);
// A phase index 0..3, or a level's name standing for its last phase (the older spelling).
unsigned parse_phase(const std::string& text);

// A decimal count for `option`; tmu::Error (BadInput) naming the option otherwise.
unsigned parse_count(const std::string& text, const char* option);

}  // namespace tmu::tensix

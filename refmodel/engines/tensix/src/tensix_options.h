// How the Tensix engine's options read their values.
#pragma once

#include <string>

namespace tmu {

// A fidelity is given by name or as its number 0..3: LoFi runs fidelity phase 0 only, HiFi2 phases
// 0..1, HiFi3 0..2, HiFi4 0..3, so lofi = 0, hifi2 = 1, hifi3 = 2, hifi4 = 3. Names in any case.
inline constexpr const char* kFidelitySpellings = "lofi|hifi2|hifi3|hifi4 (any case) or 0..3";
unsigned parse_fidelity(const std::string& text);  // tmu::Error (BadInput) for anything else

// A decimal count for `option`; tmu::Error (BadInput) naming the option otherwise.
unsigned parse_count(const std::string& text, const char* option);

}  // namespace tmu

// The architectural state as JSON, rows as raw bits in hex strings (the ISA's layouts), for
// `tmu run` output and for diffing two runs.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tmu/tensix/state.h"

namespace tmu::tensix {

// Parts: "rwcs", "gprs", "config", "threadconfig", "banks", "srca", "srcb", "dst" (DstBits rows),
// "dst32" (the Dst32b view; only when asked for). Empty = all but "dst32".
// Dst rows that were never written and are invalid are omitted to keep the output readable;
// every listed row carries its validity.
nlohmann::json state_to_json(const TensixState& state, const std::vector<std::string>& parts = {});
bool is_state_part(const std::string& part);

}  // namespace tmu::tensix

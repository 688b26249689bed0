// The architectural state as JSON, rows as raw bits in hex strings (the ISA's layouts), for
// `tmu run` output and for diffing two runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tmu/tensix/state.h"

namespace tmu::tensix {

// Parts: "rwcs", "gprs", "config", "threadconfig", "banks", "srca", "srcb", "dst" (DstBits rows),
// "dst32" (the Dst32b view; only when asked for). Empty = all but "dst32".
// Dst rows that were never written and are invalid are omitted to keep the output readable;
// every listed row carries its validity.
// A part "l1:ADDR:BYTES" (decimal or 0x hex) adds the L1 bytes [ADDR, ADDR + BYTES) as "l1", 16 a
// line keyed by the line's address; a region leaving L1 is refused (BadInput).
nlohmann::json state_to_json(const TensixState& state, const std::vector<std::string>& parts = {});
bool is_state_part(const std::string& part);
struct L1Region {
  uint64_t addr = 0, bytes = 0;
};
std::optional<L1Region> parse_l1_part(const std::string& part);

}  // namespace tmu::tensix

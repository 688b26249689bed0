// Named access to the configuration fields of TensixState (Config, ThreadConfig, ADDR_MOD slots,
// RWCs), by the ISA's names, for programs, vector files and JSON dumps. Each entry knows its width,
// so an out-of-range value is refused by name instead of being truncated.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "tmu/tensix/state.h"

namespace tmu::tensix {

enum class FieldScope : uint8_t {
  Config,        // Config[StateID] (thread-agnostic; which state is chosen by the caller)
  ThreadConfig,  // ThreadConfig[thread]
  AddrMod,       // ThreadConfig[thread].ADDR_MOD_{AB,DST,BIAS}_SEC[slot]
  Rwc,           // RWCs[thread]
  Global,        // state-wide (MatrixUnit bank pointers, unpacker banks, debug/access config)
};

struct StateField {
  const char* name;
  FieldScope scope;
  unsigned width;  // bits
  // Accessors take the state plus the index the scope needs (config state, thread, or slot).
  std::function<uint32_t(const TensixState&, unsigned thread, unsigned index)> get;
  std::function<void(TensixState&, unsigned thread, unsigned index, uint32_t)> set;
};

std::span<const StateField> state_fields(FieldScope scope);
const StateField* find_state_field(FieldScope scope, std::string_view name);  // case-insensitive

}  // namespace tmu::tensix

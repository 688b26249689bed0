// L1 as UNPACR reads it and PACR writes it: byte ranges checked against the architecture's L1 size
// (a range that leaves L1 is refused, naming what was being addressed). The array is allocated at the
// first write; until then every byte reads as zero.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "context.h"

namespace tmu::tensix::insn {

std::vector<uint8_t> read_l1(const ExecContext& ctx, uint64_t addr, uint64_t n, const char* what);
void write_l1(ExecContext& ctx, uint64_t addr, std::span<const uint8_t> bytes, const char* what);

}  // namespace tmu::tensix::insn

// An audit number as the unpacker writes it into a Src bank.
#pragma once

#include <cstdint>

#include "tmu/audit/src_number.h"

namespace tmu::tensix::llk {

// The 19-bit Src datum (SrcASrcB.md layouts, via formats.h pack_src).
uint32_t src_datum(const audit::SrcNumber& x, audit::SrcFormat f);

}  // namespace tmu::tensix::llk

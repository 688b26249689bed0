// An audit number as the unpacker writes it into a Src bank.
#pragma once

#include <cstdint>

#include "tmu/audit/src_number.h"
#include "tmu/tensix/formats.h"

namespace tmu::tensix::llk {

// How the unpacker lays out a number of the format in Src (SrcASrcB.md), and the format tag it writes
// with the data (ALU_FORMAT_SPEC; Blackhole's bank Format).
SrcStyle src_style(audit::SrcFormat f);
DataFormat data_format(audit::SrcFormat f);

// The 19-bit Src datum (SrcASrcB.md layouts, via formats.h pack_src).
uint32_t src_datum(const audit::SrcNumber& x, audit::SrcFormat f);

}  // namespace tmu::tensix::llk

// `tmu --engine amx run`: a text program that sets up X, Y, Z and the GPRs and runs matfp
// (docs/program-format.md, "AMX programs"). Every problem is a tmu::ProgramError ("FILE:LINE:
// reason"), and nothing after it runs.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>

#include "tmu/amx/matfp.h"
#include "tmu/amx/state.h"

namespace tmu::amx {

struct ProgramOptions {
  Version version = Version::M1;  // a `.version` line overrides it
  std::ostream* trace = nullptr;   // each executed instruction, disassembled, with the Z rows written
};

struct ProgramRun {
  State state;
  Version version = Version::M1;
  std::array<uint64_t, 31> gpr{};  // x0..x30, as `.gpr` set them
  uint64_t instructions = 0;       // matfp executed, no-ops included
};

ProgramRun run_program(std::istream& in, const std::string& path, const ProgramOptions& opts);

// "M1".."M4" in any case; nullopt-free: throws tmu::Error (BadInput) naming the accepted values.
Version parse_version(std::string_view name);

// A lane view of a row for printing and for typed values: f16, bf16, f32, f64 (IEEE) or raw8,
// raw16, raw32, raw64 (bits).
struct LaneType {
  unsigned bytes = 4;
  bool typed = false;  // an IEEE format (f16/bf16/f32/f64) rather than raw bits
  bool bfloat = false; // bf16 rather than f16 (2-byte typed lanes)
};
LaneType parse_lane_type(std::string_view name);  // throws tmu::Error (BadInput)
// The pattern of one lane value: an IEEE value exactly representable in the type (tmu/ieee_text.h),
// or raw bits (decimal or 0x hex) that fit. Throws tmu::Error (BadInput) with the reason.
uint64_t lane_from_text(const LaneType& t, std::string_view text);
std::string lane_to_text(const LaneType& t, uint64_t bits);  // the value of a typed lane

}  // namespace tmu::amx

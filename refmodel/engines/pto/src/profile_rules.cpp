// The three profiles' rules (profile_rules.h), side by side. cpusim is pto-isa's CPU simulator
// (include/pto/cpu/) with its host's choices (profiles.cpp); a2a3 the A2/A3 sources
// (include/pto/npu/a2a3/: profiles.cpp, compare_select.cpp, convert_a2a3.cpp); a5 the A5 sources
// (include/pto/npu/a5/: profile_a5.cpp, convert_a5.cpp, cycles_a5.cpp), float lanes under a5-ieee.
#include "profile_rules.h"

namespace tmu::pto::detail {

namespace {

const ProfileRules kCpuSim = {
    .implementation = "CPU simulator",
    .f8_refusal = cpusim_f8_refusal,
    .carry_ops = true,
    .row_major_only = false,
    .recip_row_major = "the simulator's TRECIP is TDIVS(dst, 1, src) (pto_instr.hpp), whose tile checks "
                       "(cpu/TBinSOps.hpp) accept row-major tiles only",
    .predicates_not_modelled = nullptr,
    .supports = cpusim_supports,
    .not_modelled = nullptr,
    .tcmp_accepts = cpusim_tcmp_accepts,
    .tcmp_accepted = "i32, f16 and f32 with a u8 predicate, any type of 32 bits or fewer with a u32 predicate",
    .tcmp = cpusim_tcmp,
    .tsel = cpusim_tsel,
    .tcmp_repeat_bytes = 0,
    .tsel_generated_cols = 0,
    .tsel_mask_stream = true,
    .convert = cpusim_convert,
    .lane = family_lane,
    .assumption_name = nullptr,
    .assumption = nullptr,
    .subnormals_refused = false,
    .nan_refusal = nullptr,
    .recip_asserts_nonzero = true,
    .neg_multiplies = false,
    .abs_is_vabs = false,
    .sqrt_through_double = true,
    .remainder_sequence = false,
    .power_in_int32 = false,
    .own_cycles = nullptr,
    .own_cycles_model = nullptr,
};

const ProfileRules kA2A3 = {
    .implementation = "A2/A3",
    .f8_refusal = a2a3_f8_refusal,
    .carry_ops = false,
    .row_major_only = true,
    .recip_row_major = nullptr,
    .predicates_not_modelled = nullptr,
    .supports = a2a3_supports,
    .not_modelled = a2a3_not_modelled_reason,
    .tcmp_accepts = a2a3_tcmp_accepts,
    .tcmp_accepted = "i32, f16 and f32 sources with a u8 predicate",
    .tcmp = a2a3_tcmp,
    .tsel = a2a3_tsel,
    .tcmp_repeat_bytes = 256,
    .tsel_generated_cols = 64,  // a2a3_tsel: one compare mask is 64 lanes of a 32-bit type (128 of a 16-bit one)
    .tsel_mask_stream = false,
    .convert = a2a3_convert,
    .lane = family_lane,
    .assumption_name = nullptr,
    .assumption = nullptr,
    .subnormals_refused = false,
    .nan_refusal = "the result is a NaN, and the A2/A3 sources do not say which NaN the vector unit returns",
    .recip_asserts_nonzero = false,
    .neg_multiplies = true,
    .abs_is_vabs = true,
    .sqrt_through_double = false,
    .remainder_sequence = true,
    .power_in_int32 = true,
    .own_cycles = nullptr,  // a2a3_cycles, reported under every profile
    .own_cycles_model = nullptr,
};

// TCMP and TSEL are refused before any check, so their fields are empty; a5_lane computes every
// lane, so the lane fields below `lane` say what A5 does without being asked by the families, and
// the specialised loops (fast_lanes.cpp) read them.
const ProfileRules kA5 = {
    .implementation = "A5",
    .f8_refusal = nullptr,  // a5_supports and the TCVT pair list decide
    .carry_ops = false,
    .row_major_only = true,
    .recip_row_major = nullptr,
    .predicates_not_modelled =
        "not modelled for a5: TCmp.hpp / TSel.hpp store and load predicates with psts/plds in the NORM and PK "
        "distributions (and pdintlv_b8 for 32-bit lanes), whose bit layout in memory the public sources do not "
        "define (psts.md says both 'exactly 64 bits' and 256 bits for i8; PK is not described); TCMP.md calls "
        "the packing target-defined",
    .supports = a5_supports,
    .not_modelled = a5_not_modelled_reason,
    .tcmp_accepts = nullptr,
    .tcmp_accepted = nullptr,
    .tcmp = nullptr,
    .tsel = nullptr,
    .tcmp_repeat_bytes = 0,
    .tsel_generated_cols = 0,
    .tsel_mask_stream = false,
    .convert = a5_convert,
    .lane = a5_lane,
    .assumption_name = "a5-ieee",
    .assumption = kA5FloatAssumption,
    .subnormals_refused = true,
    .nan_refusal = "the result is a NaN, and the A5 sources do not say which NaN the vector unit returns",
    .recip_asserts_nonzero = false,
    .neg_multiplies = true,
    .abs_is_vabs = true,
    .sqrt_through_double = false,
    .remainder_sequence = true,
    .power_in_int32 = false,
    .own_cycles = a5_cycles,
    .own_cycles_model = "A5 formula cost model (pto-isa include/pto/costmodel/a5)",
};

}  // namespace

const ProfileRules& rules(Profile p) {
  switch (p) {
    case Profile::CpuSim: return kCpuSim;
    case Profile::A2A3: return kA2A3;
    case Profile::A5: return kA5;
  }
  return kCpuSim;
}

}  // namespace tmu::pto::detail

// The LLK instruction sequences the audit runs on the bit-exact model, with Dst snapshots around
// every fidelity pass, and the deliberate mistakes ("perturbations") the phase check must catch.
//
// MVMUL: tt-llk's matmul (llk_math_matmul.h, 32x32 tiles, no transpose): in0's tile is unpacked
// into SrcB and in1's into SrcA; ADDR_MOD 0/1/2/4/5 as matmul_configure_addrmod sets them; each pass
// is the 16-MVMUL replay whose last MVMUL (ADDR_MOD_5) rewinds the RWCs and, above LoFi, advances
// the fidelity phase; after the last pass SETRWC releases both banks and clears the counters. K
// tiles accumulate into the same Dst tile.
// ELWMUL: the high-fidelity MOP of llk_math_eltwise_binary.h, one 16x16 face per Src bank: per
// pass two ELWMULs (8 rows each; ADDR_MOD_0, then ADDR_MOD_2 which rewinds and advances the phase),
// the last pass ending with ADDR_MOD_3 and the bank release. LoFi is the same with one pass.
// ELWADD, ELWSUB: the same file's MOP for both, which runs once whatever the fidelity.
// Broadcasts (ROW, COL, SCALAR): the ELW instructions' BroadcastSrcBRow / BroadcastSrcBCol0 and
// the unpacker's SrcB fills as llk_unpack_AB.h does them (Broadcast below).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tmu/audit/inputs.h"
#include "tmu/tensix/llk/perturbation.h"
#include "tmu/tensix/isa.h"

namespace tmu::tensix::llk {
using namespace tmu::audit;


struct RunConfig {
  SrcFormat format = SrcFormat::BF16;
  unsigned phases = 4;  // 1 = LoFi, 2..4 = HiFi2..HiFi4
  bool dst32 = true;    // ALU_ACC_CTRL_Fp32_enabled
  Perturbation perturb;
  Arch arch = Arch::Blackhole;
  // run_matmul_sequence: false leaves every step's snapshots empty (the result is still read), for
  // callers that never look at Dst between passes. Reading Dst changes nothing, so the result is
  // the same; skipping the reads saves a conversion of the whole tile per pass.
  bool pass_snapshots = true;
};

// One step is one tile pair (MVMUL) or one face (ELWMUL). Dst values are exact (doubles hold every
// FP32/BF16/FP16 value).
struct StepTrace {
  std::vector<unsigned> elements;              // output elements (row * 32 + col) the step writes
  std::vector<std::vector<double>> snapshots;  // [0] before the first pass, [i] after pass i
  std::vector<unsigned> phase_counter;         // the phase each pass ran with (information only)
};
struct SequenceTrace {
  std::vector<StepTrace> steps;
  std::vector<double> result;  // the 32x32 output at the end
};

SequenceTrace run_matmul_sequence(const MatmulCase& c, const RunConfig& cfg);
// tt-llk's BroadcastType for SrcB. c.b is always b's whole 32x32 tile in L1; the sequence plays
// llk_unpack_AB.h's unpacker for the broadcast (which of b's faces reaches SrcB before which face of
// the output) and issues the ELW instructions with llk_math_eltwise_binary.h's broadcast fields, so
// ROW computes a(i, j) op b(0, j), COL a(i, j) op b(i, 0), SCALAR a(i, j) op b(0, 0).
enum class Broadcast : uint8_t { None, Row, Col, Scalar };

// ELWMUL (Dst starts as c.dst_init). The swap perturbation is refused with a broadcast
// (std::invalid_argument): b's broadcast tile cannot stand in for SrcA's.
SequenceTrace run_eltwise_sequence(const EltwiseCase& c, const RunConfig& cfg, Broadcast broadcast = Broadcast::None);
// ELWADD or ELWSUB (Dst = SrcA + SrcB or SrcA - SrcB, ELWSUB.md; a to SrcA, b to SrcB as the LLK
// unpacks them, so ELWSUB gives a - b; c.dst_init is not used: AddDst = 0) through the LLK's
// ELWADD/ELWSUB MOP: per face two instructions of 8 rows on ADDR_MOD_0, then a SETRWC that
// releases SrcA and, unless SrcB is broadcast across faces (COL, SCALAR), SrcB. The MOP has no
// fidelity loop; cfg.phases only sets ADDR_MOD_2's fidelity increment as the LLK does, and
// cfg.perturb is not used. One step per face, one snapshot (after the face).
enum class AddSub : uint8_t { Add, Sub };
SequenceTrace run_eltwise_addsub_sequence(const EltwiseCase& c, const RunConfig& cfg, AddSub op,
                                          Broadcast broadcast = Broadcast::None);
inline SequenceTrace run_eltwise_add_sequence(const EltwiseCase& c, const RunConfig& cfg) {
  return run_eltwise_addsub_sequence(c, cfg, AddSub::Add);
}

}  // namespace tmu::tensix::llk

// The co-simulation stimulus library: instruction streams, configuration writes and unpacker fills
// that the Verilator testbench drives into the RTL Matrix Unit and mirrors onto the scoreboard
// (docs/scoreboard.md). Pure C++ over the reference model; no simulator.
//
// Every stream is checked while it is generated: a shadow TensixState follows the stream, and each
// candidate instruction is executed by the reference model (tmu::tensix::execute) on it before it is emitted,
// after the unpacker has handed over the banks it waits for (so a wait cannot hide a refusal). If the
// model refuses it, everything the instruction can change besides Src/Dst data is restored and
// another candidate is tried (a harmless DMANOP after eight). Acceptance never depends on data
// (every refusal in refmodel/engines/tensix/src/insn/ tests fields, configuration, RWCs, bank ownership and format
// tags, or the debug bit), so the shadow keeps no data, which keeps generation fast; the unit tests
// replay every stream on a full model. An emitted word is therefore one the reference model accepts
// at that point: no decode error, no UndefinedBehaviour, no NonContractualBehaviour, no Unsupported
// (except the words refused_instructions emits on purpose, which the model must refuse).
//
// The unpacker protocol the shadow assumes is the testbench's: unpacker `operand` writes the rows of
// next_fill(operand) into the bank it points at (Scoreboard::unpack_src_row, which tags the bank with
// the fill's format), hands the bank over (Scoreboard::hand_over_src_bank) and moves to the other
// bank; it calls next_fill again whenever it owns a bank again. The shadow delivers fills lazily
// (only when an instruction would stall); since fills go to alternating banks in order, an eager
// unpacker puts the same data in the same bank before the Matrix Unit may read it. Instructions that
// write or read a Src bank WITHOUT waiting for it (MOVD2A, MOVD2B, MOVB2A's SrcA side) are only
// emitted while an earlier waiting instruction has proved that bank held by the Matrix Unit, so their
// behaviour does not depend on the unpacker's timing; a flip that releases a bank without waiting
// for it (SETRWC, CLEARDVALID, the legacy ops) likewise, unless no unpacker can have filled it yet.
// No instruction is emitted that would leave the Matrix Unit waiting for a bank while the unpacker
// waits for the other one, for a lazy or an eager unpacker (CLEARDVALID KeepReadingSameSrc with both
// banks full, flips with CLR_DVALID_*_Disable). CLEARDVALID Reset=1 (which would race with an
// unpacker in the middle of a fill) is never emitted.
//
// Determinism: every output is a function of (test, arch, seed, instructions) only: the stream
// "stream" of the seed (tmu/rng.h, derive_seed) drives every choice and draws every datum, and fills
// asked for after the end come from the streams "late fills SrcA" / "late fills SrcB", so they never
// disturb it. No time, no unordered containers. next() and next_fill() may be called in any
// interleaving: a fill the testbench asks for before the stream has consumed it makes the generator
// run ahead (the steps are queued).
//
// Tests (stimulus_tests()):
//   random                     constrained-random, all three threads, config changes, bank flips;
//                              exactly `instructions` Instruction steps (Field steps come on top).
//                              Weights per class (random_stim.cpp kClassWeights): MVMUL/DOTPV/GAPOOL
//                              18, ELW* 14, GMPOOL 6, MOV* 12, ZEROACC/ZEROSRC 5, SETRWC/INCRWC/
//                              CLEARDVALID 10, SHIFTX*/TRNSPSRCB 4, legacy/no-ops 3, GPR ops 12;
//                              a Field step before ~6% of instructions.
//   matmul_lofi/hifi2/hifi3/hifi4
//                              32x32 x 32x32 BF16 matmul as tt-llk runs it: ADDR_MOD 0/1/2/4/5, the
//                              16-MVMUL replay once per fidelity phase, FP32 Dst; two tiles (the second
//                              from a fill after SETRWC flips the banks). On Wormhole, slots 4/5 are
//                              reached through ADDR_MOD_SET_Base (Field steps around those MVMULs).
//   eltwise_{add,sub,mul}_{none,col,row,scalar}
//                              ELWADD/ELWSUB/ELWMUL over 64 rows with each SrcB broadcast (ELWMUL at
//                              HiFi4 with the phase-stepping ADDR_MODs), FP32 Dst
//   reduce_gapool              GAPOOL column reduction (SrcB row 0 = scaler), LoFi then HiFi2
//   maxpool_gmpool_argmax      GMPOOL with ArgMax over four 16-row blocks, ties planted
//   zeroacc_row / zeroacc_16rows / zeroacc_half / zeroacc_all
//                              ZEROACC Mode 0..3 (16- and 32-bit, Revert where defined) between
//                              writes, so the cleared rows are read back
//   mov_round_trip             MOVA2D/MOVB2D/MOVD2A/MOVD2B/MOVB2A round trips, 16-bit and 32-bit Dst
//   gpr_program                the GPR ops of vectors/programs/gpr_ops.tmu on every thread
// Corner sequences (corner_stim.cpp; the mutants each one answers are in docs/mutation-report.md):
//   dst_hazard_sweep           every Dst window written and read back at once, both views, and a
//                              ZEROACC row read back at once (the reader must wait)
//   dst_no_false_hazard        the same traffic with readers far from the writes: no Dst hazard, so a
//                              Dst hazard stall fails the run (forbids_dst_hazard_stalls)
//   src_writes_sweep           ZEROSRC, then MOVD2A/MOVD2B/MOVB2A at every Src row and window offset,
//                              SHIFTXA around each block, SHIFTXB, TRNSPSRCB; -inf fill, denormal flush;
//                              cleared SrcB rows under four-row writes, every row moved out to Dst
//   zeroacc_sweep              ZEROACC modes under every Dst offset, relative/absolute tile mode, reverts;
//                              single blocks in both halves of the block numbers, read back at once
//   maxpool_argmax_signed      GMPOOL argmax over negative maxima (FP32 Dst), onto earlier maxima
//   addr_mod_threads           every ADDR_MOD slot of every thread with bias steps; CLR_DVALID disables;
//                              each thread's own Dst offset
//   operand_formats            Blackhole's preloaded bank format tags, then ALU_FORMAT_SPEC overrides,
//                              with Dst -> Src moves from the 32-bit view in each SrcA format
//   refused_instructions       every unknown opcode, reserved bits, fields above their maximum, and the
//                              undefined / unsupported encodings: the RTL must refuse each alike;
//                              on Blackhole, ADDR_MOD uses with ExtraAddrModBit set
//   elw_wrapped_difference     ELWADD/ELWSUB whose aligned operand difference goes below zero, onto
//                              Dst exponents near the operands', both views
//   int8_zero_flag             INT8 ELWADD/ELWSUB/ELWMUL with every single-bit SrcB exponent, the zero
//                              flag enabled and disabled
//   int8_saturation            INT8 ELWMUL and MVMUL products added to Dst32b values at and next to
//                              +/-(2^31 - 1): saturation of both signs, the limit reached exactly,
//                              subtraction from the limit (tmu_int8_sat_acc's clamp)
// All exist on both architectures. For directed tests the seed varies only the data and
// `instructions` is ignored.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tmu/tensix/isa.h"
#include "tmu/tensix/state_fields.h"

namespace tmu::tb {
using namespace tmu::tensix;

// Exactly what Scoreboard::set_field takes (state_fields.h names; Config index = state 0/1, AddrMod
// index = slot, ThreadConfig/AddrMod/Rwc use thread).
struct FieldWrite {
  FieldScope scope = FieldScope::Config;
  std::string name;
  unsigned thread = 0;
  unsigned index = 0;
  uint32_t value = 0;
};

struct SrcRowInit {
  unsigned operand = 0, bank = 0, row = 0;  // operand 0 = SrcA, 1 = SrcB
  std::array<uint32_t, 16> values{};        // 19-bit datums
};
struct SrcBankInit {
  unsigned operand = 0, bank = 0;
  bool matrix_unit_owns = false;
  uint32_t format = 0;  // DataFormat code
};
struct DstRowInit {
  unsigned row = 0;  // DstBits storage row
  std::array<uint16_t, 16> values{};
  bool valid = false;
};
struct GprInit {
  unsigned thread = 0, index = 0;
  uint32_t value = 0;
};

struct InitialState {
  std::vector<FieldWrite> fields;   // applied in order, before anything else
  std::vector<SrcBankInit> banks;   // Scoreboard::set_src_bank
  std::array<unsigned, 2> unpacker_bank{};     // Scoreboard::set_unpacker_bank
  std::array<unsigned, 2> matrix_unit_bank{};  // Global SrcABank / SrcBBank
  std::vector<SrcRowInit> src_rows;            // Scoreboard::preload_src_row
  std::vector<DstRowInit> dst_rows;            // Scoreboard::preload_dst_row
  std::vector<GprInit> gprs;                   // Scoreboard::preload_gpr
};

struct Step {
  enum class Kind { Instruction, Field } kind = Kind::Instruction;
  unsigned thread = 0;  // Instruction: issuing thread
  uint32_t word = 0;    // Instruction: raw word (opcode in 31:24)
  FieldWrite field;     // Field
};

// The rows (row number, datums) the unpacker writes into its current bank before handing it over.
// Never empty (the first row write carries the format tag).
struct UnpackFill {
  uint32_t format = 0;  // DataFormat code
  std::vector<std::pair<unsigned, std::array<uint32_t, 16>>> rows;
};

class Stimulus {
 public:
  virtual ~Stimulus();
  virtual const InitialState& initial() const = 0;
  virtual std::optional<Step> next() = 0;              // program order across threads; nullopt = end
  virtual UnpackFill next_fill(unsigned operand) = 0;  // each time unpacker `operand` owns a bank again
  virtual std::string description() const = 0;
  // Instruction steps emitted so far (the generator may run ahead of next()).
  virtual uint64_t instructions_generated() const = 0;
  // True for a sequence built so that no instruction reads a Dst row an earlier one still in flight
  // writes (the windows are far apart, and no ZEROACC): the RTL then has no reason to hold anything for
  // the Dst hazard, and a stall it reports is a testbench failure (a spurious stall costs cycles, which
  // the result compare cannot see).
  virtual bool forbids_dst_hazard_stalls() const { return false; }
};

// Throws tmu::Error(BadInput) naming the test for an unknown name.
std::unique_ptr<Stimulus> make_stimulus(const std::string& test, Arch arch, uint64_t seed, uint64_t instructions);
std::vector<std::string> stimulus_tests();  // every name make_stimulus accepts
std::vector<std::string> directed_tests();  // the directed LLK sequences (the short regression runs all)

// Helpers for a testbench or test that mirrors the stimulus onto a plain TensixState (the scoreboard
// does the same through its own calls).
void apply_initial_state(TensixState& state, const InitialState& init);  // back-door, like the preloads
void apply_field(TensixState& state, const FieldWrite& w);               // throws Error(BadInput)
// Unpacker `operand` writes the fill into its current bank (must be held by the Unpackers; throws
// Error(BadInput) otherwise), tags it and hands it over.
void apply_fill(TensixState& state, unsigned operand, const UnpackFill& fill);

}  // namespace tmu::tb

// The lock-step scoreboard a co-simulation testbench drives: the stimulus it applies to the RTL is
// mirrored onto a TensixState, every instruction the RTL retires is executed on the model for the
// same thread, and every architectural write the RTL reports is compared against the model's
// WriteSet and values. Mismatches come back as records and as report text a DV engineer can act on
// (docs/scoreboard.md). This header is simulator-independent: it never includes svdpi.h; the DPI-C
// adapter (tb/dpi/tmu_dpi.cpp) converts SystemVerilog values into the records below.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tmu/engine.h"
#include "tmu/tensix/exec.h"
#include "tmu/tensix/fpu/datapath.h"
#include "tmu/tensix/state.h"
#include "tmu/tensix/state_fields.h"

namespace tmu::tensix {

// ---------------------------------------------------------------------------------------------
// The retirement observation record: what the RTL's observation port reports for one retired
// instruction. Every write is reported in the storage domain (DstBits rows, Src bank rows, GPRs),
// so the RTL never has to know which view (Dst16b / Dst32b) an instruction used.
// ---------------------------------------------------------------------------------------------

enum class SrcOperand : uint8_t { SrcA = 0, SrcB = 1 };
const char* src_operand_name(SrcOperand s);

// One DstBits row (16-bit storage row 0..1023) after the instruction: all 16 columns and the row's
// validity. A Dst32b write is two such rows (the high half at Adj32(row), the low half 8 rows on).
// An instruction that only changes validity (ZEROACC) may report the row without values
// (has_values = false); the bits are then checked to be the ones the row held before.
struct ObservedDstRow {
  uint16_t row = 0;
  std::array<uint16_t, kDstCols> values{};
  bool valid = false;
  bool has_values = true;
};

// One Src row after the instruction: 16 datums of 19 bits.
struct ObservedSrcRow {
  SrcOperand operand = SrcOperand::SrcA;
  uint8_t bank = 0;
  uint8_t row = 0;
  std::array<uint32_t, kSrcCols> values{};
};

struct ObservedGpr {
  uint8_t thread = 0;
  uint8_t index = 0;
  uint32_t value = 0;
};

// Bank state after the instruction: the Matrix Unit's bank pointers, each bank's AllowedClient and
// the bank each unpacker writes next.
struct ObservedBanks {
  uint8_t srca_bank = 0;
  uint8_t srcb_bank = 0;
  std::array<SrcClient, kSrcBanks> srca_allowed{};
  std::array<SrcClient, kSrcBanks> srcb_allowed{};
  std::array<uint8_t, 2> unpacker_bank{};
};

// Optional per-stage values of one datapath element (MVMUL/DOTPV/GAPOOL/ELW*), for an RTL that
// exposes its pipeline. Each stage present is compared with the model's trace, in pipeline order.
struct StageProbe {
  uint16_t dst_row = 0;  // storage row of the element (the high-half row for Dst32b)
  uint8_t col = 0;
  std::optional<std::array<fpu::SliceProduct, fpu::kDotLength>> products;  // MVMUL family only
  std::optional<std::array<fpu::AccTerm, 2>> group_sums;                   // MVMUL family only
  std::optional<uint32_t> accum_magnitude;  // |sum| before normalisation (AccumTrace::magnitude)
  std::optional<uint32_t> result_word;      // accumulator word after rounding (FP32 bit order)
};

// What the RTL did with an instruction: executed it, or refused it (then it must change nothing), and
// why: the classes of tmu::ErrorKind (DecodeError; UndefinedBehaviour and NonContractualBehaviour;
// Unsupported).
enum class RtlVerdict : uint8_t { Executed, DecodeError, Undefined, Unsupported };
const char* rtl_verdict_name(RtlVerdict v);

struct Observation {
  uint8_t thread = 0;  // issuing thread 0..2
  RtlVerdict verdict = RtlVerdict::Executed;
  uint32_t word = 0;   // raw instruction word (opcode in 31:24)
  uint64_t cycle = 0;  // the RTL's cycle of retirement (for reports only)
  std::vector<ObservedDstRow> dst;
  std::vector<ObservedSrcRow> src;
  std::vector<ObservedGpr> gprs;
  // Reported state after the instruction. When present it is compared whether or not the model
  // wrote it; when absent and the model wrote it, that is a missing write.
  std::optional<Rwc> rwcs;              // the issuing thread's RWCs
  std::optional<ObservedBanks> banks;
  std::optional<uint8_t> last_srca_row;  // MatrixUnitState::LastSrcARow (SHIFTXA's input row)
  std::vector<StageProbe> probes;
};

// ---------------------------------------------------------------------------------------------
// Mismatch records
// ---------------------------------------------------------------------------------------------

enum class MismatchKind : uint8_t {
  ValueDiffers,    // both wrote the location, with different bits
  MissingWrite,    // the model wrote it, the RTL did not report it
  ExtraWrite,      // the RTL reported a write the model did not make
  ModelStall,      // the RTL retired an instruction the model says must wait
  ModelError,      // the model refuses the instruction (decode error, undefined behaviour)
  RtlRefused,      // the RTL refused an instruction the model executes, or refused it for another reason
  BadObservation,  // the observation itself is malformed (row out of range, reported twice, ...)
  FinalState,      // end-of-test full-state compare
};
const char* mismatch_kind_name(MismatchKind k);

enum class Target : uint8_t { None, Dst, DstValidity, SrcA, SrcB, Gpr, Rwc, Banks, MatrixUnit, Config };
const char* target_name(Target t);

struct MismatchLocation {
  Target target = Target::None;
  unsigned thread = 0;  // Gpr, Rwc, Config (ThreadConfig/AddrMod)
  unsigned bank = 0;    // SrcA/SrcB
  unsigned row = 0;     // Dst storage row, Src row
  unsigned col = 0;     // Dst/Src column
  unsigned index = 0;   // GPR index
  std::string field;    // Rwc/Banks/Config: the differing field names
  std::string text;     // "Dst32b row 4 col 3 (DstBits row 8, high half)"
};

// The model's recomputation of one datapath element with its stage functions.
struct DatapathDiagnosis {
  std::string operation;   // "MVMUL element (i=3, j=5)"
  unsigned fidelity_phase = 0;
  std::string srca_slice;  // which SrcA mantissa bits the phase multiplies
  std::string srcb_slice;
  // "fidelity_slice" | "align_group_sum" | "accum_normalize" | "elw_adder" | "accumulate" (INT8) |
  // "shift_round" (every stage's rounding) | "gmpool_compare" | "storage" (one bit flipped after the
  // datapath) | ""
  std::string first_stage;
  std::string explanation;  // the heuristic's finding
  std::vector<std::string> also_consistent;  // other single perturbations reproducing the RTL value
  std::string stage_values;  // the model's value at every stage, one per line
  bool recompute_matches_model = true;  // self-check of the scoreboard's operand addressing
  std::string probe_departure;  // when the RTL reported stage values: where they first depart
};

struct Mismatch {
  MismatchKind kind = MismatchKind::ValueDiffers;
  uint64_t cycle = 0;
  unsigned thread = 0;
  uint32_t word = 0;
  std::string disassembly;
  MismatchLocation where;
  uint32_t expected = 0, actual = 0;        // raw bits (Dst: the 16-bit storage value)
  std::string expected_text, actual_text;   // bits and value in the active format
  std::optional<DatapathDiagnosis> datapath;
  std::string replay_program;  // self-contained `tmu run` program (empty for FinalState)
  std::string replay_path;     // where it was saved, if a replay directory was given
  std::string replay_command;  // the caller's command template, filled in
  std::string report;          // everything above as text
};

// ---------------------------------------------------------------------------------------------
// The scoreboard
// ---------------------------------------------------------------------------------------------

// How an instruction sees Dst, for showing values in the active format (display only).
struct DstView {
  bool dst32 = false;  // Dst32b (FP32, or INT32 with int32)
  bool int32 = false;
  SrcStyle style = SrcStyle::BF16;  // Dst16b format: BF16 for BF16/TF32, else FP16 / INT8
};
DstView active_dst_view(const TensixState& before, const Insn& insn, unsigned thread);
// The style a Src bank's datums are read in (ALU_ACC_CTRL INT8 math, Blackhole's bank tag, or
// ALU_FORMAT_SPEC with its override), for the issuing thread's configuration.
SrcStyle active_src_style(const TensixState& state, SrcOperand operand, unsigned bank, unsigned thread);

struct ScoreboardOptions {
  Arch arch = Arch::Blackhole;
  std::string test_name = "unnamed";
  uint64_t seed = 0;
  // The command that replays the failing run, with placeholders {test} {seed} {cycle} {thread}
  // {replay} (the saved replay program's path), e.g. "build/tmu_tb --test {test} --seed {seed}".
  std::string replay_command_template;
  std::string replay_dir;        // when set, each failing instruction's replay program is saved here
  // How the report names the command-line tool for a saved replay program ("no simulator: tmu run
  // FILE"): tmu_tb gives the tmu of its own build, which need not be on PATH.
  std::string tmu_command = "tmu";
  unsigned history_depth = 8;    // retired instructions shown before the failing one
  unsigned max_reports = 32;     // full reports kept; later mismatches are only counted
  bool compare_invalid_dst_bits = true;  // final_compare: bits of invalid Dst rows too
};

class Scoreboard {
 public:
  explicit Scoreboard(ScoreboardOptions options = {});

  // ---- Stimulus: whatever the testbench drives into the RTL it also calls here ----
  // Named fields (state_fields.h): scope Config takes index = config state (0/1); ThreadConfig,
  // AddrMod (index = slot) and Rwc take the thread; Global ignores both. Throws Error(BadInput) for an
  // unknown name or a value wider than the field.
  void set_field(FieldScope scope, const std::string& name, uint32_t value, unsigned thread = 0, unsigned index = 0);
  void set_config(unsigned state_id, const ConfigRegs& regs);
  void set_thread_config(unsigned thread, const ThreadConfigRegs& regs);
  void set_addr_mod(unsigned thread, unsigned slot, const AddrModAB& ab, const AddrModDst& dst,
                    const AddrModBias& bias);
  // The unpacker for `operand` writes one row of the bank it currently points at, tagging the bank
  // with the data format (Blackhole's implied formats). Throws Error(BadInput) if the Matrix Unit
  // holds that bank: the RTL's unpacker would have had to wait.
  void unpack_src_row(SrcOperand operand, unsigned row, const std::array<uint32_t, kSrcCols>& values,
                      DataFormat format);
  // The unpacker sets dvalid: its bank goes to the Matrix Unit and it moves on to the other bank.
  void hand_over_src_bank(SrcOperand operand);
  // Back-door preloads (initial state), no ownership rules.
  void preload_src_row(SrcOperand operand, unsigned bank, unsigned row, const std::array<uint32_t, kSrcCols>& values);
  void set_src_bank(SrcOperand operand, unsigned bank, SrcClient allowed, DataFormat format);
  void set_unpacker_bank(SrcOperand operand, unsigned bank);
  void preload_dst_row(unsigned storage_row, const std::array<uint16_t, kDstCols>& values, bool valid);
  void preload_dst16(unsigned row, const std::array<uint16_t, kDstCols>& values);  // marks it valid
  void preload_dst32(unsigned row32, const std::array<uint32_t, kDstCols>& values); // marks it valid
  void preload_gpr(unsigned thread, unsigned index, uint32_t value);

  // ---- Checking ----
  // Executes obs.word on the model for obs.thread and compares. Returns the mismatches this
  // instruction produced (also accumulated; see mismatches()). Never throws for RTL misbehaviour:
  // a model refusal or stall is itself a mismatch.
  std::vector<Mismatch> retire(const Observation& obs);
  // End of test: compares the RTL's whole architectural state with the model's. Configuration
  // (Config, ThreadConfig, ADDR_MOD, Global fields) is compared field by field, Dst bits (and, per
  // options, those of invalid rows) and validity, both banks of SrcA/SrcB, bank ownership and
  // pointers, RWCs and GPRs of every thread.
  std::vector<Mismatch> final_compare(const TensixState& rtl);
  // A Dst read port outside the Matrix Unit (the packer's): the window of 8 rows from `row`, in the
  // 16-bit view (row = DstBits row) or the 32-bit view (row = Dst32b row, 0..511), 16 columns per
  // row as 32-bit lanes (lane 16 * k + c): Dst16b {16'b0, bits}; Dst32b {bits of Adj32(row), bits 8
  // rows on}; a row whose (high-half) storage row is invalid reads as 0. Compared with the model's
  // Dst as it stands (call after the last retirement); differences are FinalState mismatches.
  std::vector<Mismatch> compare_dst_read(unsigned row, bool dst32, const std::array<uint32_t, 8 * kDstCols>& lanes);

  // ---- Queries ----
  const TensixState& model() const { return model_; }
  uint64_t retired() const { return retired_; }
  uint64_t mismatch_count() const { return mismatch_count_; }  // including those beyond max_reports
  const std::vector<Mismatch>& mismatches() const { return mismatches_; }
  std::string report_text() const;  // every kept report, then a count of dropped ones
  const ScoreboardOptions& options() const { return options_; }
  void set_test(const std::string& name, uint64_t seed);

  struct HistoryEntry {
    uint64_t cycle;
    unsigned thread;
    uint32_t word;
    std::string text;  // disassembly, or why it could not be decoded / executed
  };

 private:
  struct RetireContext;

  void record(std::vector<Mismatch>& out, Mismatch m, RetireContext* rc);
  std::vector<Mismatch> retire_into(RetireContext& rc);
  void count_locations(const RetireContext& rc, std::vector<Mismatch>& out);
  void compare_dst(RetireContext& rc, std::vector<Mismatch>& out);
  void compare_src(RetireContext& rc, std::vector<Mismatch>& out);
  void compare_gprs(RetireContext& rc, std::vector<Mismatch>& out);
  void compare_small_state(RetireContext& rc, std::vector<Mismatch>& out);
  void compare_final(const TensixState& rtl, std::vector<Mismatch>& out);
  // Fills m.report (and, for a kept report, the replay program and command).
  void finish_report(Mismatch& m, RetireContext* rc, bool full);

  ScoreboardOptions options_;
  TensixState model_;
  TensixState before_;  // the model's state before the instruction being retired
  std::array<DstView, kDstRows> dst_views_{};  // the view of each row's last writer, for final reports
  std::deque<HistoryEntry> history_;
  std::vector<Mismatch> mismatches_;
  uint64_t retired_ = 0;
  uint64_t mismatch_count_ = 0;
};

// ---- Pieces the scoreboard is built from, public for tests and tools ----

// Storage-row <-> Dst32b row: the Dst32b row whose high or low half lives in DstBits row `storage`.
struct Dst32Place {
  uint32_t row32;
  bool low_half;
};
Dst32Place dst32_place_of_storage_row(uint32_t storage_row);

// A self-contained `tmu run` program (docs/program-format.md) that sets up `before` as far as one
// instruction of `thread` can read it and then executes `word`.
std::string replay_program_text(const TensixState& before, unsigned thread, uint32_t word,
                                const std::string& title);

// Recomputes one Dst element of a datapath instruction (MVMUL/DOTPV/GAPOOL/ELWMUL/ELWADD/ELWSUB, and GMPOOL's top row)
// from the state it read and diagnoses an RTL value against it. storage_row/col name the element
// (for Dst32b either half's storage row). Returns nullopt for other instructions or elements the
// instruction did not write. `expected`/`actual` are the element's stored values (Dst16b: 16 bits;
// Dst32b: the 32-bit value). `probe` is the RTL's own stage values, if it reported them.
std::optional<DatapathDiagnosis> diagnose_datapath_element(const TensixState& before, unsigned thread,
                                                           uint32_t word, uint32_t storage_row, uint32_t col,
                                                           uint32_t expected, uint32_t actual,
                                                           const StageProbe* probe = nullptr);

// The generic scoreboard of the engine interface (tmu::EngineScoreboard) for `arch`: declarations
// and operations are `tmu run` program lines, locations Dst, Src and GPR rows (docs/scoreboard.md).
std::unique_ptr<EngineScoreboard> make_engine_scoreboard(Arch arch);

}  // namespace tmu::tensix

// Shared by the scoreboard's source files: the per-retirement working context and the small text
// and comparison helpers the comparison, report and final-compare code all use.
#pragma once

#include <optional>
#include <string>

#include "tmu/tensix/decode.h"
#include "tmu/tensix/scoreboard.h"

namespace tmu::tensix {

struct Scoreboard::RetireContext {
  explicit RetireContext(const Observation& o) : obs(o) {}
  const Observation& obs;
  std::optional<Insn> insn;
  std::string disassembly;
  ExecResult result;
  DstView view;
  // Made once per instruction, on its first mismatch.
  bool replay_made = false;
  std::string replay_program, replay_path, replay_check;
  // The instruction's first mismatch gets the full report; the others one line each after it.
  bool reported_in_full = false;
  size_t first_kept = 0;      // its place in mismatches_ (when kept)
  bool first_was_kept = false;
  uint64_t locations = 0;     // mismatches of this instruction
};

namespace sb_detail {

std::string hex(uint32_t value, int digits);
std::string dst_row_text(const std::array<uint16_t, kDstCols>& values, bool valid);
std::string src_row_text(const std::array<uint32_t, kSrcCols>& values);

// "Dst16b row 3 col 5 (DstBits row 3)" or "Dst32b row 4 col 3 (DstBits row 8, high half)".
std::string dst_location_text(uint32_t storage_row, uint32_t col, const DstView& view);
// The element's value in the view: 16 bits, or the 32-bit value with the other half taken from
// `other_half` (the storage row paired with storage_row).
uint32_t dst_element_value(uint16_t this_half, uint16_t other_half, bool low_half, const DstView& view);
std::string describe_dst_element(uint32_t value, const DstView& view);
// Paired storage row of a Dst32b value: high <-> low half.
uint32_t dst32_partner_row(uint32_t storage_row);

ObservedBanks banks_of(const TensixState& s);
// "Dst: expected 8, actual 16; FidelityPhase: expected 1, actual 0" ("" when equal); names gets the
// differing field names separated by commas.
std::string rwc_difference(const Rwc& expected, const Rwc& actual, std::string* names);
std::string banks_difference(const ObservedBanks& expected, const ObservedBanks& actual, std::string* names);
std::string rwc_text(const Rwc& r);
std::string banks_text(const ObservedBanks& b);

// Placeholders {test} {seed} {cycle} {thread} {replay}; unknown braces are left as they are.
std::string fill_command(const std::string& tmpl, const std::string& test, uint64_t seed, uint64_t cycle,
                         unsigned thread, const std::string& replay_path);

// Runs a replay program and checks it leaves every location in `writes` as the model left it in
// `after`; "" when it does, else the first difference.
std::string check_replay(const std::string& program, const TensixState& after, const WriteSet& writes, unsigned thread);

// Which bits differ: "bit 0" / "bits 3, 7" / "mask 0x00ff00ff (16 bits)".
std::string differing_bits_text(uint32_t expected, uint32_t actual, int digits);

// diagnosis.cpp: the explanation of a value that differs from the datapath's in exactly one bit,
// which no stage explains (a storage or transport fault), naming the DstBits row, column and bit;
// "" when more than one bit differs.
std::string single_bit_storage(uint32_t expected, uint32_t actual, bool dst32, uint32_t storage_row, uint32_t col);

// diagnosis_gmpool.cpp: diagnose_datapath_element for GMPOOL, whose column maximum is recomputed
// with the model's gmpool_column and its row visit order perturbed.
std::optional<DatapathDiagnosis> diagnose_gmpool_element(const TensixState& before, const Insn& insn, unsigned thread,
                                                         uint32_t storage_row, uint32_t col, uint32_t expected,
                                                         uint32_t actual);

}  // namespace sb_detail
}  // namespace tmu::tensix

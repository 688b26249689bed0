#include "../insn/context.h"

#include <algorithm>

#include <fmt/format.h>

namespace tmu::tensix {

// An instruction writes a row's datums one after another (a Dst32b datum: its high, then its low
// storage row), so the last two rows noted are checked first: the search through every row noted
// so far (up to 1024) was a large part of a matmul's run.
void WriteSet::note_dst_row(uint32_t row) {
  const size_t n = dst_rows.size();
  if ((n >= 1 && dst_rows[n - 1] == row) || (n >= 2 && dst_rows[n - 2] == row)) return;
  if (std::find(dst_rows.begin(), dst_rows.end(), row) == dst_rows.end()) {
    // A matrix instruction writes 8 rows (16 storage rows with Dst32b): one allocation, not five.
    if (dst_rows.capacity() == 0) dst_rows.reserve(16);
    dst_rows.push_back(static_cast<uint16_t>(row));
  }
}
void WriteSet::note_srca_row(uint32_t bank, uint32_t row) {
  if (!srca_rows.empty() && srca_rows.back().bank == bank && srca_rows.back().row == row) return;
  for (const SrcRow& r : srca_rows)
    if (r.bank == bank && r.row == row) return;
  srca_rows.push_back({static_cast<uint8_t>(bank), static_cast<uint8_t>(row)});
}
void WriteSet::note_srcb_row(uint32_t bank, uint32_t row) {
  if (!srcb_rows.empty() && srcb_rows.back().bank == bank && srcb_rows.back().row == row) return;
  for (const SrcRow& r : srcb_rows)
    if (r.bank == bank && r.row == row) return;
  srcb_rows.push_back({static_cast<uint8_t>(bank), static_cast<uint8_t>(row)});
}
void WriteSet::note_gpr(uint32_t index) {
  if (std::find(gprs.begin(), gprs.end(), index) == gprs.end()) gprs.push_back(static_cast<uint8_t>(index));
}

void WriteSet::note_l1_bytes(uint64_t addr, uint64_t n) {
  if (n == 0) return;
  for (uint64_t line = addr & ~uint64_t{15}; line < addr + n; line += 16)
    if (std::find(l1_lines.begin(), l1_lines.end(), line) == l1_lines.end()) l1_lines.push_back(static_cast<uint32_t>(line));
}
void WriteSet::note_adc_set(unsigned thread, unsigned unit) {
  const auto key = static_cast<uint8_t>(thread * 3 + unit);
  if (std::find(adc_sets.begin(), adc_sets.end(), key) == adc_sets.end()) adc_sets.push_back(key);
}

const char* src_client_name(SrcClient c) { return c == SrcClient::MatrixUnit ? "MatrixUnit" : "Unpackers"; }

namespace insn {

bool ExecContext::wait_for_src() {
  const std::array<bool, 2> need = src_waits(insn.op());
  std::string why;
  if (need[0] && !matrix_unit_holds_bank(s, 0))
    why = fmt::format("SrcA bank {} is held by the Unpackers", s.MatrixUnit.SrcABank);
  if (need[1] && !matrix_unit_holds_bank(s, 1))
    why += fmt::format("{}SrcB bank {} is held by the Unpackers", why.empty() ? "" : "; ", s.MatrixUnit.SrcBBank);
  if (why.empty()) return true;
  result.status = ExecResult::Status::Stalled;
  result.stall_reason = std::move(why);
  return false;
}

void ExecContext::release_src_banks() {
  const SrcRelease r = src_release(s, thread, insn);
  if (r.reset) {
    s.MatrixUnit.SrcABank = s.MatrixUnit.SrcBBank = 0;
    s.Unpackers[0].SrcBank = s.Unpackers[1].SrcBank = 0;
    for (unsigned b = 0; b < kSrcBanks; ++b) {
      s.SrcA[b].AllowedClient = SrcClient::Unpackers;
      s.SrcB[b].AllowedClient = SrcClient::Unpackers;
    }
  }
  for (unsigned o = 0; o < 2; ++o) {
    auto& banks = o ? s.SrcB : s.SrcA;
    uint8_t& pointer = o ? s.MatrixUnit.SrcBBank : s.MatrixUnit.SrcABank;
    if (r.hand_back[o]) banks[pointer].AllowedClient = SrcClient::Unpackers;
    if (r.flip[o]) pointer ^= 1;
  }
  if (r.reset || r.hand_back[0] || r.hand_back[1] || r.flip[0] || r.flip[1]) result.writes.banks = true;
}

void ExecContext::apply_addr_mod(uint32_t addr_mod, bool update_fidelity_phase) {
  tmu::tensix::apply_addr_mod(s, thread, addr_mod, update_fidelity_phase);
  result.writes.rwcs = true;
}

void ExecContext::fail(ErrorKind kind, const std::string& why) const {
  throw Error(kind, fmt::format("{} (thread {}, word 0x{:08x}): {}", insn.mnemonic(), thread, insn.word, why));
}

}  // namespace insn
}  // namespace tmu::tensix

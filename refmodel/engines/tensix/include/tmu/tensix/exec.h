// Execution: one decoded instruction applied to TensixState on behalf of one thread. The result
// says whether it retired or stalled (and why), how many cycles it occupies its unit for, and
// every architectural location it wrote, so a scoreboard can compare exactly those.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tmu/tensix/decode.h"
#include "tmu/tensix/state.h"

namespace tmu::tensix {

// What one retired instruction wrote. Rows are listed once each, in the order first written.
struct WriteSet {
  std::vector<uint16_t> dst_rows;  // DstBits rows (16-bit storage rows), incl. validity changes
  struct SrcRow { uint8_t bank; uint8_t row; };
  std::vector<SrcRow> srca_rows, srcb_rows;
  std::vector<uint8_t> gprs;  // GPR indices of the issuing thread
  bool rwcs = false;          // the issuing thread's RWCs
  bool banks = false;         // bank pointers / AllowedClient / Unpacker banks
  bool matrix_unit = false;   // other Matrix Unit state (e.g. the SHIFTXA row latch)
  std::vector<uint32_t> l1_lines;  // 16-byte L1 lines (their byte addresses) written by PACR
  std::vector<uint8_t> adc_sets;   // ADC counter sets moved: thread * 3 + (0 unpacker 0, 1 unpacker 1, 2 packers)
  bool unpackers = false;          // the banks' format tags and the unpackers' SrcRow counters (UNPACR)
  bool packer = false;             // the packer's output stream state (PACR)

  void note_dst_row(uint32_t row);
  void note_srca_row(uint32_t bank, uint32_t row);
  void note_srcb_row(uint32_t bank, uint32_t row);
  void note_gpr(uint32_t index);
  void note_l1_bytes(uint64_t addr, uint64_t n);  // every 16-byte line [addr, addr + n) touches
  void note_adc_set(unsigned thread, unsigned unit);
};

struct ExecResult {
  enum class Status : uint8_t { Retired, Stalled };
  Status status = Status::Retired;
  std::string stall_reason;  // set when Stalled: what the instruction waits for
  unsigned cycles = 1;       // cycles the instruction occupies its execution unit (1/IPC)
  unsigned latency = 1;      // cycles until its results can be read (MatrixUnit.md, ScalarUnit.md)
  WriteSet writes;
};

// Executes insn for `thread` (0..2). Never executes an instruction whose operands are not ready:
// it returns Stalled with the state untouched. Throws tmu::Error for undefined/unsupported cases.
ExecResult execute(TensixState& state, const Insn& insn, unsigned thread);

// Convenience: decode a raw word for state.arch, then execute.
ExecResult execute_word(TensixState& state, uint32_t raw_word, unsigned thread);

// ApplyAddrMod exactly as RWCs.md (exposed for tests and for the RTL's reference).
void apply_addr_mod(TensixState& state, unsigned thread, uint32_t addr_mod, bool update_fidelity_phase = true);

}  // namespace tmu::tensix

// The LLK sequences' view of the model (llk_machine.h).
#include "tmu/tensix/llk/llk_machine.h"

#include <stdexcept>

#include <fmt/format.h>

#include "tmu/tensix/decode.h"
#include "tmu/tensix/exec.h"
#include "tmu/tensix/llk/src_datum.h"

namespace tmu::tensix::llk {
using namespace tmu::audit;
namespace {

constexpr unsigned kThread = 0;

SrcFields flip_sign(SrcFields f) {
  f.sign ^= 1u;
  return f;
}

}  // namespace

LlkMachine::LlkMachine(const RunConfig& cfg) : cfg_(cfg) {
  s_.arch = cfg.arch;
  ConfigRegs& c = s_.Config[0];
  c.ALU_ACC_CTRL_Fp32_enabled = cfg.dst32;
  // Blackhole takes the operand format from the bank's tag; Wormhole from ALU_FORMAT_SPEC.
  c.ALU_FORMAT_SPEC_REG0_SrcA = c.ALU_FORMAT_SPEC_REG1_SrcB = static_cast<uint8_t>(data_format(cfg.format));
}

void LlkMachine::set_addr_mod(unsigned slot, const AddrMod& a) {
  ThreadConfigRegs& tc = s_.ThreadConfig[kThread];
  tc.ADDR_MOD_AB_SEC[slot] = AddrModAB{a.srca_incr, a.srca_cr, a.srca_clr, a.srcb_incr, a.srcb_cr, a.srcb_clr};
  tc.ADDR_MOD_DST_SEC[slot] =
      AddrModDst{a.dest_incr, a.dest_cr, a.dest_clr, a.dest_c_to_cr, a.fidelity_incr, a.fidelity_clr};
}

void LlkMachine::issue(const std::string& text, unsigned slot) {
  const bool wormhole = cfg_.arch == Arch::Wormhole;
  const unsigned field = wormhole ? (slot & 3) : slot;
  if (wormhole) s_.ThreadConfig[kThread].ADDR_MOD_SET_Base = slot >= 4;
  if (slot >= by_slot_.size()) return issue(fmt::format("{} AddrMod={}", text, field));
  SlotEntry& e = by_slot_[slot];
  if (e.insn == nullptr || e.text != text) {
    e.insn = &assembled(fmt::format("{} AddrMod={}", text, field));
    e.text = text;
  }
  run(*e.insn, text, static_cast<int>(field));
}

void LlkMachine::issue(const std::string& text) { run(assembled(text), text); }

const Insn& LlkMachine::assembled(const std::string& text) {
  auto it = cache_.find(text);
  if (it == cache_.end()) it = cache_.emplace(text, assemble(text, cfg_.arch)).first;
  return it->second;
}

void LlkMachine::run(const Insn& insn, const std::string& text, int addr_mod) {
  const ExecResult r = execute(s_, insn, kThread);
  if (r.status != ExecResult::Status::Retired) {
    const std::string issued = addr_mod < 0 ? text : fmt::format("{} AddrMod={}", text, addr_mod);
    throw std::runtime_error(fmt::format("precision audit: '{}' did not retire: {}", issued, r.stall_reason));
  }
}

SrcBank& LlkMachine::unpack_target(bool srca) {
  // Tagging before the fill is the same as after: the datums do not depend on the tag.
  SrcBank& bank = srca ? s_.SrcA[s_.MatrixUnit.SrcABank] : s_.SrcB[s_.MatrixUnit.SrcBBank];
  bank.Format = data_format(cfg_.format);
  bank.AllowedClient = SrcClient::MatrixUnit;
  return bank;
}

void LlkMachine::flip_srcb_signs() {
  SrcBank& bank = s_.SrcB[s_.MatrixUnit.SrcBBank];
  for (auto& row : bank.Rows)
    for (uint32_t& d : row) d = pack_src(flip_sign(unpack_src(d, SrcStyle::TF32)), SrcStyle::TF32);
}

double dst_word_value(uint32_t stored, SrcFormat f, bool dst32) {
  if (dst32) return fp32_bits_value(dst32_to_fp32(stored));
  const auto stored16 = static_cast<uint16_t>(stored);
  return f == SrcFormat::FP16 ? fp16_bits_value_matrix_unit(dst16_to_fp16(stored16))
                              : bf16_bits_value(dst16_to_bf16(stored16));
}

double LlkMachine::dst_value(unsigned dst_row, unsigned col) const {
  return dst_word_value(cfg_.dst32 ? s_.Dst.read32(dst_row, col, 0) : s_.Dst.read16(dst_row, col, 0), cfg_.format,
                        cfg_.dst32);
}

void LlkMachine::write_dst(unsigned dst_row, unsigned col, double v) {
  const OutFormat& f = output_format(cfg_.format, cfg_.dst32);
  const uint32_t bits = encode_bits(v, f);
  if (cfg_.dst32) {
    s_.Dst.write32(dst_row, col, dst32_from_fp32(bits));
  } else {
    const auto b16 = static_cast<uint16_t>(bits);
    s_.Dst.write16(dst_row, col, cfg_.format == SrcFormat::FP16 ? dst16_from_fp16(b16) : dst16_from_bf16(b16));
  }
}

uint32_t LlkMachine::dst32_bits(unsigned dst_row, unsigned col) const { return s_.Dst.read32(dst_row, col, 0); }
uint16_t LlkMachine::dst16_bits(unsigned dst_row, unsigned col) const { return s_.Dst.read16(dst_row, col, 0); }

unsigned LlkMachine::phase_counter() const {
  return (s_.RWCs[kThread].FidelityPhase + s_.ThreadConfig[kThread].FIDELITY_BASE_Phase) & 3u;
}

}  // namespace tmu::tensix::llk

// Text helpers of the scoreboard: values in the active format, locations, RWC and bank differences,
// the replay command. Display only; nothing here decides a comparison.
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "scoreboard_internal.h"

namespace tmu::tensix {

const char* src_operand_name(SrcOperand s) { return s == SrcOperand::SrcA ? "SrcA" : "SrcB"; }

const char* mismatch_kind_name(MismatchKind k) {
  switch (k) {
    case MismatchKind::ValueDiffers: return "value differs";
    case MismatchKind::MissingWrite: return "missing write";
    case MismatchKind::ExtraWrite: return "extra write";
    case MismatchKind::ModelStall: return "model stalls";
    case MismatchKind::ModelError: return "model refuses the instruction";
    case MismatchKind::RtlRefused: return "RTL refusal differs";
    case MismatchKind::BadObservation: return "malformed observation";
    case MismatchKind::FinalState: return "final state differs";
  }
  return "?";
}

const char* rtl_verdict_name(RtlVerdict v) {
  switch (v) {
    case RtlVerdict::Executed: return "executed";
    case RtlVerdict::DecodeError: return "decode error";
    case RtlVerdict::Undefined: return "undefined";
    case RtlVerdict::Unsupported: return "unsupported";
  }
  return "?";
}

const char* target_name(Target t) {
  switch (t) {
    case Target::None: return "none";
    case Target::Dst: return "Dst";
    case Target::DstValidity: return "Dst validity";
    case Target::SrcA: return "SrcA";
    case Target::SrcB: return "SrcB";
    case Target::Gpr: return "GPR";
    case Target::Rwc: return "RWC";
    case Target::Banks: return "bank state";
    case Target::MatrixUnit: return "Matrix Unit state";
    case Target::Config: return "configuration";
  }
  return "?";
}

Dst32Place dst32_place_of_storage_row(uint32_t storage_row) {
  // Inverse of adj32_row for Dst32b rows 0..511: DstBits bits 9:4 are row bits 8:3, bits 2:0 are
  // row bits 2:0, and bit 3 selects the half (the low half is 8 rows after the high half).
  const uint32_t s = storage_row & (kDstRows - 1);
  return Dst32Place{(bits<9, 4>(s) << 3) | bits<2, 0>(s), bits<3, 3>(s) != 0};
}

namespace sb_detail {

std::string hex(uint32_t value, int digits) { return fmt::format("0x{:0{}x}", value, digits); }

std::string dst_row_text(const std::array<uint16_t, kDstCols>& values, bool valid) {
  std::string out = "[";
  for (unsigned c = 0; c < kDstCols; ++c) out += (c ? " " : "") + hex(values[c], 4);
  return out + (valid ? "] valid" : "] invalid");
}

std::string src_row_text(const std::array<uint32_t, kSrcCols>& values) {
  std::string out = "[";
  for (unsigned c = 0; c < kSrcCols; ++c) out += (c ? " " : "") + hex(values[c], 5);
  return out + "]";
}

uint32_t dst32_partner_row(uint32_t storage_row) { return storage_row ^ kDst32LowHalfRowOffset; }

std::string dst_location_text(uint32_t storage_row, uint32_t col, const DstView& view) {
  if (!view.dst32) return fmt::format("Dst16b row {} col {} (DstBits row {})", storage_row, col, storage_row);
  const Dst32Place p = dst32_place_of_storage_row(storage_row);
  return fmt::format("Dst32b row {} col {} (DstBits row {}, {} half)", p.row32, col, storage_row,
                     p.low_half ? "low" : "high");
}

uint32_t dst_element_value(uint16_t this_half, uint16_t other_half, bool low_half, const DstView& view) {
  if (!view.dst32) return this_half;
  return low_half ? (uint32_t{other_half} << 16) | this_half : (uint32_t{this_half} << 16) | other_half;
}

std::string describe_dst_element(uint32_t value, const DstView& view) {
  if (view.dst32) return describe_dst32(value, view.int32);
  return describe_dst16(static_cast<uint16_t>(value), view.style);
}

ObservedBanks banks_of(const TensixState& s) {
  ObservedBanks b;
  b.srca_bank = s.MatrixUnit.SrcABank;
  b.srcb_bank = s.MatrixUnit.SrcBBank;
  for (unsigned i = 0; i < kSrcBanks; ++i) {
    b.srca_allowed[i] = s.SrcA[i].AllowedClient;
    b.srcb_allowed[i] = s.SrcB[i].AllowedClient;
  }
  b.unpacker_bank = {s.Unpackers[0].SrcBank, s.Unpackers[1].SrcBank};
  return b;
}

namespace {

template <typename T>
void note_field(std::string& text, std::string* names, const char* name, const T& expected, const T& actual) {
  if (expected == actual) return;
  text += fmt::format("{}{}: expected {}, actual {}", text.empty() ? "" : "; ", name, expected, actual);
  if (names) *names += fmt::format("{}{}", names->empty() ? "" : ",", name);
}

}  // namespace

std::string rwc_difference(const Rwc& e, const Rwc& a, std::string* names) {
  std::string t;
  note_field(t, names, "Dst", unsigned{e.Dst}, unsigned{a.Dst});
  note_field(t, names, "Dst_Cr", unsigned{e.Dst_Cr}, unsigned{a.Dst_Cr});
  note_field(t, names, "SrcA", unsigned{e.SrcA}, unsigned{a.SrcA});
  note_field(t, names, "SrcA_Cr", unsigned{e.SrcA_Cr}, unsigned{a.SrcA_Cr});
  note_field(t, names, "SrcB", unsigned{e.SrcB}, unsigned{a.SrcB});
  note_field(t, names, "SrcB_Cr", unsigned{e.SrcB_Cr}, unsigned{a.SrcB_Cr});
  note_field(t, names, "FidelityPhase", unsigned{e.FidelityPhase}, unsigned{a.FidelityPhase});
  note_field(t, names, "ExtraAddrModBit", unsigned{e.ExtraAddrModBit}, unsigned{a.ExtraAddrModBit});
  return t;
}

std::string banks_difference(const ObservedBanks& e, const ObservedBanks& a, std::string* names) {
  std::string t;
  note_field(t, names, "MatrixUnit.SrcABank", unsigned{e.srca_bank}, unsigned{a.srca_bank});
  note_field(t, names, "MatrixUnit.SrcBBank", unsigned{e.srcb_bank}, unsigned{a.srcb_bank});
  for (unsigned i = 0; i < kSrcBanks; ++i) {
    note_field(t, names, i ? "SrcA[1].AllowedClient" : "SrcA[0].AllowedClient",
               std::string(src_client_name(e.srca_allowed[i])), std::string(src_client_name(a.srca_allowed[i])));
    note_field(t, names, i ? "SrcB[1].AllowedClient" : "SrcB[0].AllowedClient",
               std::string(src_client_name(e.srcb_allowed[i])), std::string(src_client_name(a.srcb_allowed[i])));
  }
  note_field(t, names, "Unpackers[0].SrcBank", unsigned{e.unpacker_bank[0]}, unsigned{a.unpacker_bank[0]});
  note_field(t, names, "Unpackers[1].SrcBank", unsigned{e.unpacker_bank[1]}, unsigned{a.unpacker_bank[1]});
  return t;
}

std::string rwc_text(const Rwc& r) {
  return fmt::format("Dst={} Dst_Cr={} SrcA={} SrcA_Cr={} SrcB={} SrcB_Cr={} FidelityPhase={} ExtraAddrModBit={}",
                     r.Dst, r.Dst_Cr, r.SrcA, r.SrcA_Cr, r.SrcB, r.SrcB_Cr, r.FidelityPhase, r.ExtraAddrModBit);
}

std::string banks_text(const ObservedBanks& b) {
  return fmt::format("MatrixUnit SrcA bank {} SrcB bank {}; SrcA owners [{}, {}]; SrcB owners [{}, {}]; "
                     "unpacker banks [{}, {}]",
                     b.srca_bank, b.srcb_bank, src_client_name(b.srca_allowed[0]), src_client_name(b.srca_allowed[1]),
                     src_client_name(b.srcb_allowed[0]), src_client_name(b.srcb_allowed[1]), b.unpacker_bank[0],
                     b.unpacker_bank[1]);
}

std::string fill_command(const std::string& tmpl, const std::string& test, uint64_t seed, uint64_t cycle,
                         unsigned thread, const std::string& replay_path) {
  const std::pair<const char*, std::string> keys[] = {{"{test}", test},
                                                       {"{seed}", std::to_string(seed)},
                                                       {"{cycle}", std::to_string(cycle)},
                                                       {"{thread}", std::to_string(thread)},
                                                       {"{replay}", replay_path}};
  std::string out;
  for (size_t i = 0; i < tmpl.size();) {
    bool replaced = false;
    for (const auto& [key, value] : keys) {
      if (tmpl.compare(i, std::char_traits<char>::length(key), key) == 0) {
        out += value;
        i += std::char_traits<char>::length(key);
        replaced = true;
        break;
      }
    }
    if (!replaced) out += tmpl[i++];
  }
  return out;
}

std::string differing_bits_text(uint32_t expected, uint32_t actual, int digits) {
  const uint32_t diff = expected ^ actual;
  std::vector<unsigned> positions;
  for (unsigned b = 0; b < 32; ++b)
    if ((diff >> b) & 1u) positions.push_back(b);
  if (positions.empty()) return "none";
  if (positions.size() > 4) return fmt::format("mask {} ({} bits)", hex(diff, digits), positions.size());
  std::string list;
  for (unsigned p : positions) list += (list.empty() ? "" : ", ") + std::to_string(p);
  return fmt::format("{} {} (mask {})", positions.size() == 1 ? "bit" : "bits", list, hex(diff, digits));
}

}  // namespace sb_detail
}  // namespace tmu::tensix

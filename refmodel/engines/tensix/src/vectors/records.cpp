// Vector records: the location spaces, their fields (named as state_fields.h names them, plus the
// bank and unpacker fields it does not cover) and access to a TensixState through a record.
#include <stdexcept>

#include <fmt/format.h>

#include "tmu/tensix/state_fields.h"
#include "tmu/vector_file.h"
#include "tmu/tensix/vectors.h"
#include "conversion.h"

namespace tmu::tensix::vectors {

namespace {

FieldScope scope_of(Space s) {
  switch (s) {
    case Space::Config: return FieldScope::Config;
    case Space::ThreadConfig: return FieldScope::ThreadConfig;
    case Space::AddrMod: return FieldScope::AddrMod;
    case Space::Rwc: return FieldScope::Rwc;
    case Space::Global: return FieldScope::Global;
    default: throw std::logic_error("not a state-field space");
  }
}

bool is_state_field_space(Space s) { return s <= Space::Global; }

// Bank and unpacker fields are not in state_fields.h: they are per bank, not per thread or slot.
constexpr std::array<std::string_view, 2> kBankFields = {"AllowedClient", "Format"};
constexpr std::array<unsigned, 2> kBankFieldWidths = {1, 4};
constexpr std::string_view kUnpackerField = "SrcBank";
// The version-3 spaces' fields: an ADC channel's counters and packer 0's stream state.
constexpr std::array<std::string_view, 8> kAdcFields = {"X", "X_Cr", "Y", "Y_Cr", "Z", "Z_Cr", "W", "W_Cr"};
constexpr unsigned kAdcFieldWidth = 18;
constexpr std::array<std::string_view, 3> kPackerFields = {"NeedsNewAddress", "DataByteAddress", "ExponentByteAddress"};
constexpr std::array<unsigned, 3> kPackerFieldWidths = {1, 21, 21};

uint32_t& adc_counter(TensixState& s, const Record& r) {
  AdcSet& set = s.ADCs[r.a % kNumThreads];
  Adc& adc = r.b / 2 == 2 ? set.Packers : set.Unpacker[r.b / 2 & 1];
  AdcChannel& ch = adc.Channel[r.b & 1];
  uint32_t* const fields[] = {&ch.X, &ch.X_Cr, &ch.Y, &ch.Y_Cr, &ch.Z, &ch.Z_Cr, &ch.W, &ch.W_Cr};
  return *fields[r.field & 7];
}

// The (thread, index) pair a StateField accessor takes for a record.
std::pair<unsigned, unsigned> accessor_indices(const Record& r) {
  switch (r.space) {
    case Space::Config: return {0, r.a};
    case Space::ThreadConfig:
    case Space::Rwc: return {r.a, 0};
    case Space::AddrMod: return {r.a, r.b};
    default: return {0, 0};
  }
}

const StateField& state_field(const Record& r) { return state_fields(scope_of(r.space))[r.field]; }

SrcBank& bank_of(TensixState& s, const Record& r) { return (r.a ? s.SrcB : s.SrcA)[r.b & 1]; }
const SrcBank& bank_of(const TensixState& s, const Record& r) { return (r.a ? s.SrcB : s.SrcA)[r.b & 1]; }

}  // namespace

const char* space_keyword(Space s) {
  switch (s) {
    case Space::Config: return "cfg";
    case Space::ThreadConfig: return "tcfg";
    case Space::AddrMod: return "addrmod";
    case Space::Rwc: return "rwc";
    case Space::Global: return "global";
    case Space::Bank: return "bank";
    case Space::Unpacker: return "unpacker";
    case Space::Gpr: return "gpr";
    case Space::SrcA: return "srca";
    case Space::SrcB: return "srcb";
    case Space::Dst: return "dst";
    case Space::DstValid: return "dstvalid";
    case Space::L1: return "l1line";
    case Space::Adc: return "adc";
    case Space::Packer: return "packer";
    case Space::SrcRow: return "srcrow";
  }
  return "?";
}

bool is_field_space(Space s) { return s <= Space::Unpacker; }

const std::vector<std::string_view>& field_names(Space s) {
  static const auto tables = [] {
    std::array<std::vector<std::string_view>, kNumSpaces> t;
    for (Space sp : {Space::Config, Space::ThreadConfig, Space::AddrMod, Space::Rwc, Space::Global})
      for (const StateField& f : state_fields(scope_of(sp))) t[static_cast<unsigned>(sp)].emplace_back(f.name);
    t[static_cast<unsigned>(Space::Bank)].assign(kBankFields.begin(), kBankFields.end());
    t[static_cast<unsigned>(Space::Unpacker)].push_back(kUnpackerField);
    t[static_cast<unsigned>(Space::Adc)].assign(kAdcFields.begin(), kAdcFields.end());
    t[static_cast<unsigned>(Space::Packer)].assign(kPackerFields.begin(), kPackerFields.end());
    return t;
  }();
  return tables[static_cast<unsigned>(s)];
}

unsigned field_width(Space s, unsigned field) {
  if (is_state_field_space(s)) return state_fields(scope_of(s))[field].width;
  if (s == Space::Bank) return kBankFieldWidths[field];
  if (s == Space::Adc) return kAdcFieldWidth;
  if (s == Space::Packer) return kPackerFieldWidths[field];
  return 1;  // Unpacker SrcBank
}

int find_field(Space s, std::string_view name) {
  const auto& names = field_names(s);
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}

uint64_t Record::location_key() const {
  // DstValid and Dst name the same row's validity; they are still distinct records (a vector may
  // not list both for one row, which the parser checks through this key).
  const Space key_space = space == Space::DstValid ? Space::Dst : space;
  return (uint64_t{static_cast<uint8_t>(key_space)} << 48) | (uint64_t{a} << 32) | (uint64_t{b} << 16) | field;
}

Record read_location(const TensixState& s, const Record& loc) {
  Record r = loc;
  switch (loc.space) {
    case Space::Config:
    case Space::ThreadConfig:
    case Space::AddrMod:
    case Space::Rwc:
    case Space::Global: {
      const auto [thread, index] = accessor_indices(loc);
      r.value = state_field(loc).get(s, thread, index);
      break;
    }
    case Space::Bank: {
      const SrcBank& bank = bank_of(s, loc);
      r.value = loc.field == 0 ? (bank.AllowedClient == SrcClient::MatrixUnit ? 1u : 0u)
                               : static_cast<uint32_t>(bank.Format);
      break;
    }
    case Space::Unpacker: r.value = s.Unpackers[loc.a & 1].SrcBank; break;
    case Space::Gpr: r.value = s.GPRs[loc.a][loc.b]; break;
    case Space::SrcA: r.row = s.SrcA[loc.a & 1].Rows[loc.b]; break;
    case Space::SrcB: r.row = s.SrcB[loc.a & 1].Rows[loc.b]; break;
    case Space::Dst:
      for (unsigned c = 0; c < kDstCols; ++c) r.row[c] = s.Dst.DstBits[loc.a][c];
      r.value = s.Dst.RowValid[loc.a] ? 1 : 0;
      break;
    case Space::DstValid: r.value = s.Dst.RowValid[loc.a] ? 1 : 0; break;
    case Space::L1: {
      const uint32_t addr = l1_line_address(loc);
      for (unsigned i = 0; i < 16; ++i) r.row[i] = s.L1.empty() || addr + i >= s.L1.size() ? 0 : s.L1[addr + i];
      break;
    }
    case Space::Adc: r.value = adc_counter(const_cast<TensixState&>(s), loc); break;
    case Space::Packer:
      r.value = loc.field == 0 ? uint32_t{s.Packer.NeedsNewAddress}
                : loc.field == 1 ? s.Packer.DataByteAddress : s.Packer.ExponentByteAddress;
      break;
    case Space::SrcRow: r.value = s.Unpackers[loc.a & 1].SrcRow[loc.b % kNumThreads]; break;
  }
  return r;
}

void write_location(TensixState& s, const Record& r) {
  switch (r.space) {
    case Space::Config:
    case Space::ThreadConfig:
    case Space::AddrMod:
    case Space::Rwc:
    case Space::Global: {
      const auto [thread, index] = accessor_indices(r);
      state_field(r).set(s, thread, index, r.value);
      break;
    }
    case Space::Bank: {
      SrcBank& bank = bank_of(s, r);
      if (r.field == 0) bank.AllowedClient = r.value ? SrcClient::MatrixUnit : SrcClient::Unpackers;
      else bank.Format = static_cast<DataFormat>(r.value);
      break;
    }
    case Space::Unpacker: s.Unpackers[r.a & 1].SrcBank = static_cast<uint8_t>(r.value); break;
    case Space::Gpr: s.GPRs[r.a][r.b] = r.value; break;
    case Space::SrcA: s.SrcA[r.a & 1].Rows[r.b] = r.row; break;
    case Space::SrcB: s.SrcB[r.a & 1].Rows[r.b] = r.row; break;
    case Space::Dst:
      for (unsigned c = 0; c < kDstCols; ++c) s.Dst.DstBits[r.a][c] = static_cast<uint16_t>(r.row[c]);
      s.Dst.RowValid[r.a] = r.value != 0;
      break;
    case Space::DstValid: s.Dst.RowValid[r.a] = r.value != 0; break;
    case Space::L1: {
      const uint32_t addr = l1_line_address(r);
      if (addr + 16 > l1_size(s.arch)) throw std::out_of_range(fmt::format("L1 line {} is past L1's end", addr));
      if (s.L1.empty()) s.L1.assign(l1_size(s.arch), 0);
      for (unsigned i = 0; i < 16; ++i) s.L1[addr + i] = static_cast<uint8_t>(r.row[i]);
      break;
    }
    case Space::Adc: adc_counter(s, r) = r.value; break;
    case Space::Packer:
      if (r.field == 0) s.Packer.NeedsNewAddress = r.value != 0;
      else (r.field == 1 ? s.Packer.DataByteAddress : s.Packer.ExponentByteAddress) = r.value;
      break;
    case Space::SrcRow: s.Unpackers[r.a & 1].SrcRow[r.b % kNumThreads] = static_cast<uint8_t>(r.value); break;
  }
}

bool is_l1_space(Space s) { return s >= Space::L1; }
uint32_t l1_line_address(const Record& r) { return ((uint32_t{r.a} << 16) | r.b) * 16; }
Record l1_line_location(uint32_t addr) {
  Record r;
  r.space = Space::L1;
  r.a = static_cast<uint16_t>((addr / 16) >> 16);
  r.b = static_cast<uint16_t>((addr / 16) & 0xFFFF);
  return r;
}

const char* view_name(View v) {
  switch (v) {
    case View::Raw: return "raw";
    case View::BF16: return "bf16";
    case View::FP16: return "fp16";
    case View::TF32: return "tf32";
    case View::INT8: return "int8";
    case View::FP32: return "fp32";
    case View::INT32: return "int32";
  }
  return "?";
}

bool parse_view(std::string_view name, View* out) {
  for (View v : {View::Raw, View::BF16, View::FP16, View::TF32, View::INT8, View::FP32, View::INT32}) {
    if (name == view_name(v)) {
      *out = v;
      return true;
    }
  }
  return false;
}

bool is_dst32_view(View v) { return v == View::FP32 || v == View::INT32; }

uint64_t element_cases(const Vector& v) {
  if (v.conversion) return detail::conversion_cases(*v.conversion);
  uint64_t dst_datums = 0, other = 0;
  for (const Record& r : v.expect) {
    switch (r.space) {
      case Space::Dst: dst_datums += kDstCols; break;
      case Space::SrcA:
      case Space::SrcB: other += kSrcCols; break;
      case Space::Gpr: other += 1; break;
      default: break;
    }
  }
  return (is_dst32_view(v.dst_view) ? dst_datums / 2 : dst_datums) + other;
}

std::string FileSpec::relative_path() const { return family + "/" + stem + std::string(tmu::kVectorFileExtension); }

}  // namespace tmu::tensix::vectors

// Vectors of the instructions on L1 (format version 3): UNPACR from L1 into SrcA or SrcB, PACR from
// Dst into L1. Each vector lists every configuration field the instruction reads (all of the
// unpacker's or packer's fields, zeros included), the ADC counters, the bank and SrcRow state, the
// L1 lines read, and for PACR the Dst row and the prior contents of the L1 lines it writes. Level 1
// walks fixed datum patterns (rounding ties, NaN, infinities, denormals, signed zeros, extremes)
// through the row, one rotation per vector; level 2 draws the datums at random.
#include <fmt/format.h>

#include "gen.h"
#include "text.h"
#include "tmu/tensix/l1_formats.h"
#include "tmu/tensix/state_fields.h"

namespace tmu::tensix::vectors::detail {

namespace {

// The configurations a file holds: option "STEM" selects one.
struct L1InsnCase {
  const char* stem;
  bool pack;
  unsigned unpacker;  // UNPACR
  uint32_t in_code, out_code;
  bool read_32b, l1_acc;  // PACR
  const char* what;
};
constexpr L1InsnCase kCases[] = {
    {"fp32-bf16", true, 0, 5, 5, true, false, "PACR: Dst32b FP32 -> BF16 (mode 0x155), one row of 16"},
    {"bf16-bfp8", true, 0, 5, 6, false, false, "PACR: Dst16b BF16 -> BFP8 (mode 0x56), one block of 16"},
    {"fp32-acc", true, 0, 0, 0, true, true, "PACR: Dst32b FP32 -> FP32 with Pack_L1_Acc (mode 0x100)"},
    {"bf16-srca", false, 0, 5, 5, false, false, "UNPACR: unpacker 0, BF16 -> SrcA"},
    {"bfp8-srca", false, 0, 6, 6, false, false, "UNPACR: unpacker 0, BFP8 -> SrcA (BF16 datums)"},
    {"fp32-tf32-srcb", false, 1, 0, 4, false, false, "UNPACR: unpacker 1, FP32 -> SrcB as TF32"},
};

// Fixed patterns, IEEE order: rounding ties and their neighbours, NaN, infinities, denormals,
// signed zeros, the extremes.
constexpr uint32_t kFp32[16] = {0x3f800000, 0x3f808000, 0x3f807fff, 0xbf818000, 0x7fc00001, 0x00000001,
                                0x7f7fffff, 0x80000000, 0x7f800000, 0xff800000, 0x00800000, 0x80800001,
                                0x40490fdb, 0xc2f6e979, 0x3eaaaaab, 0x3f801fff};
constexpr uint16_t kBf16[16] = {0x3f80, 0x3f81, 0xbf40, 0x3e80, 0x7f80, 0xff80, 0x7fc1, 0x0001,
                                0x8000, 0x0000, 0x7f7f, 0x0080, 0x4049, 0xc2f7, 0x3eab, 0x3c00};
constexpr unsigned kLevel1 = 4;  // rotations by 0, 4, 8, 12 columns

constexpr uint32_t kL1Base = 0x1000;  // L1 byte address the tile lives at ((0xff + 1) * 16)
constexpr uint32_t kL1Config = 0xff;

class L1InsnGenerator final : public FileGenerator {
 public:
  L1InsnGenerator(const L1InsnCase& c, Arch arch) : c_(c), arch_(arch) {}

  std::vector<std::string> describe() const override {
    return {c_.what, "datums: fixed patterns (ties, NaN, infinities, denormals, signed zeros, extremes) rotated by 4 "
                     "columns per level-1 vector; level 2 draws them at random",
            "every field of the unpacker or packer is listed (zeros too): what the instruction reads"};
  }
  size_t level1_count() const override { return kLevel1; }
  Vector level1(size_t index) const override {
    std::array<uint32_t, 16> d{};
    for (unsigned i = 0; i < 16; ++i) d[i] = datum_of(i + 4 * static_cast<unsigned>(index));
    return build(d, fmt::format("rotation {}", 4 * index), nullptr);
  }
  Vector random(Rng& rng) const override {
    std::array<uint32_t, 16> d{};
    for (uint32_t& x : d) x = static_cast<uint32_t>(rng.next());
    return build(d, "random datums", &rng);
  }

 private:
  const L1InsnCase& c_;
  Arch arch_;

  uint32_t datum_of(unsigned i) const {
    const bool wide = c_.pack ? c_.read_32b : c_.in_code == 0;
    return wide ? kFp32[i % 16] : kBf16[i % 16];
  }

  // All fields of one unpacker (THCON_SECn_ / UNPn_) or of the packer, at their zero defaults but for
  // those `set` names.
  static void set_all(Builder& b, std::string_view prefix1, std::string_view prefix2,
                      std::initializer_list<std::pair<std::string_view, uint32_t>> set) {
    for (const StateField& f : state_fields(FieldScope::Config)) {
      const std::string_view name = f.name;
      if (name.rfind(prefix1, 0) != 0 && (prefix2.empty() || name.rfind(prefix2, 0) != 0)) continue;
      uint32_t v = 0;
      for (const auto& [n, value] : set)
        if (n == name) v = value;
      b.set_cfg(name, v);
    }
  }

  static void set_adc_set(Builder& b, unsigned unit, uint32_t ch1_x) {
    for (uint16_t ch = 0; ch < 2; ++ch)
      for (std::string_view name : field_names(Space::Adc))
        b.set(Space::Adc, static_cast<uint16_t>(b.thread()), static_cast<uint16_t>(unit * 2 + ch), name,
              ch == 1 && name == "X" ? ch1_x : 0);
  }

  static void set_l1(Builder& b, uint32_t addr, const std::vector<uint8_t>& bytes) {
    for (size_t off = 0; off < bytes.size(); off += 16) {
      Record r = l1_line_location(addr + static_cast<uint32_t>(off));
      for (unsigned i = 0; i < 16 && off + i < bytes.size(); ++i) r.row[i] = bytes[off + i];
      b.set_record(r);
    }
  }

  Vector build(const std::array<uint32_t, 16>& datums, const std::string& note, Rng* rng) const {
    Builder b(arch_, 0);
    b.set_tcfg("CFG_STATE_ID_StateID", 0);
    return c_.pack ? build_pacr(b, datums, note, rng) : build_unpacr(b, datums, note);
  }

  Vector build_pacr(Builder& b, const std::array<uint32_t, 16>& datums, const std::string& note, Rng* rng) const {
    const bool bfp = c_.out_code == 6;
    b.set_cfg("ALU_FORMAT_SPEC_REG2_Dstacc", c_.in_code);
    for (const StateField& f : state_fields(FieldScope::Config)) {
      const std::string_view n = f.name;
      const bool packer = n.rfind("THCON_SEC0_REG1_", 0) == 0 || n.rfind("PCK", 0) == 0 ||
                          n == "DEST_TARGET_REG_CFG_PACK_SEC0_Offset" || n == "ALU_ROUNDING_MODE_Packer_srnd_en" ||
                          n == "STACC_RELU_ApplyRelu";
      if (!packer) continue;
      uint32_t v = 0;
      if (n == "THCON_SEC0_REG1_In_data_format") v = c_.in_code;
      if (n == "THCON_SEC0_REG1_Out_data_format") v = c_.out_code;
      if (n == "THCON_SEC0_REG1_L1_Dest_addr") v = kL1Config;
      if (n == "THCON_SEC0_REG1_Exp_section_size") v = bfp ? 1 : 0;
      if (n == "THCON_SEC0_REG1_Pack_L1_Acc") v = c_.l1_acc;
      if (n == "PCK_DEST_RD_CTRL_Read_32b_data") v = c_.read_32b;
      b.set_cfg(n, v);
    }
    for (std::string_view name : {"YsrcIncr", "YsrcCR", "YsrcClear", "ZsrcIncr", "ZsrcClear", "YdstIncr", "YdstCR",
                                  "YdstClear", "ZdstIncr", "ZdstClear"})
      b.set_addrmod(0, name, name == "YsrcIncr" ? 4 : 0);
    set_adc_set(b, 2, 15);
    for (std::string_view name : field_names(Space::Packer)) b.set(Space::Packer, 0, 0, name, name == "NeedsNewAddress");
    b.set_global("DbgFeatureDisableBit11", 0);  // decides which storage rows Dst16b reads
    if (c_.read_32b) b.set_dst32_row(0, true, row_of([&](unsigned c) { return dst32_from_fp32(datums[c]); }));
    else b.set_dst_row(0, true, row_of([&](unsigned c) { return uint32_t{dst16_from_bf16(static_cast<uint16_t>(datums[c]))}; }));
    // The L1 lines the packer writes (exponents, padding and datums), with their prior contents: it
    // writes whole lines here, and with Pack_L1_Acc it reads them.
    const uint32_t lines = bfp ? 2 : c_.read_32b && c_.out_code == 0 ? 4 : 2;
    std::vector<uint8_t> prior(16 * lines);
    for (size_t i = 0; i < prior.size(); ++i)
      prior[i] = rng ? static_cast<uint8_t>(rng->next()) : c_.l1_acc ? static_cast<uint8_t>(kFp32[(i / 4) % 16] >> (8 * (i % 4))) : 0;
    set_l1(b, kL1Base, prior);
    if (arch_ == Arch::Blackhole) b.insn(Op::PACR, {{Field::ReadIntfSel, 1}, {Field::Last, 1}});
    else b.insn(Op::PACR, {{Field::PackerMask, 1}, {Field::Last, 1}});
    return b.finish("", note, {View::Raw, View::Raw, c_.read_32b ? View::FP32 : View::BF16});
  }

  Vector build_unpacr(Builder& b, const std::array<uint32_t, 16>& datums, const std::string& note) const {
    const unsigned u = c_.unpacker;
    const L1Format in = *l1_format_of_code(c_.in_code, false);
    const L1Format out = *l1_format_of_code(c_.out_code, false);
    const unsigned out_bytes = l1_datum_bits(out) / 8;
    // Output datum 64 is SrcA row 0 (unpacker 0 drops the first four rows); unpacker 1 starts at 0.
    const uint32_t out_base = u == 0 ? 64 * out_bytes : 0;
    const std::string sec = fmt::format("THCON_SEC{}_", u), unp = fmt::format("UNP{}_", u);
    set_all(b, sec, unp,
            {{sec + "REG0_TileDescriptor_InDataFormat", c_.in_code}, {sec + "REG2_Out_data_format", c_.out_code},
             {sec + "REG0_TileDescriptor_IsUncompressed", 1}, {sec + "REG0_TileDescriptor_XDim", 16},
             {sec + "REG0_TileDescriptor_YDim", 1}, {sec + "REG3_Base_address", kL1Config},
             {unp + "ADDR_BASE_REG_1_Base", out_base}});
    for (std::string_view name : {"SRCA_SET_Base", "SRCB_SET_Base", "SRCA_SET_SetOvrdWithAddr"}) b.set_tcfg(name, 0);
    set_adc_set(b, u, 15);
    b.list_bank_state();
    for (uint16_t ab = 0; ab < 2; ++ab)
      for (uint16_t bank = 0; bank < kSrcBanks; ++bank) b.list(Space::Bank, ab, bank, "Format");
    for (uint16_t uu = 0; uu < 2; ++uu)
      for (uint16_t th = 0; th < kNumThreads; ++th) b.set_record(src_row_location(uu, th));
    // L1: for BFP8 a 16-byte exponent section (one exponent, the rest zero) before the datums.
    std::vector<uint8_t> bytes;
    if (l1_is_bfp(in)) {
      bytes.assign(16, 0);
      bytes[0] = static_cast<uint8_t>(datums[0] >> 8);  // the block's exponent from the patterns
    }
    for (unsigned i = 0; i < 16; ++i)
      for (unsigned k = 0; k < l1_datum_bits(in) / 8; ++k) bytes.push_back(static_cast<uint8_t>(datums[i] >> (8 * k)));
    set_l1(b, kL1Base, bytes);
    b.insn(Op::UNPACR, {{Field::WhichUnpacker, u}, {Field::FlipSrc, 1}, {Field::Ch0YInc, 1}});
    const View view = out == L1Format::TF32 ? View::TF32 : View::BF16;
    return b.finish("", note, {u == 0 ? view : View::Raw, u == 1 ? view : View::Raw, View::Raw});
  }
};

}  // namespace

void plan_l1_insn_files(std::vector<FileSpec>& out) {
  for (const L1InsnCase& c : kCases) {
    FileSpec s;
    s.family = c.pack ? "pacr" : "unpacr";
    s.stem = c.stem;
    s.option = c.stem;
    out.push_back(s);
  }
}

std::unique_ptr<FileGenerator> make_l1_insn_generator(const FileSpec& spec, Arch arch) {
  for (const L1InsnCase& c : kCases)
    if (spec.option == c.stem) return std::make_unique<L1InsnGenerator>(c, arch);
  throw std::logic_error("vector generator: no L1 instruction case " + spec.option);
}

}  // namespace tmu::tensix::vectors::detail

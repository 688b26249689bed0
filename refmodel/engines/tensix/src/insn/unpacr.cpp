// UNPACR, the regular form (tenstorrent/tt-isa-documentation, WormholeB0/TensixTile/TensixCoprocessor/
// UNPACR_Regular.md, shared by the Blackhole tree): datums from L1 through one unpacker's format
// conversion into SrcA, SrcB or (unpacker 0) Dst. Uncompressed input only, in single-context mode
// or in MultiContextMode with context 0; the datum conversion is unpack_from_l1 (l1_formats.h). Each
// mode this file does not model is refused by its field name (docs/l1-formats.md, "UNPACR and PACR").
#include <fmt/format.h>

#include "handlers.h"
#include "l1_access.h"
#include "tmu/tensix/l1_formats.h"

namespace tmu::tensix::insn {

namespace {

// "THCON_SEC1_REG2_Tileize_mode" for unpacker 1's REG2_Tileize_mode, "UNP0_..." for the UNP fields.
std::string sec(unsigned u, std::string_view field) { return fmt::format("THCON_SEC{}_{}", u, field); }
std::string unp(unsigned u, std::string_view field) { return fmt::format("UNP{}_{}", u, field); }

bool is_32bit(L1Format f) { return l1_datum_bits(f) == 32; }
bool is_16bit(L1Format f) { return l1_datum_bits(f) == 16; }

}  // namespace

void exec_unpacr(ExecContext& ctx) {
  const unsigned u = ctx.field(Field::WhichUnpacker);
  const UnpackerConfig& c = ctx.cfg().THCON_SEC[u];
  auto refuse = [&](const std::string& field, std::string_view why) {
    ctx.fail(ErrorKind::BadInput, fmt::format("{}: {}", field, why));
  };

  // ---- which context and ADC ----
  const bool multi = ctx.field(Field::MultiContextMode);
  if (ctx.field(Field::RowSearch)) refuse("RowSearch", "row search (compressed or blob input) is not modelled");
  unsigned which_adc = ctx.thread;
  if (multi) {
    if (ctx.field(Field::UseContextCounter)) refuse("UseContextCounter", "the unpackers' context counters are not modelled");
    if (ctx.field(Field::ContextNumber)) refuse("ContextNumber", "contexts other than 0 are not modelled");
    which_adc = ctx.field(Field::ContextADC);
    if (which_adc == 3) refuse("ContextADC", "3 names no ADC (UndefinedBehaviour)");
    if (c.REG2_Ovrd_data_format) refuse(sec(u, "REG2_Ovrd_data_format"), "per-context data formats are not modelled");
  }

  // ---- the bank the unpacker writes must be the Unpackers' (the ISA's `wait`) ----
  const unsigned bank = ctx.s.Unpackers[u].SrcBank & 1;
  SrcBank& target_bank = (u ? ctx.s.SrcB : ctx.s.SrcA)[bank];
  if (target_bank.AllowedClient != SrcClient::Unpackers) {
    ctx.result.status = ExecResult::Status::Stalled;
    ctx.result.stall_reason = fmt::format("{} bank {} is held by the Matrix Unit", u ? "SrcB" : "SrcA", bank);
    return;
  }

  // ---- input: the tile descriptor, formats and L1 addresses ----
  const bool uncompressed = multi ? c.REG2_Disable_zero_compress_cntx0 : c.REG0_TileDescriptor_IsUncompressed;
  if (!uncompressed)
    refuse(multi ? sec(u, "REG2_Disable_zero_compress_cntx0") : sec(u, "REG0_TileDescriptor_IsUncompressed"),
           "compressed input is not modelled (set it to 1)");
  if (c.REG2_Tileize_mode) refuse(sec(u, "REG2_Tileize_mode"), "discontiguous input rows are not modelled");
  if (c.REG2_Haloize_mode) refuse(sec(u, "REG2_Haloize_mode"), "the transposing unpack is not modelled");
  if (u == 0 && c.REG2_Shift_amount_cntx0) refuse(sec(u, "REG2_Shift_amount_cntx0"), "a column shift is not modelled");
  if (c.REG2_Force_shared_exp) refuse(sec(u, "REG2_Force_shared_exp"), "a forced shared exponent is not modelled");
  const auto in = l1_format_of_code(c.REG0_TileDescriptor_InDataFormat, false);
  const auto out = l1_format_of_code(c.REG2_Out_data_format, false);
  if (!in) refuse(sec(u, "REG0_TileDescriptor_InDataFormat"), fmt::format("{} is not a format code", c.REG0_TileDescriptor_InDataFormat));
  if (!out) refuse(sec(u, "REG2_Out_data_format"), fmt::format("{} is not a format code", c.REG2_Out_data_format));
  if (*in != L1Format::FP32 && *in != *out)
    refuse(sec(u, "REG2_Out_data_format"), fmt::format("{} input converts only to itself, not to {} (UndefinedBehaviour)",
                                                       l1_format_name(*in), l1_format_name(*out)));
  const bool to_dst = u == 0 && (multi ? c.REG2_Unpack_if_sel_cntx0 : c.REG2_Unpack_If_Sel);
  UnpackConfig conv;
  conv.arch = ctx.arch();
  conv.from = *in;
  if (*in == L1Format::FP32) conv.to = *out;
  conv.target = to_dst ? UnpackTarget::Dst : UnpackTarget::Src;
  conv.fp8_e4m3 = c.REG1_Unp_LF8_4b_exp != 0;
  check_unpack(conv);  // the conversions the sources refuse, by name

  const uint64_t x_dim = (multi && u == 0) ? c.REG5_Tile_x_dim_cntx0 : c.REG0_TileDescriptor_XDim;
  const uint64_t y_dim = c.REG0_TileDescriptor_YDim;
  const uint64_t z_dim = c.REG0_TileDescriptor_ZDim ? c.REG0_TileDescriptor_ZDim : 1;
  const uint64_t w_dim = c.REG0_TileDescriptor_WDim ? c.REG0_TileDescriptor_WDim : 1;
  uint64_t in_addr = (uint64_t{c.REG3_Base_address} + (c.REG7_Offset_address & 0xFFFF) + 1 + c.REG0_TileDescriptor_DigestSize) * 16;
  uint64_t exp_addr = 0;
  const bool bfp = l1_is_bfp(*in);
  if (bfp) {
    if (c.REG0_TileDescriptor_NoBFPExpSection)
      refuse(sec(u, "REG0_TileDescriptor_NoBFPExpSection"), "BFP data without an exponent section is not modelled");
    exp_addr = in_addr;
    const uint64_t exponents = (x_dim * y_dim * z_dim * w_dim + kBfpBlock - 1) / kBfpBlock;
    in_addr += (exponents + 15) / 16 * 16;
  }
  const AdcChannel& xy = ctx.s.ADCs[which_adc].Unpacker[u].Channel[0];
  const AdcChannel& zw = ctx.s.ADCs[ctx.thread].Unpacker[u].Channel[0];
  const uint32_t x_end = ctx.s.ADCs[which_adc].Unpacker[u].Channel[1].X + 1;
  if (x_end < xy.X) refuse("ADC", fmt::format("channel 1 X ({}) + 1 is below channel 0 X ({}): a negative datum count", x_end - 1, xy.X));
  const uint64_t first = ((uint64_t{zw.W} * z_dim + zw.Z) * y_dim + xy.Y) * x_dim + xy.X;
  const size_t n = x_end - xy.X;
  const unsigned bits = l1_datum_bits(*in);
  if (bfp && (first % kBfpBlock || n % kBfpBlock))
    refuse("ADC", fmt::format("BFP input from datum {} for {} datums: only whole blocks of {} are modelled", first, n, kBfpBlock));
  if (first * bits % 8) refuse("ADC", fmt::format("datum {} of a {}-bit format does not start on a byte", first, bits));

  // ---- output address (in datums of the output format) ----
  const AdcChannel& out_adc = ctx.s.ADCs[ctx.thread].Unpacker[u].Channel[1];
  uint64_t out_addr = uint64_t{c.ADDR_BASE_REG_1_Base} + uint64_t{out_adc.Y} * c.ADDR_CTRL_XY_REG_1_Ystride +
                      uint64_t{out_adc.Z} * c.ADDR_CTRL_ZW_REG_1_Zstride + uint64_t{out_adc.W} * c.ADDR_CTRL_ZW_REG_1_Wstride;
  const unsigned out_bytes = is_32bit(*out) ? 4 : is_16bit(*out) ? 2 : 1;
  if (out_addr % out_bytes)
    refuse(unp(u, "ADDR_BASE_REG_1_Base"), fmt::format("output byte address {} is not a multiple of {} (UndefinedBehaviour)", out_addr, out_bytes));
  out_addr /= out_bytes;
  if (multi && u == 0) {
    if (to_dst || c.ADD_DEST_ADDR_CNTR_add_dest_addr_cntr) out_addr += c.REG5_Dest_cntx0_address;
    else out_addr = c.REG5_Dest_cntx0_address;
  }
  if (to_dst && ctx.tcfg().SRCA_SET_SetOvrdWithAddr)
    refuse("SRCA_SET_SetOvrdWithAddr", "unpacking to Dst with it set is UndefinedBehaviour");

  // ---- read and convert ----
  std::vector<uint8_t> bytes;
  if (bfp) bytes = read_l1(ctx, exp_addr + first / kBfpBlock, n / kBfpBlock, "UNPACR exponents");
  const std::vector<uint8_t> data = read_l1(ctx, in_addr + first * bits / 8, n * bits / 8, "UNPACR datums");
  bytes.insert(bytes.end(), data.begin(), data.end());
  std::vector<uint32_t> datums = unpack_from_l1(conv, bytes, n);
  if (ctx.field(Field::AllDatumsAreZero)) std::fill(datums.begin(), datums.end(), 0u);

  // ---- write ----
  uint8_t& src_row = ctx.s.Unpackers[u].SrcRow[ctx.thread];
  for (size_t i = 0; i < n; ++i, ++out_addr) {
    uint64_t row = out_addr / 16;
    const uint32_t col = static_cast<uint32_t>(out_addr % 16);
    if (u == 1) {
      ctx.write_srcb(bank, static_cast<uint32_t>((row + src_row) & (kSrcRows - 1)), col, datums[i]);
    } else if (!to_dst) {
      if (row < 4) continue;  // the first four rows of the output space do not reach SrcA
      row -= 4;
      if (ctx.tcfg().SRCA_SET_SetOvrdWithAddr) {
        if (row >= kSrcRows) refuse("UNPACR", fmt::format("SrcA row {} is beyond row 63 (UndefinedBehaviour)", row));
      } else {
        if (row >= 16) refuse("UNPACR", fmt::format("SrcA row offset {} is beyond 15 (UndefinedBehaviour)", row));
        row += src_row;
      }
      ctx.write_srca(bank, static_cast<uint32_t>(row & (kSrcRows - 1)), col, datums[i]);
    } else {
      const uint32_t dst_row = static_cast<uint32_t>((row - 4) & (kDstRows - 1));
      ctx.write_dst32(dst_row, col, dst32_from_fp32(datums[i]));  // the Dst32 shuffle, also for INT32
    }
  }
  if (!to_dst && ctx.arch() == Arch::Blackhole) {
    target_bank.Format = l1_format_code(*out);  // the format tag the Matrix Unit's implied style reads
  }

  // ---- counters for the next instruction ----
  for (unsigned t = 0; t < kNumThreads; ++t) {
    if (t != ctx.thread && t != which_adc) continue;
    auto& ch = ctx.s.ADCs[t].Unpacker[u].Channel;
    ch[0].Y += ctx.field(Field::Ch0YInc);
    ch[0].Z += ctx.field(Field::Ch0ZInc);
    ch[1].Y += ctx.field(Field::Ch1YInc);
    ch[1].Z += ctx.field(Field::Ch1ZInc);
    ctx.result.writes.note_adc_set(t, u);
  }
  const uint32_t row_base = uint32_t{u ? ctx.tcfg().SRCB_SET_Base : ctx.tcfg().SRCA_SET_Base} << 4;
  if (ctx.field(Field::FlipSrc)) {
    target_bank.AllowedClient = SrcClient::MatrixUnit;
    ctx.s.Unpackers[u].SrcBank ^= 1;
    src_row = static_cast<uint8_t>(row_base & (kSrcRows - 1));
    ctx.result.writes.banks = true;
  } else if (c.Unpack_Src_Reg_Set_Upd) {
    src_row = static_cast<uint8_t>((src_row + 16 + row_base) & (kSrcRows - 1));
  }
  ctx.result.writes.unpackers = true;
}

}  // namespace tmu::tensix::insn

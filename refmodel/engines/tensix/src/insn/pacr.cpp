// PACR: datums from Dst through packer 0's format conversion into L1. The address generators follow
// tenstorrent/tt-isa-documentation, WormholeB0/TensixTile/TensixCoprocessor/Packers/
// InputAddressGenerator.md and OutputAddressGenerator.md; Blackhole's Dst read interfaces
// (ReadIntfSel) BlackholeA0/TensixTile/TensixCoprocessor/PACR.md; what is refused follows
// tenstorrent/ttsim, src/tensix.cpp (TENSIX_EXECUTE_PACR). The conversion is plan_pack and
// pack_to_l1 (l1_formats.h). Each mode this file does not model is refused by its field name
// (docs/l1-formats.md, "UNPACR and PACR").
#include <fmt/format.h>

#include "handlers.h"
#include "l1_access.h"
#include "tmu/tensix/l1_formats.h"

namespace tmu::tensix::insn {

namespace {

// What the packer reads from Dst for an intermediate (In_data_format) code: the 32-bit view with
// Read_32b_data (INT32 for the integer intermediates), else the 16-bit view in the style the
// intermediate comes from (pack_fmt_conv_mode's list in ttsim), except that Round_10b_mant reads a
// Dst16b datum as BF16 for the FP16 intermediate (ttsim, Blackhole).
PackSource pack_source(bool read_32b, uint32_t in_code, bool round_10b_mant) {
  const auto in = static_cast<DataFormat>(in_code);
  if (read_32b) return in == DataFormat::INT32 || in == DataFormat::INT8 ? PackSource::INT32 : PackSource::FP32;
  if (in == DataFormat::FP16 && round_10b_mant) return PackSource::BF16;
  if (in == DataFormat::FP16 || in == DataFormat::BFP8a || in == DataFormat::FP8) return PackSource::FP16;
  if (in == DataFormat::INT16) return PackSource::INT16;
  return PackSource::BF16;
}

// Dst row, column -> the pattern the packer's early conversion takes (IEEE order, l1_formats.h).
uint32_t read_pack_datum(const ExecContext& ctx, PackSource src, uint32_t row, uint32_t col) {
  switch (src) {
    case PackSource::FP32: case PackSource::INT32: return dst32_to_fp32(ctx.read_dst32(row, col, 0));  // the shuffle undone
    case PackSource::BF16: return dst16_to_bf16(ctx.read_dst16(row, col, 0));
    case PackSource::FP16: return dst16_to_fp16(ctx.read_dst16(row, col, 0));
    case PackSource::INT16: return ctx.read_dst16(row, col, 0);
  }
  return 0;
}

void step_counter(uint32_t& value, uint32_t& carry, uint32_t incr, bool cr, bool clear) {
  if (clear) value = carry = 0;
  else if (cr) value = carry = carry + incr;
  else value += incr;
}

}  // namespace

void exec_pacr(ExecContext& ctx) {
  const Arch arch = ctx.arch();
  const PackerConfig& c = ctx.cfg().Packer;
  auto refuse = [&](std::string_view field, std::string_view why) {
    ctx.fail(ErrorKind::BadInput, fmt::format("{}: {}", field, why));
  };

  // ---- the instruction's modes ----
  if (ctx.field(Field::OvrdThreadId)) refuse("OvrdThreadId", "another thread's ADC is not modelled");
  if (ctx.field(Field::ZeroWrite)) refuse("ZeroWrite", "packing from /dev/null is not modelled");
  const bool flush = ctx.field(Field::Flush), last = ctx.field(Field::Last);
  unsigned intf_mask = 0;
  if (arch == Arch::Blackhole) {
    for (Field f : {Field::CtxtCtrl, Field::AddrCntContext, Field::RowPadZero, Field::CfgContext, Field::DstAccessMode})
      if (ctx.field(f)) refuse(field_name(f), "not modelled (the ISA page leaves it undocumented)");
    if (flush) refuse("Flush", "not modelled on Blackhole (ttsim: MissingSpecification)");
    intf_mask = ctx.field(Field::ReadIntfSel) ? ctx.field(Field::ReadIntfSel) : 0xF;
  } else if (ctx.field(Field::PackerMask) > 1) {
    refuse("PackerMask", fmt::format("0x{:x}: only packer 0 is modelled", ctx.field(Field::PackerMask)));
  }

  // ---- configuration ----
  if (c.THCON_SEC0_REG1_Sub_l1_tile_header_size) refuse("THCON_SEC0_REG1_Sub_l1_tile_header_size", "not modelled");
  if (c.PCK_DEST_RD_CTRL_Read_int8) refuse("PCK_DEST_RD_CTRL_Read_int8", "raw reads (Read_raw) are not modelled");
  if (c.STACC_RELU_ApplyRelu) refuse("STACC_RELU_ApplyRelu", "the packer's ReLU is not modelled");
  const uint32_t dstacc = ctx.cfg().ALU_FORMAT_SPEC_REG2_Dstacc;
  if (dstacc != c.THCON_SEC0_REG1_In_data_format)
    refuse("THCON_SEC0_REG1_In_data_format", fmt::format("{} differs from ALU_FORMAT_SPEC_REG2_Dstacc {} (UndefinedBehaviour)",
                                                         c.THCON_SEC0_REG1_In_data_format, dstacc));
  if (!is_valid_data_format_code(dstacc)) refuse("ALU_FORMAT_SPEC_REG2_Dstacc", fmt::format("{} is not a format code", dstacc));
  const auto to = l1_format_of_code(c.THCON_SEC0_REG1_Out_data_format, c.PCK_DEST_RD_CTRL_Read_unsigned);
  if (!to) refuse("THCON_SEC0_REG1_Out_data_format", fmt::format("{} is not a format code", c.THCON_SEC0_REG1_Out_data_format));
  if (*to == L1Format::FP8 && !c.THCON_SEC0_REG1_Pac_LF8_4b_exp)
    refuse("THCON_SEC0_REG1_Pac_LF8_4b_exp", "FP8 output as S1E5M2 is not modelled (ttsim implements S1E4M3 only)");
  PackConfig pc;
  pc.arch = arch;
  pc.from = pack_source(c.PCK_DEST_RD_CTRL_Read_32b_data, dstacc, c.PCK_DEST_RD_CTRL_Round_10b_mant);
  pc.to = *to;
  pc.intermediate = static_cast<DataFormat>(dstacc);
  if (c.THCON_SEC0_REG1_Exp_threshold_en) pc.exp_threshold = c.THCON_SEC0_REG1_Exp_threshold;
  pc.l1_acc = c.THCON_SEC0_REG1_Pack_L1_Acc;
  pc.stochastic_rounding = c.ALU_ROUNDING_MODE_Packer_srnd_en;
  const PackPlan plan = plan_pack(pc);  // refuses, by name, what the sources do not define
  if (c.PCK_DEST_RD_CTRL_Round_10b_mant != plan.round_10b_mant)
    refuse("PCK_DEST_RD_CTRL_Round_10b_mant", fmt::format("{} with pack_fmt_conv_mode 0x{:x}: ttsim runs that mode only with {}",
                                                          int{c.PCK_DEST_RD_CTRL_Round_10b_mant}, plan.mode, int{plan.round_10b_mant}));

  // ---- input address generator: the first Dst datum and the count ----
  AdcSet& adcs = ctx.s.ADCs[ctx.thread];
  AdcChannel& in_adc = adcs.Packers.Channel[0];
  AdcChannel& out_adc = adcs.Packers.Channel[1];
  const uint64_t in_addr = uint64_t{c.PCK0_ADDR_BASE_REG_0_Base} + uint64_t{in_adc.X} * (c.PCK0_ADDR_CTRL_XY_REG_0_Xstride & 0xF) +
                           uint64_t{in_adc.Y} * c.PCK0_ADDR_CTRL_XY_REG_0_Ystride + uint64_t{in_adc.Z} * c.PCK0_ADDR_CTRL_ZW_REG_0_Zstride +
                           uint64_t{in_adc.W} * c.PCK0_ADDR_CTRL_ZW_REG_0_Wstride;
  const unsigned in_code = c.THCON_SEC0_REG1_In_data_format & 3;
  const uint64_t bytes_per_datum = in_code == 0 ? 4 : in_code == 1 ? 2 : 1;
  const uint64_t x_mask = in_code == 0 ? 0x3 : in_code == 1 ? 0x7 : 0xF;
  const uint32_t start = static_cast<uint32_t>((((in_addr / bytes_per_datum) & ~x_mask) + (in_adc.X & x_mask) +
                                                (uint64_t{c.DEST_TARGET_REG_CFG_PACK_SEC0_Offset} << 4)) & 0x3FFF);
  if (out_adc.X + 1 < in_adc.X) refuse("ADC", fmt::format("channel 1 X ({}) + 1 is below channel 0 X ({})", out_adc.X, in_adc.X));
  const uint32_t per_read = flush ? 0 : out_adc.X + 1 - in_adc.X;
  const bool view32 = pack_source_is_32bit(pc.from);
  const uint32_t rows = view32 ? kDst32Rows : kDstRows;
  std::vector<uint32_t> dst;
  if (arch == Arch::Blackhole) {
    // Each enabled read interface i reads row (StartRow & ~3) | i; ttsim reads from StartRow itself,
    // so only a StartRow both agree on is modelled.
    const uint32_t start_row = start / 16, start_col = start % 16;
    if (start_row % 4) refuse("ADC", fmt::format("Dst start row {} is not a multiple of 4 (the ISA page and ttsim differ)", start_row));
    if (start_col + per_read > 16) refuse("ADC", fmt::format("columns {}..{} leave the row a read interface reads", start_col, start_col + per_read - 1));
    for (uint32_t i = 0; i < 4; ++i)
      if (intf_mask >> i & 1)
        for (uint32_t k = 0; k < per_read; ++k) dst.push_back(read_pack_datum(ctx, pc.from, (start_row | i) % rows, start_col + k));
  } else {
    for (uint32_t k = 0; k < per_read; ++k) {
      const uint32_t index = (start + k) & 0x3FFF;
      dst.push_back(read_pack_datum(ctx, pc.from, (index / 16) % rows, index % 16));
    }
  }

  // ---- output address generator ----
  PackerState& ps = ctx.s.Packer;
  const bool small = (c.THCON_SEC0_REG1_Out_data_format & 2) != 0;  // under 16 bits: an exponent section first
  if (ps.NeedsNewAddress) {
    uint64_t addr = uint64_t{c.THCON_SEC0_REG1_L1_Dest_addr} + 1;  // + !Sub_l1_tile_header_size
    uint64_t yzw = uint64_t{c.PCK0_ADDR_BASE_REG_1_Base} + uint64_t{out_adc.Y} * c.PCK0_ADDR_CTRL_XY_REG_1_Ystride +
                   uint64_t{out_adc.Z} * c.PCK0_ADDR_CTRL_ZW_REG_1_Zstride + uint64_t{out_adc.W} * c.PCK0_ADDR_CTRL_ZW_REG_1_Wstride;
    yzw = arch == Arch::Blackhole ? yzw >> 4 : yzw & ~uint64_t{15};  // bytes on Blackhole, 16-byte units on Wormhole
    addr += yzw;
    if (small) {
      ps.ExponentByteAddress = static_cast<uint32_t>((addr & 0x1FFFF) << 4);
      addr += c.THCON_SEC0_REG1_Exp_section_size;
    }
    ps.DataByteAddress = static_cast<uint32_t>((addr & 0x1FFFF) << 4);
  }

  // ---- convert and write ----
  const bool bfp = l1_is_bfp(*to);
  const size_t exp_bytes = bfp ? dst.size() / kBfpBlock : 0;
  const size_t data_bytes = l1_byte_count(*to, dst.size()) - exp_bytes;
  std::vector<uint8_t> before;
  if (pc.l1_acc) before = read_l1(ctx, ps.DataByteAddress, data_bytes, "PACR L1 accumulation");
  const std::vector<uint8_t> packed = pack_to_l1(plan, dst, before);
  const std::span<const uint8_t> all(packed);
  write_l1(ctx, ps.ExponentByteAddress, all.first(exp_bytes), "PACR exponents");
  write_l1(ctx, ps.DataByteAddress, all.subspan(exp_bytes), "PACR datums");
  ps.ExponentByteAddress += static_cast<uint32_t>(exp_bytes);
  ps.DataByteAddress += static_cast<uint32_t>(data_bytes);
  if (last || flush) {  // the output buffers are flushed, padded with zeroes to 16 bytes
    auto pad = [&](uint32_t addr, const char* what) {
      const std::vector<uint8_t> zeros((16 - addr % 16) % 16, 0);
      write_l1(ctx, addr, zeros, what);
    };
    pad(ps.DataByteAddress, "PACR datum padding");
    if (small) pad(ps.ExponentByteAddress, "PACR exponent padding");
  }
  ps.NeedsNewAddress = last || flush;
  ctx.result.writes.packer = true;

  // ---- AddrMod: the Y and Z counters of both channels ----
  const AddrModPack& m = ctx.tcfg().ADDR_MOD_PACK_SEC[ctx.field(Field::AddrMod) & (kNumPackAddrMods - 1)];
  step_counter(in_adc.Y, in_adc.Y_Cr, m.YsrcIncr, m.YsrcCR, m.YsrcClear);
  step_counter(in_adc.Z, in_adc.Z_Cr, m.ZsrcIncr, false, m.ZsrcClear);
  step_counter(out_adc.Y, out_adc.Y_Cr, m.YdstIncr, m.YdstCR, m.YdstClear);
  step_counter(out_adc.Z, out_adc.Z_Cr, m.ZdstIncr, false, m.ZdstClear);
  ctx.result.writes.note_adc_set(ctx.thread, 2);
}

}  // namespace tmu::tensix::insn

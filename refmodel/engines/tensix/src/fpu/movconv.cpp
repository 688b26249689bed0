// Per-datum conversions of MOVA2D/MOVB2D/MOVD2A/MOVD2B/MOVB2A (see tmu/tensix/movconv.h for the sources).
#include "tmu/tensix/movconv.h"

#include "tmu/error.h"

namespace tmu::tensix {

const char* dst_write_kind_name(DstWriteKind k) {
  switch (k) {
    case DstWriteKind::Dst16b: return "Dst16b";
    case DstWriteKind::Dst32b: return "Dst32b";
    case DstWriteKind::Dst32bLow16: return "Dst32b low 16 bits";
  }
  return "?";
}

// ---- Src -> Dst ----

bool mov_uses_8bit_exponent(uint32_t srca_format_code, bool fp16a_force) {
  if (fp16a_force) return false;
  switch (static_cast<DataFormat>(srca_format_code)) {
    case DataFormat::FP32:
    case DataFormat::TF32:
    case DataFormat::BF16:
    case DataFormat::BFP8:
    case DataFormat::BFP4:
    case DataFormat::BFP2:
    case DataFormat::INT32:
    case DataFormat::INT16:
      return true;
    default:
      return false;
  }
}

uint32_t flush_src_denormal(uint32_t datum19, bool flush_denormals) {
  return flush_denormals && src_layout::exponent(datum19) == 0 ? 0 : datum19;
}

uint16_t src_to_dst16_exp8(uint32_t datum19) {
  uint32_t d = with_bits<15, 15>(0, src_layout::sign(datum19));
  d = with_bits<14, 8>(d, src_layout::mantissa_hi7(datum19));
  d = with_bits<7, 0>(d, src_layout::exponent(datum19));
  return static_cast<uint16_t>(d);
}

uint16_t src_to_dst16_exp5(uint32_t datum19) {
  uint32_t d = with_bits<15, 15>(0, src_layout::sign(datum19));
  d = with_bits<14, 5>(d, src_layout::mantissa(datum19));
  d = with_bits<4, 0>(d, src_layout::exponent_lo5(datum19));
  return static_cast<uint16_t>(d);
}

namespace {

bool is_tf32(uint32_t format_code) { return format_code == static_cast<uint32_t>(DataFormat::TF32); }

// Steps 3 and 4 of the header's list, on an already flushed (and, for MOVB2D, SrcB-read) datum.
DstWrite convert_to_dst(uint32_t datum19, const MovToDstConfig& cfg) {
  const uint16_t val16 = mov_uses_8bit_exponent(cfg.srca_format_code, cfg.fp16a_force) ? src_to_dst16_exp8(datum19)
                                                                                        : src_to_dst16_exp5(datum19);
  DstWrite w;
  w.kind = mov_to_dst_write_kind(cfg);
  switch (w.kind) {
    case DstWriteKind::Dst32b: {
      // TF32 in Dst32b: Sign, mantissa high 7, exponent, mantissa low 3, then 13 zeros (FP32-compatible).
      uint32_t low = with_bits<15, 13>(0, src_layout::mantissa_lo3(datum19));
      if (cfg.use_dst32b_lo) low |= val16;  // MOVA2D.md: "unlikely to be useful", but defined
      w.value = with_bits<31, 16>(low, val16);
      break;
    }
    case DstWriteKind::Dst32bLow16:
    case DstWriteKind::Dst16b:
      w.value = val16;
      break;
  }
  return w;
}

}  // namespace

DstWriteKind mov_to_dst_write_kind(const MovToDstConfig& cfg) {
  if (is_tf32(cfg.srca_format_code)) return DstWriteKind::Dst32b;
  return cfg.use_dst32b_lo ? DstWriteKind::Dst32bLow16 : DstWriteKind::Dst16b;
}

const char* mov_to_dst_caveat(const MovToDstConfig& cfg) {
  if (is_tf32(cfg.srca_format_code) && cfg.use_dst32b_lo)
    return "TF32 with UseDst32bLo: ttsim treats this as UndefinedBehavior (hardware erratum TEN-4245); "
           "the ISA result is modelled";
  return nullptr;
}

DstWrite mova2d_datum(uint32_t srca_datum, const MovToDstConfig& cfg) {
  return convert_to_dst(flush_src_denormal(srca_datum, cfg.flush_denormals), cfg);
}

uint32_t movb2d_srcb_read(uint32_t srcb_datum, uint32_t srcb_format_code) {
  switch (src_style_of_format_code(srcb_format_code)) {
    case SrcStyle::FP16:
      return with_bits<7, 5>(srcb_datum, 0);
    case SrcStyle::BF16:
      return with_bits<10, 8>(srcb_datum, 0);
    case SrcStyle::TF32:
    case SrcStyle::INT8:
      break;
  }
  return srcb_datum;
}

DstWrite movb2d_datum(uint32_t srcb_datum, const MovToDstConfig& cfg, uint32_t srcb_format_code) {
  uint32_t d = flush_src_denormal(srcb_datum, cfg.flush_denormals);
  if (!cfg.fp16a_force) d = movb2d_srcb_read(d, srcb_format_code);
  return convert_to_dst(d, cfg);
}

// ---- Dst -> Src ----

uint32_t dst16_bf16_to_src(uint16_t dst_bits) {
  return src_layout::assemble(dst_layout::sign16(dst_bits), with_bits<9, 3>(0, dst_layout::bf16_mantissa(dst_bits)),
                              dst_layout::bf16_exponent(dst_bits));
}

uint32_t dst16_fp16_to_src(uint16_t dst_bits) {
  return src_layout::assemble(dst_layout::sign16(dst_bits), dst_layout::fp16_mantissa(dst_bits),
                              dst_layout::fp16_exponent(dst_bits));
}

uint32_t dst32_to_src_tf32(uint32_t dst_bits) {
  const uint32_t high = dst_layout::high_half(dst_bits);
  const uint32_t mantissa10 = with_bits<9, 3>(dst_layout::fp32_low_mantissa3(dst_bits), dst_layout::bf16_mantissa(high));
  return src_layout::assemble(dst_layout::sign16(high), mantissa10, dst_layout::bf16_exponent(high));
}

MovFromDstPlan plan_mov_from_dst(const MovFromDstConfig& cfg) {
  MovFromDstPlan p;
  p.use_dst32b_lo = cfg.use_dst32b_lo;
  if (cfg.fp16a_force) {
    p.style = SrcStyle::FP16;
    p.read_dst32b = false;
  } else {
    p.style = src_style_of_format_code(cfg.srca_format_code);
    p.read_dst32b = cfg.use_dst32b;
  }
  if (!p.read_dst32b) {
    if (p.use_dst32b_lo) p.undefined = "UseDst32bLo with 16-bit Dst: a Dst16b datum has no low 16 bits";
    else if (p.style == SrcStyle::TF32) p.undefined = "TF32 SrcA format with 16-bit Dst: Dst16b cannot hold TF32";
  }
  return p;
}

uint32_t mov_from_dst_datum(uint32_t dst_value, const MovFromDstPlan& plan) {
  if (plan.undefined) throw Error(ErrorKind::UndefinedBehaviour, plan.undefined);
  uint32_t half = dst_value;
  if (plan.read_dst32b) {
    // With UseDst32bLo the low half stands where the high half would be.
    half = plan.use_dst32b_lo ? dst_layout::low_half(dst_value) : dst_layout::high_half(dst_value);
  }
  switch (plan.style) {
    case SrcStyle::BF16:
      return dst16_bf16_to_src(static_cast<uint16_t>(half));
    case SrcStyle::FP16:
    case SrcStyle::INT8:
      return dst16_fp16_to_src(static_cast<uint16_t>(half));
    case SrcStyle::TF32:
      // Dst16b + TF32 is refused by the plan, so here the value is a Dst32b datum.
      return plan.use_dst32b_lo ? bits<12, 0>(dst_value) : dst32_to_src_tf32(dst_value);
  }
  return 0;
}

// ---- SrcB -> SrcA ----

uint32_t movb2a_datum(uint32_t srcb_datum, bool flush_denormals) {
  return flush_src_denormal(srcb_datum, flush_denormals);
}

}  // namespace tmu::tensix

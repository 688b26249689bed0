// Data values for Src fills and Dst preloads: special-value classes per format mixed with random
// values, encoded with formats.h's helpers.
#include <array>

#include "engine.h"

namespace tmu::tb {

namespace {

// Mantissas at the fidelity slice boundaries: BF16's 7 bits split 4|3 for SrcA and 6|1 for SrcB;
// the 10-bit TF32/FP16 mantissa splits further down. All ones / all zeros / single bits around them.
constexpr std::array<uint32_t, 12> kBf16SliceMantissas = {0x00, 0x01, 0x07, 0x08, 0x0F, 0x3F,
                                                          0x40, 0x41, 0x78, 0x7E, 0x7F, 0x55};
constexpr std::array<uint32_t, 12> kMant10SliceMantissas = {0x000, 0x001, 0x007, 0x008, 0x03F, 0x040,
                                                            0x07F, 0x080, 0x1FF, 0x200, 0x3F8, 0x3FF};

// x uniformly scaled into [0, n) without a division (n small).
inline uint32_t scaled(uint32_t x16, uint32_t n) { return (x16 * n) >> 16; }

uint32_t float_datum(Rng& rng, SrcStyle style) {
  const bool fp16 = style == SrcStyle::FP16;
  const uint32_t max_exp = fp16 ? 31 : 255;
  const uint32_t bias = fp16 ? 15 : 127;
  const unsigned mant_bits = style == SrcStyle::BF16 ? 7 : 10;
  const uint32_t mant_mask = (1u << mant_bits) - 1;
  // One draw per datum, sliced: class, sign, exponent choice, mantissa choice, mantissa.
  const uint64_t r = rng();
  const uint32_t k = scaled(static_cast<uint32_t>(r & 0xFFFF), 100);
  const uint32_t sign = (r >> 16) & 1;
  const uint32_t er = static_cast<uint32_t>(r >> 17) & 0xFFFF;
  const uint32_t mc = static_cast<uint32_t>(r >> 33) & 0xFFFF;
  const uint32_t mr = static_cast<uint32_t>(r >> 49);  // 15 bits
  uint32_t exp = 0, mant = 0;
  if (k < 6) {  // signed zero
  } else if (k < 11) {  // denormal pattern (reads as zero on the Matrix Unit, flushed by MOVs)
    mant = (mr & mant_mask) | 1;
  } else if (k < 15) {  // smallest normal exponent
    exp = 1;
    mant = mr & mant_mask;
  } else if (k < 19) {  // largest exponents: infinity (zero mantissa) / NaN patterns / FP16 saturation
    exp = max_exp - (er & 1);
    const uint32_t m = scaled(mc, 3);
    mant = m == 0 ? 0 : m == 1 ? mant_mask : (mr & mant_mask);
  } else if (k < 33) {  // slice-boundary mantissas near 1
    exp = bias - 4 + scaled(er, 9);
    mant = style == SrcStyle::BF16 ? kBf16SliceMantissas[scaled(mc, kBf16SliceMantissas.size())]
                                   : kMant10SliceMantissas[scaled(mc, kMant10SliceMantissas.size())];
  } else if (k < 41) {  // rounding ties: powers of two and halfway mantissas
    exp = bias - 3 + scaled(er, 7);
    mant = (mr & 1) ? 0 : 1u << (mant_bits - 1 - scaled(mc, 3));
  } else if (k < 48) {  // anything
    exp = er & max_exp;
    mant = mr & mant_mask;
  } else {  // ordinary values in a band where sums and products stay finite
    const uint32_t spread = fp16 ? 6 : 12;
    exp = bias - spread + scaled(er, 2 * spread + 1);
    mant = mr & mant_mask;
  }
  // pack_src's canonical layout, inline (this is the hot loop of every fill).
  const uint32_t mant10 = style == SrcStyle::BF16 ? mant << 3 : mant;
  return src_layout::assemble(sign, mant10 & 0x3FF, exp & (fp16 ? 0x1Fu : 0xFFu));
}

uint32_t int8_datum(Rng& rng) {
  static constexpr std::array<uint32_t, 7> kExtremes = {0, 1, 127, 128, 255, 1023, 64};
  const uint32_t sign = rng() & 1;
  uint32_t mag;
  const unsigned k = static_cast<unsigned>(rng.below(100));
  if (k < 25) mag = kExtremes[rng.below(kExtremes.size())];
  else if (k < 35) mag = static_cast<uint32_t>(rng() & 1023);
  else mag = static_cast<uint32_t>(rng() & 127);
  return pack_src(SrcFields{sign, mag ? src_layout::kInt8Marker : 0u, mag}, SrcStyle::INT8);
}

}  // namespace

uint32_t random_src_datum(Rng& rng, SrcStyle style) {
  return style == SrcStyle::INT8 ? int8_datum(rng) : float_datum(rng, style);
}

std::array<uint32_t, kSrcCols> random_src_row(Rng& rng, SrcStyle style) {
  std::array<uint32_t, kSrcCols> row{};
  const unsigned k = static_cast<unsigned>(rng.below(100));
  if (k < 6) {  // one value everywhere (argmax ties across rows and columns)
    row.fill(random_src_datum(rng, style));
    return row;
  }
  for (auto& v : row) v = random_src_datum(rng, style);
  if (k < 20) row[rng.below(kSrcCols)] = static_cast<uint32_t>(rng() & kSrcDatumMask);  // raw bits
  if (k < 15) {  // a few repeats within the row
    const uint32_t v = row[rng.below(kSrcCols)];
    for (int i = 0; i < 3; ++i) row[rng.below(kSrcCols)] = v;
  }
  return row;
}

std::array<uint16_t, kDstCols> random_dst_row(Rng& rng) {
  std::array<uint16_t, kDstCols> row{};
  const unsigned kind = static_cast<unsigned>(rng.below(8));
  for (auto& v : row) {
    switch (kind) {
      case 0: case 1: case 2: {  // BF16 values (also the high halves of FP32)
        const SrcFields f = unpack_src(float_datum(rng, SrcStyle::BF16), SrcStyle::BF16);
        v = dst16_from_bf16(static_cast<uint16_t>((f.sign << 15) | (f.exponent << 7) | (f.mantissa >> 3)));
        break;
      }
      case 3: case 4: {  // FP16 values
        const SrcFields f = unpack_src(float_datum(rng, SrcStyle::FP16), SrcStyle::FP16);
        v = dst16_from_fp16(static_cast<uint16_t>((f.sign << 15) | (f.exponent << 10) | f.mantissa));
        break;
      }
      case 5:  // small integers (INT8 / INT32 low halves)
        v = static_cast<uint16_t>(rng() & (rng.below(2) ? 0x80FF : 0xFFFF));
        break;
      case 6:  // zero
        v = rng.below(4) ? 0 : 0x8000;
        break;
      default:
        v = static_cast<uint16_t>(rng());
        break;
    }
  }
  return row;
}

uint32_t bf16_datum(uint32_t sign, uint32_t exp, uint32_t mant7) {
  return pack_src(SrcFields{sign, exp, mant7 << 3}, SrcStyle::BF16);
}

uint32_t random_bf16_datum(Rng& rng, int exp_lo, int exp_hi) {
  const uint32_t sign = rng() & 1;
  const uint32_t exp = static_cast<uint32_t>(exp_lo + static_cast<int>(rng.below(exp_hi - exp_lo + 1)));
  return bf16_datum(sign, exp, static_cast<uint32_t>(rng() & 127));
}

UnpackFill DatumPool::fill(Rng& rng, DataFormat format, bool int8, unsigned first_row, unsigned rows) {
  const SrcStyle style = int8 ? SrcStyle::INT8 : src_style_of_format(format);
  std::vector<uint32_t>& pool = pools_[static_cast<unsigned>(style)];
  if (pool.empty()) {
    pool.resize(kSize);
    for (uint32_t& v : pool) v = random_src_datum(rng, style);
  }
  for (int i = 0; i < 64; ++i) pool[rng() % kSize] = random_src_datum(rng, style);
  UnpackFill f;
  f.format = static_cast<uint32_t>(format);
  f.rows.reserve(rows);
  for (unsigned r = 0; r < rows; ++r) {
    std::array<uint32_t, kSrcCols> row;
    const uint64_t pick = rng();
    const unsigned k = static_cast<unsigned>(pick & 0xFF);
    if (k < 15) {  // one value everywhere (argmax ties across rows and columns)
      row.fill(pool[(pick >> 8) % kSize]);
    } else {
      for (unsigned c = 0; c < kSrcCols; c += 4) {  // 12 bits per index, four per draw
        const uint64_t x = rng();
        for (unsigned j = 0; j < 4; ++j) row[c + j] = pool[(x >> (12 * j)) & (kSize - 1)];
      }
      if (k < 40) row[(pick >> 8) & 15] = row[(pick >> 12) & 15];            // a repeat within the row
      if (k < 50) row[(pick >> 16) & 15] = static_cast<uint32_t>(pick >> 40) & kSrcDatumMask;  // raw bits
    }
    f.rows.emplace_back((first_row + r) & (kSrcRows - 1), row);
  }
  return f;
}

}  // namespace tmu::tb

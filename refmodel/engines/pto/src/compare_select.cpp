// TCMP writes packed predicate bits and TSEL reads them. The simulator (include/pto/cpu/TCmp.h,
// TSel.hpp) and A2/A3 (include/pto/npu/a2a3/TCmp.hpp, TSel.hpp) pack and address them differently;
// the differences are the cpusim_* and a2a3_* functions below, which the profiles' rules name.
#include <fmt/format.h>

#include "internal.h"
#include "profile_rules.h"

namespace tmu::pto::detail {

namespace {

using enum ElemType;

// C++'s comparison of two patterns of one type (IEEE for floats: NaN unordered, -0 == +0), with
// what depends on the type worked out once per tile rather than once per lane: each pattern becomes
// an integer key that orders as the values do.
class Comparator {
 public:
  Comparator(ElemType t, CmpMode m) : truth_(truth(m)), float_(is_float(t)), shift_(64 - width_bits(t)), signed_(is_signed_int(t)) {
    if (float_) {
      const ieee::Format f = float_format(t);
      sign_ = f.sign_bit();
      infinity_ = f.infinity(false);
    }
  }
  // Branch-free: the mode's answer for each outcome (greater, equal, less, unordered) is a bit of
  // truth_.
  bool operator()(uint64_t a, uint64_t b) const {
    const bool unordered = float_ && (magnitude(a) > infinity_ || magnitude(b) > infinity_);
    const int64_t x = key(a), y = key(b);
    const unsigned outcome = unordered ? 3 : (x < y ? 2 : x == y ? 1 : 0);
    return ((truth_ >> outcome) & 1) != 0;
  }

 private:
  uint64_t magnitude(uint64_t v) const { return v & (sign_ - 1); }
  // Types of at most 32 bits (TCMP's), so an unsigned value fits an int64_t.
  int64_t key(uint64_t v) const {
    if (float_) return (v & sign_) != 0 ? -static_cast<int64_t>(magnitude(v)) : static_cast<int64_t>(magnitude(v));
    return signed_ ? static_cast<int64_t>(v << shift_) >> shift_ : static_cast<int64_t>(v);
  }
  // Bits 0 to 3: greater, equal, less, unordered (only NE holds for a NaN operand).
  static unsigned truth(CmpMode m) {
    switch (m) {
      case CmpMode::EQ: return 0b0010;
      case CmpMode::NE: return 0b1101;
      case CmpMode::LT: return 0b0100;
      case CmpMode::LE: return 0b0110;
      case CmpMode::GT: return 0b0001;
      case CmpMode::GE: return 0b0011;
    }
    return 0;
  }
  unsigned truth_;
  bool float_;
  unsigned shift_;
  bool signed_;
  uint64_t sign_ = 0;
  uint64_t infinity_ = 0;
};

void check_same_valid(Profile p, Op op, const Tile& a, const char* a_name, const Tile& b, const char* b_name) {
  if (a.valid_rows != b.valid_rows || a.valid_cols != b.valid_cols)
    refuse_op(p, op, ErrorKind::UndefinedBehaviour,
              fmt::format("{}'s valid region {}x{} differs from {}'s {}x{} (the implementations assert they match)",
                          a_name, a.valid_rows, a.valid_cols, b_name, b.valid_rows, b.valid_cols));
}

// The bytes of a row-major tile's row r as memory holds them (elements little-endian).
uint8_t row_byte(const Tile& t, unsigned r, unsigned byte) {
  const unsigned size = width_bytes(t.type);
  return static_cast<uint8_t>(t.at(r, byte / size) >> (8 * (byte % size)));
}

// TCmp.hpp CmpCall: an int32 source is compared with vcmpv_eq whatever the mode (the per-op page:
// "Ignores cmpMode, uses EQ"); NE is then made by inverting, for every type.
CmpMode a2a3_compare_mode(ElemType t, CmpMode m) {
  if (m == CmpMode::NE) return CmpMode::EQ;
  return t == I32 ? CmpMode::EQ : m;
}

}  // namespace

// TCmp.h TCmpCheck: a u8 predicate for i32, f16 and f32 sources; a u32 predicate for every 8-, 16-
// and 32-bit type.
bool cpusim_tcmp_accepts(ElemType src, ElemType predicate) {
  return predicate == U8 ? (src == I32 || src == F16 || src == F32) : predicate == U32 ? width_bits(src) <= 32 : false;
}

// TCmp.hpp: the types of TCMP_IMPL's static_assert, with a u8 predicate.
bool a2a3_tcmp_accepts(ElemType src, ElemType predicate) { return predicate == U8 && a2a3_supports(Op::TCMP, src); }

// TCmp.h: dst cleared, then each row's valid lanes packed k to a predicate element (k = 8 for u8, 32
// for u32), lane c at bit c % k.
void cpusim_tcmp(Profile, Tile& dst, const Tile& src0, const Tile& src1, CmpMode mode) {
  const ElemType t = src0.type;
  const bool words32 = dst.type == U32;
  const unsigned k = words32 ? 32 : 8;
  // ZeroTileData clears Rows * RowStride elements, RowStride being Cols for a row-major tile and 1
  // for a column-major one.
  const size_t cleared = static_cast<size_t>(dst.rows) * (dst.layout == Layout::RowMajor ? dst.cols : 1);
  std::fill(dst.bits.begin(), dst.bits.begin() + static_cast<std::ptrdiff_t>(cleared), 0);
  const unsigned words = std::min((src0.valid_cols + k - 1) / k, dst.valid_cols);
  const Comparator compare(t, mode);
  // Lane (r, c) of a source is at first(r) + c * stride, in src1 too when it has src0's layout and
  // shape.
  const bool shared = src0.layout == src1.layout && src0.rows == src1.rows && src0.cols == src1.cols;
  const bool row_major = src0.layout == Layout::RowMajor;
  const size_t stride = row_major ? 1 : src0.rows;
  for (unsigned r = 0; r < src0.valid_rows; ++r) {
    const size_t first = row_major ? size_t{r} * src0.cols : r;
    for (unsigned w = 0; w < words; ++w) {
      uint64_t packed = 0;
      const unsigned end = std::min(w * k + k, src0.valid_cols);
      for (unsigned c = w * k; c < end; ++c) {
        const size_t i = first + c * stride;
        packed |= uint64_t{compare(src0.bits[i], shared ? src1.bits[i] : src1.at(r, c))} << (c - w * k);
      }
      dst.bits[dst.offset(r, w)] = packed;
    }
  }
}

// TCmp.hpp TCmp: each valid row is compared in whole 256-byte repeats, one bit per lane written at
// byte i * dst.Cols + lane / 8; for NE, vnot then inverts the first validRow * dst.Cols bytes of dst,
// the bytes past the written ones included. dst is not cleared first. The lane-to-bit order (lane
// j at bit j % 8) is the one the simulator uses; the A2/A3 sources do not spell it out.
void a2a3_tcmp(Profile p, Tile& dst, const Tile& src0, const Tile& src1, CmpMode mode) {
  const ElemType t = src0.type;
  const unsigned per_repeat = 256 / width_bytes(t);
  const unsigned vc = src0.valid_cols;
  if (vc % per_repeat != 0)
    refuse_op(p, Op::TCMP, ErrorKind::Unsupported,
              fmt::format("{} valid columns of {}: the last 256-byte repeat also compares the lanes past the valid "
                          "columns (memory beyond the row); tmu models A2/A3 TCMP for multiples of {} columns",
                          vc, elem_name(t), per_repeat));
  if (vc / 8 > dst.cols)
    refuse_op(p, Op::TCMP, ErrorKind::UndefinedBehaviour,
              fmt::format("{} predicate bytes per row do not fit dst's {} columns", vc / 8, dst.cols));
  const Comparator compare(t, a2a3_compare_mode(t, mode));
  for (unsigned r = 0; r < src0.valid_rows; ++r)
    for (unsigned byte = 0; byte < vc / 8; ++byte) {
      uint64_t packed = 0;
      for (unsigned bit = 0; bit < 8; ++bit)
        packed |= uint64_t{compare(src0.at(r, byte * 8 + bit), src1.at(r, byte * 8 + bit))} << bit;
      dst.bits[dst.offset(r, byte)] = packed;
    }
  if (mode == CmpMode::NE)
    for (unsigned r = 0; r < src0.valid_rows; ++r)
      for (unsigned c = 0; c < dst.cols; ++c) dst.bits[dst.offset(r, c)] ^= 0xFF;
}

// TSel.hpp (CPU): one stream of mask bits over the valid region in row-major order, eight per mask
// element (`selMask[idx] >> bitIdx & 1` with bitIdx < 8, so a wider mask element gives its low
// byte only), moving to the next mask row after the mask's valid columns.
void cpusim_tsel(Profile p, Tile& dst, const Tile& mask, const Tile& src0, const Tile& src1) {
  unsigned mask_row = 0, mask_col = 0, bit = 0;
  for (unsigned i = 0; i < dst.valid_rows; ++i)
    for (unsigned j = 0; j < dst.valid_cols; ++j) {
      if (mask_row >= mask.rows || mask_col >= mask.cols)
        refuse_op(p, Op::TSEL, ErrorKind::UndefinedBehaviour,
                  fmt::format("lane ({}, {}) needs mask element ({}, {}), outside the {}x{} mask tile", i, j, mask_row,
                              mask_col, mask.rows, mask.cols));
      const bool take_src0 = ((mask.at(mask_row, mask_col) >> bit) & 1) != 0;
      if (++bit == 8) {
        bit = 0;
        if (++mask_col == mask.valid_cols) ++mask_row, mask_col = 0;
      }
      dst.bits[dst.offset(i, j)] = take_src0 ? src0.at(i, j) : src1.at(i, j);
    }
}

// TSel.hpp (A2/A3): per valid row i, the compare mask is the first 64 (32-bit types) or 128 (16-bit
// types) bits of mask row i, and vsel takes lane j from bit j. How vsel goes on past one repeat in
// counter mode is not in the sources: wider rows are refused. TSel.hpp accepts 16- and 32-bit types.
void a2a3_tsel(Profile p, Tile& dst, const Tile& mask, const Tile& src0, const Tile& src1) {
  if (!a2a3_supports(Op::TSEL, dst.type))
    refuse_op(p, Op::TSEL, ErrorKind::Unsupported,
              fmt::format("{}: the A2/A3 implementation accepts 16- and 32-bit types (i16, u16, i32, u32, f16, bf16, "
                          "f32)",
                          elem_name(dst.type)));
  const unsigned bits = width_bytes(dst.type) == 4 ? 64 : 128;
  if (dst.valid_cols > bits)
    refuse_op(p, Op::TSEL, ErrorKind::Unsupported,
              fmt::format("{} valid columns: one compare mask holds {} bits for {}; tmu models A2/A3 TSEL up to one "
                          "repeat per row",
                          dst.valid_cols, bits, elem_name(dst.type)));
  if (dst.valid_rows > mask.rows || (dst.valid_cols + 7) / 8 > mask.cols * width_bytes(mask.type))
    refuse_op(p, Op::TSEL, ErrorKind::UndefinedBehaviour,
              fmt::format("the {}x{} valid region needs mask bits outside the {}x{} {} mask tile", dst.valid_rows,
                          dst.valid_cols, mask.rows, mask.cols, elem_name(mask.type)));
  for (unsigned i = 0; i < dst.valid_rows; ++i)
    for (unsigned j = 0; j < dst.valid_cols; ++j) {
      const bool take_src0 = ((row_byte(mask, i, j / 8) >> (j % 8)) & 1) != 0;
      dst.bits[dst.offset(i, j)] = take_src0 ? src0.at(i, j) : src1.at(i, j);
    }
}

void execute_tcmp(Profile p, Tile& dst, const Tile& src0, const Tile& src1, CmpMode mode) {
  const ElemType t = src0.type;
  if (src1.type != t)
    refuse_op(p, Op::TCMP, ErrorKind::UndefinedBehaviour,
              fmt::format("src0 is {} but src1 is {}: the sources must have the same type", elem_name(t),
                          elem_name(src1.type)));
  const ProfileRules& rules = detail::rules(p);
  if (!rules.tcmp_accepts(t, dst.type))
    refuse_op(p, Op::TCMP, ErrorKind::Unsupported,
              fmt::format("{} sources with a {} predicate: {} accepts {}", elem_name(t), elem_name(dst.type),
                          profile_name(p), rules.tcmp_accepted));
  check_same_valid(p, Op::TCMP, src0, "src0", src1, "src1");
  if (src0.valid_rows != dst.valid_rows)
    refuse_op(p, Op::TCMP, ErrorKind::UndefinedBehaviour,
              fmt::format("src0 has {} valid rows and dst {} (the implementations assert they match)",
                          src0.valid_rows, dst.valid_rows));
  rules.tcmp(p, dst, src0, src1, mode);
}

void execute_tsel(Profile p, Tile& dst, const Tile& mask, const Tile& src0, const Tile& src1) {
  for (const Tile* s : {&src0, &src1})
    if (s->type != dst.type || s->rows != dst.rows || s->cols != dst.cols || s->layout != dst.layout)
      refuse_op(p, Op::TSEL, ErrorKind::UndefinedBehaviour,
                "src0, src1 and dst must be tiles of one type, shape and layout (src0 and src1 are read at dst's "
                "offsets)");
  if (is_float(mask.type))
    refuse_op(p, Op::TSEL, ErrorKind::Unsupported, "the mask tile must have an integer element type");
  rules(p).tsel(p, dst, mask, src0, src1);
}

}  // namespace tmu::pto::detail

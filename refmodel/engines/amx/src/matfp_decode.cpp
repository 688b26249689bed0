// matfp operand fields, lane-width codes and the instruction word (corsix/amx matfp.md).
#include <string>

#include <fmt/format.h>

#include "tmu/amx/matfp.h"
#include "tmu/error.h"

namespace tmu::amx {

namespace {

unsigned field(uint64_t v, unsigned lo, unsigned width) {
  return static_cast<unsigned>((v >> lo) & ((uint64_t{1} << width) - 1));
}

void put(uint64_t& v, const char* name, unsigned value, unsigned lo, unsigned width) {
  if (value >> width)
    throw Error(ErrorKind::BadInput,
                fmt::format("matfp field {} = {} does not fit its {} bits", name, value, width));
  v |= uint64_t{value} << lo;
}

}  // namespace

const char* version_name(Version v) {
  switch (v) {
    case Version::M1: return "M1";
    case Version::M2: return "M2";
    case Version::M3: return "M3";
    case Version::M4: return "M4";
  }
  throw Error(ErrorKind::BadInput, "AMX version " + std::to_string(static_cast<int>(v)));
}

LaneWidth lane_width(unsigned code, Version v) {
  version_name(v);  // refuses a value outside the enumeration
  if (code > 15) throw Error(ErrorKind::BadInput, fmt::format("matfp lane width code {} (4 bits)", code));
  const bool bf16 = v != Version::M1;
  switch (code) {
    case 0: return bf16 ? LaneWidth::BF16 : LaneWidth::F16;
    case 1: return bf16 ? LaneWidth::BF16F32 : LaneWidth::F16;
    case 3: return LaneWidth::F16F32;
    case 4: return LaneWidth::F32;
    case 7: return LaneWidth::F64;
    default: return LaneWidth::F16;
  }
}

unsigned xy_bytes(LaneWidth w) {
  switch (w) {
    case LaneWidth::F32: return 4;
    case LaneWidth::F64: return 8;
    default: return 2;
  }
}

unsigned z_bytes(LaneWidth w) {
  switch (w) {
    case LaneWidth::F16:
    case LaneWidth::BF16: return 2;
    case LaneWidth::F64: return 8;
    default: return 4;
  }
}

const char* lane_width_name(LaneWidth w) {
  switch (w) {
    case LaneWidth::F16: return "f16";
    case LaneWidth::F32: return "f32";
    case LaneWidth::F64: return "f64";
    case LaneWidth::F16F32: return "f16f32";
    case LaneWidth::BF16: return "bf16";
    case LaneWidth::BF16F32: return "bf16f32";
  }
  return "?";
}

MatfpOperand decode_matfp(uint64_t v) {
  MatfpOperand op;
  op.y_offset = field(v, 0, 9);
  op.x_offset = field(v, 10, 9);
  op.z_row = field(v, 20, 3);
  op.y_enable_mode = field(v, 23, 3);
  op.y_shuffle = field(v, 27, 2);
  op.x_shuffle = field(v, 29, 2);
  op.x_enable_value = field(v, 32, 5);
  op.x_enable_mode = field(v, 38, 3);
  op.lane_width = field(v, 42, 4);
  op.indexed = field(v, 53, 1) != 0;
  if (op.indexed) {
    op.index.of_y = field(v, 47, 1) != 0;
    op.index.four_bit = field(v, 48, 1) != 0;
    op.index.reg = field(v, 49, 3);
  } else {
    op.alu_mode = field(v, 47, 6);
  }
  op.must_be_zero = field(v, 54, 3);
  op.y_enable_value = field(v, 58, 5);
  op.ignored = v & matfp_ignored_bits(op.indexed);
  return op;
}

uint64_t encode_matfp(const MatfpOperand& op) {
  uint64_t v = 0;
  put(v, "y_offset", op.y_offset, 0, 9);
  put(v, "x_offset", op.x_offset, 10, 9);
  put(v, "z_row", op.z_row, 20, 3);
  put(v, "y_enable_mode", op.y_enable_mode, 23, 3);
  put(v, "y_shuffle", op.y_shuffle, 27, 2);
  put(v, "x_shuffle", op.x_shuffle, 29, 2);
  put(v, "x_enable_value", op.x_enable_value, 32, 5);
  put(v, "x_enable_mode", op.x_enable_mode, 38, 3);
  put(v, "lane_width", op.lane_width, 42, 4);
  put(v, "indexed", op.indexed ? 1 : 0, 53, 1);
  if (op.indexed) {
    if (op.alu_mode != 0)
      throw Error(ErrorKind::BadInput, "matfp field alu_mode must be 0 with indexed (bits 47..52 are the index fields)");
    put(v, "index.of_y", op.index.of_y ? 1 : 0, 47, 1);
    put(v, "index.four_bit", op.index.four_bit ? 1 : 0, 48, 1);
    put(v, "index.reg", op.index.reg, 49, 3);
  } else {
    if (op.index != IndexedLoad{})
      throw Error(ErrorKind::BadInput, "matfp field index is set without indexed (bits 47..52 are the ALU mode)");
    put(v, "alu_mode", op.alu_mode, 47, 6);
  }
  put(v, "must_be_zero", op.must_be_zero, 54, 3);
  put(v, "y_enable_value", op.y_enable_value, 58, 5);
  if (op.ignored & ~matfp_ignored_bits(op.indexed))
    throw Error(ErrorKind::BadInput, fmt::format("matfp field ignored = {:#x} has bits that are not ignored: {:#x}",
                                                 op.ignored, op.ignored & ~matfp_ignored_bits(op.indexed)));
  return v | op.ignored;
}

std::string enable_text(unsigned mode, unsigned value, char self) {
  switch (mode) {
    case 0:
      switch (value) {
        case 0: return "all";
        case 1: return "odd";
        case 2: return "even";
        case 3: return "all,result=0";
        case 4:
        case 5: return fmt::format("all,{}=0", self);
        default: return "none";
      }
    case 1: return fmt::format("lane {}", value);
    case 2: return value == 0 ? "all" : fmt::format("first {}", value);
    case 3: return value == 0 ? "all" : fmt::format("last {}", value);
    case 4: return value == 0 ? "none" : fmt::format("first {}", value);
    case 5: return value == 0 ? "none" : fmt::format("last {}", value);
    default: return "none";
  }
}

std::string disassemble_matfp(const MatfpOperand& op, Version v) {
  const LaneWidth w = lane_width(op.lane_width, v);
  std::string alu;
  const unsigned mode = op.indexed ? kAluAdd : op.alu_mode;
  switch (mode) {
    case kAluAdd: alu = "z+=x*y"; break;
    case kAluSub: alu = "z-=x*y"; break;
    case kAluSelect: alu = "z=x<=0?0:y"; break;
    default: alu = fmt::format("nop(alu={})", mode); break;
  }
  // f16 is "anything else" in matfp.md's table, so its code is shown.
  const std::string lw = w == LaneWidth::F16 ? fmt::format("f16(lw={})", op.lane_width) : lane_width_name(w);
  std::string s = fmt::format("matfp {} {}", lw, alu);
  s += fmt::format(" x={:#05x} y={:#05x} zrow={}", op.x_offset, op.y_offset, op.z_row);
  s += fmt::format(" xen={}:{}({}) yen={}:{}({})", op.x_enable_mode, op.x_enable_value,
                   enable_text(op.x_enable_mode, op.x_enable_value, 'x'), op.y_enable_mode, op.y_enable_value,
                   enable_text(op.y_enable_mode, op.y_enable_value, 'y'));
  s += fmt::format(" xshuf=S{} yshuf=S{}", op.x_shuffle, op.y_shuffle);
  if (op.indexed)
    s += fmt::format(" idx={}<-{}{}/{}b", op.index.of_y ? 'y' : 'x', op.index.of_y ? 'y' : 'x', op.index.reg,
                     op.index.four_bit ? 4 : 2);
  if (op.must_be_zero) s += fmt::format(" nop(mbz={})", op.must_be_zero);
  if (op.ignored) s += fmt::format(" ign={:#x}", op.ignored);
  return s;
}

uint32_t encode_matfp_word(unsigned gpr) {
  if (gpr > 31) throw Error(ErrorKind::BadInput, fmt::format("matfp GPR index {} (0..31)", gpr));
  return kMatfpWordBase | gpr;
}

unsigned decode_matfp_word(uint32_t word) {
  if ((word & ~31u) != kMatfpWordBase)
    throw Error(ErrorKind::DecodeError, fmt::format("{:#010x} is not an AMX matfp word ({:#010x} | gpr)", word,
                                                    kMatfpWordBase));
  return word & 31u;
}

}  // namespace tmu::amx

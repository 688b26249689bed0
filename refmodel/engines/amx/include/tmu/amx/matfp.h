// AMX `matfp`: z[j][i] +=/-= x[i] * y[j] over a grid of Z (or a selection, x <= 0 ? 0 : y), after
// corsix/amx matfp.md (operand bit fields, ALU and lane-width tables) and matfp.c (the emulation
// its test.c checks against hardware), whose behaviour is restated here, not copied.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tmu/amx/state.h"
#include "tmu/ieee.h"

namespace tmu::amx {

// The generations corsix/amx distinguishes (emulate.h's AMX_VER_M1..M4). For matfp only M1 versus
// the rest matters: from M2 on, lane-width codes 0 and 1 are bf16 (matfp.c tests AMX_VER >= M2;
// matfp.md's table says "M2 only", written before M3; README.md names no matfp change in M3 or M4).
enum class Version : uint8_t { M1, M2, M3, M4 };
const char* version_name(Version v);

// X,Y element type -> Z element type, and the Z rows each covers (matfp.md "Lane width modes"):
//   F16, BF16: one Z row in two, row 2j + (z_row & 1); F32: one in four, 4j + (z_row & 3);
//   F64: one in eight, 8j + z_row; F16F32, BF16F32: all 64 rows as interleaved pairs, lane i of X
//   going to f32 lane i / 2 of row 2j + (i & 1), the Z row field ignored altogether.
enum class LaneWidth : uint8_t { F16, F32, F64, F16F32, BF16, BF16F32 };
// Code (bits 42..45): 3 F16F32, 4 F32, 7 F64; 0 BF16 and 1 BF16F32 from M2 on; anything else F16.
LaneWidth lane_width(unsigned code, Version v);
unsigned xy_bytes(LaneWidth w);  // 2, 4 or 8
unsigned z_bytes(LaneWidth w);
const char* lane_width_name(LaneWidth w);

// ALU mode values (bits 47..52 when bit 53 is 0); any other value makes the instruction a no-op.
inline constexpr unsigned kAluAdd = 0;     // z + x*y, one rounding
inline constexpr unsigned kAluSub = 1;     // z - x*y, one rounding
inline constexpr unsigned kAluSelect = 4;  // x <= 0 ? 0 : y, Z not read
// The FPCR matfp computes under, as corsix/amx test.c runs matfp.c against hardware: round to
// nearest even, no flush to zero, every NaN result the default NaN (DN = 1).
inline constexpr ieee::Options kMatfpFpcr{ieee::Rounding::NearestEven, false, true, ieee::Tininess::BeforeRounding};

// Bit 53 = 1 (RegisterFile.md "Indexed loads"): the ALU mode is then z + x*y (matfp.c).
struct IndexedLoad {
  bool of_y = false;     // bit 47: index into Y (1) or X (0)
  bool four_bit = false; // bit 48: 4-bit (1) or 2-bit (0) indices
  unsigned reg = 0;      // bits 49..51: the register of the same pool that is indexed into
  bool operator==(const IndexedLoad&) const = default;
};

// Every field of the 64-bit operand (matfp.md "Operand bitfields"); decode then encode gives the
// operand back bit for bit.
struct MatfpOperand {
  unsigned y_offset = 0;        // bits 0..8, a byte offset into the Y pool
  unsigned x_offset = 0;        // bits 10..18, a byte offset into the X pool
  unsigned z_row = 0;           // bits 20..22; high bits ignored in some lane widths
  unsigned y_enable_mode = 0;   // bits 23..25
  unsigned y_shuffle = 0;       // bits 27..28
  unsigned x_shuffle = 0;       // bits 29..30
  unsigned x_enable_value = 0;  // bits 32..36
  unsigned x_enable_mode = 0;   // bits 38..40
  unsigned lane_width = 0;      // bits 42..45, the code lane_width() interprets
  unsigned alu_mode = 0;        // bits 47..52 when !indexed (0 when indexed)
  bool indexed = false;         // bit 53
  IndexedLoad index;            // bits 47..51 when indexed (default when not)
  unsigned must_be_zero = 0;    // bits 54..56: the instruction is a no-op unless 0
  unsigned y_enable_value = 0;  // bits 58..62 (see kMatfpIgnoredBits on bit 57)
  // The ignored bits as they stand in the operand (a subset of matfp_ignored_bits(indexed)).
  uint64_t ignored = 0;
  bool operator==(const MatfpOperand&) const = default;
};

// Ignored bits 9, 19, 26, 31, 37, 41, 46, 57 and 63, plus 52 when indexed. matfp.md lists bit 57
// as the low bit of a 6-bit Y enable value, but matfp.c reads the value from bit 58 and clears bit
// 63, exactly as it reads X's from bit 32 and clears bit 37; the model follows matfp.c, which is
// the code test.c compares with hardware.
inline constexpr uint64_t kMatfpIgnoredBits = (1ull << 9) | (1ull << 19) | (1ull << 26) | (1ull << 31) |
                                              (1ull << 37) | (1ull << 41) | (1ull << 46) | (1ull << 57) |
                                              (1ull << 63);
inline constexpr uint64_t matfp_ignored_bits(bool indexed) {
  return kMatfpIgnoredBits | (indexed ? 1ull << 52 : 0);
}

MatfpOperand decode_matfp(uint64_t operand);
// Throws tmu::Error (BadInput) naming the first field that does not fit its bits, or ignored bits
// outside matfp_ignored_bits(indexed), or a nonzero alu_mode with indexed set.
uint64_t encode_matfp(const MatfpOperand& op);
// One line, every field: e.g. "matfp f32 z+=x*y x=0x040 y=0x1f0 zrow=1 xen=0:0(all) yen=2:3(first 3)
// xshuf=S0 yshuf=S1"; indexed loads, no-ops and set ignored bits are spelled out.
std::string disassemble_matfp(const MatfpOperand& op, Version v = Version::M1);
// What an enable mode and value select, in matfp.md's words ("all", "odd", "first 3", "all,x=0"):
// the parenthesised text disassemble_matfp prints after xen= and yen=.
std::string enable_text(unsigned mode, unsigned value, char operand);

// The text disassemble_matfp prints, read back: assemble_matfp(disassemble_matfp(op, v), v) == op
// for every operand. Tokens after "matfp", in any order, each at most once:
//   lane width   f16 (code 2) | f16(lw=N) | f32 | f64 | f16f32 | bf16 | bf16f32 (M2 on)
//   ALU          z+=x*y | z-=x*y | z=x<=0?0:y | nop(alu=N)
//   x=OFF y=OFF zrow=R xen=MODE:VALUE yen=MODE:VALUE xshuf=SN yshuf=SN idx=x<-xR/2b (or y, 4b)
//   nop(mbz=N) ign=BITS
// and every field by its MatfpOperand name: y_offset= x_offset= z_row= y_enable_mode= ... index_reg=
// ignored=. The enables' parenthesised text is optional and, when given, must match. Numbers are
// decimal or 0x hex. Throws tmu::Error (BadInput) naming the token and the reason.
MatfpOperand assemble_matfp(std::string_view text, Version v = Version::M1);

// The 32-bit instruction word (matfp.md "Instruction encoding"): 0x201000 in bits 10..31, 21 in
// bits 5..9, the index of the general-purpose register holding the operand in bits 0..4.
inline constexpr uint32_t kMatfpWordBase = 0x00201000u | (21u << 5);
uint32_t encode_matfp_word(unsigned gpr);
// The GPR index; throws tmu::Error (DecodeError) for a word that is not matfp.
unsigned decode_matfp_word(uint32_t word);

// The Z rows an execution wrote (bit r = row r): a row counts when any lane of it was written, even
// with the value it had.
struct WriteSet {
  uint64_t z_rows = 0;
  bool has_row(unsigned r) const { return (z_rows >> r) & 1; }
  bool operator==(const WriteSet&) const = default;
};

// Executes matfp with arithmetic as the hardware does it per corsix/amx: one rounding (fused),
// round to nearest even, subnormals neither read nor written as zero, every NaN result the default
// NaN (test.c sets FPCR.DN before comparing matfp.c's host fmadd/fmsub with hardware, and leaves
// FPCR.RMode and FPCR.FZ/FZ16 at their reset values, RNE and off). Throws tmu::Error (BadInput) for
// a field out of range.
WriteSet execute_matfp(State& s, const MatfpOperand& op, Version v = Version::M1);
inline WriteSet execute_matfp(State& s, uint64_t operand, Version v = Version::M1) {
  return execute_matfp(s, decode_matfp(operand), v);
}

// What one Z lane of a matfp read: the X and Y lanes whose product it accumulated (X lane i, Y lane
// j of the operation's lane width) and their bits, after the operation's offsets, indexed load,
// shuffles and enable values; nullopt when the operation wrote no product into Z row `z_row` lane
// `z_lane` (Z's lane width). `s` is the state it ran on; matfp leaves X and Y as they were.
struct LaneOperands {
  unsigned x_lane = 0, y_lane = 0;
  uint64_t x = 0, y = 0;
};
std::optional<LaneOperands> matfp_lane_operands(const State& s, const MatfpOperand& op, Version v, unsigned z_row,
                                                unsigned z_lane);

}  // namespace tmu::amx

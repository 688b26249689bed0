// Instruction words <-> decoded instructions <-> assembly text, all driven by the ISA table (isa.h).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tmu/tensix/isa.h"

namespace tmu::tensix {

// Words appear raw (opcode in bits 31:24) or, embedded in RISC-V kernel binaries as .ttinsn, rotated
// left by 2 (BabyRISCV/PushTensixInstruction.md).
enum class WordForm : uint8_t { Raw, Rotated };

// Rotated -> raw is a right-rotate by 2. Throws Error(DecodeError) for a rotated word whose low two bits
// are 0b11 (an ordinary RISC-V instruction, not .ttinsn) and, in from_raw, for a raw word >= 0xC0000000,
// which has no rotated form.
uint32_t to_raw(uint32_t word, WordForm form);
uint32_t from_raw(uint32_t raw, WordForm form);

// A decoded instruction: the spec it matched plus every field value, indexed by Field.
struct Insn {
  Arch arch = Arch::Blackhole;
  const InsnSpec* spec = nullptr;
  uint32_t word = 0;  // raw form
  std::array<uint32_t, kNumFields> values{};

  Op op() const { return spec->op; }
  const char* mnemonic() const { return spec->mnemonic; }
  // Value of a field; a field the instruction lacks on this architecture reads as 0.
  uint32_t operator[](Field f) const { return values[static_cast<unsigned>(f)]; }
  bool has(Field f) const { return spec->find_field(f) != nullptr; }
};

// Decodes a raw word. Throws Error(DecodeError) naming the word, the architecture and the reason for
// an unknown opcode, a reserved bit set (naming the bits and their mask), or a field above its allowed
// maximum (naming the field, its value and the allowed range).
Insn decode(uint32_t raw_word, Arch arch);

// Encodes named field values; every field not named is 0. Throws Error(DecodeError) naming the field
// for a field the instruction lacks, a field given twice, or a value that does not fit / is not allowed.
uint32_t encode(Arch arch, Op op, const std::vector<std::pair<Field, uint32_t>>& fields);
// As above from insn.values; a non-zero value in a field insn.spec lacks is an error too.
uint32_t encode(const Insn& insn);

// "MVMUL DstRow=0 AddrMod=1 BroadcastSrcBRow=0 FlipSrcA=0 FlipSrcB=0" (every field, table order).
std::string disassemble(const Insn& insn);

// Parses "MNEMONIC Field=value ..." separated by whitespace (mnemonic and field names
// case-insensitive, values unsigned decimal or 0x-hex, fields not given are 0). Throws Error(BadInput)
// with the reason: empty text, unknown mnemonic, missing '=', unknown or duplicate field, bad number,
// value not allowed.
Insn assemble(std::string_view text, Arch arch);

}  // namespace tmu::tensix

// The instruction set as data: per-architecture tables generated from refmodel/engines/tensix/isa/tensix_isa.json.
// Decode, encode, disassembly and assembly all read these tables; no field position is written
// anywhere else in the model.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace tmu::tensix {

enum class Arch : uint8_t { Blackhole, Wormhole };
// The backend unit an instruction goes to. The RTL implements the Matrix Unit and the Scalar Unit's
// GPR ops; UNPACR and PACR run on the reference model only.
enum class Unit : uint8_t { MatrixUnit, ScalarUnit, Unpacker, Packer };
const char* unit_name(Unit unit);  // "MatrixUnit", ...
inline bool unit_in_rtl(Unit unit) { return unit == Unit::MatrixUnit || unit == Unit::ScalarUnit; }

const char* arch_name(Arch arch);
std::optional<Arch> parse_arch(std::string_view name);  // "blackhole"/"bh", "wormhole"/"wh"

#define TMU_ISA_ENUMS
#include "tmu/tensix/isa_table.inc"
#undef TMU_ISA_ENUMS

struct FieldSpec {
  Field id;
  uint8_t lo;
  uint8_t width;
  uint32_t max;  // largest value the instruction allows in this field (inclusive)
  // A tighter maximum while another field holds a given value (SHIFTDMAREG's 5-bit immediate shares
  // RightReg's 6 bits); when_field is kNoField when there is none.
  Field when_field = Field::kNoField;
  uint32_t when_value = 0;
  uint32_t when_max = 0;

  bool has_conditional_max() const { return when_field != Field::kNoField; }
};

struct InsnSpec {
  Op op;
  const char* mnemonic;
  uint8_t opcode;
  Unit unit;
  const FieldSpec* field_table;
  uint8_t num_fields;
  uint32_t reserved_mask;  // bits 23:0 that belong to no field and must be zero
  const char* summary;
  // The table's timing_source cites these. The executor starts every instruction from them; a
  // Scalar Unit handler may raise the cycles for its operands.
  uint8_t issue_cycles;  // cycles the instruction occupies its unit: 1 / throughput
  uint8_t latency;       // cycles until its results can be read

  std::span<const FieldSpec> fields() const { return {field_table, num_fields}; }
  const FieldSpec* find_field(Field f) const;
};

const char* op_name(Op op);
const char* field_name(Field f);
std::optional<Field> parse_field_name(std::string_view name);

std::span<const InsnSpec> instructions(Arch arch);
const InsnSpec* find_by_opcode(Arch arch, uint8_t opcode);
const InsnSpec* find_by_op(Arch arch, Op op);
const InsnSpec* find_by_mnemonic(Arch arch, std::string_view mnemonic);  // case-insensitive

}  // namespace tmu::tensix

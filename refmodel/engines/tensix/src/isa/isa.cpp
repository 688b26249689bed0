#include "tmu/tensix/isa.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace tmu::tensix {

#define TMU_ISA_TABLES
#include "tmu/tensix/isa_table.inc"
#undef TMU_ISA_TABLES

namespace {

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// Opcode -> spec, one 256-entry index per architecture, built once.
struct OpcodeIndex {
  std::array<const InsnSpec*, 256> by_opcode{};
  std::array<const InsnSpec*, kNumOps> by_op{};
  explicit OpcodeIndex(std::span<const InsnSpec> table) {
    for (const InsnSpec& s : table) {
      by_opcode[s.opcode] = &s;
      by_op[static_cast<unsigned>(s.op)] = &s;
    }
  }
};

const OpcodeIndex& index_for(Arch arch) {
  static const OpcodeIndex blackhole{k_blackhole_insns};
  static const OpcodeIndex wormhole{k_wormhole_insns};
  return arch == Arch::Blackhole ? blackhole : wormhole;
}

}  // namespace

const char* arch_name(Arch arch) { return arch == Arch::Blackhole ? "blackhole" : "wormhole"; }

const char* unit_name(Unit unit) {
  switch (unit) {
    case Unit::MatrixUnit: return "MatrixUnit";
    case Unit::ScalarUnit: return "ScalarUnit";
    case Unit::Unpacker: return "Unpacker";
    case Unit::Packer: return "Packer";
  }
  return "?";
}

std::optional<Arch> parse_arch(std::string_view name) {
  if (iequal(name, "blackhole") || iequal(name, "bh")) return Arch::Blackhole;
  if (iequal(name, "wormhole") || iequal(name, "wh") || iequal(name, "wormhole_b0")) return Arch::Wormhole;
  return std::nullopt;
}

const FieldSpec* InsnSpec::find_field(Field f) const {
  for (const FieldSpec& fs : fields())
    if (fs.id == f) return &fs;
  return nullptr;
}

const char* op_name(Op op) { return kOpNames[static_cast<unsigned>(op)]; }
const char* field_name(Field f) { return kFieldNames[static_cast<unsigned>(f)]; }

std::optional<Field> parse_field_name(std::string_view name) {
  for (unsigned i = 1; i < kNumFields; ++i)
    if (iequal(name, kFieldNames[i])) return static_cast<Field>(i);
  return std::nullopt;
}

std::span<const InsnSpec> instructions(Arch arch) {
  if (arch == Arch::Blackhole) return k_blackhole_insns;
  return k_wormhole_insns;
}

const InsnSpec* find_by_opcode(Arch arch, uint8_t opcode) { return index_for(arch).by_opcode[opcode]; }
const InsnSpec* find_by_op(Arch arch, Op op) { return index_for(arch).by_op[static_cast<unsigned>(op)]; }

const InsnSpec* find_by_mnemonic(Arch arch, std::string_view mnemonic) {
  for (const InsnSpec& s : instructions(arch))
    if (iequal(s.mnemonic, mnemonic)) return &s;
  return nullptr;
}

}  // namespace tmu::tensix

// Table-driven decode, encode, disassembly and assembly. Every field position comes from the ISA table
// (isa.h, generated from refmodel/engines/tensix/isa/tensix_isa.json); this file only knows the word layout that all
// instructions share: an opcode byte on top of 24 operand bits.
#include "tmu/tensix/decode.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <optional>

#include "tmu/bits.h"
#include "tmu/error.h"
#include "tmu/suggest.h"

namespace tmu::tensix {

namespace {

using FieldValues = std::array<uint32_t, kNumFields>;

// .ttinsn (BabyRISCV/PushTensixInstruction.md): a RISC-V instruction word is the Tensix word rotated
// left by two. Raw words at or above 0xC0000000 have no .ttinsn form: rotated, their low two bits would be
// 0b11, the marker of an ordinary 32-bit RISC-V instruction.
constexpr unsigned kTtinsnRotation = 2;
constexpr uint32_t kBothBitsSet = 0b11;

uint32_t opcode_of(uint32_t raw) { return bits<31, 24>(raw); }
uint32_t with_opcode(uint32_t raw, uint32_t opcode) { return with_bits<31, 24>(raw, opcode); }
uint32_t operand_bits_of(uint32_t raw) { return bits<23, 0>(raw); }
uint32_t rotated_low_bits(uint32_t rotated) { return bits<1, 0>(rotated); }
uint32_t raw_top_bits(uint32_t raw) { return bits<31, 30>(raw); }

std::string hex32(uint32_t v) { return fmt::format("{:#010x}", v); }

uint32_t value_of(const FieldValues& values, Field f) { return values[static_cast<unsigned>(f)]; }

// Lists the bit numbers set in a mask, most significant first: "13, 11".
std::string bit_numbers(uint32_t mask) {
  std::string out;
  for (int b = 31; b >= 0; --b) {
    if (!((mask >> b) & 1u)) continue;
    if (!out.empty()) out += ", ";
    out += std::to_string(b);
  }
  return out;
}

std::string field_list(const InsnSpec& spec) {
  std::string out;
  for (const FieldSpec& fs : spec.fields()) {
    if (!out.empty()) out += ' ';
    out += field_name(fs.id);
  }
  return out.empty() ? "no fields" : "fields " + out;
}

// Why `value` is not allowed in field `fs`, given the values of the instruction's other fields; nullopt
// when it is allowed.
std::optional<std::string> field_value_problem(const InsnSpec& spec, const FieldSpec& fs, uint32_t value,
                                               const FieldValues& values) {
  if (value > fs.max)
    return fmt::format("{}.{}={} is outside its allowed range 0..{} ({} bits at {}..{})", spec.mnemonic,
                       field_name(fs.id), value, fs.max, fs.width, fs.lo + fs.width - 1, fs.lo);
  if (fs.has_conditional_max() && value_of(values, fs.when_field) == fs.when_value && value > fs.when_max)
    return fmt::format("{}.{}={} is outside its allowed range 0..{} when {}={}", spec.mnemonic, field_name(fs.id),
                       value, fs.when_max, field_name(fs.when_field), fs.when_value);
  return std::nullopt;
}

std::optional<std::string> first_field_problem(const InsnSpec& spec, const FieldValues& values) {
  for (const FieldSpec& fs : spec.fields())
    if (auto problem = field_value_problem(spec, fs, value_of(values, fs.id), values)) return problem;
  return std::nullopt;
}

// Builds the raw word from checked field values; throws `kind` naming the first field that is not allowed.
uint32_t pack_checked(Arch arch, const InsnSpec& spec, const FieldValues& values, ErrorKind kind) {
  if (auto problem = first_field_problem(spec, values))
    throw Error(kind, fmt::format("cannot encode {} on {}: {}", spec.mnemonic, arch_name(arch), *problem));
  uint32_t raw = with_opcode(0, spec.opcode);
  for (const FieldSpec& fs : spec.fields()) raw = deposit_bits(raw, fs.lo, fs.width, value_of(values, fs.id));
  return raw;
}

const InsnSpec& spec_for_op(Arch arch, Op op) {
  const InsnSpec* spec = find_by_op(arch, op);
  if (!spec)
    throw Error(ErrorKind::DecodeError,
                fmt::format("cannot encode {}: it is not an instruction on {}", op_name(op), arch_name(arch)));
  return *spec;
}

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_space(text[i])) ++i;
    const size_t start = i;
    while (i < text.size() && !is_space(text[i])) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

// Decimal or 0x-hex, unsigned, at most 32 bits; nullopt for anything else.
std::optional<uint32_t> parse_number(std::string_view s) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty()) return std::nullopt;
  uint32_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  return value;
}

[[noreturn]] void bad_assembly(std::string_view text, Arch arch, const std::string& reason) {
  throw Error(ErrorKind::BadInput, fmt::format("cannot assemble \"{}\" for {}: {}", text, arch_name(arch), reason));
}

}  // namespace

uint32_t to_raw(uint32_t word, WordForm form) {
  if (form == WordForm::Raw) return word;
  if (rotated_low_bits(word) == kBothBitsSet)
    throw Error(ErrorKind::DecodeError,
                fmt::format("word {} is not a rotated Tensix instruction: its low two bits are 0b11, which marks an "
                            "ordinary 32-bit RISC-V instruction rather than .ttinsn",
                            hex32(word)));
  return rotr32(word, kTtinsnRotation);
}

uint32_t from_raw(uint32_t raw, WordForm form) {
  if (form == WordForm::Raw) return raw;
  if (raw_top_bits(raw) == kBothBitsSet)
    throw Error(ErrorKind::DecodeError,
                fmt::format("word {} cannot be rotated into a .ttinsn instruction: it is not below 0xc0000000",
                            hex32(raw)));
  return rotl32(raw, kTtinsnRotation);
}

Insn decode(uint32_t raw_word, Arch arch) {
  const uint32_t opcode = opcode_of(raw_word);
  const InsnSpec* spec = find_by_opcode(arch, static_cast<uint8_t>(opcode));
  if (!spec)
    throw Error(ErrorKind::DecodeError,
                fmt::format("cannot decode word {} on {}: opcode {:#04x} is unknown or reserved (no instruction in "
                            "tmu's ISA table has it)",
                            hex32(raw_word), arch_name(arch), opcode));
  const uint32_t reserved_set = operand_bits_of(raw_word) & spec->reserved_mask;
  if (reserved_set)
    throw Error(ErrorKind::DecodeError,
                fmt::format("cannot decode word {} ({}) on {}: reserved bit(s) {} set (mask {}; {} has {})",
                            hex32(raw_word), spec->mnemonic, arch_name(arch), bit_numbers(reserved_set),
                            hex32(reserved_set), spec->mnemonic, field_list(*spec)));
  Insn insn;
  insn.arch = arch;
  insn.spec = spec;
  insn.word = raw_word;
  for (const FieldSpec& fs : spec->fields())
    insn.values[static_cast<unsigned>(fs.id)] = extract_bits(raw_word, fs.lo, fs.width);
  if (auto problem = first_field_problem(*spec, insn.values))
    throw Error(ErrorKind::DecodeError,
                fmt::format("cannot decode word {} on {}: {}", hex32(raw_word), arch_name(arch), *problem));
  return insn;
}

uint32_t encode(Arch arch, Op op, const std::vector<std::pair<Field, uint32_t>>& fields) {
  const InsnSpec& spec = spec_for_op(arch, op);
  FieldValues values{};
  std::array<bool, kNumFields> given{};
  for (const auto& [field, value] : fields) {
    const unsigned index = static_cast<unsigned>(field);
    if (field == Field::kNoField || index >= kNumFields || !spec.find_field(field))
      throw Error(ErrorKind::DecodeError,
                  fmt::format("cannot encode {} on {}: it has no field {} (it has {})", spec.mnemonic, arch_name(arch),
                              index < kNumFields ? field_name(field) : "?", field_list(spec)));
    if (given[index])
      throw Error(ErrorKind::DecodeError, fmt::format("cannot encode {} on {}: field {} is given twice",
                                                      spec.mnemonic, arch_name(arch), field_name(field)));
    given[index] = true;
    values[index] = value;
  }
  return pack_checked(arch, spec, values, ErrorKind::DecodeError);
}

uint32_t encode(const Insn& insn) {
  if (!insn.spec) throw Error(ErrorKind::DecodeError, "cannot encode an Insn without an instruction spec");
  for (unsigned i = 1; i < kNumFields; ++i) {
    const Field f = static_cast<Field>(i);
    if (insn.values[i] != 0 && !insn.spec->find_field(f))
      throw Error(ErrorKind::DecodeError,
                  fmt::format("cannot encode {} on {}: field {} is set to {} but the instruction has no such field",
                              insn.mnemonic(), arch_name(insn.arch), field_name(f), insn.values[i]));
  }
  return pack_checked(insn.arch, *insn.spec, insn.values, ErrorKind::DecodeError);
}

std::string disassemble(const Insn& insn) {
  std::string out = insn.mnemonic();
  for (const FieldSpec& fs : insn.spec->fields()) out += fmt::format(" {}={}", field_name(fs.id), insn[fs.id]);
  return out;
}

Insn assemble(std::string_view text, Arch arch) {
  const std::vector<std::string_view> words = split_words(text);
  if (words.empty()) bad_assembly(text, arch, "the text is empty; expected \"MNEMONIC Field=value ...\"");
  const InsnSpec* spec = find_by_mnemonic(arch, words[0]);
  if (!spec) {
    std::vector<std::string_view> mnemonics;
    for (const InsnSpec& s : instructions(arch)) mnemonics.push_back(s.mnemonic);
    bad_assembly(text, arch, fmt::format("unknown mnemonic \"{}\"{}", words[0], did_you_mean(words[0], mnemonics)));
  }

  FieldValues values{};
  std::array<bool, kNumFields> given{};
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string_view word = words[i];
    const size_t eq = word.find('=');
    if (eq == std::string_view::npos)
      bad_assembly(text, arch, fmt::format("operand \"{}\" has no '=' (expected Field=value)", word));
    const std::string_view name = word.substr(0, eq);
    const std::string_view value_text = word.substr(eq + 1);
    const std::optional<Field> field = parse_field_name(name);
    if (!field || !spec->find_field(*field)) {
      std::vector<std::string_view> names;
      for (const FieldSpec& f : spec->fields()) names.push_back(field_name(f.id));
      bad_assembly(text, arch, fmt::format("{} has no field \"{}\"{} (it has {})", spec->mnemonic, name,
                                           did_you_mean(name, names), field_list(*spec)));
    }
    const unsigned index = static_cast<unsigned>(*field);
    if (given[index]) bad_assembly(text, arch, fmt::format("field {} is given twice", field_name(*field)));
    const std::optional<uint32_t> value = parse_number(value_text);
    if (!value)
      bad_assembly(text, arch,
                   fmt::format("value \"{}\" of field {} is not an unsigned 32-bit decimal or 0x-hex number", value_text,
                               field_name(*field)));
    given[index] = true;
    values[index] = *value;
  }
  if (auto problem = first_field_problem(*spec, values)) bad_assembly(text, arch, *problem);

  Insn insn;
  insn.arch = arch;
  insn.spec = spec;
  insn.values = values;
  insn.word = pack_checked(arch, *spec, values, ErrorKind::BadInput);
  return insn;
}

}  // namespace tmu::tensix

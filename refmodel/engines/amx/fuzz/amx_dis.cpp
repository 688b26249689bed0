// AMX matfp operands (tmu --engine amx dis): the first byte picks the version (bits 0-1) and, with
// bit 7, hands the rest to the engine as the command line's text (bit 6: as a 32-bit instruction
// word, --word) instead of eight little-endian bytes. Every operand decodes; its disassembly
// assembles back to the same operand, and an operand that encodes gives back its bits.
#include <cstring>

#include "fuzz.h"
#include "tmu/amx/matfp.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tmu::fuzz;
  if (size < 1) return 0;
  const auto version = static_cast<tmu::amx::Version>(data[0] & 3);
  if (data[0] & 0x80) {
    tmu::register_builtin_engines();
    tmu::OptionValues o;
    if (data[0] & 0x40) o["word"] = {"1"};
    const std::string text = as_text(data + 1, size - 1);
    accepts([&] { tmu::find_engine("amx")->words()->disassemble(text, tmu::amx::version_name(version), o); }, Refusal::ErrorOnly);
    return 0;
  }
  if (size < 9) return 0;
  uint64_t operand;
  std::memcpy(&operand, data + 1, 8);
  const tmu::amx::MatfpOperand op = must([&] { return tmu::amx::decode_matfp(operand); }, "decode_matfp threw");
  const std::string text = must([&] { return tmu::amx::disassemble_matfp(op, version); }, "disassemble_matfp threw");
  const tmu::amx::MatfpOperand back =
      must([&] { return tmu::amx::assemble_matfp(text, version); }, "assemble_matfp refused the disassembly");
  require(back == op, "dis -> asm gives another operand", text);
  uint64_t encoded = 0;
  if (accepts([&] { encoded = tmu::amx::encode_matfp(op); }, Refusal::ErrorOnly))
    require(encoded == operand, "decode -> encode gives other bits", text);
  return 0;
}

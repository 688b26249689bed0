// AMX matfp text (tmu --engine amx asm, the matfp lines of AMX programs): the first byte picks the
// version (bits 0-1). Refused with a tmu::Error, or assembled; then the disassembly assembles back
// to the same operand, and an operand that encodes decodes back to itself.
#include "fuzz.h"
#include "tmu/amx/matfp.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tmu::fuzz;
  if (size < 1) return 0;
  const auto version = static_cast<tmu::amx::Version>(data[0] & 3);
  const std::string text = as_text(data + 1, size - 1);
  tmu::amx::MatfpOperand op;
  if (!accepts([&] { op = tmu::amx::assemble_matfp(text, version); }, Refusal::ErrorOnly)) return 0;
  const std::string printed = must([&] { return tmu::amx::disassemble_matfp(op, version); }, "disassemble_matfp threw");
  const tmu::amx::MatfpOperand back =
      must([&] { return tmu::amx::assemble_matfp(printed, version); }, "assemble_matfp refused the disassembly");
  require(back == op, "asm -> dis -> asm gives another operand", printed);
  uint64_t encoded = 0;
  if (accepts([&] { encoded = tmu::amx::encode_matfp(op); }, Refusal::ErrorOnly))
    require(must([&] { return tmu::amx::decode_matfp(encoded); }, "decode_matfp threw") == op,
            "asm -> encode -> decode gives another operand", printed);
  return 0;
}

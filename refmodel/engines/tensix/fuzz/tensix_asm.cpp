// Tensix mnemonic text (tmu asm, the instruction lines of programs): the first byte picks the
// architecture (bit 0). Refused with a tmu::Error, or assembled; then the word decodes to the same
// fields and its disassembly assembles back to them.
#include "fuzz.h"
#include "tmu/tensix/decode.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tmu::fuzz;
  if (size < 1) return 0;
  const tmu::tensix::Arch arch = data[0] & 1 ? tmu::tensix::Arch::Wormhole : tmu::tensix::Arch::Blackhole;
  const std::string text = as_text(data + 1, size - 1);
  tmu::tensix::Insn insn;
  if (!accepts([&] { insn = tmu::tensix::assemble(text, arch); }, Refusal::ErrorOnly)) return 0;
  const uint32_t raw = must([&] { return tmu::tensix::encode(insn); }, "encode refused an assembled instruction");
  const tmu::tensix::Insn decoded = must([&] { return tmu::tensix::decode(raw, arch); }, "decode refused an assembled word");
  require(decoded.spec == insn.spec && decoded.values == insn.values, "asm -> word -> decode gives other fields", text);
  const std::string printed = must([&] { return tmu::tensix::disassemble(decoded); }, "disassemble threw");
  const tmu::tensix::Insn back = must([&] { return tmu::tensix::assemble(printed, arch); }, "assemble refused the disassembly");
  require(back.spec == insn.spec && back.values == insn.values, "asm -> dis -> asm gives other fields", printed);
  return 0;
}

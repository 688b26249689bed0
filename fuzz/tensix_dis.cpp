// Tensix instruction words (tmu dis): the first byte picks the architecture (bit 0), the rotated
// .ttinsn form (bit 1) and, with bit 7, hands the rest to the engine as the command line's word text
// instead of four little-endian bytes. A word is refused with a tmu::Error or decodes, and then its
// disassembly assembles back to the same fields and the same word.
#include <cstring>

#include "fuzz.h"
#include "tmu/decode.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tmu::fuzz;
  if (size < 1) return 0;
  const tmu::Arch arch = data[0] & 1 ? tmu::Arch::Wormhole : tmu::Arch::Blackhole;
  const tmu::WordForm form = data[0] & 2 ? tmu::WordForm::Rotated : tmu::WordForm::Raw;
  if (data[0] & 0x80) {
    tmu::register_builtin_engines();
    tmu::OptionValues o;
    if (form == tmu::WordForm::Rotated) o["rotated"] = {"1"};
    const std::string text = as_text(data + 1, size - 1);
    accepts([&] { tmu::find_engine("tensix")->disassemble(text, arch == tmu::Arch::Wormhole ? "wormhole" : "blackhole", o); },
            Refusal::ErrorOnly);
    return 0;
  }
  if (size < 5) return 0;
  uint32_t word;
  std::memcpy(&word, data + 1, 4);
  uint32_t raw = 0;
  tmu::Insn insn;
  if (!accepts([&] { raw = tmu::to_raw(word, form); }, Refusal::ErrorOnly)) return 0;
  if (!accepts([&] { insn = tmu::decode(raw, arch); }, Refusal::ErrorOnly)) return 0;
  const std::string text = must([&] { return tmu::disassemble(insn); }, "disassemble threw");
  const tmu::Insn back = must([&] { return tmu::assemble(text, arch); }, "assemble refused the disassembly");
  require(back.spec == insn.spec && back.values == insn.values, "dis -> asm gives other fields", text);
  require(must([&] { return tmu::encode(back); }, "encode refused the disassembly") == raw, "dis -> asm gives another word", text);
  if (form == tmu::WordForm::Rotated)
    require(must([&] { return tmu::from_raw(raw, form); }, "from_raw refused a decoded word") == word, "rotation round trip");
  return 0;
}

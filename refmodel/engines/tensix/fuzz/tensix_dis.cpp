// Tensix instruction words (tmu dis): the first byte picks the architecture (bit 0), the rotated
// .ttinsn form (bit 1) and, with bit 7, hands the rest to the engine as the command line's word text
// instead of four little-endian bytes. A word is refused with a tmu::Error or decodes, and then its
// disassembly assembles back to the same fields and the same word.
#include <cstring>

#include "fuzz.h"
#include "tmu/tensix/decode.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tmu::fuzz;
  if (size < 1) return 0;
  const tmu::tensix::Arch arch = data[0] & 1 ? tmu::tensix::Arch::Wormhole : tmu::tensix::Arch::Blackhole;
  const tmu::tensix::WordForm form = data[0] & 2 ? tmu::tensix::WordForm::Rotated : tmu::tensix::WordForm::Raw;
  if (data[0] & 0x80) {
    tmu::register_builtin_engines();
    tmu::OptionValues o;
    if (form == tmu::tensix::WordForm::Rotated) o["rotated"] = {"1"};
    const std::string text = as_text(data + 1, size - 1);
    accepts([&] { tmu::find_engine("tensix")->words()->disassemble(text, arch == tmu::tensix::Arch::Wormhole ? "wormhole" : "blackhole", o); },
            Refusal::ErrorOnly);
    return 0;
  }
  if (size < 5) return 0;
  uint32_t word;
  std::memcpy(&word, data + 1, 4);
  uint32_t raw = 0;
  tmu::tensix::Insn insn;
  if (!accepts([&] { raw = tmu::tensix::to_raw(word, form); }, Refusal::ErrorOnly)) return 0;
  if (!accepts([&] { insn = tmu::tensix::decode(raw, arch); }, Refusal::ErrorOnly)) return 0;
  const std::string text = must([&] { return tmu::tensix::disassemble(insn); }, "disassemble threw");
  const tmu::tensix::Insn back = must([&] { return tmu::tensix::assemble(text, arch); }, "assemble refused the disassembly");
  require(back.spec == insn.spec && back.values == insn.values, "dis -> asm gives other fields", text);
  require(must([&] { return tmu::tensix::encode(back); }, "encode refused the disassembly") == raw, "dis -> asm gives another word", text);
  if (form == tmu::tensix::WordForm::Rotated)
    require(must([&] { return tmu::tensix::from_raw(raw, form); }, "from_raw refused a decoded word") == word, "rotation round trip");
  return 0;
}

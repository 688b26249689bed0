// The installed Tensix model called directly, without the engine registry: the word the README
// disassembles (ZEROACC) through tmu::tensix::decode.
#include <iostream>

#include "tmu/tensix/decode.h"

int main() {
  const auto insn = tmu::tensix::decode(0x10184000u, tmu::tensix::Arch::Blackhole);
  std::cout << tmu::tensix::disassemble(insn) << "\n";
  return 0;
}

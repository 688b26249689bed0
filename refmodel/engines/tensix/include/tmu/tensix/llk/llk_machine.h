// The model as an LLK sequence sees it: the audit plays the unpackers (writing Src banks and handing
// them to the Matrix Unit), the RISC-V thread (ADDR_MOD set-up, issuing instructions by their
// assembly text) and an observer reading Dst. Used by the matmul and eltwise sequences
// (sequence.cpp) and the reductions (reduce_sequence.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "tmu/tensix/llk/sequence.h"
#include "tmu/tensix/isa.h"
#include "tmu/tensix/decode.h"
#include "tmu/tensix/state.h"

namespace tmu::tensix::llk {
using namespace tmu::audit;

inline constexpr unsigned kFace = 16;

// One ADDR_MOD slot as tt-llk's addr_mod_t spells it.
struct AddrMod {
  uint8_t srca_incr = 0; bool srca_cr = false, srca_clr = false;
  uint8_t srcb_incr = 0; bool srcb_cr = false, srcb_clr = false;
  uint16_t dest_incr = 0; bool dest_cr = false, dest_clr = false, dest_c_to_cr = false;
  uint8_t fidelity_incr = 0; bool fidelity_clr = false;
};

// Output element (row, col) of a 32x32 tile lives in face (row/16)*2 + col/16 (faces F0 F1 / F2 F3 at
// rows 0, 16, 32, 48 of Src and of Dst), at row face*16 + row%16, column col%16.
inline unsigned tile_row(unsigned row, unsigned col) { return ((row / kFace) * 2 + col / kFace) * kFace + row % kFace; }

// The exact value of a stored Dst word (the Dst32b word, or the 16-bit word in the low bits) as a
// matmul of format f leaves it.
double dst_word_value(uint32_t stored, SrcFormat f, bool dst32);

class LlkMachine {
 public:
  explicit LlkMachine(const RunConfig& cfg);
  LlkMachine(const LlkMachine&) = delete;  // by_slot_ points into this machine's cache_
  LlkMachine& operator=(const LlkMachine&) = delete;

  void set_addr_mod(unsigned slot, const AddrMod& a);
  // Issues "MNEMONIC <fields> AddrMod=slot". Wormhole's AddrMod field has two bits: slots 4..7 are
  // reached through ADDR_MOD_SET_Base, which the thread sets as its LLK does.
  void issue(const std::string& text, unsigned slot);
  // Issues the text as it is; throws std::runtime_error if the instruction does not retire.
  void issue(const std::string& text);

  // The unpacker's side: fill rows [0, rows) of the bank the Matrix Unit reads next and hand it over.
  // A template, not a std::function: it runs once per datum, 2048 times per matmul K tile.
  template <typename Datum>
  void unpack(bool srca, const Datum& datum, unsigned rows) {
    SrcBank& bank = unpack_target(srca);
    for (unsigned r = 0; r < rows; ++r)
      for (unsigned c = 0; c < kFace; ++c) bank.Rows[r][c] = datum(r, c);
  }
  void flip_srcb_signs();

  // A Dst element as the Dst mode of the configuration holds it (exact in a double).
  double dst_value(unsigned dst_row, unsigned col) const;
  void write_dst(unsigned dst_row, unsigned col, double v);
  // The stored bits (Dst.md layouts): the 32-bit view and the 16-bit view.
  uint32_t dst32_bits(unsigned dst_row, unsigned col) const;
  uint16_t dst16_bits(unsigned dst_row, unsigned col) const;
  unsigned phase_counter() const;

 private:
  SrcBank& unpack_target(bool srca);  // the bank unpack fills, tagged and handed to the Matrix Unit
  const Insn& assembled(const std::string& text);
  void run(const Insn& insn, const std::string& text, int addr_mod = -1);  // addr_mod: the field, for the message

  const RunConfig& cfg_;
  TensixState s_;
  std::map<std::string, Insn> cache_;
  // The last instruction issued through each ADDR_MOD slot: a replay issues the same few texts on
  // the same slots over and over, and this spares each issue the formatting and the map lookup.
  struct SlotEntry {
    std::string text;
    const Insn* insn = nullptr;  // in cache_, whose nodes never move
  };
  std::array<SlotEntry, 8> by_slot_;
};

}  // namespace tmu::tensix::llk

// Building one vector: the generator sets state through the builder, which lists every location it
// sets (and any location the caller names as read) as the vector's `init`; finish() runs the
// instructions on the reference model and lists exactly what they wrote as `expect`.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "tmu/tensix/decode.h"
#include "tmu/tensix/vectors.h"

namespace tmu::tensix::vectors::detail {

// The index of a field by name; a name that does not exist is a bug in the generator.
uint16_t field_id(Space s, std::string_view name);

// The state a builder works on is a per-thread scratch copy that finish() returns to the reset state
// location by location (the ones listed and the ones written), so that a vector costs what it
// touches rather than a 50 KB clear; an unfinished builder leaves the scratch to be cleared whole.
class Builder {
 public:
  Builder(Arch arch, unsigned thread);
  ~Builder();
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  TensixState& state() { return s_; }
  unsigned thread() const { return thread_; }
  Arch arch() const { return s_.arch; }

  // Setters write the state and list the location.
  void set(Space space, uint16_t a, uint16_t b, std::string_view field, uint32_t value);
  void set_cfg(std::string_view field, uint32_t v);  // Config[the thread's CFG_STATE_ID_StateID]
  void set_tcfg(std::string_view field, uint32_t v) { set(Space::ThreadConfig, t(), 0, field, v); }
  void set_rwc(std::string_view field, uint32_t v) { set(Space::Rwc, t(), 0, field, v); }
  void set_addrmod(unsigned slot, std::string_view field, uint32_t v) { set(Space::AddrMod, t(), u16(slot), field, v); }
  void set_global(std::string_view field, uint32_t v) { set(Space::Global, 0, 0, field, v); }
  void set_bank(bool srcb, unsigned bank, std::string_view field, uint32_t v) { set(Space::Bank, srcb, u16(bank), field, v); }
  void set_unpacker(unsigned index, uint32_t bank) { set(Space::Unpacker, u16(index), 0, "SrcBank", bank); }
  void set_gpr(unsigned index, uint32_t v);
  void set_src_row(bool srcb, unsigned bank, unsigned row, const std::array<uint32_t, 16>& values);
  void set_dst_row(unsigned row, bool valid, const std::array<uint32_t, 16>& bits16);
  // Dst32b row `row32` (stored through Adj32): both DstBits rows get the same validity.
  void set_dst32_row(unsigned row32, bool valid, const std::array<uint32_t, 16>& words);
  // Any location with its value (an L1 line, a SrcRow counter, ...).
  void set_record(const Record& r);
  // Only the validity of a DstBits row (init `dstvalid`): for rows whose bits are not read.
  void set_dst_validity(unsigned row, bool valid);

  // Listing without setting: the location is read (or kept) with the value the state holds now.
  void list(Space space, uint16_t a, uint16_t b, std::string_view field);
  void list_all_rwcs();
  // The eight locations a bank flip may write (see written_locations).
  void list_bank_state();

  // Instruction words run in order by finish(). Encoding errors are generator bugs.
  void insn(Op op, std::initializer_list<std::pair<Field, uint32_t>> fields);
  void insn_word(uint32_t raw) { words_.push_back(raw); }

  struct Views {
    View srca = View::Raw, srcb = View::Raw, dst = View::Raw;
  };
  // Runs the instructions and returns the vector. With dst_bits_untouched the Dst rows written are
  // listed as validity-only `dstvalid` records (ZEROACC: bits stay as they were).
  Vector finish(std::string name, std::string note, Views views, bool dst_bits_untouched = false);

 private:
  static uint16_t u16(unsigned v) { return static_cast<uint16_t>(v); }
  uint16_t t() const { return u16(thread_); }
  void add(const Record& loc) { locations_.push_back(loc); }

  TensixState& s_;
  unsigned thread_;
  bool finished_ = false;
  std::vector<Record> locations_;
  std::vector<uint32_t> words_;
};

}  // namespace tmu::tensix::vectors::detail

// Internal to tb/stim: the directed-sequence stimulus (a fixed body of instructions over a fixed initial
// state, the seed varying only the data) that directed_stim.cpp (the LLK sequences) and
// corner_stim.cpp (the corner sequences) are written in.
#pragma once

#include <functional>
#include <map>
#include <string>

#include <fmt/format.h>

#include "engine.h"

namespace tmu::tb {

using RowFn = std::function<std::array<uint32_t, kSrcCols>(unsigned operand, unsigned row, Rng& rng)>;

// Realistic BF16 data: exponents near 1, random mantissas (the LLK tests' tiles).
inline std::array<uint32_t, kSrcCols> realistic_row(Rng& rng) {
  std::array<uint32_t, kSrcCols> r{};
  for (auto& v : r) v = random_bf16_datum(rng, 118, 136);
  return r;
}

class DirectedStimulus final : public StreamStimulus {
 public:
  using Body = std::function<void(DirectedStimulus&)>;

  DirectedStimulus(const std::string& test, Arch arch, uint64_t seed, RowFn rows, Body body,
                   std::function<void(InitialState&, Rng&)> extra_init, bool no_dst_hazards = false)
      : StreamStimulus(test, arch, seed), rows_(std::move(rows)), body_(std::move(body)), no_dst_hazards_(no_dst_hazards) {
    InitialState init;
    init.fields.push_back({FieldScope::Config, "ALU_ACC_CTRL_Fp32_enabled", 0, 0, 1});
    for (unsigned op = 0; op < 2; ++op) {
      init.banks.push_back({op, 0, true, static_cast<uint32_t>(DataFormat::BF16)});
      init.banks.push_back({op, 1, false, static_cast<uint32_t>(DataFormat::BF16)});
      for (unsigned r = 0; r < kSrcRows; ++r) init.src_rows.push_back({op, 0, r, rows_(op, r, rng_)});
    }
    init.unpacker_bank = {1, 1};
    init.matrix_unit_bank = {0, 0};
    if (extra_init) extra_init(init, rng_);
    set_initial(std::move(init));
  }

  // The sequence-building vocabulary.
  void op(const std::string& text, unsigned thread = 0) { insn(thread, text); }
  void word(uint32_t w, unsigned thread = 0) { insn(thread, w); }
  void refused(uint32_t w, unsigned thread = 0) { refused_insn(thread, w); }
  void refused(const std::string& text, unsigned thread = 0) { refused_insn(thread, assemble(text, arch_).word); }
  void cfg(const std::string& name, uint32_t v, unsigned state = 0) { field(FieldScope::Config, name, v, 0, state); }
  void tcfg(const std::string& name, uint32_t v, unsigned thread = 0) { field(FieldScope::ThreadConfig, name, v, thread); }
  void global(const std::string& name, uint32_t v) { field(FieldScope::Global, name, v); }
  void addr_mod(unsigned slot, std::initializer_list<std::pair<const char*, uint32_t>> values, unsigned thread = 0) {
    static constexpr std::array<const char*, 14> kAll = {
        "SrcAIncr", "SrcACR", "SrcAClear", "SrcBIncr", "SrcBCR", "SrcBClear", "DestIncr",
        "DestCR", "DestClear", "DestCToCR", "FidelityIncr", "FidelityClear", "BiasIncr", "BiasClear"};
    for (const char* name : kAll) {
      uint32_t v = 0;
      for (const auto& [n, value] : values)
        if (std::string(n) == name) v = value;
      field(FieldScope::AddrMod, name, v, thread, slot);
    }
  }
  // An instruction with an AddrMod that may be 4..7: on Wormhole (2-bit field) through ADDR_MOD_SET_Base.
  void op_am(const std::string& text, unsigned am, unsigned thread = 0) {
    if (arch_ == Arch::Wormhole && am >= 4) {
      tcfg("ADDR_MOD_SET_Base", 1, thread);
      op(fmt::format("{} AddrMod={}", text, am - 4), thread);
      tcfg("ADDR_MOD_SET_Base", 0, thread);
    } else {
      op(fmt::format("{} AddrMod={}", text, am), thread);
    }
  }
  Arch arch() const { return arch_; }
  bool forbids_dst_hazard_stalls() const override { return no_dst_hazards_; }
  Rng& rng() { return rng_; }

 protected:
  bool generate_some() override {
    if (done_) return false;
    done_ = true;
    body_(*this);
    return true;
  }
  UnpackFill make_fill(unsigned operand) override { return fill(operand, rng_); }
  UnpackFill make_late_fill(unsigned operand, Rng& rng) override { return fill(operand, rng); }

 private:
  UnpackFill fill(unsigned operand, Rng& rng) {
    UnpackFill f;
    f.format = static_cast<uint32_t>(DataFormat::BF16);
    for (unsigned r = 0; r < kSrcRows; ++r) f.rows.emplace_back(r, rows_(operand, r, rng));
    return f;
  }

  RowFn rows_;
  Body body_;
  bool no_dst_hazards_;
  bool done_ = false;
};

using D = DirectedStimulus;

// One directed test: Src data, the sequence, extra initial state (Dst, GPRs), and whether the sequence
// is free of Dst hazards by construction (then a Dst hazard stall is a testbench failure).
struct Directed {
  RowFn rows;
  D::Body body;
  std::function<void(InitialState&, Rng&)> init;
  bool no_dst_hazards = false;
};

// Initial-state helpers shared by both files.
void random_valid_dst(InitialState& init, Rng& rng);
// corner_stim.cpp's tests.
void add_corner_tests(std::map<std::string, Directed>& table);

}  // namespace tmu::tb

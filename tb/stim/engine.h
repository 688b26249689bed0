// Internal to tb/stim: the shadow-state engine every stimulus is built on, and the data-value
// generators. Not part of the testbench's API (stimulus.h is).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "stimulus.h"
#include "tmu/tensix/decode.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/query.h"
#include "tmu/rng.h"
#include "tmu/tensix/state.h"

namespace tmu::tb {
using namespace tmu::tensix;

// ---- Data values (values.cpp) ----
// One Src datum of `style`, drawn from the special-value classes (signed zeros, denormals, smallest
// and largest exponents, infinity/NaN patterns, FP16 saturation, mantissas at the fidelity slice
// boundaries, rounding ties, INT8 extremes) mixed with random values.
uint32_t random_src_datum(Rng& rng, SrcStyle style);
// A row of them; some rows repeat one value (argmax ties) or a few.
std::array<uint32_t, kSrcCols> random_src_row(Rng& rng, SrcStyle style);
// One DstBits storage row: BF16, FP16 or FP32-half values from the same classes, or raw bits.
std::array<uint16_t, kDstCols> random_dst_row(Rng& rng);
// A BF16 datum with the given fields (mant7 = the 7 BF16 mantissa bits).
uint32_t bf16_datum(uint32_t sign, uint32_t exp, uint32_t mant7);
// A random BF16 datum with exponent in [exp_lo, exp_hi] (the LLK tests' realistic data).
uint32_t random_bf16_datum(Rng& rng, int exp_lo, int exp_hi);
// Fills for long random streams: datums drawn from a per-style pool of class-mixed values (4096 per
// style, 64 of them redrawn per fill), so a 1024-datum fill costs little. Owned by one stimulus
// (its content depends only on that stimulus's seed and history).
class DatumPool {
 public:
  UnpackFill fill(Rng& rng, DataFormat format, bool int8, unsigned first_row, unsigned rows);

 private:
  static constexpr unsigned kSize = 4096;
  std::array<std::vector<uint32_t>, 4> pools_;  // by SrcStyle
};


// ---- The engine (engine.cpp) ----
class StreamStimulus : public Stimulus {
 public:
  StreamStimulus(std::string test, Arch arch, uint64_t seed);
  const InitialState& initial() const override { return init_; }
  std::optional<Step> next() override;
  UnpackFill next_fill(unsigned operand) override;
  std::string description() const override;
  uint64_t instructions_generated() const override { return emitted_insns_; }

 protected:
  // Sets the initial state (call once, from the derived constructor) and applies it to the shadow.
  void set_initial(InitialState init);
  // Runs `word` for `thread` on the shadow (see the dry run in engine.cpp); if the model accepts it,
  // keeps the result (fills delivered first if it waits for a bank) and queues it. False (shadow
  // restored, apart from data) if refused or if it would leave a bank the unpacker can never fill.
  bool try_insn(unsigned thread, uint32_t word);
  // As try_insn, for directed sequences: a refusal is a bug in the sequence and throws.
  void insn(unsigned thread, uint32_t word);
  void insn(unsigned thread, const std::string& text);  // assembly text for arch_
  // A word the model refuses (decode error, undefined, unsupported), emitted as it is: the RTL must
  // refuse it for the same reason and change nothing. Throws std::logic_error if the model accepts
  // it or would only make it wait (a bug in the sequence). The shadow is left as it was.
  void refused_insn(unsigned thread, uint32_t word);
  void field(FieldScope scope, const std::string& name, uint32_t value, unsigned thread = 0, unsigned index = 0);

  // Produce more steps (at least one, or return false when the stream is finished).
  virtual bool generate_some() = 0;
  // The fill the shadow consumes now (it may look at shadow() to pick the data style).
  virtual UnpackFill make_fill(unsigned operand) = 0;
  // A fill asked for after the stream ended (rng is the operand's own post-end generator).
  virtual UnpackFill make_late_fill(unsigned operand, Rng& rng) = 0;

  // Whether the Matrix Unit's current bank of `operand` is known to be held by the Matrix Unit (an
  // earlier waiting instruction proved it and nothing released or flipped it since).

 public:
  // Candidate words the dry run (or the bank rules) refused, per opcode: " MVMUL:3 MOVD2A:17".
  std::string refusal_summary() const;

 protected:

  std::string test_;
  Arch arch_;
  uint64_t seed_;
  Rng rng_;
  const TensixState& shadow() const { return *cur_; }
  uint64_t emitted_insns_ = 0;
  uint64_t emitted_fields_ = 0;
  uint64_t refused_ = 0;
  uint64_t fills_consumed_[2] = {0, 0};
  std::array<uint64_t, kNumOps> refused_by_op_{};
  unsigned last_op_ = 0;

 private:
  void deliver_fill(unsigned operand);
  void queue_insn(unsigned thread, uint32_t word);  // emit an Instruction step the checks have passed
  void note_refusal();
  struct Backup;
  void pump();  // generate_some once, tracking the end

  InitialState init_;
  std::unique_ptr<TensixState> cur_;  // the shadow
  std::deque<Step> pending_;
  std::array<std::deque<UnpackFill>, 2> fills_;  // fills_[op][i] is fill number fill_base_[op] + i
  std::array<uint64_t, 2> fill_base_{};
  std::array<uint64_t, 2> tb_fill_index_{};
  std::array<Rng, 2> late_rng_;
  std::array<bool, 2> certain_{true, true};
  bool finished_ = false;

  // Bank ownership as an eager unpacker (the testbench's) sees it: it fills every bank it reaches as
  // soon as the Matrix Unit has released it. The shadow itself fills lazily; an instruction is only
  // emitted if it can proceed under both protocols (they differ after flips with CLR_DVALID disabled).
  struct EagerBanks {
    std::array<std::array<bool, 2>, 2> mu_owns{};  // [operand][bank]
    std::array<unsigned, 2> mu_bank{}, unpacker_bank{};
    void settle();
    // The instruction's hand-backs and flips (src_release), then (eager) the unpacker's refills.
    void apply(const SrcRelease& r, bool eager = true);
    // The Matrix Unit waits for a bank while the unpacker waits for the other one: a hang.
    bool starved(unsigned op) const { return !mu_owns[op][mu_bank[op]] && mu_owns[op][unpacker_bank[op]]; }
  };
  static EagerBanks ownership_of(const TensixState& s);
  EagerBanks eager_;
};

}  // namespace tmu::tb

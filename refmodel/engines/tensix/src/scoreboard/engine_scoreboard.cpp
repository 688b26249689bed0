// The Tensix engine's generic scoreboard (tmu::EngineScoreboard, docs/scoreboard.md): the same
// model the lock-step Scoreboard runs, driven by text. Declarations and operations are lines of the
// `tmu run` program format, run by run_program_line, so a scoreboard and a program agree on every
// word; a mismatching Dst element of a datapath instruction carries the lock-step scoreboard's
// datapath diagnosis (diagnose_datapath_element), which names the stage that first departs.
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "scoreboard_internal.h"
#include "tmu/engine.h"
#include "tmu/error.h"
#include "tmu/exact_number.h"
#include "tmu/ieee.h"
#include "tmu/lane_difference.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/program.h"
#include "tmu/tensix/scoreboard.h"
#include "tmu/text_lines.h"

namespace tmu::tensix {

namespace {

using namespace sb_detail;

constexpr const char* kLocations =
    "'dst row R' (DstBits row 0..1023), 'dst32 row R' (Dst32b row 0..511), 'srca bank B row R' or "
    "'srcb bank B row R' (bank 0..1, row 0..63), 'gpr N' (0..63, of the current thread)";

[[noreturn]] void refuse(const std::string& why) { throw Error(ErrorKind::BadInput, why); }

enum class Kind : uint8_t { Dst16, Dst32, SrcA, SrcB, Gpr };

struct Location {
  Kind kind = Kind::Dst16;
  unsigned bank = 0, row = 0;  // row: the storage row (Dst16), Dst32b row, Src row or GPR index
  std::string text;

  // Dst16: 16 lanes of 16 bits, two to a word, lane 0 in the low half of word 0.
  size_t words() const { return kind == Kind::Gpr ? 1 : kind == Kind::Dst16 ? kDstCols / 2 : kDstCols; }
};

unsigned number(std::string_view word, unsigned limit, const std::string& text, const char* what) {
  const auto n = parse_unsigned(word);
  if (!n || *n >= limit)
    refuse(fmt::format("Tensix location '{}': {} '{}' is not a number from 0 to {}", text, what, word, limit - 1));
  return static_cast<unsigned>(*n);
}

Location parse_location(std::string_view text) {
  const auto w = split_words(text);
  Location l;
  l.text = std::string(text);
  if (w.size() == 3 && (w[0] == "dst" || w[0] == "dst32") && w[1] == "row") {
    l.kind = w[0] == "dst" ? Kind::Dst16 : Kind::Dst32;
    l.row = number(w[2], l.kind == Kind::Dst16 ? kDstRows : kDst32Rows, l.text, "row");
  } else if (w.size() == 5 && (w[0] == "srca" || w[0] == "srcb") && w[1] == "bank" && w[3] == "row") {
    l.kind = w[0] == "srca" ? Kind::SrcA : Kind::SrcB;
    l.bank = number(w[2], kSrcBanks, l.text, "bank");
    l.row = number(w[4], kSrcRows, l.text, "row");
  } else if (w.size() == 2 && w[0] == "gpr") {
    l.kind = Kind::Gpr;
    l.row = number(w[1], kNumGprs, l.text, "GPR");
  } else {
    refuse(fmt::format("unknown Tensix location '{}' ({})", text, kLocations));
  }
  return l;
}

// A Dst16 location's lane `c`: two 16-bit lanes to a word, lane 0 in the low half of word 0.
uint16_t lane16(std::span<const uint32_t> words, unsigned c) {
  return static_cast<uint16_t>(words[c / 2] >> (16 * (c % 2)));
}

void check_count(const Location& l, std::span<const uint32_t> words) {
  if (words.size() != l.words())
    refuse(fmt::format("Tensix location '{}' takes {} 32-bit words, {} given", l.text, l.words(), words.size()));
}

// The IEEE format a Dst element's bits convert to, for the float difference; nullopt for integers.
std::optional<ieee::Format> float_format(const DstView& v) {
  if (v.dst32) return v.int32 ? std::nullopt : std::optional(ieee::kBinary32);
  if (v.style == SrcStyle::INT8) return std::nullopt;
  return v.style == SrcStyle::FP16 ? ieee::kBinary16 : ieee::kBfloat16;
}

uint64_t ieee_bits(uint32_t dst_value, const DstView& v) {
  if (v.dst32) return dst32_to_fp32(dst_value);
  return v.style == SrcStyle::FP16 ? dst16_to_fp16(static_cast<uint16_t>(dst_value))
                                   : dst16_to_bf16(static_cast<uint16_t>(dst_value));
}

class TensixEngineScoreboard final : public EngineScoreboard {
 public:
  explicit TensixEngineScoreboard(Arch arch) { state_.arch = arch; }

  void declare(std::string_view text) override {
    const auto w = split_words(text);
    if (!w.empty() && (w[0].front() != '.' || w[0] == ".word"))
      refuse(fmt::format("Tensix scoreboard declare '{}' is an instruction; operations go to execute", text));
    run_line(text, "declare");
  }

  void load(std::string_view location, std::span<const uint32_t> words) override {
    const Location l = parse_location(location);
    check_count(l, words);
    switch (l.kind) {
      case Kind::Dst16:
        for (unsigned c = 0; c < kDstCols; ++c) state_.Dst.write16(l.row, c, lane16(words, c));
        break;
      case Kind::Dst32:
        for (unsigned c = 0; c < kDstCols; ++c) state_.Dst.write32(l.row, c, words[c]);
        break;
      case Kind::SrcA:
      case Kind::SrcB:
        for (unsigned c = 0; c < kSrcCols; ++c) {
          if (words[c] > kSrcDatumMask)
            refuse(fmt::format("Tensix location '{}': column {} holds {:#x}, wider than a 19-bit Src datum", l.text, c,
                               words[c]));
          src(l)[c] = words[c];
        }
        break;
      case Kind::Gpr:
        state_.GPRs[thread_][l.row] = words[0];
        break;
    }
  }

  void execute(std::string_view operation) override {
    TensixState before = state_;
    unsigned thread = thread_;
    const auto insn = run_line(operation, "execute");
    if (!insn) {  // a directive changes no state a later compare should blame on an instruction
      state_ = std::move(before);
      thread_ = thread;
      refuse(fmt::format("Tensix scoreboard execute '{}' is not an instruction (an assembly line or '.word 0x...'); "
                         "state set-up goes to declare or load",
                         operation));
    }
    before_ = std::move(before);
    last_ = insn;
    last_thread_ = thread_;
    ++steps_;
  }

  std::vector<std::string> compare(std::string_view location, std::span<const uint32_t> words) override {
    const Location l = parse_location(location);
    check_count(l, words);
    std::vector<std::string> lines;
    switch (l.kind) {
      case Kind::Dst16:
        for (unsigned c = 0; c < kDstCols; ++c) compare_dst16(l.row, c, lane16(words, c), lines);
        break;
      case Kind::Dst32:
        for (unsigned c = 0; c < kDstCols; ++c) compare_dst32(l.row, c, words[c], lines);
        break;
      case Kind::SrcA:
      case Kind::SrcB: {
        const SrcStyle style = active_src_style(state_, l.kind == Kind::SrcA ? SrcOperand::SrcA : SrcOperand::SrcB,
                                                l.bank, thread_);
        for (unsigned c = 0; c < kSrcCols; ++c) {
          const uint32_t model = src(l)[c];
          if (words[c] == model) continue;
          lines.push_back(fmt::format("{} column {} ({}): design {} model {}; {}", l.text, c, src_style_name(style),
                                      src_value(words[c], style), src_value(model, style), operation_text()));
          tally_.add_without_difference();
        }
        break;
      }
      case Kind::Gpr: {
        const uint32_t model = state_.GPRs[thread_][l.row];
        if (words[0] != model) {
          lines.push_back(fmt::format("GPR {} of thread {}: design {:#010x} model {:#010x}; {}", l.row, thread_, words[0],
                                      model, operation_text()));
          tally_.add_without_difference();
        }
        break;
      }
    }
    return lines;
  }

  std::vector<uint32_t> read(std::string_view location) const override {
    const Location l = parse_location(location);
    std::vector<uint32_t> out(l.words(), 0);
    switch (l.kind) {
      case Kind::Dst16:
        for (unsigned c = 0; c < kDstCols; ++c) out[c / 2] |= uint32_t{state_.Dst.DstBits[l.row][c]} << (16 * (c % 2));
        break;
      case Kind::Dst32:
        for (unsigned c = 0; c < kDstCols; ++c) out[c] = dst32_bits(l.row, c);
        break;
      case Kind::SrcA:
      case Kind::SrcB: {
        const auto& row = src(l);
        out.assign(row.begin(), row.end());
        break;
      }
      case Kind::Gpr:
        out[0] = state_.GPRs[thread_][l.row];
        break;
    }
    return out;
  }

  std::string summary() const override { return tally_.summary("the Tensix model"); }

 private:
  // Runs one program line on the model; a refusal names the call and the line.
  std::optional<Insn> run_line(std::string_view text, const char* call) {
    try {
      return run_program_line(state_, thread_, text);
    } catch (const Error& e) {
      throw Error(e.kind(), fmt::format("Tensix scoreboard {} '{}': {}", call, text, e.message()));
    }
  }

  const std::array<uint32_t, kSrcCols>& src(const Location& l) const {
    return (l.kind == Kind::SrcA ? state_.SrcA : state_.SrcB)[l.bank].Rows[l.row];
  }
  std::array<uint32_t, kSrcCols>& src(const Location& l) {
    return const_cast<std::array<uint32_t, kSrcCols>&>(std::as_const(*this).src(l));
  }

  uint32_t dst32_bits(unsigned row32, unsigned col) const {
    return uint32_t{state_.Dst.DstBits[DstRegs::hi_row(row32)][col]} << 16 | state_.Dst.DstBits[DstRegs::lo_row(row32)][col];
  }

  // The view the last instruction wrote Dst in; before any instruction, the current configuration's.
  DstView view() const {
    return last_ ? active_dst_view(before_, *last_, last_thread_) : active_dst_view(state_, Insn{}, thread_);
  }

  void compare_dst16(unsigned row, unsigned col, uint16_t design, std::vector<std::string>& lines) {
    const uint16_t model = state_.Dst.DstBits[row][col];
    if (design == model) return;
    const DstView v = view();
    if (v.dst32) {  // one half of a 32-bit element: compared as bits, diagnosed as the whole element
      const Dst32Place p = dst32_place_of_storage_row(row);
      const uint16_t other = state_.Dst.DstBits[dst32_partner_row(row)][col];
      mismatch(dst_location_text(row, col, v), dst_element_value(design, other, p.low_half, v),
               dst_element_value(model, other, p.low_half, v), v, row, col, lines);
      return;
    }
    mismatch(dst_location_text(row, col, v), design, model, v, row, col, lines);
  }

  void compare_dst32(unsigned row32, unsigned col, uint32_t design, std::vector<std::string>& lines) {
    const uint32_t model = dst32_bits(row32, col);
    if (design == model) return;
    DstView v = view();
    if (!v.dst32) v = DstView{true, false, v.style};  // a 32-bit read of 16-bit data: shown as FP32
    const uint32_t storage = DstRegs::hi_row(row32);
    mismatch(dst_location_text(storage, col, v), design, model, v, storage, col, lines);
  }

  // One line for one mismatching Dst element: where, both values in the view's format, the
  // operation, how the design's value differs, and the datapath diagnosis of a datapath result.
  void mismatch(const std::string& where, uint32_t design, uint32_t model, const DstView& v, unsigned storage_row,
                unsigned col, std::vector<std::string>& lines) {
    std::string line = fmt::format("{}: design {} model {}; {}", where, describe_dst_element(design, v),
                                   describe_dst_element(model, v), operation_text());
    line += tally_.add_lane(float_format(v), ieee_bits(design, v), ieee_bits(model, v));
    if (last_) {
      if (const auto d = diagnose_datapath_element(before_, last_thread_, last_->word, storage_row, col, model, design))
        line += fmt::format("; diagnosis [{}] {}", d->first_stage.empty() ? "unexplained" : d->first_stage,
                            d->explanation);
    }
    lines.push_back(std::move(line));
  }

  std::string src_value(uint32_t datum, SrcStyle style) const {
    return fmt::format("{:#07x} ({})", datum, describe_src_datum(datum, style));
  }

  std::string operation_text() const {
    if (!last_) return "no operation executed yet";
    return fmt::format("after {:#010x}: {} (thread {}); step {}", last_->word, disassemble(*last_), last_thread_, steps_);
  }

  TensixState state_;
  TensixState before_;  // the model's state before the last operation: what its datapath read
  unsigned thread_ = 0;  // the issuing thread for what follows (a `.thread` declaration sets it)
  std::optional<Insn> last_;
  unsigned last_thread_ = 0;
  uint64_t steps_ = 0;
  DifferenceTally tally_;
};

}  // namespace

std::unique_ptr<EngineScoreboard> make_engine_scoreboard(Arch arch) {
  return std::make_unique<TensixEngineScoreboard>(arch);
}

}  // namespace tmu::tensix

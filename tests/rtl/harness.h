// Shared pieces of the block-level RTL tests: the Verilator model wrapper, port bit access, the
// RTL struct layouts (tmu_pkg.sv) as C++ packing functions, the seeded generator (tmu/rng.h), and the
// mismatch log every test reports through. Expected values always come from the refmodel.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <verilated.h>

#include TMU_TB_HEADER  // the Verilator model class: Vtmu_blocks_tb or its Yosys-netlist twin

#include "tmu/rng.h"

namespace tmu_rtl {

using Model = TMU_TB_MODEL;

// ---- Port bits. Verilator holds ports of up to 64 bits in integers, wider ones in VlWide. ----
template <typename Port>
void put_bits(Port& port, unsigned lo, unsigned width, uint64_t value) {
  if constexpr (std::is_integral_v<Port>) {
    const uint64_t mask = (width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1) << lo;
    port = static_cast<Port>((static_cast<uint64_t>(port) & ~mask) | ((value << lo) & mask));
  } else {
    for (unsigned i = 0; i < width; ++i) {
      const unsigned bit = lo + i;
      const uint32_t m = uint32_t{1} << (bit % 32);
      if ((value >> i) & 1) port[bit / 32] |= m;
      else port[bit / 32] &= ~m;
    }
  }
}

template <typename Port>
uint64_t get_bits(const Port& port, unsigned lo, unsigned width) {
  if constexpr (std::is_integral_v<Port>) {
    const uint64_t v = static_cast<uint64_t>(port) >> lo;
    return width >= 64 ? v : v & ((uint64_t{1} << width) - 1);
  } else {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i) {
      const unsigned bit = lo + i;
      v |= static_cast<uint64_t>((port[bit / 32] >> (bit % 32)) & 1) << i;
    }
    return v;
  }
}

// ---- tmu_pkg.sv struct layouts (packed structs list their fields from the MSB down) ----
inline constexpr unsigned kSrcDatumW = 19;
inline constexpr unsigned kExpW = 10;
inline constexpr unsigned kProductMantW = 12;
inline constexpr unsigned kSliceProductW = 1 + kExpW + kProductMantW;  // sign | exponent | mantissa
inline constexpr unsigned kTermMantW = 28;
inline constexpr unsigned kAccTermW = 1 + kExpW + kTermMantW;          // sign | exponent | mantissa
inline constexpr unsigned kRwcW = 47;

inline uint64_t exp_field(int32_t e) { return static_cast<uint64_t>(e) & ((1u << kExpW) - 1); }
inline int32_t exp_value(uint64_t field) {
  const auto e = static_cast<int32_t>(field & ((1u << kExpW) - 1));
  return e >= (1 << (kExpW - 1)) ? e - (1 << kExpW) : e;
}
inline bool exp_fits(int32_t e) { return e >= -(1 << (kExpW - 1)) && e < (1 << (kExpW - 1)); }

struct Product { uint32_t sign; int32_t exponent; uint32_t mantissa; };
struct Term { uint32_t sign; int32_t exponent; uint32_t mantissa; };

inline uint64_t pack_product(const Product& p) {
  return (uint64_t{p.sign & 1} << (kExpW + kProductMantW)) | (exp_field(p.exponent) << kProductMantW) |
         (p.mantissa & ((1u << kProductMantW) - 1));
}
inline Product unpack_product(uint64_t v) {
  return Product{static_cast<uint32_t>((v >> (kExpW + kProductMantW)) & 1),
                 exp_value(v >> kProductMantW), static_cast<uint32_t>(v & ((1u << kProductMantW) - 1))};
}
inline uint64_t pack_term(const Term& t) {
  return (uint64_t{t.sign & 1} << (kExpW + kTermMantW)) | (exp_field(t.exponent) << kTermMantW) |
         (t.mantissa & ((1u << kTermMantW) - 1));
}
inline Term unpack_term(uint64_t v) {
  return Term{static_cast<uint32_t>((v >> (kExpW + kTermMantW)) & 1), exp_value(v >> kTermMantW),
              static_cast<uint32_t>(v & ((1u << kTermMantW) - 1))};
}

// ---- Test run context ----
struct Options {
  uint64_t seed = 1;
  uint64_t cases = 0;  // 0: the test's default
  uint64_t depth = 1;  // run 1/depth of each random sweep's default (ctest: a representative share)
  bool verbose = false;
  // The random cases of a sweep whose full depth is `full`; exhaustive parts ignore this.
  uint64_t random_cases(uint64_t full) const { return cases ? cases : std::max<uint64_t>(1, full / depth); }
};

using tmu::Rng;

// Counts cases and mismatches; prints the first few mismatches in full.
class Checker {
 public:
  explicit Checker(std::string block) : block_(std::move(block)) {}
  void pass() { ++cases_; }
  template <typename... Args>
  void fail(const char* fmt, Args... args) {
    ++cases_;
    if (++mismatches_ <= kMaxPrinted) {
      std::printf("MISMATCH %s: ", block_.c_str());
      std::printf(fmt, args...);
      std::printf("\n");
    }
  }
  void check(bool ok, const char* what) { ok ? pass() : fail("%s", what); }
  uint64_t cases() const { return cases_; }
  uint64_t mismatches() const { return mismatches_; }
  int report(uint64_t seed) const {
    std::printf("%s: %llu cases, %llu mismatches (seed %llu)\n", block_.c_str(),
                static_cast<unsigned long long>(cases_), static_cast<unsigned long long>(mismatches_),
                static_cast<unsigned long long>(seed));
    return mismatches_ == 0 && cases_ > 0 ? 0 : 1;
  }

 private:
  static constexpr uint64_t kMaxPrinted = 10;
  std::string block_;
  uint64_t cases_ = 0;
  uint64_t mismatches_ = 0;
};

// The model and its context, as Verilator's examples hold them.
struct Sim {
  std::unique_ptr<VerilatedContext> context;
  std::unique_ptr<Model> top;

  Sim() : context(std::make_unique<VerilatedContext>()) {
    context->commandArgs(0, static_cast<const char**>(nullptr));
    top = std::make_unique<Model>(context.get(), "tb");
    top->clk_i = 0;
    top->rst_ni = 1;
    top->eval();
  }
  ~Sim() { top->final(); }
  void eval() { top->eval(); }
  // One clock cycle: inputs set by the caller are sampled at the rising edge.
  void tick() {
    top->clk_i = 0;
    top->eval();
    context->timeInc(1);
    top->clk_i = 1;
    top->eval();
    context->timeInc(1);
  }
  void reset() {
    top->rst_ni = 0;
    top->eval();
    tick();
    top->rst_ni = 1;
    top->eval();
  }
};

// What every block test starts from: its checker, its random stream seeded from the run's seed, and
// the fresh model (auto [chk, rng, top] = start_block(sim, opt, "rwc")).
struct BlockStart {
  Checker chk;
  Rng rng;
  Model& top;
};
inline BlockStart start_block(Sim& sim, const Options& opt, const char* name) {
  return BlockStart{Checker(name), Rng(opt.seed), *sim.top};
}

// ---- Operations streamed back to back through a pipelined unit ----
struct StreamStats {
  uint64_t issued = 0;   // operations driven
  uint64_t checked = 0;  // operations that came out on their due cycle and were compared
  uint64_t bubbles = 0;  // cycles with valid low
  uint64_t ticks = 0;    // cycles run
};

struct NoIdleCheck {
  void operator()(uint64_t /*tick*/) const {}
};

// Drives `operations` operations into a unit of fixed latency, one per cycle with a bubble in about
// one cycle of twenty, and runs until all have come out. Each one must come out exactly `latency`
// cycles after it went in, and valid_o must stay low in every other cycle; each violation counts as
// a mismatch. The unit's part:
//   issue(index) -> Op  drive operation `index` with valid high; return it with its expected result
//                       (the refmodel's), which the harness holds until it is due
//   bubble()            drive valid low with garbage on the inputs, which the unit must ignore
//   valid_out() -> bool valid_o after the clock edge
//   check(const Op&)    compare the outputs with the operation due this cycle
//   idle(tick)          optional: what else must hold in a cycle with valid_o low
// The random source decides issue or bubble before issue() runs, so a test's stream depends only on
// its seed.
template <typename Issue, typename Bubble, typename ValidOut, typename Check, typename Idle = NoIdleCheck>
StreamStats stream_operations(Sim& sim, Rng& rng, Checker& chk, unsigned latency, uint64_t operations, Issue&& issue,
                              Bubble&& bubble, ValidOut&& valid_out, Check&& check, Idle&& idle = Idle{}) {
  using Op = std::decay_t<std::invoke_result_t<Issue&, uint64_t>>;
  struct InFlight {
    Op op;
    uint64_t index;
    uint64_t due_tick;  // the tick after which valid_o must show it
  };
  std::deque<InFlight> in_flight;
  StreamStats s;
  while (s.issued < operations || !in_flight.empty()) {
    if (s.issued < operations && !rng.chance(5, 100)) {
      const uint64_t index = s.issued++;
      in_flight.push_back(InFlight{issue(index), index, s.ticks + latency});
    } else {
      bubble();
      ++s.bubbles;
    }
    sim.tick();
    ++s.ticks;

    const bool due = !in_flight.empty() && in_flight.front().due_tick == s.ticks;
    if (!valid_out()) {
      if (due) {
        chk.fail("operation %" PRIu64 ": valid_o low on its due cycle", in_flight.front().index);
        in_flight.pop_front();
      }
      idle(s.ticks);
      continue;
    }
    if (!due) {
      chk.fail("valid_o high at tick %" PRIu64 " with no operation due", s.ticks);
      continue;
    }
    const InFlight done = std::move(in_flight.front());
    in_flight.pop_front();
    ++s.checked;
    check(done.op);
  }
  return s;
}

// Test entry points (one per block), each returning the process exit status.
int test_fidelity_slice(Sim& sim, const Options& opt);
int test_align_group_sum(Sim& sim, const Options& opt);
int test_accum_normalize(Sim& sim, const Options& opt);
int test_int8_sat_acc(Sim& sim, const Options& opt);
int test_mvmul_element(Sim& sim, const Options& opt);
int test_gpr_unit(Sim& sim, const Options& opt);
int test_rwc(Sim& sim, const Options& opt);
int test_mvmul_block(Sim& sim, const Options& opt);
int test_src_regs(Sim& sim, const Options& opt);
int test_dst_regs(Sim& sim, const Options& opt);
int test_gmpool_unit(Sim& sim, const Options& opt);
int test_mov_unit(Sim& sim, const Options& opt);
int test_elw_unit(Sim& sim, const Options& opt);

}  // namespace tmu_rtl

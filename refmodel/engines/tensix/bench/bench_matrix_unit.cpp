// Throughput of the reference model on the real execution path: tmu::tensix::execute on a pre-decoded
// instruction, with both Src banks handed to the Matrix Unit and filled with random data from a
// fixed seed (shown in each benchmark's label), one thread, Blackhole.
//
// RWCs never move: the instructions use ADDR_MOD slots whose Src/Dst increments are zero, so every
// iteration works on the same Src rows and Dst block. The HiFi4 benchmark uses a slot whose only
// effect is FidelityPhase += 1, so four MVMULs walk phases 0, 1, 2, 3 and wrap back to 0.
//
// Counters: items_per_second counts instructions; MAC/s counts the 8x16x16 multiply-accumulates one
// MVMUL performs (one fidelity phase's worth); elements/s counts Dst elements written.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "tmu/tensix/decode.h"
#include "tmu/tensix/exec.h"
#include "tmu/tensix/formats.h"
#include "tmu/rng.h"
#include "tmu/tensix/state.h"

namespace {

using tmu::tensix::Arch;
using tmu::tensix::DataFormat;
using tmu::tensix::SrcClient;
using tmu::tensix::TensixState;

constexpr uint32_t kSeed = 0x7A115EEDu;
constexpr Arch kArch = Arch::Blackhole;
constexpr unsigned kThread = 0;

constexpr unsigned kMvmulRows = 8;
constexpr unsigned kMvmulMacs = kMvmulRows * 16 * 16;   // 2048
constexpr unsigned kBlockElements = kMvmulRows * 16;    // 128 Dst elements per MVMUL / ELW*
constexpr unsigned kHiFi4Phases = 4;
// A 32x32 @ 32x32 tile is (32/8) x (32/16) output blocks times 32/16 reduction steps = 16 MVMULs
// per fidelity phase.
constexpr unsigned kMvmulsPerTilePhase = 16;

// ADDR_MOD slots the benchmarks use.
constexpr unsigned kAddrModStill = 0;      // all zero: RWCs stay where they are
constexpr unsigned kAddrModNextPhase = 1;  // FidelityPhase += 1, nothing else

// BF16 datums in the ISA's Src layout with exponents 120..135 (values between 2^-7 and 2^9), so
// that the accumulations neither underflow nor overflow and every element takes the normal path.
class Bf16Source {
 public:
  explicit Bf16Source(uint32_t seed) : gen_(seed) {}
  uint32_t next() {
    const uint32_t r = gen_.bits(32);
    const uint32_t sign = r & 1u;
    const uint32_t mantissa7 = (r >> 1) & 0x7Fu;
    const uint32_t exponent = 120u + ((r >> 8) & 0xFu);
    return tmu::tensix::src_layout::assemble(sign, mantissa7 << 3, exponent);
  }

 private:
  tmu::Rng gen_;
};

struct MathSetup {
  bool dst32 = true;
  bool srcb_all_ones = false;  // SrcB = BF16 1.0 everywhere (GMPOOL's usual scale)
};

std::unique_ptr<TensixState> make_state(const MathSetup& setup) {
  auto s = std::make_unique<TensixState>();
  s->arch = kArch;
  Bf16Source rng(kSeed);
  const uint32_t one = tmu::tensix::src_layout::assemble(0, 0, 127);
  for (auto* banks : {&s->SrcA, &s->SrcB}) {
    for (tmu::tensix::SrcBank& bank : *banks) {
      bank.AllowedClient = SrcClient::MatrixUnit;
      bank.Format = DataFormat::BF16;  // Blackhole infers the operand style from the bank's tag
      const bool ones = setup.srcb_all_ones && banks == &s->SrcB;
      for (auto& row : bank.Rows)
        for (uint32_t& datum : row) datum = ones ? one : rng.next();
    }
  }
  tmu::tensix::ConfigRegs& cfg = s->Config[0];
  cfg.ALU_FORMAT_SPEC_REG0_SrcA = static_cast<uint8_t>(DataFormat::BF16);
  cfg.ALU_FORMAT_SPEC_REG1_SrcB = static_cast<uint8_t>(DataFormat::BF16);
  cfg.ALU_ACC_CTRL_Fp32_enabled = setup.dst32;
  s->ThreadConfig[kThread].ADDR_MOD_DST_SEC[kAddrModNextPhase].FidelityIncr = 1;
  return s;
}

tmu::tensix::Insn insn(const std::string& text) { return tmu::tensix::assemble(text, kArch); }

std::string label(const char* what) { return fmt::format("seed=0x{:08X} {}", kSeed, what); }

// Runs `per_iteration` executions of `program` (cycled) per benchmark iteration and reports them.
// The RWCs must still be at rest afterwards; a stall or a moved counter aborts the benchmark.
void run_program(benchmark::State& bs, TensixState& s, const std::vector<tmu::tensix::Insn>& program,
                 unsigned macs_per_insn, unsigned elements_per_insn) {
  for (const tmu::tensix::Insn& i : program) {
    if (tmu::tensix::execute(s, i, kThread).status != tmu::tensix::ExecResult::Status::Retired) {
      bs.SkipWithError("instruction stalled during set-up");
      return;
    }
  }
  s.RWCs[kThread] = tmu::tensix::Rwc{};
  for (auto _ : bs) {
    for (const tmu::tensix::Insn& i : program) {
      tmu::tensix::ExecResult r = tmu::tensix::execute(s, i, kThread);
      benchmark::DoNotOptimize(r);
    }
  }
  const tmu::tensix::Rwc& rwc = s.RWCs[kThread];
  if (rwc.SrcA || rwc.SrcB || rwc.Dst) bs.SkipWithError("RWCs moved during the benchmark");

  const auto insns = static_cast<double>(bs.iterations()) * static_cast<double>(program.size());
  bs.SetItemsProcessed(static_cast<int64_t>(insns));
  if (macs_per_insn) bs.counters["MAC/s"] = benchmark::Counter(insns * macs_per_insn, benchmark::Counter::kIsRate);
  bs.counters["elements/s"] = benchmark::Counter(insns * elements_per_insn, benchmark::Counter::kIsRate);
}

// MVMUL, BF16 sources, FP32 Dst, HiFi4: one iteration is a whole HiFi4 pass over one 8x16 output
// block (phases 0..3), so iterations/s is the pass rate and items/s the MVMUL rate.
void BM_Mvmul_Bf16_HiFi4_Fp32Dst(benchmark::State& bs) {
  auto s = make_state({.dst32 = true});
  const tmu::tensix::Insn mvmul = insn(fmt::format("MVMUL DstRow=0 AddrMod={}", kAddrModNextPhase));
  run_program(bs, *s, std::vector<tmu::tensix::Insn>(kHiFi4Phases, mvmul), kMvmulMacs, kBlockElements);
  const auto passes = static_cast<double>(bs.iterations());
  bs.counters["hifi4_block_passes/s"] = benchmark::Counter(passes, benchmark::Counter::kIsRate);
  bs.counters["tile32_hifi4/s"] =
      benchmark::Counter(passes / kMvmulsPerTilePhase, benchmark::Counter::kIsRate);
  bs.SetLabel(label("BF16 x BF16, FP32 Dst, HiFi4 (4 MVMULs per iteration), Blackhole"));
}
BENCHMARK(BM_Mvmul_Bf16_HiFi4_Fp32Dst);

// MVMUL, BF16 sources, 16-bit BF16 Dst, LoFi (phase 0 only): one MVMUL per iteration.
void BM_Mvmul_Bf16_LoFi_Bf16Dst(benchmark::State& bs) {
  auto s = make_state({.dst32 = false});
  const tmu::tensix::Insn mvmul = insn(fmt::format("MVMUL DstRow=0 AddrMod={}", kAddrModStill));
  run_program(bs, *s, {mvmul}, kMvmulMacs, kBlockElements);
  bs.counters["tile32_lofi/s"] =
      benchmark::Counter(static_cast<double>(bs.iterations()) / kMvmulsPerTilePhase, benchmark::Counter::kIsRate);
  bs.SetLabel(label("BF16 x BF16, BF16 (16-bit) Dst, LoFi, Blackhole"));
}
BENCHMARK(BM_Mvmul_Bf16_LoFi_Bf16Dst);

// ELWMUL / ELWADD on one 8x16 block, BF16 sources, FP32 Dst, phase 0, accumulating into Dst.
void BM_Elwmul_Bf16_Fp32Dst(benchmark::State& bs) {
  auto s = make_state({.dst32 = true});
  run_program(bs, *s, {insn(fmt::format("ELWMUL DstRow=0 AddrMod={}", kAddrModStill))}, 0, kBlockElements);
  bs.SetLabel(label("BF16 x BF16, FP32 Dst, phase 0, Blackhole"));
}
BENCHMARK(BM_Elwmul_Bf16_Fp32Dst);

void BM_Elwadd_Bf16_Fp32Dst(benchmark::State& bs) {
  auto s = make_state({.dst32 = true});
  run_program(bs, *s, {insn(fmt::format("ELWADD DstRow=0 AddrMod={} AddDst=1", kAddrModStill))}, 0, kBlockElements);
  bs.SetLabel(label("BF16 + BF16, FP32 Dst, AddDst=1, Blackhole"));
}
BENCHMARK(BM_Elwadd_Bf16_Fp32Dst);

// GMPOOL: a 16x16 SrcA block folded column-wise into one Dst row (16 maxima of 16), SrcB = 1.0.
void BM_Gmpool_Bf16_Fp32Dst(benchmark::State& bs, bool argmax) {
  auto s = make_state({.dst32 = true, .srcb_all_ones = true});
  const tmu::tensix::Insn gmpool =
      insn(fmt::format("GMPOOL DstRow=0 AddrMod={} Dim16x16=1 ArgMax={}", kAddrModStill, argmax ? 1 : 0));
  run_program(bs, *s, {gmpool}, 0, 16);
  bs.SetLabel(label(argmax ? "BF16, FP32 Dst, ArgMax=1, Blackhole" : "BF16, FP32 Dst, ArgMax=0, Blackhole"));
}
BENCHMARK_CAPTURE(BM_Gmpool_Bf16_Fp32Dst, no_argmax, false);
BENCHMARK_CAPTURE(BM_Gmpool_Bf16_Fp32Dst, argmax, true);

}  // namespace

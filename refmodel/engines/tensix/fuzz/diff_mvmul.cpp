// Differential: the MVMUL / DOTPV / GAPOOL block kernel (fpu/mvmul_block.h, what the three
// instructions run) against mvmul_element and its three reference stages (fpu/datapath.h), element
// by element, on a case decoded from the fuzz bytes: architecture, SrcA and SrcB style (any pair the
// FpuMode takes, INT8 included), Dst16 or Dst32, fidelity phase, the kernel's instruction set (every
// one this host runs), the rows computed, and the datums. Datums are raw 19-bit patterns, or built
// around a per-column / per-row exponent so that a group's products overlap (where alignment, ties
// and cancellation happen); Dst is raw, zero, or an accumulator word near the products' size.
#include <array>
#include <string>
#include <vector>

#include "fuzz.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/fpu/datapath.h"
#include "tmu/tensix/fpu/mvmul_block.h"

namespace {

using namespace tmu;
using namespace tmu::tensix;
using namespace tmu::tensix::fpu;

constexpr SrcStyle kStyles[] = {SrcStyle::BF16, SrcStyle::FP16, SrcStyle::TF32, SrcStyle::INT8};

// A 19-bit Src datum (sign 18, mantissa 17:8, exponent 7:0): raw bits, or a value near `base`.
TMU_FUZZ_DECODER uint32_t datum(tmu::fuzz::Fields& in, unsigned how, int base) {
  if (how == 0) return static_cast<uint32_t>(in.bits(24)) & low_mask(19);
  const uint32_t b = in.byte();
  const int exponent = std::clamp(base - static_cast<int>(b & 15), 0, 255);
  const uint32_t mantissa = (b & 0x10) ? static_cast<uint32_t>(in.bits(16)) & low_mask(10) : (b >> 5) << 7;
  return (b >> 7) << 18 | mantissa << 8 | static_cast<uint32_t>(exponent);
}

std::string mode_text(const FpuMode& m, BlockKernelIsa isa, unsigned rows) {
  return std::string(arch_name(m.arch)) + " A=" + src_style_name(m.srca_style) + " B=" + src_style_name(m.srcb_style) +
         (m.dst32 ? " Dst32" : " Dst16") + " phase=" + std::to_string(m.fidelity_phase) + " isa=" +
         block_kernel_isa_name(isa) + " rows=" + std::to_string(rows);
}

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tmu::fuzz::Fields in(data, size);
  static const std::vector<BlockKernelIsa> isas = [] {
    std::vector<BlockKernelIsa> v;
    for (BlockKernelIsa isa : {BlockKernelIsa::Portable, BlockKernelIsa::X86_64_Avx2, BlockKernelIsa::X86_64_Avx512})
      if (block_kernel_isa_available(isa)) v.push_back(isa);
    return v;
  }();
  FpuMode mode;
  mode.arch = in.flag() ? Arch::Wormhole : Arch::Blackhole;
  mode.srca_style = in.pick(kStyles);
  mode.srcb_style = in.pick(kStyles);
  // INT8 math is SrcA's style; an INT8 SrcB with a float SrcA (or the reverse) is no mode an
  // instruction sets, and INT8 implies Dst32 (datapath.h).
  if ((mode.srca_style == SrcStyle::INT8) != (mode.srcb_style == SrcStyle::INT8)) mode.srcb_style = mode.srca_style;
  mode.dst32 = in.flag() || mode.srca_style == SrcStyle::INT8;
  mode.fidelity_phase = in.below(4);
  const BlockKernelIsa isa = isas[in.below(static_cast<uint32_t>(isas.size()))];
  MvmulBlock block;
  block.rows = 1 + in.below(kBlockMaxRows);
  const unsigned how = in.below(3);  // 0 raw, 1 and 2 clustered exponents
  std::array<int, kBlockColumns> base_a;
  std::array<int, kBlockMaxRows> base_b;
  for (int& e : base_a) e = in.byte();
  for (int& e : base_b) e = in.byte();
  for (unsigned k = 0; k < kDotLength; ++k)
    for (unsigned j = 0; j < kBlockColumns; ++j) block.srca[k][j] = datum(in, how, base_a[j]);
  for (unsigned i = 0; i < kBlockMaxRows; ++i)
    for (unsigned k = 0; k < kDotLength; ++k) block.srcb[i][k] = datum(in, how, base_b[i]);
  for (unsigned i = 0; i < kBlockMaxRows; ++i)
    for (unsigned j = 0; j < kBlockColumns; ++j) {
      const uint32_t kind = in.below(4);
      const uint32_t word = kind == 0 ? 0u
                            : kind == 1 ? static_cast<uint32_t>(in.bits(32))
                                        : make_acc_word(in.flag(), static_cast<uint32_t>(std::clamp(
                                                                       base_a[j] + base_b[i] - 147 + static_cast<int>(in.below(40)), 0, 255)),
                                                        static_cast<uint32_t>(in.bits(24)) & low_mask(23));
      block.dst[i][j] = kind != 1 ? acc_to_dst(word, mode) : mode.dst32 ? word : word & 0xFFFFu;
    }

  MvmulBlock fast = block;
  mvmul_block(fast, mode, isa);
  for (unsigned i = 0; i < kBlockMaxRows; ++i)
    for (unsigned j = 0; j < kBlockColumns; ++j) {
      std::array<uint32_t, kDotLength> column;
      for (unsigned k = 0; k < kDotLength; ++k) column[k] = block.srca[k][j];
      const uint32_t want = i < block.rows ? mvmul_element(column, block.srcb[i], block.dst[i][j], mode) : block.dst[i][j];
      if (fast.dst[i][j] == want) continue;
      std::string operands;
      for (unsigned k = 0; k < kDotLength; ++k)
        operands += " (" + hex32(column[k]) + ", " + hex32(block.srcb[i][k]) + ")";
      tmu::fuzz::difference(mode_text(mode, isa, block.rows) + ": element (" + std::to_string(i) + ", " +
                                std::to_string(j) + "), Dst in " + hex32(block.dst[i][j]) + ", (SrcA, SrcB):" + operands,
                            hex32(fast.dst[i][j]), hex32(want) + " (mvmul_element)", data, size);
    }
  return 0;
}

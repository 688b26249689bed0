// Differential: the matmul LLK's tile route (tmu/tensix/llk/matmul_tiles.h, what tmu.tensix.matmul
// runs) against its instruction route (run_matmul_sequence: the LLK's instructions issued on the
// model), on a case decoded from the fuzz bytes: architecture, Src format (BF16, FP16, TF32: the
// formats the golden takes), Dst16 or Dst32, fidelity (LoFi..HiFi4), one to three K tiles, and the
// operands' Src datums as the unpacker writes them for the format: zeros of either sign, or numbers
// whose exponents cluster around a per-row (in0) and per-column (in1) base - where the products of a
// group meet, align, tie and cancel - or spread over the format's whole range. The two results must
// have the same bits.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/llk/matmul_tiles.h"
#include "tmu/tensix/llk/src_datum.h"

namespace {

using namespace tmu;
using namespace tmu::tensix;
using namespace tmu::tensix::llk;

constexpr audit::SrcFormat kFormats[] = {audit::SrcFormat::BF16, audit::SrcFormat::FP16, audit::SrcFormat::TF32};

// A Src datum of format f: zero (either sign) now and then, else an exponent near `base` (clustered)
// or anywhere in the format's range, with a mantissa the format holds (BF16: the top seven bits).
TMU_FUZZ_DECODER uint32_t datum(tmu::fuzz::Fields& in, audit::SrcFormat f, bool spread, int base) {
  const audit::SrcFormatInfo& fi = audit::info(f);
  const int top = llk::src_style(f) == SrcStyle::FP16 ? 31 : 255;
  const uint32_t b = in.byte();
  const uint32_t sign = b >> 7;
  if ((b & 0x7f) < 6) return pack_src(SrcFields{sign, 0, 0}, llk::src_style(f));
  const int exponent = spread ? 1 + static_cast<int>(in.below(static_cast<uint32_t>(top)))
                              : std::clamp(base - static_cast<int>(b & 7), 1, top);
  const uint32_t mantissa = (static_cast<uint32_t>(in.bits(16)) & low_mask(fi.mantissa_bits)) << (10 - fi.mantissa_bits);
  return pack_src(SrcFields{sign, static_cast<uint32_t>(exponent), mantissa}, llk::src_style(f));
}

uint64_t bits_of(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

std::string hex64(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%016llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tmu::fuzz::Fields in(data, size);
  RunConfig cfg;
  cfg.arch = in.flag() ? Arch::Wormhole : Arch::Blackhole;
  cfg.format = in.pick(kFormats);
  cfg.dst32 = in.flag();
  cfg.phases = 1 + in.below(4);
  cfg.pass_snapshots = false;
  audit::MatmulCase c;
  c.format = cfg.format;
  c.tiles = 1 + (in.below(8) == 0 ? 1 + in.below(2) : 0);
  const bool spread = in.below(4) == 0;
  const int top = llk::src_style(cfg.format) == SrcStyle::FP16 ? 31 : 255;
  std::vector<int> row_base(audit::kTile), col_base(audit::kTile);
  // Bases a little apart so that products of one group differ by a few binades.
  const int centre = 8 + static_cast<int>(in.below(static_cast<uint32_t>(top - 15)));
  for (int& e : row_base) e = centre + static_cast<int>(in.below(8));
  for (int& e : col_base) e = centre + static_cast<int>(in.below(8));
  const unsigned depth = c.depth();
  c.in0_datums.resize(size_t{audit::kTile} * depth);
  c.in1_datums.resize(size_t{depth} * audit::kTile);
  for (unsigned i = 0; i < audit::kTile; ++i)
    for (unsigned k = 0; k < depth; ++k) c.in0_datums[i * depth + k] = datum(in, cfg.format, spread, row_base[i]);
  for (unsigned k = 0; k < depth; ++k)
    for (unsigned j = 0; j < audit::kTile; ++j) c.in1_datums[k * audit::kTile + j] = datum(in, cfg.format, spread, col_base[j]);

  const std::vector<double> tiles = matmul_tile_result(c, cfg);
  const std::vector<double> insns = run_matmul_sequence(c, cfg).result;
  for (size_t e = 0; e < tiles.size(); ++e) {
    if (bits_of(tiles[e]) == bits_of(insns[e])) continue;
    const std::string what = std::string(arch_name(cfg.arch)) + " " + audit::info(cfg.format).name +
                             (cfg.dst32 ? " Dst32" : " Dst16") + " " + audit::fidelity_name(cfg.phases) + " " +
                             std::to_string(c.tiles) + " K tiles: element (" + std::to_string(e / audit::kTile) + ", " +
                             std::to_string(e % audit::kTile) + ")";
    tmu::fuzz::difference(what, hex64(bits_of(tiles[e])), hex64(bits_of(insns[e])) + " (instructions)", data, size);
  }
  return 0;
}

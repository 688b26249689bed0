// tt-llk's reduce LLK on the model (reduce_sequence.h). Instruction fields are the TTI_ macros'
// arguments of llk_math_reduce.h spelled with the model's field names: p_setrwc CLR_AB = FlipSrcA and
// FlipSrcB, CR_D = DstCr, CR_B = SrcBCr, SET_A/B/D = the SrcA/SrcB/Dst mask bits; p_gpool DIM_16X16
// = Dim16x16; p_movd2b SRC_ROW16_OFFSET = SrcRow 16.
#include "tmu/tensix/llk/reduce_sequence.h"

#include <array>
#include <string>

#include <fmt/format.h>

#include "tmu/tensix/llk/llk_machine.h"
#include "tmu/tensix/llk/src_datum.h"
#include "tmu/error.h"

namespace tmu::tensix::llk {
using namespace tmu::audit;
namespace {

constexpr unsigned kArgmaxMaxTiles = 8;  // two GMPOOLs per tile into a Dst row; the phase has 4 bits

void check(const ReduceCase& c, const ReduceConfig& cfg) {
  if (c.tiles.empty()) throw Error(ErrorKind::BadInput, "reduce: no input tiles");
  for (const auto& t : c.tiles)
    if (t.size() != kTile * kTile) throw Error(ErrorKind::BadInput, "reduce: a tile is not 32x32");
  if (cfg.pool == PoolType::Max && c.format == SrcFormat::FP16 && cfg.run.dst32 && !cfg.argmax)
    throw Error(ErrorKind::Unsupported,
                "MAX of FP16 with a 32-bit Dst: GMPOOL.md lists it, but its functional model writes the sum of "
                "FP16-biased exponents to Dst with BF16's bias (DstStyle TF32, the wraparound it warns of), so Dst "
                "would hold no maximum; tmu refuses rather than return that (a 16-bit Dst, or argmax=True, keeps "
                "FP16's bias)");
  if (!cfg.argmax) return;
  if (cfg.pool != PoolType::Max)
    throw Error(ErrorKind::Unsupported, "argmax: GMPOOL (MAX) is the only pooling with an index");
  if (cfg.dim != ReduceDim::Col)
    throw Error(ErrorKind::Unsupported,
                "argmax: only for REDUCE_COL; REDUCE_ROW and REDUCE_SCALAR move the pooled row through SrcB "
                "(MOVD2B, TRNSPSRCB), and what becomes of the index bits in Dst's low half on that path is not "
                "modelled");
  if (!cfg.run.dst32)
    throw Error(ErrorKind::Unsupported, "argmax: GMPOOL returns the index only with a 32-bit Dst (GMPOOL.md)");
  if (c.format == SrcFormat::TF32)
    throw Error(ErrorKind::Unsupported,
                "argmax: with TF32 GMPOOL writes the index instead of the value, so a second GMPOOL into the "
                "same Dst row compares against the index (GMPOOL.md); BF16 and FP16 keep both");
  if (c.tiles.size() > kArgmaxMaxTiles)
    throw Error(ErrorKind::Unsupported,
                fmt::format("argmax: {} tiles along the reduced dimension; GMPOOL's index phase has 4 bits, "
                            "so at most {} tiles (16 GMPOOLs into one Dst row) can be told apart",
                            c.tiles.size(), kArgmaxMaxTiles));
}

class Reducer {
 public:
  Reducer(const ReduceCase& c, const ReduceConfig& cfg) : c_(c), cfg_(cfg), m_(cfg.run) {
    // reduce_configure_addrmod.
    m_.set_addr_mod(0, {.fidelity_clr = true});
    m_.set_addr_mod(1, {.srcb_incr = 1, .dest_incr = 1});
    m_.set_addr_mod(2, {.srcb_incr = 8, .dest_incr = 8});
    m_.set_addr_mod(3, {.fidelity_incr = 1});
    // The packer left Dst cleared; _llk_math_reduce_init_ resets the counters.
    m_.issue("ZEROACC Mode=3", 0);
    m_.issue("SETRWC SrcA=1 SrcB=1 Dst=1 Fidelity=1");
  }

  // llk_unpack_reduce.h's MOP for one face: SrcA zeroed, then the face (transposed within the face
  // for REDUCE_ROW); SrcB row 0 the scaler.
  void unpack_face(const std::vector<SrcNumber>& tile, unsigned face) {
    const SrcFormat f = c_.format;
    const bool transpose = cfg_.dim == ReduceDim::Row;
    m_.unpack(true, [&](unsigned r, unsigned col) -> uint32_t {
      if (r >= kFace) return 0;
      const unsigned i = transpose ? col : r, j = transpose ? r : col;
      return src_datum(tile[((face / 2) * kFace + i) * kTile + (face % 2) * kFace + j], f);
    }, 4 * kFace);
    const uint32_t s = src_datum(c_.scaler, f);
    m_.unpack(false, [&](unsigned, unsigned) { return s; }, 1);
  }

  // One pooling of the face in the banks into Dst row `dst_row` (plus the Dst counter): GMPOOL, or
  // GAPOOL once (LoFi) or as the MOP (one per fidelity phase, ADDR_MOD_3 advancing the phase, the
  // last on ADDR_MOD_0 clearing it). `release`: the LLK's CLR_AB on the pooling (LoFi, GMPOOL) or
  // the CLEARDVALID after the MOP.
  void pool(unsigned dst_row, bool release) {
    const std::string flips = release ? " FlipSrcA=1 FlipSrcB=1" : "";
    if (cfg_.pool == PoolType::Max) {
      m_.issue(fmt::format("GMPOOL Dim16x16=1 ArgMax={} DstRow={}{}", cfg_.argmax ? 1 : 0, dst_row, flips), 0);
      return;
    }
    const unsigned phases = cfg_.run.phases;
    if (phases <= 1) {
      m_.issue(fmt::format("GAPOOL Dim16x16=1 DstRow={}{}", dst_row, flips), 0);
      return;
    }
    for (unsigned p = 0; p + 1 < phases; ++p) m_.issue(fmt::format("GAPOOL Dim16x16=1 DstRow={}", dst_row), 3);
    m_.issue(fmt::format("GAPOOL Dim16x16=1 DstRow={}", dst_row), 0);
    if (release) m_.issue("CLEARDVALID FlipSrcA=1 FlipSrcB=1");
  }

  void reduce_col(const std::vector<SrcNumber>& tile) {
    for (unsigned row_tile = 0; row_tile < 2; ++row_tile) {
      unpack_face(tile, 2 * row_tile);
      pool(0, false);
      m_.issue("SETRWC DstCr=1 DstVal=8 Dst=1");
      m_.issue("SETRWC FlipSrcA=1 FlipSrcB=1 DstCr=1 DstVal=8 Dst=1");
      unpack_face(tile, 2 * row_tile + 1);
      pool(0, false);
      m_.issue("SETRWC FlipSrcA=1 FlipSrcB=1 SrcA=1 Dst=1");  // SET_AD: back to Dst row 0
    }
  }

  void reduce_row(const std::vector<SrcNumber>& tile) {
    for (unsigned half = 0; half < 2; ++half) {
      unpack_face(tile, 2 * half);
      pool(0, true);
      unpack_face(tile, 2 * half + 1);
      pool(0, false);
      // The pooled row to SrcB rows 16..31 as a column; moved again so that Dst's row 0 keeps the
      // pooled row for the next tile's accumulation.
      m_.issue("SETRWC DstCr=1 SrcA=1 SrcB=1");
      m_.issue("MOVD2B SrcRow=16 DstRow=0", 0);
      m_.issue("TRNSPSRCB");
      m_.issue("MOVD2B SrcRow=16 DstRow=0", 0);
      m_.issue("SETRWC SrcBCr=1 SrcBVal=8 SrcB=1");
      m_.issue("SETRWC SrcBCr=1 SrcBVal=8 SrcB=1");
      m_.issue("ZEROSRC ClearSrcA=1 SingleBankMatrixUnit=1");
      m_.issue("ELWADD", 2);
      m_.issue("ELWADD", 2);
      if (half == 0) {
        // Dst counter to 32 (the tile's second face row), SrcB's to 0, banks released.
        for (unsigned i = 0; i < 3; ++i) m_.issue("SETRWC DstCr=1 DstVal=8 Dst=1");
        m_.issue("SETRWC FlipSrcA=1 FlipSrcB=1 DstCr=1 DstVal=8 SrcB=1 Dst=1");
      } else {
        m_.issue("SETRWC FlipSrcA=1 FlipSrcB=1 SrcB=1 Dst=1");
      }
    }
  }

  void reduce_scalar(const std::vector<SrcNumber>& tile) {
    for (unsigned face = 0; face < 4; ++face) {
      unpack_face(tile, face);
      pool(4, face < 3);
    }
    m_.issue("SETRWC DstCr=1 SrcA=1 SrcB=1");
    m_.issue("MOVD2B SrcRow=16 DstRow=4", 0);
    m_.issue("GATESRCRST ResetSrcAGateControl=1 InvalidateSrcBCache=1");
    m_.issue("TRNSPSRCB");
    m_.issue("GATESRCRST ResetSrcAGateControl=1 InvalidateSrcBCache=1");
    for (unsigned r = 0; r < kFace; r += 4) m_.issue(fmt::format("MOVB2A SrcARow={} Move4Rows=1 SrcBRow={}", r, 16 + r), 0);
    m_.issue("GATESRCRST ResetSrcAGateControl=1 InvalidateSrcBCache=1");
    m_.issue("ZEROACC Mode=0 Imm10=4", 0);  // CLR_SPECIFIC: the scratch row
    if (cfg_.pool == PoolType::Max) {
      m_.issue("GMPOOL Dim16x16=1 DstRow=0 FlipSrcA=1 FlipSrcB=1", 0);
    } else {
      for (unsigned p = 0; p + 1 < cfg_.run.phases; ++p) m_.issue("GAPOOL Dim16x16=1 DstRow=0", 3);
      m_.issue("GAPOOL Dim16x16=1 DstRow=0 FlipSrcA=1 FlipSrcB=1", 0);
    }
  }

  // The Dst elements that hold the results: tile row 0, tile column 0, or element (0, 0).
  std::vector<std::pair<unsigned, unsigned>> result_cells() const {
    std::vector<std::pair<unsigned, unsigned>> cells;
    if (cfg_.dim == ReduceDim::Scalar) return {{0, 0}};
    for (unsigned k = 0; k < kTile; ++k) {
      const unsigned r = cfg_.dim == ReduceDim::Row ? k : 0, col = cfg_.dim == ReduceDim::Row ? 0 : k;
      cells.emplace_back(tile_row(r, col), col % kFace);
    }
    return cells;
  }

  // With argmax the value is the high half of Dst32b in the Dst16 layout of BF16 or FP16.
  double value(unsigned row, unsigned col) const {
    if (!cfg_.argmax) return m_.dst_value(row, col);
    const auto hi = static_cast<uint16_t>(m_.dst32_bits(row, col) >> 16);
    return c_.format == SrcFormat::FP16 ? fp16_bits_value_matrix_unit(dst16_to_fp16(hi)) : bf16_bits_value(dst16_to_bf16(hi));
  }

  ReduceTrace run() {
    ReduceTrace t;
    t.format = cfg_.argmax ? &info(c_.format).acc16 : &output_format(c_.format, cfg_.run.dst32);
    const auto cells = result_cells();
    for (const auto& tile : c_.tiles) {
      switch (cfg_.dim) {
        case ReduceDim::Col: reduce_col(tile); break;
        case ReduceDim::Row: reduce_row(tile); break;
        case ReduceDim::Scalar: reduce_scalar(tile); break;
      }
      std::vector<double> v;
      for (const auto& [row, col] : cells) v.push_back(value(row, col));
      t.after_tile.push_back(std::move(v));
    }
    t.values = t.after_tile.back();
    if (cfg_.argmax) {
      for (const auto& [row, col] : cells) {
        const auto raw = static_cast<uint16_t>(m_.dst32_bits(row, col) & 0xFFF);
        t.argmax_raw.push_back(raw);
        t.argmax_row.push_back(gmpool_argmax_row(raw));
      }
    }
    return t;
  }

 private:
  const ReduceCase& c_;
  const ReduceConfig& cfg_;
  LlkMachine m_;
};

}  // namespace

unsigned gmpool_argmax_row(uint32_t raw) {
  static constexpr std::array<unsigned, 16> kInverse{0, 3, 6, 1, 4, 7, 2, 5, 8, 9, 10, 11, 12, 13, 14, 15};
  const uint32_t index = raw & 0xFF;
  return (index >> 4) * kFace + kInverse[index & 0xF];
}

ReduceTrace run_reduce_sequence(const ReduceCase& c, const ReduceConfig& cfg) {
  check(c, cfg);
  return Reducer(c, cfg).run();
}

}  // namespace tmu::tensix::llk

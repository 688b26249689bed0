// The Apple AMX rows of the precision audit (docs/audit.md, "The AMX rows"): the audit's K-tile
// matmul run on the bit-exact AMX model (tmu::amx, `matfp`) as a sequence of rank-1 updates, so the
// Matrix Unit's MVMUL can be read beside an IEEE engine that fuses every multiply-add.
//
// Each mode shares its input stream with one Matrix Unit source format - the same generator
// stream, so the same real draws - and rounds them into its own IEEE source format, keeping
// subnormals (AMX reads and writes them; the Matrix Unit flushes them):
//   bf16f32  BF16 stream -> IEEE bf16, products into f32 Z (lane-width code 1, M2 and later)
//   f16f32   FP16 stream -> IEEE binary16, products into f32 Z (code 3)
//   f32      TF32 stream -> IEEE binary32, f32 Z (code 4): TF32's draws at full f32 precision
#pragma once

#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tmu/audit/inputs.h"
#include "tmu/audit/rows.h"

namespace tmu::audit {

enum class AmxMode : uint8_t { Bf16F32, F16F32, F32 };  // in the order of the streams they share
inline constexpr AmxMode kAmxModes[] = {AmxMode::Bf16F32, AmxMode::F16F32, AmxMode::F32};

const char* amx_mode_name(AmxMode m);    // bf16f32 f16f32 f32 (the option's spelling)
const char* amx_method_name(AmxMode m);  // AMX bf16->f32, AMX f16->f32, AMX f32 (the CSV's)
std::optional<AmxMode> parse_amx_mode(std::string_view name);  // any case
SrcFormat amx_stream(AmxMode m);                  // BF16, FP16, TF32
AmxMode amx_mode_of_stream(SrcFormat stream);     // the inverse
const OutFormat& amx_source_format(AmxMode m);    // kBf16, kFp16, kFp32 (IEEE, with subnormals)

struct AmxCase {
  AmxMode mode = AmxMode::F16F32;
  unsigned tiles = 1;
  std::vector<double> in0, in1;  // row-major, as MatmulCase: in0 32 x 32*tiles, in1 32*tiles x 32
  unsigned depth() const { return kTile * tiles; }
  double left(unsigned i, unsigned k) const { return in0[i * depth() + k]; }
  double right(unsigned k, unsigned j) const { return in1[k * kTile + j]; }
};
AmxCase make_amx_case(AmxMode m, Distribution d, unsigned tiles, uint64_t seed);

// C = in0 * in1 on the model: for every k of the inner dimension, in order, one rank-1 update
// C[i][j] += in0[i][k] * in1[k][j] by matfp (z[j][i] += x[i] * y[j] with y = column k of in0 and
// x = row k of in1). f16f32 and bf16f32 cover the 32x32 tile with one matfp; f32 lanes are 16 wide,
// so four matfp per k, one per 16x16 quadrant, told apart by the X/Y byte offsets and the Z row.
// [t] is the 32x32 C (row-major) read from Z after tile t, i.e. the K = t + 1 result.
std::vector<std::vector<double>> run_amx_matmul(const AmxCase& c);

// Exact in0[:, 0:32(t+1)] * in1[0:32(t+1), :] for every t (Eigen on MPFR, verified exact).
std::vector<std::vector<Real>> exact_amx_prefixes(const AmxCase& c);
// The IEEE "seq" matmul of the case's inputs in format f, [t] after t + 1 tiles (reference.h).
std::vector<std::vector<double>> ieee_sequential_amx(const AmxCase& c, const OutFormat& f);

// The AMX rows' series: operation MATFP, after the Matrix Unit's in every file; the source format is
// the mode's IEEE format (BF16 FP16 FP32) and the model's method the mode's name ("AMX f16->f32").
// A series' format is the stream the mode shares (amx_stream) and its result always 32-bit (Z is f32).
const char* amx_series_src_name(SrcFormat stream);
std::string amx_series_method_name(SrcFormat stream, unsigned method);
inline constexpr SeriesOp kMatfp{16, "MATFP", true, &amx_series_src_name, &amx_series_method_name};
inline constexpr unsigned kAmxMethod = kEngineMethod;

// What `tmu audit` runs of the AMX rows (AuditOptions::engines["amx"], made by the rows' select):
// the modes (samples, K and distributions as for MVMUL); empty: none.
struct AmxAuditConfig {
  std::vector<AmxMode> modes{std::begin(kAmxModes), std::end(kAmxModes)};
};
inline constexpr const char* kAmxRowsName = "amx";
const AmxAuditConfig* amx_config(const AuditOptions& o);  // null: not selected

}  // namespace tmu::audit

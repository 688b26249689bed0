// What every tmu.tensix entry point shares: the keyword options (fidelity, src_format, dst, arch,
// conversion, perturb, input), the operands as numbers of the source format the way the unpacker
// would have left them in SrcA/SrcB, and the result dict. Parsed once here so matmul,
// eltwise_binary and the reductions refuse the same things with the same words.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "tmu/tensix/llk/sequence.h"
#include "tmu/audit/src_number.h"

namespace tmu::python {
using namespace tmu::tensix;

// How a value becomes a Src number: exactly (refused otherwise), rounded to nearest even, or as the
// unpacker converts FP32 data from L1 (unpacker_from_fp32 below).
enum class Conversion { Exact, Rne, Unpacker };
// input="values": real numbers; input="bits": patterns (the source format's, or FP32's with
// conversion="unpacker").
enum class InputKind { Values, Bits };

struct TensixArgs {
  llk::RunConfig cfg;
  Conversion conversion = Conversion::Exact;
  InputKind input = InputKind::Values;
};

std::string lower_name(std::string s);

// ValueError/TypeError naming the keyword for anything not understood; perturb None = none, variant
// None = blackhole.
TensixArgs parse_tensix_args(const char* where, const std::string& fidelity, const std::string& src_format,
                             const std::string& dst, const py::object& variant, const py::object& conversion,
                             const py::object& perturb, const std::string& input);

// A 2-D operand as Src numbers, row-major.
struct SrcMatrix {
  py::ssize_t rows = 0, cols = 0;
  std::vector<audit::SrcNumber> v;
  const audit::SrcNumber& at(py::ssize_t r, py::ssize_t c) const { return v[static_cast<size_t>(r * cols + c)]; }
};

// `obj` (any 2-D shape; ValueError otherwise) as the numbers the Matrix Unit reads, following
// args.input and args.conversion; refusals name `arg` and the first offending (row, col).
SrcMatrix to_src(py::handle obj, const TensixArgs& args, const char* where, const char* arg);
// ValueError naming `arg` unless both dimensions are non-zero multiples of 32.
void require_tiles(const SrcMatrix& m, const char* where, const char* arg);

// The Src pattern (IEEE order: BF16 in 16 bits, TF32 in binary32's frame with bits 12:0 zero) the
// unpacker writes for the FP32 datum `fp32` (ISA UNPACR_Regular.md, FormatConversion: FP32->TF32
// drops the low 13 mantissa bits; FP32->BF16 flushes exponent-0 inputs to signed zero, then drops
// the low 16 bits; NaN and infinity patterns pass through as bits). nullopt for FP16: the page
// calls FP32ToFP16 without defining it.
std::optional<uint32_t> unpacker_from_fp32(uint32_t fp32, audit::SrcFormat f);
// The Matrix Unit's number for a Src pattern in IEEE order (as unpacker_from_fp32 returns it, or
// FP16's 16 bits): exponent field 0 is a signed zero (FloatBitPatterns.md's Matrix Unit column:
// no denormals), every other exponent, the all-ones one included, an ordinary number.
audit::SrcNumber src_number_of_pattern(uint32_t pattern, audit::SrcFormat f);

// values (float64, exact) always; with bits or snapshots a dict: 'values', 'bits' (IEEE-order
// patterns of 'bits_format'), 'snapshots' (shape (steps, passes, rows, cols)).
py::object tensix_result(const std::vector<double>& values, py::ssize_t rows, py::ssize_t cols, const audit::OutFormat& of,
                         bool bits, const std::vector<std::vector<double>>* snaps, py::ssize_t steps, py::ssize_t passes);

}  // namespace tmu::python

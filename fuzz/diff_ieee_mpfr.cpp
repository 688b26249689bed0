// Differential: tmu::ieee's div, sqrt, fmod and convert against MPFR (the reference of the unit tests,
// tests/unit/test_ieee_reference.h: MPFR at the format's precision, then mpfr_check_range and
// mpfr_subnormalize, with the NaN rules restated from the ARM ARM). One case: an operation, a format
// (and for convert a second one) among every format tmu/ieee.h defines, a rounding mode among all of
// tmu::ieee::Rounding, flush-to-zero, default NaN and tininess, and operands around one exponent
// (subnormals, infinities, NaNs with payloads among them). The result bits and every flag must agree.
#include <string>

#include "fuzz.h"
#include "test_ieee_reference.h"

namespace {

using namespace tmu::ieee;

constexpr Format kFormats[] = {kBinary16, kBfloat16, kBinary32, kBinary64};
constexpr Rounding kRoundings[] = {Rounding::NearestEven, Rounding::TowardPositive, Rounding::TowardNegative,
                                   Rounding::TowardZero};
constexpr test::Op kOps[] = {test::Op::Div, test::Op::Sqrt, test::Op::Fmod, test::Op::Convert};
const char* const kOpNames[] = {"div", "sqrt", "fmod", "convert"};

std::string format_name(Format f) {
  char b[16];
  std::snprintf(b, sizeof b, "e%um%u", f.exp_bits, f.frac_bits);
  return b;
}

std::string result_text(const Result& r) {
  char b[40];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(r.bits));
  const Flags& f = r.flags;
  return std::string(b) + " flags" + (f.invalid ? " invalid" : "") + (f.overflow ? " overflow" : "") +
         (f.underflow ? " underflow" : "") + (f.inexact ? " inexact" : "") + (f.input_denormal ? " input_denormal" : "") +
         (f.divide_by_zero ? " divide_by_zero" : "");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static test::Reference reference;
  tmu::fuzz::Fields in(data, size);
  const unsigned which = in.below(4);
  const test::Op op = kOps[which];
  const Format f = in.pick(kFormats);
  const Format to = op == test::Op::Convert ? in.pick(kFormats) : f;
  Options o;
  o.rounding = in.pick(kRoundings);
  o.flush_to_zero = in.below(4) == 0;
  o.default_nan = in.flag();
  o.tininess = in.flag() ? Tininess::AfterRounding : Tininess::BeforeRounding;
  // Operands of nearby size (quotients near 1, remainders of every length), or far apart.
  const int span = std::min(f.emax(), 80);
  const int ea = static_cast<int>(in.below(2 * span + 1)) - span;
  const int eb = in.below(4) == 0 ? static_cast<int>(in.below(2 * span + 1)) - span : ea - static_cast<int>(in.below(8));
  const uint64_t a = tmu::fuzz::float_pattern(in, f, ea), b = tmu::fuzz::float_pattern(in, f, eb);

  Result got{};
  switch (op) {
    case test::Op::Div: got = div(f, a, b, o); break;
    case test::Op::Sqrt: got = sqrt(f, a, o); break;
    case test::Op::Fmod: got = fmod(f, a, b, o); break;
    default: got = convert(f, to, a, o); break;
  }
  const Result want = reference.run(op, f, to, a, b, 0, o);
  if (got == want) return 0;
  char operands[80];
  std::snprintf(operands, sizeof operands, "a 0x%llx b 0x%llx", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  tmu::fuzz::difference(std::string(kOpNames[which]) + " " + format_name(f) + (op == test::Op::Convert ? " -> " + format_name(to) : "") +
                            " rounding " + std::to_string(static_cast<int>(o.rounding)) + (o.flush_to_zero ? " FZ" : "") +
                            (o.default_nan ? " DN" : "") +
                            (o.tininess == Tininess::AfterRounding ? " tiny-after" : " tiny-before") + ": " + operands,
                        result_text(got), result_text(want) + " (MPFR)", data, size);
}

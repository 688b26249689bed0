// MVMUL from L1 to L1 in the audit (docs/audit.md, "From L1 to L1"): the trip of an FP32 Dst result
// through the packer and the unpacker, on values whose packed form is worked out by hand from
// Packers/FormatConversion.md (every deterministic packer rounding is to nearest, ties away from
// zero; BFP8 keeps 7 magnitude bits at the block's largest exponent), and the series the rows add.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "test_audit_support.h"
#include "tmu/tensix/audit/rows.h"

namespace tmu::audit {
namespace {

using tensix::Arch;
using tensix::L1Format;

// Padded with zeros to a whole number of 16-datum blocks.
std::vector<double> padded(std::vector<double> v) {
  v.resize(16, 0.0);
  return v;
}

TEST(AuditPacked, Bf16RoundsToNearestWithTiesAwayFromZero) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    // 1 + 2^-8 is halfway between BF16's 1 and 1 + 2^-7: away from zero gives 1 + 2^-7 (nearest-even
    // would give 1). 1 + 2^-8 + 2^-9 is nearer 1 + 2^-7. -(1 + 2^-9) is nearer -1.
    const std::vector<double> got =
        through_l1(padded({1 + std::ldexp(1, -8), 1 + std::ldexp(1, -8) + std::ldexp(1, -9), -(1 + std::ldexp(1, -9))}),
                   arch, L1Format::BF16);
    EXPECT_EQ(got[0], 1 + std::ldexp(1, -7));
    EXPECT_EQ(got[1], 1 + std::ldexp(1, -7));
    EXPECT_EQ(got[2], -1.0);
  }
}

TEST(AuditPacked, Fp16OnBlackholeRoundsThroughTf32) {
  // FP32 -> TF32 (10 mantissa bits, ties away) -> FP16 (truncating): 1 + 2^-11 is halfway between 1
  // and 1 + 2^-10 and goes up; 1 + 2^-12 goes down. The Matrix Unit's FP16 reads exponent 31 as an
  // ordinary exponent (FloatBitPatterns.md): 65520 (eleven ones) ties up to 2^16, which it holds;
  // 2^17 is past its largest, 2^16 * (2 - 2^-10), and saturates there.
  const std::vector<double> got = through_l1(padded({1 + std::ldexp(1, -11), 1 + std::ldexp(1, -12), 65520.0, 131072.0}),
                                             Arch::Blackhole, L1Format::FP16);
  EXPECT_EQ(got[0], 1 + std::ldexp(1, -10));
  EXPECT_EQ(got[1], 1.0);
  EXPECT_EQ(got[2], 65536.0);
  EXPECT_EQ(got[3], 131008.0);
}

TEST(AuditPacked, Bfp8KeepsSevenBitsAtTheBlocksExponent) {
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    // The block's largest exponent is 3.0's (2^1): 7 magnitude bits put the unit at 2^-5. 2^-6 is
    // half a unit and goes away from zero to 2^-5 (either sign); 1 + 2^-6 to 1 + 2^-5; 2^-7 is a
    // quarter unit and goes to zero.
    const double u = std::ldexp(1, -5), h = std::ldexp(1, -6);
    const std::vector<double> got =
        through_l1(padded({3.0, 1.0, 0.5, h, 1 + h, -h, std::ldexp(1, -7), -0.75}), arch, L1Format::BFP8);
    const std::vector<double> want = padded({3.0, 1.0, 0.5, u, 1 + u, -u, 0.0, -0.75});
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << "datum " << i;
  }
}

// The rows add one series per L1 format beside every FP32-Dst MVMUL series, counted in that format,
// and none when --packed none; a format the audit does not pack to is refused by its option.
TEST(AuditPacked, RowsAddAPackedSeriesBesideEveryFp32DstMvmulSeries) {
  AuditOptions o = test::small_audit_options(5, 2);
  o.engines.erase(kAmxRowsName);
  const AuditResults r = run_audit(o);
  size_t dst_series = 0;
  for (const auto& [key, stats] : r.stats) {
    if (key.op != kMvmul || !key.dst32 || key.method >= kIeeeOnce) continue;
    ++dst_series;
    for (L1Format f : kPackedFormats) {
      const ErrorStats* packed = find_stats(r, {packed_op(f), key.k, key.format, key.dist, true, key.method});
      ASSERT_NE(packed, nullptr) << l1_format_name(f);
      EXPECT_EQ(packed->count, stats.count);
    }
  }
  EXPECT_GT(dst_series, 0u);
  EXPECT_NE(summary_csv(r).find("MVMUL-L1-BFP8,1,BF16,dst32,BFP8,"), std::string::npos);

  register_builtin_audit_rows();
  AuditOptions none;
  select_audit_engines(none, {"tensix"}, {{"packed", {"none"}}}, "");
  EXPECT_TRUE(matrix_unit_settings(none).packed.empty());
  try {
    select_audit_engines(none, {"tensix"}, {{"packed", {"bfp4"}}}, "");
    ADD_FAILURE() << "bfp4 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "--packed: 'bfp4' is not bf16, fp16, bfp8 or none");
  }
}

}  // namespace
}  // namespace tmu::audit

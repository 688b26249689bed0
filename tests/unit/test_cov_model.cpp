// The functional coverage model (tb/cov/coverage.h): hand-built states and words must land in the
// bins the model's rules name, merges must sum, JSON must round-trip, missed bins must be listed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "cov/coverage.h"
#include "tmu/tensix/decode.h"
#include "tmu/error.h"
#include "tmu/tensix/exec.h"
#include "tmu/rng.h"

namespace tmu::tb {
using namespace tmu::tensix;
namespace {

using ::testing::HasSubstr;

uint32_t word(Arch arch, Op op, std::vector<std::pair<Field, uint32_t>> fields = {}) {
  return encode(arch, op, fields);
}

// A Blackhole state whose Src banks belong to the Matrix Unit (the Wait Gate passes).
TensixState math_state(Arch arch = Arch::Blackhole) {
  TensixState s;
  s.arch = arch;
  for (auto& b : s.SrcA) b.AllowedClient = SrcClient::MatrixUnit;
  for (auto& b : s.SrcB) b.AllowedClient = SrcClient::MatrixUnit;
  for (auto& b : s.SrcA) b.Format = DataFormat::BF16;
  for (auto& b : s.SrcB) b.Format = DataFormat::BF16;
  return s;
}

TEST(CovModel, OpcodeArchAndThread) {
  Coverage cov;
  const TensixState s = math_state();
  cov.sample(s, 1, word(Arch::Blackhole, Op::SETDMAREG));
  EXPECT_EQ(cov.hits("opcode_x_arch", "SETDMAREG@bh"), 1u);
  EXPECT_EQ(cov.hits("opcode_x_arch", "SETDMAREG@wh"), 0u);
  EXPECT_EQ(cov.hits("thread", "ScalarUnit:t1"), 1u);
  EXPECT_EQ(cov.samples(), 1u);
  EXPECT_TRUE(cov.illegal_hits().empty());
}

// Bins tagged with an architecture no run of the coverage was on cannot be hit: they are left out of
// the totals, and come back when a run of that architecture is merged in.
TEST(CovModel, AnotherArchitecturesBinsAreNotCounted) {
  Coverage fresh;
  uint64_t tagged_bh = 0, tagged_wh = 0;
  for (const Coverpoint& cp : fresh.coverpoints())
    for (const CoverBin& b : cp.bins) {
      tagged_bh += b.name.find("@bh") != std::string::npos;
      tagged_wh += b.name.find("@wh") != std::string::npos;
    }
  ASSERT_GT(tagged_bh, 0u);
  ASSERT_GT(tagged_wh, 0u);
  const uint64_t all = fresh.total_bins();  // nothing sampled: every bin counts

  Coverage wh;
  wh.sample(math_state(Arch::Wormhole), 1, word(Arch::Wormhole, Op::SETDMAREG));
  EXPECT_EQ(wh.total_bins(), all - tagged_bh);
  EXPECT_NE(wh.text_report().find("the Blackhole bins are not counted"), std::string::npos);

  Coverage bh;
  bh.sample(math_state(Arch::Blackhole), 1, word(Arch::Blackhole, Op::SETDMAREG));
  EXPECT_EQ(bh.total_bins(), all - tagged_wh);
  bh.merge(wh);
  EXPECT_EQ(bh.total_bins(), all);
  // The same instruction on the same thread: the only bin the Blackhole run adds is SETDMAREG@bh.
  EXPECT_EQ(bh.hit_bins(), wh.hit_bins() + 1u);
}

TEST(CovModel, Int8MathMvmul) {
  Coverage cov;
  TensixState s = math_state();
  s.Config[0].ALU_ACC_CTRL_INT8_math_enabled = true;
  s.RWCs[0].FidelityPhase = 3;
  s.ThreadConfig[0].FIDELITY_BASE_Phase = 2;  // (3 + 2) & 3 = 1
  cov.sample(s, 0, word(Arch::Blackhole, Op::MVMUL, {{Field::BroadcastSrcBRow, 1}}));
  EXPECT_EQ(cov.hits("math_style", "MVMUL:INT8"), 1u);
  EXPECT_EQ(cov.hits("math_style_source", "MVMUL@bh:int8_math"), 1u);
  EXPECT_EQ(cov.hits("math_fidelity", "MVMUL:ph1"), 1u);
  EXPECT_EQ(cov.hits("math_dst_mode", "MVMUL:dst32"), 1u);
  EXPECT_EQ(cov.hits("math_variant", "MVMUL:bcast_row1"), 1u);
  EXPECT_EQ(cov.hits("math_cross", "MVMUL:INT8:ph1:dst32:bcast_row1"), 1u);
  EXPECT_EQ(cov.hits("thread", "MatrixUnit:t0"), 1u);
}

TEST(CovModel, WormholeFormatSpecSources) {
  Coverage cov;
  TensixState s = math_state(Arch::Wormhole);
  ConfigRegs& c = s.Config[0];
  c.ALU_FORMAT_SPEC_REG_SrcA_override = true;
  c.ALU_FORMAT_SPEC_REG_SrcA_val = static_cast<uint8_t>(DataFormat::FP16);
  c.ALU_FORMAT_SPEC_REG1_SrcB = static_cast<uint8_t>(DataFormat::TF32);
  c.ALU_ACC_CTRL_Fp32_enabled = true;
  cov.sample(s, 2, word(Arch::Wormhole, Op::ELWADD, {{Field::BroadcastSrcBCol0, 1}}));
  EXPECT_EQ(cov.hits("math_style", "ELWADD:AFP16_BTF32"), 1u);
  EXPECT_EQ(cov.hits("math_style_source", "ELWADD@wh:A_spec_override"), 1u);
  EXPECT_EQ(cov.hits("math_style_source", "ELWADD@wh:B_spec_reg"), 1u);
  EXPECT_EQ(cov.hits("math_cross", "ELWADD:AFP16_BTF32:ph0:dst32:row0_col1"), 1u);
  // Wormhole has no implied formats: the bin is excluded, not declared.
  const Coverpoint* cp = cov.find("math_style_source");
  ASSERT_NE(cp, nullptr);
  EXPECT_EQ(cp->find("ELWADD@wh:A_implied"), nullptr);
}

TEST(CovModel, BlackholeImpliedAndFp16aForce) {
  Coverage cov;
  TensixState s = math_state();
  s.SrcA[0].Format = DataFormat::FP8;   // FP16 style
  s.SrcB[0].Format = DataFormat::TF32;  // TF32 style
  cov.sample(s, 0, word(Arch::Blackhole, Op::GMPOOL, {{Field::Dim16x16, 1}, {Field::ArgMax, 1}}));
  EXPECT_EQ(cov.hits("math_style", "GMPOOL:AFP16_BTF32"), 1u);
  EXPECT_EQ(cov.hits("math_style_source", "GMPOOL@bh:A_implied"), 1u);
  EXPECT_EQ(cov.hits("math_variant", "GMPOOL:argmax1"), 1u);
  EXPECT_EQ(cov.hits("math_cross", "GMPOOL:AFP16_BTF32:ph0:dst16:argmax1"), 1u);
  s.ThreadConfig[0].FP16A_FORCE_Enable = true;
  s.Config[0].ALU_ACC_CTRL_Fp32_enabled = true;  // ignored under FP16A_FORCE
  cov.sample(s, 0, word(Arch::Blackhole, Op::DOTPV));
  EXPECT_EQ(cov.hits("math_cross", "DOTPV:FP16A_FORCE:ph0:dst16:plain"), 1u);
  EXPECT_EQ(cov.hits("math_style_source", "DOTPV@bh:fp16a_force"), 1u);
}

TEST(CovModel, AddrModSlotAndPattern) {
  Coverage cov;
  TensixState s = math_state();
  s.ThreadConfig[0].ADDR_MOD_AB_SEC[2].SrcAIncr = 16;
  s.ThreadConfig[0].ADDR_MOD_DST_SEC[2].FidelityClear = true;
  cov.sample(s, 0, word(Arch::Blackhole, Op::MVMUL, {{Field::AddrMod, 2}}));
  EXPECT_EQ(cov.hits("addr_mod_slot", "bh:slot2"), 1u);
  EXPECT_EQ(cov.hits("addr_mod_mask", "math:AF"), 1u);
  EXPECT_EQ(cov.hits("addr_mod_fields", "srca_incr"), 1u);
  EXPECT_EQ(cov.hits("addr_mod_fields", "fid_clear"), 1u);
  EXPECT_EQ(cov.hits("addr_mod_fields", "dst_incr"), 0u);
  // A move with an all-zero slot.
  cov.sample(s, 0, word(Arch::Blackhole, Op::MOVA2D, {{Field::AddrMod, 0}}));
  EXPECT_EQ(cov.hits("addr_mod_mask", "mov:none"), 1u);
  // Blackhole with ExtraAddrModBit is refused by the model: an illegal hit, no slot bin.
  s.RWCs[0].ExtraAddrModBit = 1;
  cov.sample(s, 0, word(Arch::Blackhole, Op::MVMUL, {{Field::AddrMod, 2}}));
  EXPECT_EQ(cov.hits("addr_mod_slot", "bh:slot2"), 1u);
  EXPECT_EQ(cov.illegal_hits().at("addr_mod_slot/bh:extra_bit"), 1u);
  // Wormhole: a 2-bit AddrMod reaches slots 4..7 through ExtraAddrModBit.
  TensixState w = math_state(Arch::Wormhole);
  w.RWCs[1].ExtraAddrModBit = 1;
  w.ThreadConfig[1].ADDR_MOD_DST_SEC[7].DestCToCR = true;
  cov.sample(w, 1, word(Arch::Wormhole, Op::ELWMUL, {{Field::AddrMod, 3}}));
  EXPECT_EQ(cov.hits("addr_mod_slot", "wh:slot7"), 1u);
  EXPECT_EQ(cov.hits("addr_mod_mask", "math:D"), 1u);
  EXPECT_EQ(cov.hits("addr_mod_fields", "dst_ctocr"), 1u);
  // SETRWC applies no AddrMod.
  const uint64_t before = cov.hits("addr_mod_slot", "bh:slot0");
  cov.sample(math_state(), 0, word(Arch::Blackhole, Op::SETRWC));
  EXPECT_EQ(cov.hits("addr_mod_slot", "bh:slot0"), before);
}

TEST(CovModel, OperandValuesOfTheRowsRead) {
  Coverage cov;
  TensixState s = math_state();
  // MVMUL reads SrcA rows (RWC.SrcA & 0x38) .. +15, SrcB rows (RWC.SrcB & 0x38) .. +7, Dst 8 rows.
  s.RWCs[0].SrcA = 25;  // -> rows 24..39
  s.SrcA[0].Rows[24][3] = src_layout::assemble(1, 0, 0);       // negative zero
  s.SrcA[0].Rows[39][15] = src_layout::assemble(0, 0x80, 0);   // denormal (BF16 mantissa bit set)
  s.SrcA[0].Rows[40][0] = src_layout::assemble(0, 0, 0xFF);    // inf/NaN pattern, NOT read
  s.SrcA[0].Rows[23][0] = src_layout::assemble(0, 0, 0xFF);    // inf/NaN pattern, NOT read
  s.SrcA[0].Rows[28][0] = src_layout::assemble(0, 0, 0xFE);    // max exponent
  s.SrcB[0].Rows[7][0] = src_layout::assemble(0, 0, 0xFF);     // inf/NaN pattern, read
  // Dst rows 8..15 (DstRow 8): row 8 valid holding BF16 1.0, the rest undefined.
  s.Dst.RowValid[8] = true;
  s.Dst.DstBits[8][0] = dst16_from_bf16(0x3F80);
  cov.sample(s, 0, word(Arch::Blackhole, Op::MVMUL, {{Field::DstRow, 8}}));
  EXPECT_EQ(cov.hits("operand_values", "matmul:SrcA:zero"), 1u);
  EXPECT_EQ(cov.hits("operand_values", "matmul:SrcA:neg_zero"), 1u);
  EXPECT_EQ(cov.hits("operand_values", "matmul:SrcA:denormal"), 1u);
  EXPECT_EQ(cov.hits("operand_values", "matmul:SrcA:max_exp"), 1u);
  EXPECT_EQ(cov.hits("operand_values", "matmul:SrcA:inf_nan"), 0u);  // rows 23 and 40 are not read
  EXPECT_EQ(cov.hits("operand_values", "matmul:SrcB:inf_nan"), 1u);
  EXPECT_EQ(cov.hits("operand_values", "matmul:Dst:normal"), 1u);
  EXPECT_EQ(cov.hits("operand_values", "matmul:Dst:undefined_row"), 1u);
  // ELWADD without AddDst reads no Dst.
  Coverage cov2;
  cov2.sample(s, 0, word(Arch::Blackhole, Op::ELWADD, {{Field::DstRow, 8}}));
  EXPECT_EQ(cov2.hits("operand_values", "elw:Dst:undefined_row"), 0u);
  EXPECT_EQ(cov2.hits("operand_values", "elw:SrcA:zero"), 1u);
  // INT8 math: an extreme magnitude in SrcB, INT32 saturation in Dst.
  Coverage cov3;
  TensixState i = math_state();
  i.Config[0].ALU_ACC_CTRL_INT8_math_enabled = true;
  i.SrcB[0].Rows[0][5] = src_layout::assemble(1, 127, src_layout::kInt8Marker);
  i.Dst.RowValid[DstRegs::hi_row(0)] = true;
  i.Dst.write32_bits(0, 0, dst32_from_int32(0x7FFFFFFF));
  cov3.sample(i, 0, word(Arch::Blackhole, Op::ELWMUL));
  EXPECT_EQ(cov3.hits("operand_values", "elw:SrcB:int8_extreme"), 1u);
  EXPECT_EQ(cov3.hits("operand_values", "elw:Dst:int8_extreme"), 1u);
}

TEST(CovModel, ValueClassifiers) {
  EXPECT_EQ(classify_src(0, SrcStyle::BF16), ValueClass::Zero);
  EXPECT_EQ(classify_src(src_layout::assemble(0, 0x07, 0), SrcStyle::BF16), ValueClass::Zero);  // BF16 ignores 10:8
  EXPECT_EQ(classify_src(src_layout::assemble(0, 0x07, 0), SrcStyle::TF32), ValueClass::Denormal);
  EXPECT_EQ(classify_src(src_layout::assemble(0, 0, 31), SrcStyle::FP16), ValueClass::InfNan);
  EXPECT_EQ(classify_src(src_layout::assemble(0, 0, 30), SrcStyle::FP16), ValueClass::MaxExp);
  EXPECT_EQ(classify_src(src_layout::assemble(0, 0, 0xE0 | 15), SrcStyle::FP16), ValueClass::Normal);  // 7:5 ignored
  EXPECT_EQ(classify_src(src_layout::assemble(0, 1023, 16), SrcStyle::INT8), ValueClass::Int8Extreme);
  EXPECT_EQ(classify_src(src_layout::assemble(1, 5, 16), SrcStyle::INT8), ValueClass::Normal);
  EXPECT_EQ(classify_dst16(dst16_from_bf16(0x8000), SrcStyle::BF16), ValueClass::NegZero);
  EXPECT_EQ(classify_dst16(dst16_from_fp16(0x7C00), SrcStyle::FP16), ValueClass::InfNan);
  EXPECT_EQ(classify_dst32(dst32_from_fp32(0x7F7FFFFF), false), ValueClass::MaxExp);
  EXPECT_EQ(classify_dst32(dst32_from_fp32(0x00000001), false), ValueClass::Denormal);
  EXPECT_EQ(classify_dst32(dst32_from_int32(-5), true), ValueClass::Normal);
  EXPECT_EQ(classify_dst32(dst32_from_int32(-0x7FFFFFFF), true), ValueClass::Int8Extreme);
  EXPECT_EQ(classify_dst32(0x80000000u, true), ValueClass::NegZero);
}

TEST(CovModel, ZeroaccBinsAndIllegalRevert) {
  Coverage cov;
  TensixState s = math_state();
  cov.sample(s, 0, word(Arch::Blackhole, Op::ZEROACC, {{Field::Mode, 1}, {Field::Revert, 1}, {Field::UseDst32b, 1}}));
  EXPECT_EQ(cov.hits("zeroacc", "mode1:revert1:dst32"), 1u);
  s.Config[0].ALU_ACC_CTRL_Fp32_enabled = true;  // mode 0 takes the Dst mode from the config
  cov.sample(s, 0, word(Arch::Blackhole, Op::ZEROACC, {{Field::Mode, 0}}));
  EXPECT_EQ(cov.hits("zeroacc", "mode0:revert0:dst32"), 1u);
  cov.sample(s, 0, word(Arch::Blackhole, Op::ZEROACC, {{Field::Mode, 3}, {Field::Revert, 1}}));
  EXPECT_EQ(cov.illegal_hits().at("zeroacc/mode3:revert1:dst16"), 1u);
  // Modes 2 and 3 apply no AddrMod.
  EXPECT_EQ(cov.hits("addr_mod_mask", "zeroacc:none"), 2u);
}

TEST(CovModel, EventsAndUndecodable) {
  Coverage cov;
  cov.event("dst_hazard_stall");
  cov.event("dst_hazard_stall");
  cov.event("a_new_event");
  EXPECT_EQ(cov.hits("events", "dst_hazard_stall"), 2u);
  EXPECT_EQ(cov.hits("events", "a_new_event"), 1u);  // open coverpoint: added
  cov.sample(math_state(), 0, 0xFF000000u);
  EXPECT_EQ(cov.illegal_hits().at("opcode_x_arch/undecodable"), 1u);
}

TEST(CovModel, MergeSumsAndJsonRoundTrip) {
  Coverage a, b;
  const TensixState s = math_state();
  a.sample(s, 0, word(Arch::Blackhole, Op::MVMUL));
  b.sample(s, 0, word(Arch::Blackhole, Op::MVMUL));
  b.sample(s, 1, word(Arch::Blackhole, Op::ELWSUB));
  b.event("zz_extra");
  const nlohmann::json ja = a.to_json(), jb = b.to_json();

  Coverage m = a;
  m.merge(b);
  EXPECT_EQ(m.hits("opcode_x_arch", "MVMUL@bh"), 2u);
  EXPECT_EQ(m.hits("opcode_x_arch", "ELWSUB@bh"), 1u);
  EXPECT_EQ(m.hits("events", "zz_extra"), 1u);
  EXPECT_EQ(m.samples(), 3u);
  EXPECT_EQ(m.total_bins(), a.total_bins() + 1);  // the extra event bin

  // Files merge by reading them and merging the objects (tmu_tb --merge-cov): the same result.
  Coverage mf = Coverage::from_json(ja);
  mf.merge(Coverage::from_json(jb));
  EXPECT_EQ(mf.to_json(), m.to_json());

  // A coverpoint another build declares keeps its description, exclusions and openness.
  nlohmann::json other = nlohmann::json::parse(R"({"coverpoints": {"zz_other": {"description": "elsewhere",
      "bins": {"x": 3, "y": 0}, "excluded": {"z": "unreachable"}, "open": true}}, "samples": 5})");
  Coverage mo = a;
  mo.merge(Coverage::from_json(other));
  const Coverpoint* zz = mo.find("zz_other");
  ASSERT_NE(zz, nullptr);
  EXPECT_EQ(zz->description, "elsewhere");
  EXPECT_TRUE(zz->open);
  ASSERT_EQ(zz->excluded.size(), 1u);
  EXPECT_EQ(zz->excluded[0].second, "unreachable");
  EXPECT_EQ(mo.hits("zz_other", "x"), 3u);
  EXPECT_EQ(mo.total_bins(), a.total_bins() + 2);
  EXPECT_EQ(mo.hit_bins(), a.hit_bins() + 1);
  EXPECT_EQ(mo.samples(), 1u + 5u);

  // Round trip through a file.
  const std::string path = (std::filesystem::temp_directory_path() / "tmu_cov_roundtrip.json").string();
  m.write_json(path);
  const Coverage r = Coverage::read_json(path);
  std::filesystem::remove(path);
  EXPECT_EQ(r.to_json(), m.to_json());
  EXPECT_THROW(Coverage::from_json(nlohmann::json::object()), Error);
  EXPECT_THROW(Coverage::read_json("/nonexistent/cov.json"), Error);
}

// Each field of a coverage file that is present with the wrong JSON type, or with a negative count,
// is refused with a tmu::Error naming the field (a file merged from a foreign shard must not throw
// nlohmann's own exceptions or wrap -1 to 2^64 - 1).
TEST(CovModel, MalformedFieldsAreRefusedByName) {
  const auto refusal = [](const char* text) -> std::string {
    try {
      (void)Coverage::from_json(nlohmann::json::parse(text));
    } catch (const Error& e) {
      return e.what();
    } catch (const std::exception& e) {
      return std::string("foreign exception: ") + e.what();
    }
    return "accepted";
  };
  EXPECT_THAT(refusal(R"({"coverpoints":{},"illegal":{"a":"x"}})"), HasSubstr("illegal/a is not a count"));
  EXPECT_THAT(refusal(R"({"coverpoints":{},"illegal":{"a":-1}})"), HasSubstr("illegal/a is not a count"));
  EXPECT_THAT(refusal(R"({"coverpoints":{},"illegal":[1]})"), HasSubstr("\"illegal\" is not an object"));
  EXPECT_THAT(refusal(R"({"coverpoints":{},"samples":"7"})"), HasSubstr("samples is not a count"));
  EXPECT_THAT(refusal(R"({"coverpoints":{},"samples":2.5})"), HasSubstr("samples is not a count"));
  EXPECT_THAT(refusal(R"({"coverpoints":{"p":{"bins":{"b":-3}}}})"), HasSubstr("p/b is not a count"));
  EXPECT_THAT(refusal(R"({"coverpoints":{"p":{"bins":{},"description":5}}})"), HasSubstr("p/description is not a string"));
  EXPECT_THAT(refusal(R"({"coverpoints":{"p":{"bins":{},"open":"yes"}}})"), HasSubstr("p/open is not true or false"));
  // The largest count JSON can carry is kept as it is.
  const Coverage big = Coverage::from_json(nlohmann::json::parse(R"({"coverpoints":{},"samples":18446744073709551615})"));
  EXPECT_EQ(big.samples(), 18446744073709551615u);
}

TEST(CovModel, TextReportListsMissedBins) {
  Coverage cov;
  for (const char* e : {"dst_hazard_stall", "src_wait_stall", "shiftxb_second_cycle", "gpr_thread_blocked",
                        "back_to_back_dependent_mvmul"})
    cov.event(e);
  const std::string text = cov.text_report();
  EXPECT_NE(text.find("events                       5/6   83.3%"), std::string::npos) << text;
  EXPECT_NE(text.find("missed: unpacker_backpressure\n"), std::string::npos) << text;
  EXPECT_NE(text.find("TOTAL"), std::string::npos);
  const Coverpoint* ev = cov.find("events");
  ASSERT_NE(ev, nullptr);
  EXPECT_EQ(ev->missed(), std::vector<std::string>{"unpacker_backpressure"});
  // max_missed truncates the list and says how many were left out.
  EXPECT_NE(cov.text_report(2).find("(+"), std::string::npos);
}

TEST(CovModel, EveryInstructionOfEachArchHasABin) {
  Coverage cov;
  const Coverpoint* cp = cov.find("opcode_x_arch");
  ASSERT_NE(cp, nullptr);
  size_t n = 0;
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole})
    for (const InsnSpec& spec : instructions(arch)) n += unit_in_rtl(spec.unit);
  EXPECT_EQ(cp->bins.size(), n);
  // Every declared bin is reachable by its own word.
  for (Arch arch : {Arch::Blackhole, Arch::Wormhole}) {
    TensixState s = math_state(arch);
    for (const InsnSpec& spec : instructions(arch))
      if (unit_in_rtl(spec.unit)) cov.sample(s, 0, encode(arch, spec.op, {}));
  }
  EXPECT_EQ(cp->bins_hit(), n);
  std::printf("coverage after one word per instruction:\n%s", cov.text_report(4).c_str());
}

}  // namespace
}  // namespace tmu::tb

namespace tmu::tb {
namespace {

// Random instructions on random configurations: whatever the refmodel executes must land in
// declared bins only (the exclusions are exactly what the model refuses), and the stream must reach
// a good share of the bins.
TEST(CovModel, RandomStreamHitsNoIllegalBin) {
  const uint64_t seed = 20261122;
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  Rng rng(seed);
  auto pick = [&](uint32_t n) { return rng.below(n); };
  Coverage cov;
  unsigned executed = 0;
  for (int iter = 0; iter < 6000; ++iter) {
    const Arch arch = pick(2) ? Arch::Wormhole : Arch::Blackhole;
    TensixState s = math_state(arch);
    const unsigned thread = pick(3);
    ConfigRegs& c = s.Config[0];
    ThreadConfigRegs& t = s.ThreadConfig[thread];
    c.ALU_ACC_CTRL_INT8_math_enabled = pick(5) == 0;
    c.ALU_ACC_CTRL_Fp32_enabled = pick(2);
    t.FP16A_FORCE_Enable = pick(6) == 0;
    c.ALU_FORMAT_SPEC_REG_SrcA_override = pick(2);
    c.ALU_FORMAT_SPEC_REG_SrcA_val = static_cast<uint8_t>(pick(2) ? 1 : 5);
    c.ALU_FORMAT_SPEC_REG0_SrcA = static_cast<uint8_t>(pick(3) == 0 ? 4 : 5);
    c.ALU_FORMAT_SPEC_REG1_SrcB = static_cast<uint8_t>(pick(2) ? 1 : 0);
    t.DISABLE_IMPLIED_SRCA_FMT_Base = pick(2);
    t.FIDELITY_BASE_Phase = static_cast<uint8_t>(pick(4));
    s.RWCs[thread].FidelityPhase = static_cast<uint8_t>(pick(4));
    s.RWCs[thread].SrcA = static_cast<uint8_t>(pick(64));
    s.RWCs[thread].SrcB = static_cast<uint8_t>(pick(64));
    s.RWCs[thread].ExtraAddrModBit = static_cast<uint8_t>(pick(8) == 0);
    for (unsigned slot = 0; slot < kNumAddrMods; ++slot) {
      t.ADDR_MOD_AB_SEC[slot].SrcAIncr = static_cast<uint8_t>(pick(3) ? 0 : pick(64));
      t.ADDR_MOD_AB_SEC[slot].SrcBClear = pick(4) == 0;
      t.ADDR_MOD_DST_SEC[slot].DestIncr = static_cast<uint16_t>(pick(2) ? 0 : 8);
      t.ADDR_MOD_DST_SEC[slot].FidelityIncr = static_cast<uint8_t>(pick(3) ? 0 : 1);
    }
    s.SrcA[0].Format = pick(2) ? DataFormat::BF16 : DataFormat::FP16;
    for (unsigned r = 0; r < kSrcRows; r += 1 + pick(8))
      for (unsigned col = 0; col < kSrcCols; col += 1 + pick(8)) {
        s.SrcA[0].Rows[r][col] = rng.bits(32) & kSrcDatumMask;
        s.SrcB[0].Rows[r][col] = rng.bits(32) & kSrcDatumMask;
      }
    for (unsigned r = 0; r < kDstRows; r += 1 + pick(16)) {
      s.Dst.RowValid[r] = pick(2);
      for (unsigned col = 0; col < kDstCols; ++col) s.Dst.DstBits[r][col] = static_cast<uint16_t>(rng.bits(16));
    }
    const auto insns = instructions(arch);
    const InsnSpec& spec = insns[pick(static_cast<uint32_t>(insns.size()))];
    std::vector<std::pair<Field, uint32_t>> fields;
    for (const FieldSpec& f : spec.fields()) {
      // Operand fields are at most 16 bits wide, so f.max + 1 never wraps to 0.
      uint32_t v = pick(3) == 0 ? f.max : pick(f.max + 1);
      if (f.id == Field::Dim16x16 || f.id == Field::Move4Rows) v = 1;  // the refmodel refuses 0
      if (f.id == Field::AddDst && spec.op == Op::DOTPV) v = 0;
      fields.emplace_back(f.id, v);
    }
    uint32_t w = 0;
    try {
      w = encode(arch, spec.op, fields);
    } catch (const Error&) {
      continue;  // a max_when combination
    }
    TensixState after = s;
    try {
      if (execute_word(after, w, thread).status != ExecResult::Status::Retired) continue;
    } catch (const Error&) {
      continue;  // refused by the model: no retirement to sample
    }
    const auto illegal_before = cov.illegal_hits();
    cov.sample(s, thread, w);
    ++executed;
    ASSERT_EQ(cov.illegal_hits(), illegal_before) << "illegal bin for " << disassemble(decode(w, arch));
  }
  std::printf("%u executed instructions: %llu/%llu bins hit\n", executed,
              static_cast<unsigned long long>(cov.hit_bins()), static_cast<unsigned long long>(cov.total_bins()));
  EXPECT_GT(executed, 3000u);
  EXPECT_GT(cov.hit_bins() * 4, cov.total_bins());  // the stream reaches more than a quarter
  // Random fields rarely satisfy MOVB2A's alignment rule; everything else must be reached.
  const Coverpoint* ops = cov.find("opcode_x_arch");
  for (const std::string& bin : ops->missed()) EXPECT_EQ(bin.rfind("MOVB2A@", 0), 0u) << bin;
}

}  // namespace
}  // namespace tmu::tb

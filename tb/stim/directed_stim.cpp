// The directed LLK sequences (names and contents documented in stimulus.h). Each is the instruction
// sequence tt-llk's math kernels issue (as tests/unit/test_llk_*.cpp run them), with the seed varying
// only the data.
#include "directed.h"
#include "stim_factories.h"

namespace tmu::tb {

void random_valid_dst(InitialState& init, Rng& rng) {
  for (unsigned r = 0; r < kDstRows; ++r) init.dst_rows.push_back({r, random_dst_row(rng), rng.below(10) != 0});
}

namespace {

RowFn realistic_rows() {
  return [](unsigned, unsigned, Rng& rng) { return realistic_row(rng); };
}

// ---- matmul: llk_math_matmul.h's ADDR_MODs and matmul_peak's 16-MVMUL replay, per fidelity phase ----
constexpr uint32_t kReplayAddrMods[16] = {0, 1, 0, 2, 0, 1, 0, 4, 0, 1, 0, 2, 0, 1, 0, 5};

void matmul_body(D& d, unsigned phases) {
  d.addr_mod(0, {{"SrcBIncr", 8}, {"DestIncr", 8}});
  d.addr_mod(1, {{"SrcAIncr", 16}, {"SrcBCR", 1}, {"DestIncr", 8}});
  d.addr_mod(2, {{"SrcACR", 1}, {"SrcBIncr", 32}, {"SrcBCR", 1}, {"DestIncr", 8}});
  d.addr_mod(4, {{"SrcAIncr", 32}, {"SrcACR", 1}, {"SrcBIncr", 48}, {"SrcBCR", 1}, {"DestCR", 1}});
  d.addr_mod(5, {{"SrcACR", 1}, {"SrcAClear", 1}, {"SrcBCR", 1}, {"SrcBClear", 1}, {"DestCR", 1}, {"DestClear", 1},
                 {"FidelityIncr", phases > 1 ? 1u : 0u}});
  d.op("ZEROACC Mode=3");
  for (unsigned tile = 0; tile < 2; ++tile) {
    // The second tile: the unpackers' next banks, the output 256 rows further on.
    if (tile == 1) d.tcfg("DEST_TARGET_REG_CFG_MATH_Offset", 0x100);
    d.word(0x3700000f);  // SETRWC SrcA SrcB Dst Fidelity: reset the counters and the phase
    for (unsigned p = 0; p < phases; ++p)
      for (uint32_t am : kReplayAddrMods) d.op_am("MVMUL", am);
    d.op("SETRWC FlipSrcA=1 FlipSrcB=1 SrcA=1 SrcB=1 Dst=1 Fidelity=1");
  }
  d.tcfg("DEST_TARGET_REG_CFG_MATH_Offset", 0);
}

// ---- a fidelity loop that stays on its Dst block: each MVMUL accumulates onto the rows the one
// before it wrote, back to back (matmul_* advance Dst between MVMULs and never wait). The Dst
// hazard stall must hold each MVMUL until its predecessor's rows are written. ----
void matmul_dependent_body(D& d) {
  d.addr_mod(1, {{"FidelityIncr", 1}});
  d.addr_mod(2, {{"SrcBIncr", 8}, {"DestIncr", 8}, {"FidelityClear", 1}});
  d.op("ZEROACC Mode=3");
  d.word(0x3700000f);  // SETRWC SrcA SrcB Dst Fidelity: reset the counters and the phase
  for (int block = 0; block < 8; ++block) {
    for (unsigned p = 0; p < 3; ++p) d.op_am("MVMUL", 1);
    d.op_am("MVMUL", 2);
  }
  d.op("SETRWC FlipSrcA=1 FlipSrcB=1 SrcA=1 SrcB=1 Dst=1 Fidelity=1");
}

// ---- eltwise binary with broadcasts (llk_math_eltwise_binary.h) ----
void eltwise_body(D& d, const std::string& mnemonic, unsigned bcast) {
  const bool brow = bcast == 2 || bcast == 3;
  const char* bfields = bcast == 1 ? " BroadcastSrcBCol0=1" : bcast == 2 ? " BroadcastSrcBRow=1"
                        : bcast == 3 ? " BroadcastSrcBCol0=1 BroadcastSrcBRow=1" : "";
  const unsigned phases = mnemonic == "ELWMUL" ? 4 : 1;
  const uint32_t srcb_incr = brow ? 0 : 8;
  d.addr_mod(0, {{"SrcAIncr", 8}, {"SrcBIncr", srcb_incr}, {"DestIncr", 8}});
  d.addr_mod(1, {{"FidelityIncr", 1}});
  d.addr_mod(2, {{"SrcAIncr", 8}, {"SrcBIncr", srcb_incr}, {"DestIncr", 8}, {"FidelityClear", 1}});
  d.op("ZEROACC Mode=3");
  for (unsigned pass = 0; pass < 2; ++pass) {
    // Pass 1 accumulates the next banks' operands (a fill) onto pass 0's results (AddDst).
    const std::string add_dst = pass ? " AddDst=1" : "";
    d.word(0x3700000f);
    for (int block = 0; block < 8; ++block) {
      for (unsigned p = 0; p + 1 < phases; ++p) d.op(mnemonic + " AddrMod=1" + bfields + add_dst);
      d.op(mnemonic + (phases > 1 ? " AddrMod=2" : " AddrMod=0") + bfields + add_dst);
    }
    d.op("SETRWC FlipSrcA=1 FlipSrcB=1 SrcA=1 SrcB=1 Dst=1 Fidelity=1");
  }
}

// ---- GAPOOL reduce (llk_math_reduce.h): SrcB row 0 is the scaler 1.0 ----
RowFn reduce_rows() {
  return [](unsigned operand, unsigned row, Rng& rng) {
    std::array<uint32_t, kSrcCols> r{};
    if (operand == 1) {
      if (row == 0) r.fill(bf16_datum(0, 127, 0));
      return r;
    }
    return realistic_row(rng);
  };
}

void reduce_body(D& d) {
  d.addr_mod(0, {{"SrcAIncr", 16}, {"DestIncr", 4}});
  d.addr_mod(1, {{"FidelityIncr", 1}});
  d.op("ZEROACC Mode=3");
  d.op("GAPOOL Dim16x16=1 AddrMod=1 DstRow=4");  // LoFi: truncated SrcA slices
  d.word(0x3700000f);
  for (unsigned p = 0; p < 2; ++p) d.op("GAPOOL Dim16x16=1 AddrMod=1 DstRow=8");  // HiFi2: exact
  d.word(0x3700000f);
  for (unsigned face = 0; face < 4; ++face) d.op("GAPOOL Dim16x16=1 AddrMod=0 DstRow=16");  // four faces, column sums
  d.op("SETRWC FlipSrcA=1 FlipSrcB=1 SrcA=1 SrcB=1 Dst=1 Fidelity=1");
  d.op("GAPOOL Dim16x16=1 AddrMod=0 DstRow=32");  // the next banks (a fill)
}

// ---- GMPOOL argmax max-pool: values below 1 with the maximum 1.5 planted (with ties) per column ----
RowFn maxpool_rows() {
  return [](unsigned operand, unsigned, Rng& rng) {
    std::array<uint32_t, kSrcCols> r{};
    if (operand == 1) {
      r.fill(bf16_datum(0, 127, 0));  // scale 2^0 in every row
      return r;
    }
    for (auto& v : r) v = rng.below(10) == 0 ? bf16_datum(0, 127, 64) : random_bf16_datum(rng, 120, 126);
    return r;
  };
}

void maxpool_body(D& d) {
  d.addr_mod(1, {{"SrcAIncr", 16}});
  d.op("ZEROACC Mode=3");
  for (unsigned block = 0; block < 4; ++block) d.op("GMPOOL Dim16x16=1 ArgMax=1 AddrMod=1");  // index phases 0..3
  d.op("GMPOOL Dim16x16=1 ArgMax=0 AddrMod=1 DstRow=8");
  d.cfg("ALU_ACC_CTRL_Fp32_enabled", 0);
  d.op("GMPOOL Dim16x16=1 ArgMax=0 AddrMod=1 DstRow=64");  // 16-bit Dst
  d.cfg("ALU_ACC_CTRL_Fp32_enabled", 1);
  d.op("SETRWC FlipSrcA=1 FlipSrcB=1 SrcA=1 SrcB=1 Dst=1 Fidelity=1");
  d.op("GMPOOL Dim16x16=1 ArgMax=1 AddrMod=1 DstRow=128");
}

// ---- ZEROACC, each mode, between writes that make the cleared rows visible ----
void zeroacc_body(D& d, unsigned mode) {
  d.addr_mod(0, {{"SrcAIncr", 8}, {"SrcBIncr", 8}, {"DestIncr", 8}});
  d.addr_mod(3, {{"DestIncr", 1}});
  for (unsigned dst32 = 0; dst32 < 2; ++dst32) {
    d.cfg("ALU_ACC_CTRL_Fp32_enabled", dst32);
    d.word(0x3700000f);
    for (unsigned b = 0; b < 8; ++b) d.op("ELWADD AddrMod=0 AddDst=1");  // rows 0..63 valid
    switch (mode) {
      case 0:
        d.op("ZEROACC Mode=0 Imm10=3");
        d.op("ZEROACC Mode=0 Imm10=17 AddrMod=3");  // then Dst += 1
        d.op("ZEROACC Mode=0 Imm10=40");
        break;
      case 1:
        d.op(fmt::format("ZEROACC Mode=1 Imm10=1 UseDst32b={}", dst32));
        d.op(fmt::format("ZEROACC Mode=1 Imm10=2 UseDst32b={} Revert=1", dst32));  // un-clears block 2
        d.op(fmt::format("ZEROACC Mode=1 Imm10=200 UseDst32b={} AddrMod=3", dst32));  // out of range: AddrMod only
        if (d.arch() == Arch::Blackhole) {  // relative tile mode in the upper half of Dst
          d.tcfg("DEST_TARGET_REG_CFG_MATH_Offset", 0x200);
          d.op(fmt::format("ZEROACC Mode=1 Imm10=0 UseDst32b={}", dst32));
          d.global("DEST_ACCESS_CFG_zeroacc_absolute_tile_mode", 1);
          d.op(fmt::format("ZEROACC Mode=1 Imm10=3 UseDst32b={}", dst32));
          d.global("DEST_ACCESS_CFG_zeroacc_absolute_tile_mode", 0);
          d.tcfg("DEST_TARGET_REG_CFG_MATH_Offset", 0);
        }
        break;
      case 2:
        d.op("ZEROACC Mode=2 Imm10=0");
        for (unsigned b = 0; b < 8; ++b) d.op("ELWADD AddrMod=0 AddDst=1 DstRow=512");
        d.op("ZEROACC Mode=2 Imm10=1");
        break;
      default:
        d.op("ZEROACC Mode=3");
        break;
    }
    d.word(0x3700000f);
    for (unsigned b = 0; b < 8; ++b) d.op("ELWADD AddrMod=0 AddDst=1");  // cleared rows read as zero
    d.word(0x3700000f);
    d.op("MOVD2A DstRow=0 SrcRow=32 Move4Rows=1");
    d.op("MOVD2B DstRow=16 SrcRow=48 Move4Rows=1");
  }
}

// ---- MOV round trips (MOVA2D/MOVB2D/MOVD2A/MOVD2B/MOVB2A), 16-bit then 32-bit Dst ----
void mov_body(D& d) {
  for (unsigned dst32 = 0; dst32 < 2; ++dst32) {
    d.cfg("ALU_ACC_CTRL_Fp32_enabled", dst32);
    d.op("ZEROACC Mode=3");
    d.word(0x3700000f);
    d.op("MOVA2D DstRow=16 Move8Rows=1");
    d.op("MOVA2D DstRow=40 SrcRow=5");
    d.op("MOVB2D DstRow=24 SrcRow=8 Broadcast1RowTo8=1");
    d.op("MOVB2D DstRow=32 SrcRow=12 Move4Rows=1 BroadcastCol0=1");
    d.op("MOVD2A DstRow=24 SrcRow=32 Move4Rows=1");
    d.op("MOVD2B DstRow=16 SrcRow=40 Move4Rows=1");
    d.op("MOVB2A SrcBRow=40 SrcARow=48 Move4Rows=1");
    d.op("MOVA2D DstRow=48 SrcRow=48 Move8Rows=1");  // the round trip back into Dst
    if (dst32) {
      d.op("MOVA2D DstRow=64 SrcRow=8 Move8Rows=1 UseDst32bLo=1");
      d.op("MOVB2D DstRow=72 SrcRow=8 Move4Rows=1 UseDst32bLo=1");
      d.op("MOVD2A DstRow=64 SrcRow=56 Move4Rows=1 UseDst32bLo=1");
      d.op("MOVD2B DstRow=72 SrcRow=60 Move4Rows=1 UseDst32bLo=1");
    }
  }
  d.op("SETRWC FlipSrcA=1 FlipSrcB=1 SrcA=1 SrcB=1 Dst=1 Fidelity=1");
  d.op("MOVA2D DstRow=128 Move8Rows=1");  // the next bank (a fill)
}

// ---- the GPR ops of vectors/programs/gpr_ops.tmu, on every thread, immediates from the seed ----
void gpr_body(D& d) {
  for (unsigned t = 0; t < kNumThreads; ++t) {
    auto imm = [&] { return static_cast<uint32_t>(d.rng()() & 0xFFFF); };
    d.op(fmt::format("SETDMAREG ResultHalfReg=2 NewValue={}", imm()), t);
    d.op(fmt::format("SETDMAREG ResultHalfReg=3 NewValue={}", imm()), t);
    d.op(fmt::format("SETDMAREG ResultHalfReg=4 NewValue={}", imm()), t);
    d.op("ADDDMAREG LeftReg=1 RightReg=2 ResultReg=3", t);
    d.op("ADDDMAREG OpBisConst=1 LeftReg=3 RightReg=9 ResultReg=4", t);
    d.op("SUBDMAREG LeftReg=2 RightReg=1 ResultReg=5", t);
    d.op("SUBDMAREG OpBisConst=1 LeftReg=0 RightReg=1 ResultReg=6", t);
    d.op("MULDMAREG LeftReg=1 RightReg=2 ResultReg=7", t);
    d.op("MULDMAREG OpBisConst=1 LeftReg=2 RightReg=63 ResultReg=8", t);
    d.op("SHIFTDMAREG OpBisConst=1 Mode=0 LeftReg=2 RightReg=20 ResultReg=9", t);
    d.op("SHIFTDMAREG Mode=1 LeftReg=9 RightReg=4 ResultReg=10", t);
    d.op("SHIFTDMAREG OpBisConst=1 Mode=1 LeftReg=9 RightReg=28 ResultReg=11", t);
    d.op("BITWOPDMAREG Mode=0 LeftReg=1 RightReg=5 ResultReg=12", t);
    d.op("BITWOPDMAREG Mode=1 LeftReg=1 RightReg=5 ResultReg=13", t);
    d.op("BITWOPDMAREG OpBisConst=1 Mode=2 LeftReg=1 RightReg=0x3F ResultReg=14", t);
    d.op("CMPDMAREG Mode=0 LeftReg=6 RightReg=1 ResultReg=15", t);
    d.op("CMPDMAREG Mode=1 LeftReg=6 RightReg=1 ResultReg=16", t);
    d.op("CMPDMAREG OpBisConst=1 Mode=2 LeftReg=11 RightReg=15 ResultReg=17", t);
    d.op("FLUSHDMA ConditionMask=0", t);
    d.op("DMANOP", t);
  }
}

void random_gprs(InitialState& init, Rng& rng) {
  for (unsigned t = 0; t < kNumThreads; ++t)
    for (unsigned i = 0; i < kNumGprs; ++i) init.gprs.push_back({t, i, static_cast<uint32_t>(rng())});
}

std::map<std::string, Directed> directed_table() {
  std::map<std::string, Directed> t;
  const char* fid[4] = {"lofi", "hifi2", "hifi3", "hifi4"};
  for (unsigned p = 1; p <= 4; ++p)
    t[fmt::format("matmul_{}", fid[p - 1])] = {realistic_rows(), [p](D& d) { matmul_body(d, p); }, nullptr};
  t["matmul_fidelity_dependent"] = {realistic_rows(), matmul_dependent_body, nullptr};
  const char* bc[4] = {"none", "col", "row", "scalar"};
  for (const char* op : {"add", "sub", "mul"})
    for (unsigned b = 0; b < 4; ++b) {
      const std::string mnemonic = std::string("ELW") + (op[0] == 'a' ? "ADD" : op[0] == 's' ? "SUB" : "MUL");
      t[fmt::format("eltwise_{}_{}", op, bc[b])] = {realistic_rows(), [mnemonic, b](D& d) { eltwise_body(d, mnemonic, b); },
                                                    nullptr};
    }
  t["reduce_gapool"] = {reduce_rows(), reduce_body, nullptr};
  t["maxpool_gmpool_argmax"] = {maxpool_rows(), maxpool_body, nullptr};
  const char* za[4] = {"row", "16rows", "half", "all"};
  for (unsigned m = 0; m < 4; ++m)
    t[fmt::format("zeroacc_{}", za[m])] = {realistic_rows(), [m](D& d) { zeroacc_body(d, m); }, random_valid_dst};
  t["mov_round_trip"] = {realistic_rows(), mov_body, random_valid_dst};
  t["gpr_program"] = {realistic_rows(), gpr_body, random_gprs};
  add_corner_tests(t);
  return t;
}

const std::map<std::string, Directed>& table() {
  static const std::map<std::string, Directed> t = directed_table();
  return t;
}

}  // namespace

std::vector<std::string> directed_test_names() {
  std::vector<std::string> names;
  for (const auto& [name, d] : table()) names.push_back(name);
  return names;
}

std::unique_ptr<Stimulus> make_directed_stimulus(const std::string& test, Arch arch, uint64_t seed) {
  const auto it = table().find(test);
  if (it == table().end()) return nullptr;
  return std::make_unique<DirectedStimulus>(test, arch, seed, it->second.rows, it->second.body, it->second.init,
                                            it->second.no_dst_hazards);
}

}  // namespace tmu::tb

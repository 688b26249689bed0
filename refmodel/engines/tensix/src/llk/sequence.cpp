// Running the LLK sequences on the model: the audit plays the unpackers (writing Src banks), the
// RISC-V thread (ADDR_MOD set-up, issuing instructions) and an observer reading Dst between passes.
#include "tmu/tensix/llk/sequence.h"

#include <functional>
#include <stdexcept>

#include <fmt/format.h>

#include "tmu/tensix/llk/llk_machine.h"
#include "tmu/tensix/llk/src_datum.h"
#include "tmu/tensix/decode.h"
#include "tmu/tensix/exec.h"

namespace tmu::tensix::llk {
namespace {

// ADDR_MOD slots. 0..5 are the LLK's; 6 and 7 are the perturbations' variants of the slot that ends
// a pass (the counter advances by two, or not at all).
constexpr unsigned kSlotSkip = 6, kSlotRepeat = 7;

// The slot ending pass `pass` of `count`; `advance` is the LLK's slot that ends a pass and moves to
// the next phase, `final_slot` the one ending the last pass.
unsigned pass_end_slot(const Perturbation& p, unsigned pass, unsigned count, unsigned advance, unsigned final_slot) {
  if (pass + 1 == count) return final_slot;
  if (p.kind == Perturbation::Kind::SkipPhase && pass + 1 == p.phase) return kSlotSkip;
  if (p.kind == Perturbation::Kind::RepeatPhase && pass == p.phase) return kSlotRepeat;
  return advance;
}

unsigned pass_count(const RunConfig& cfg) {
  const Perturbation& p = cfg.perturb;
  const bool skips = p.kind == Perturbation::Kind::SkipPhase && p.phase >= 1 && p.phase < cfg.phases;
  return skips ? cfg.phases - 1 : cfg.phases;
}

// A slot that ends a pass, with the given fidelity step.
AddrMod pass_end(const AddrMod& base, uint8_t fidelity_incr) {
  AddrMod a = base;
  a.fidelity_incr = fidelity_incr;
  return a;
}

}  // namespace

SequenceTrace run_matmul_sequence(const MatmulCase& c, const RunConfig& cfg) {
  LlkMachine m(cfg);
  const uint8_t advance = cfg.phases > 1 ? 1 : 0;
  // matmul_configure_addrmod, 32x32 tiles, no transpose.
  m.set_addr_mod(0, {.srcb_incr = 8, .dest_incr = 8});
  m.set_addr_mod(1, {.srca_incr = 16, .srcb_cr = true, .dest_incr = 8});
  m.set_addr_mod(2, {.srca_cr = true, .srcb_incr = 32, .srcb_cr = true, .dest_incr = 8});
  m.set_addr_mod(4, {.srca_incr = 32, .srca_cr = true, .srcb_incr = 48, .srcb_cr = true, .dest_cr = true});
  const AddrMod rewind{.srca_cr = true, .srca_clr = true, .srcb_cr = true, .srcb_clr = true, .dest_cr = true, .dest_clr = true};
  m.set_addr_mod(5, pass_end(rewind, advance));
  m.set_addr_mod(kSlotSkip, pass_end(rewind, 2));
  m.set_addr_mod(kSlotRepeat, pass_end(rewind, 0));
  // The replay buffer: B0A0 B0A0 B0A1 B0A1, B2A0 ... B3A3; its last entry is the pass-ending slot.
  constexpr unsigned kReplaySlots[15] = {0, 1, 0, 2, 0, 1, 0, 4, 0, 1, 0, 2, 0, 1, 0};

  const bool swap = cfg.perturb.kind == Perturbation::Kind::SwapOperands;
  const bool negate = cfg.perturb.kind == Perturbation::Kind::NegatePhase;
  const unsigned passes = pass_count(cfg);
  const SrcFormat f = c.format;
  const unsigned depth = c.depth();
  const bool converted = !c.in0_datums.empty() || !c.in1_datums.empty();
  if (converted && (c.in0_datums.size() != size_t{kTile} * depth || c.in1_datums.size() != size_t{depth} * kTile))
    throw std::invalid_argument("precision audit: the matmul case's datums do not match its tiles");
  std::vector<unsigned> all(kTile * kTile);
  for (unsigned e = 0; e < all.size(); ++e) all[e] = e;
  // With swapped operands the Dst tile holds the transposed product.
  auto snapshot = [&] {
    std::vector<double> v(kTile * kTile);
    for (unsigned i = 0; i < kTile; ++i)
      for (unsigned j = 0; j < kTile; ++j) {
        const unsigned r = swap ? j : i, col = swap ? i : j;
        v[i * kTile + j] = m.dst_value(tile_row(r, col), col % kFace);
      }
    return v;
  };

  SequenceTrace trace;
  m.issue("ZEROACC Mode=3", 0);
  for (unsigned t = 0; t < c.tiles; ++t) {
    const unsigned k0 = t * kTile;
    // Src row face*16 + r, column col holds tile element (row, col) = inverse of tile_row.
    auto element = [&](unsigned bank_row, unsigned col, const auto& at) {
      const unsigned face = bank_row / kFace, r = (face / 2) * kFace + bank_row % kFace, cc = (face % 2) * kFace + col;
      return at(r, cc);
    };
    auto left = [&](unsigned i, unsigned k) { return converted ? c.in0_datums[i * depth + k] : src_datum(c.left(i, k), f); };
    auto right = [&](unsigned k, unsigned j) { return converted ? c.in1_datums[k * kTile + j] : src_datum(c.right(k, j), f); };
    auto srcb_tile = [&](unsigned r, unsigned cc) { return swap ? right(k0 + cc, r) : left(r, k0 + cc); };
    auto srca_tile = [&](unsigned r, unsigned cc) { return swap ? left(cc, k0 + r) : right(k0 + r, cc); };
    m.unpack(false, [&](unsigned r, unsigned cc) { return element(r, cc, srcb_tile); }, 4 * kFace);
    m.unpack(true, [&](unsigned r, unsigned cc) { return element(r, cc, srca_tile); }, 4 * kFace);
    m.issue("SETRWC SrcA=1 SrcB=1 Dst=1 Fidelity=1");

    StepTrace step;
    step.elements = all;
    if (cfg.pass_snapshots) step.snapshots.push_back(snapshot());
    for (unsigned pass = 0; pass < passes; ++pass) {
      step.phase_counter.push_back(m.phase_counter());
      const bool negated = negate && pass == cfg.perturb.phase;
      if (negated) m.flip_srcb_signs();
      for (unsigned slot : kReplaySlots) m.issue("MVMUL", slot);
      m.issue("MVMUL", pass_end_slot(cfg.perturb, pass, passes, 5, 5));
      if (negated) m.flip_srcb_signs();
      if (cfg.pass_snapshots) step.snapshots.push_back(snapshot());
    }
    m.issue("SETRWC FlipSrcA=1 SrcA=1 SrcB=1 Dst=1 Fidelity=1");
    m.issue("SETRWC FlipSrcB=1 SrcA=1 SrcB=1 Dst=1 Fidelity=1");
    trace.steps.push_back(std::move(step));
  }
  trace.result = snapshot();
  return trace;
}

namespace {

// The 32x32 tile's elements of one 16x16 face (faces in row-major order), row by row.
std::vector<unsigned> face_elements(unsigned face) {
  std::vector<unsigned> elements;
  for (unsigned r = 0; r < kFace; ++r)
    for (unsigned col = 0; col < kFace; ++col)
      elements.push_back(((face / 2) * kFace + r) * kTile + (face % 2) * kFace + col);
  return elements;
}

// The unpacker's rows of one face into SrcA or SrcB: the operand at `elements`, in format f.
void unpack_face(LlkMachine& m, bool srca, const std::vector<unsigned>& elements, const std::vector<SrcNumber>& x, SrcFormat f) {
  m.unpack(srca, [&](unsigned r, unsigned col) { return src_datum(x[elements[r * kFace + col]], f); }, kFace);
}

// How tt-llk's eltwise binary LLK handles a SrcB broadcast, Matrix Unit side
// (llk_math_eltwise_binary.h) and unpacker side (llk_unpack_AB.h), per face of the output tile.
struct BroadcastPlan {
  std::string fields;           // the ELW instruction's BroadcastSrcBRow / BroadcastSrcBCol0
  uint8_t srcb_incr;            // ADDR_MOD_0's SrcB step: 8 unless one SrcB row serves every row
  bool face_releases_b;         // each face's last instruction flips SrcB too (CLR_AB, else CLR_A)
  std::vector<bool> unpack_b;   // SrcB is (re)filled before this face
  std::vector<unsigned> b_face; // ...with this face of b's tile
  std::vector<std::string> after;  // the LLK's SETRWC after this face's MOP run, if any
};

BroadcastPlan broadcast_plan(Broadcast b) {
  switch (b) {
    case Broadcast::None: return {"", 8, true, {true, true, true, true}, {0, 1, 2, 3}, {"", "", "", ""}};
    // llk_unpack_AB ROW: b's faces 0 and 1 for each face row (the Z counter is reset after a row).
    case Broadcast::Row: return {" BroadcastSrcBRow=1", 0, true, {true, true, true, true}, {0, 1, 0, 1}, {"", "", "", ""}};
    // COL: b's face 0 for faces 0 and 1, face 2 for faces 2 and 3; SrcB released after each face row.
    case Broadcast::Col:
      return {" BroadcastSrcBCol0=1", 8, false, {true, false, true, false}, {0, 0, 2, 2},
              {"", "SETRWC FlipSrcB=1", "", "SETRWC FlipSrcB=1"}};
    // SCALAR: b's face 0 once; SrcB released (and the Dst counter reset) after the last face.
    case Broadcast::Scalar:
      return {" BroadcastSrcBRow=1 BroadcastSrcBCol0=1", 0, false, {true, false, false, false}, {0, 0, 0, 0},
              {"", "", "", "SETRWC FlipSrcB=1 Dst=1"}};
  }
  throw std::invalid_argument("precision audit: unknown broadcast");
}

// eltwise_binary_configure_addrmod: the slots are the same for every op; ADDR_MOD_2 carries the
// fidelity increment (used by ELWMUL's MOP only).
void eltwise_addrmods(LlkMachine& m, const RunConfig& cfg, const BroadcastPlan& plan) {
  m.set_addr_mod(0, {.srca_incr = 8, .srcb_incr = plan.srcb_incr, .dest_incr = 8});
  const AddrMod rewind{.srca_clr = true, .srcb_clr = true, .dest_cr = true};
  m.set_addr_mod(2, pass_end(rewind, cfg.phases > 1 ? 1 : 0));
  m.set_addr_mod(3, {.srca_clr = true, .srcb_clr = true, .dest_incr = 8, .dest_c_to_cr = true, .fidelity_clr = true});
  m.set_addr_mod(kSlotSkip, pass_end(rewind, 2));
  m.set_addr_mod(kSlotRepeat, pass_end(rewind, 0));
}

void check_broadcast(const RunConfig& cfg, Broadcast b) {
  if (b != Broadcast::None && cfg.perturb.kind == Perturbation::Kind::SwapOperands)
    throw std::invalid_argument("precision audit: swapped operands with a SrcB broadcast");
}

}  // namespace

SequenceTrace run_eltwise_sequence(const EltwiseCase& c, const RunConfig& cfg, Broadcast broadcast) {
  check_broadcast(cfg, broadcast);
  LlkMachine m(cfg);
  const BroadcastPlan plan = broadcast_plan(broadcast);
  eltwise_addrmods(m, cfg, plan);

  const bool swap = cfg.perturb.kind == Perturbation::Kind::SwapOperands;
  const bool negate = cfg.perturb.kind == Perturbation::Kind::NegatePhase;
  const unsigned passes = pass_count(cfg);
  const SrcFormat f = c.format;
  const std::string op = "ELWMUL" + plan.fields;
  const std::string release = plan.face_releases_b ? " FlipSrcA=1 FlipSrcB=1" : " FlipSrcA=1";
  constexpr unsigned kFaces = 4;

  SequenceTrace trace;
  m.issue("ZEROACC Mode=3", 0);
  // The starting Dst (non-zero only for the cancellation inputs), as an earlier operation left it.
  for (unsigned e = 0; e < kTile * kTile; ++e)
    if (c.dst_init[e] != 0) m.write_dst(tile_row(e / kTile, e % kTile), (e % kTile) % kFace, c.dst_init[e]);
  m.issue("SETRWC SrcA=1 SrcB=1 Dst=1 Fidelity=1");
  for (unsigned face = 0; face < kFaces; ++face) {
    StepTrace step;
    step.elements = face_elements(face);
    unpack_face(m, true, step.elements, swap ? c.b : c.a, f);
    if (plan.unpack_b[face]) unpack_face(m, false, face_elements(plan.b_face[face]), swap ? c.a : c.b, f);
    auto snapshot = [&] {
      std::vector<double> v;
      for (unsigned e : step.elements) v.push_back(m.dst_value(tile_row(e / kTile, e % kTile), (e % kTile) % kFace));
      return v;
    };
    step.snapshots.push_back(snapshot());
    for (unsigned pass = 0; pass < passes; ++pass) {
      step.phase_counter.push_back(m.phase_counter());
      const bool negated = negate && pass == cfg.perturb.phase;
      if (negated) m.flip_srcb_signs();
      m.issue(op, 0);
      const bool last = pass + 1 == passes;
      m.issue(last ? op + release : op, pass_end_slot(cfg.perturb, pass, passes, 2, 3));
      // A last ELWMUL that released SrcB leaves nothing to restore.
      if (negated && !(last && plan.face_releases_b)) m.flip_srcb_signs();
      step.snapshots.push_back(snapshot());
    }
    if (!plan.after[face].empty()) m.issue(plan.after[face]);
    trace.steps.push_back(std::move(step));
  }
  trace.result.assign(kTile * kTile, 0.0);
  for (const StepTrace& step : trace.steps)
    for (unsigned i = 0; i < step.elements.size(); ++i) trace.result[step.elements[i]] = step.snapshots.back()[i];
  return trace;
}

SequenceTrace run_eltwise_addsub_sequence(const EltwiseCase& c, const RunConfig& cfg, AddSub op, Broadcast broadcast) {
  LlkMachine m(cfg);
  const BroadcastPlan plan = broadcast_plan(broadcast);
  // The slots are programmed as for ELWMUL, so the fidelity setting reaches the model exactly as far
  // as the LLK lets it; the MOP uses ADDR_MOD_0 alone.
  eltwise_addrmods(m, cfg, plan);
  const SrcFormat f = c.format;
  const std::string insn = (op == AddSub::Add ? "ELWADD" : "ELWSUB") + plan.fields;
  // The MOP's end op: SETRWC releasing SrcA (and SrcB unless it is broadcast across faces) and
  // returning both Src counters to their carriage returns.
  const std::string end = plan.face_releases_b ? "SETRWC FlipSrcA=1 FlipSrcB=1 SrcA=1 SrcB=1 SrcACr=1 SrcBCr=1"
                                               : "SETRWC FlipSrcA=1 SrcA=1 SrcB=1 SrcACr=1 SrcBCr=1";
  constexpr unsigned kFaces = 4;

  SequenceTrace trace;
  trace.result.assign(kTile * kTile, 0.0);
  m.issue("ZEROACC Mode=3", 0);
  m.issue("SETRWC SrcA=1 SrcB=1 Dst=1 Fidelity=1");
  for (unsigned face = 0; face < kFaces; ++face) {
    StepTrace step;
    step.elements = face_elements(face);
    unpack_face(m, true, step.elements, c.a, f);
    if (plan.unpack_b[face]) unpack_face(m, false, face_elements(plan.b_face[face]), c.b, f);
    step.phase_counter.push_back(m.phase_counter());
    // Two instructions of 8 rows (acc_to_dest = 0: Dst is written, not read), then the end op.
    m.issue(insn, 0);
    m.issue(insn, 0);
    m.issue(end);
    if (!plan.after[face].empty()) m.issue(plan.after[face]);
    std::vector<double> v;
    for (unsigned e : step.elements) {
      v.push_back(m.dst_value(tile_row(e / kTile, e % kTile), (e % kTile) % kFace));
      trace.result[e] = v.back();
    }
    step.snapshots.push_back(std::move(v));
    trace.steps.push_back(std::move(step));
  }
  return trace;
}

}  // namespace tmu::tensix::llk

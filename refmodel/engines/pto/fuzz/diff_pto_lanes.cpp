// Differential: PTO's specialised lane loops (engines/pto/src/fast_lanes.cpp: run_specialised and
// run_specialised_convert) against the per-lane model they stand in for (generic_lane, convert_lane),
// on a case decoded from the fuzz bytes: a profile, an operation and an element type (each enumerated
// from kAllProfiles, kOpCount and kAllElemTypes, so profiles and types added later are covered), a
// layout, a shape and valid region, and lanes (float patterns around one exponent with the specials,
// integers among zero, one, all ones, the extremes, shift counts around the width, and raw bits).
// Only cases execute() would hand to the fast path are run, and only when the fast path takes them:
// then both must give the same bits in every lane (those outside the valid region untouched), or
// both must refuse with the same message (the first lane refused in row-then-column order).
#include <string>
#include <vector>

#include "fuzz.h"
#include "internal.h"
#include "tmu/pto/ops.h"
#include "tmu/pto/tile.h"

namespace {

using namespace tmu;
using namespace tmu::pto;

// execute()'s checks before it runs an elementwise operation's lanes (execute.cpp), for the
// operations the fast path has loops for.
bool executes(Profile p, Op op, ElemType t, Layout layout) {
  if (op == Op::TCMP || op == Op::TSEL || op == Op::TCVT) return false;
  if (p != Profile::CpuSim && (op == Op::TADDC || op == Op::TSUBC || layout != Layout::RowMajor)) return false;
  switch (p) {
    case Profile::CpuSim: return detail::cpusim_supports(op, t);
    case Profile::A2A3: return detail::a2a3_supports(op, t);
    case Profile::A5: return detail::a5_supports(op, t) && detail::a5_not_modelled_reason(op, t) == nullptr;
  }
  return false;
}

TMU_FUZZ_DECODER uint64_t lane_pattern(tmu::fuzz::Fields& in, ElemType t, int exponent) {
  if (is_f8(t)) return in.bits(8);  // 256 patterns: every one is a case worth drawing
  if (is_float(t)) return tmu::fuzz::float_pattern(in, float_format(t), exponent);
  const uint64_t m = lane_mask(t), sign = uint64_t{1} << (width_bits(t) - 1);
  switch (in.below(8)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return m;                                  // -1
    case 3: return is_signed_int(t) ? sign : m;        // most negative, or the largest unsigned
    case 4: return is_signed_int(t) ? sign - 1 : m - 1;
    case 5: return (width_bits(t) + in.below(5) - 2) & m;  // a shift count around the width
    case 6: return in.below(16);
    default: return in.bits(64) & m;
  }
}

Tile random_tile(tmu::fuzz::Fields& in, ElemType t, Layout layout, unsigned rows, unsigned cols, unsigned vr, unsigned vc,
                 int exponent) {
  Tile tile = make_tile(t, rows, cols, layout, vr, vc);
  for (uint64_t& b : tile.bits) b = lane_pattern(in, t, exponent);
  return tile;
}

std::string tile_hex(const Tile& t) {
  std::string out;
  char b[24];
  for (uint64_t v : t.bits) {
    std::snprintf(b, sizeof b, " %llx", static_cast<unsigned long long>(v));
    out += b;
  }
  return out;
}

struct Outcome {
  bool refused = false;
  std::string message;
  Tile tile;
};

template <class Run>
Outcome outcome(const Tile& dst, Run run) {
  Outcome o{false, {}, dst};
  try {
    run(o.tile);
  } catch (const Error& e) {
    o.refused = true;
    o.message = e.what();
  }
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tmu::fuzz::Fields in(data, size);
  const Profile p = in.pick(kAllProfiles);
  const bool convert = in.below(4) == 0;
  const Op op = convert ? Op::TCVT : static_cast<Op>(in.below(kOpCount));
  const ElemType t = in.pick(kAllElemTypes), to = in.pick(kAllElemTypes);
  const Layout layout = in.flag() ? Layout::ColMajor : Layout::RowMajor;
  // A row (row-major) or column (column-major) of a multiple of 32 bytes, of the wider type.
  const unsigned unit = 32 / std::min(width_bytes(t), width_bytes(to));
  const unsigned rows = layout == Layout::RowMajor ? 1 + in.below(6) : unit * (1 + in.below(2));
  const unsigned cols = layout == Layout::RowMajor ? unit * (1 + in.below(2)) : 1 + in.below(6);
  const unsigned vr = 1 + in.below(rows), vc = 1 + in.below(cols);
  const int exponent = static_cast<int>(in.below(41)) - 20;

  std::string what = std::string(profile_name(p)) + " " + std::string(op_name(op)) + " " + std::string(elem_name(t));
  what += std::string(layout == Layout::RowMajor ? " row-major " : " col-major ") + std::to_string(rows) + "x" +
          std::to_string(cols) + " valid " + std::to_string(vr) + "x" + std::to_string(vc);
  Outcome fast, reference;
  std::vector<Tile> srcs;
  if (convert) {
    // run_specialised_convert is the simulator's (execute calls it for cpusim only).
    if (p != Profile::CpuSim) return 0;
    const auto mode = static_cast<RoundMode>(in.below(7));
    const SaturationMode sat = in.flag() ? SaturationMode::On : SaturationMode::Off;
    const Tile src = random_tile(in, t, layout, rows, cols, vr, vc, exponent);
    const Tile dst = random_tile(in, to, layout, rows, cols, vr, vc, exponent);
    srcs = {src};
    what += std::string(" to ") + std::string(elem_name(to)) + " round " + std::to_string(static_cast<int>(mode)) +
            (sat == SaturationMode::On ? " sat on" : " sat off");
    bool taken = false;
    fast = outcome(dst, [&](Tile& out) { taken = detail::run_specialised_convert(p, out, src, mode, sat); });
    if (!taken && !fast.refused) return 0;
    reference = outcome(dst, [&](Tile& out) {
      for (unsigned r = 0; r < vr; ++r)
        for (unsigned c = 0; c < vc; ++c)
          out.bits[out.offset(r, c)] = detail::convert_lane(detail::Lane{p, Op::TCVT, t, r, c}, to, mode, sat, src.at(r, c));
    });
  } else {
    if (!executes(p, op, t, layout)) return 0;
    for (unsigned i = 0; i < source_count(op); ++i) srcs.push_back(random_tile(in, t, layout, rows, cols, vr, vc, exponent));
    const Tile dst = random_tile(in, t, layout, rows, cols, vr, vc, exponent);
    std::vector<const Tile*> ptrs;
    for (const Tile& s : srcs) ptrs.push_back(&s);
    bool taken = false;
    fast = outcome(dst, [&](Tile& out) { taken = detail::run_specialised(p, op, out, ptrs); });
    if (!taken && !fast.refused) return 0;
    reference = outcome(dst, [&](Tile& out) {
      for (unsigned r = 0; r < vr; ++r)
        for (unsigned c = 0; c < vc; ++c) {
          uint64_t v[3] = {0, 0, 0};
          for (size_t i = 0; i < srcs.size(); ++i) v[i] = srcs[i].at(r, c);
          out.bits[out.offset(r, c)] = detail::generic_lane(detail::Lane{p, op, t, r, c}, v[0], v[1], v[2]);
        }
    });
  }
  const bool same = fast.refused == reference.refused &&
                    (fast.refused ? fast.message == reference.message : fast.tile.bits == reference.tile.bits);
  if (same) return 0;
  for (size_t i = 0; i < srcs.size(); ++i) what += "\n  src" + std::to_string(i) + ":" + tile_hex(srcs[i]);
  auto text = [](const Outcome& o) { return o.refused ? "refused: " + o.message : "lanes" + tile_hex(o.tile); };
  tmu::fuzz::difference(what, text(fast), text(reference) + " (generic_lane / convert_lane)", data, size);
}

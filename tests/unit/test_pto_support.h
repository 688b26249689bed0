// Helpers for the tmu::pto tests: tiles filled from lists of patterns, one-lane runs, and refusal
// checks on the message.
#pragma once

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tmu/error.h"
#include "tmu/pto/ops.h"

namespace tmu::pto::test {

// A tile whose valid region, in row-major order, holds `values` (rows x cols, all valid).
inline Tile filled(ElemType t, unsigned rows, unsigned cols, const std::vector<uint64_t>& values,
                   Layout l = Layout::RowMajor) {
  Tile tile = make_tile(t, rows, cols, l);
  for (unsigned i = 0; i < values.size(); ++i) set(tile, i / cols, i % cols, values[i]);
  return tile;
}

// The smallest legal row-major tile of a type with one valid lane.
inline Tile one_lane(ElemType t, uint64_t v) {
  Tile tile = make_tile(t, 1, 32 / width_bytes(t), Layout::RowMajor, 1, 1);
  set(tile, 0, 0, v);
  return tile;
}

// op on one lane: dst(0, 0) after dst = op(a[, b[, c]]).
inline uint64_t lane(Profile p, Op op, ElemType t, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
  const Tile ta = one_lane(t, a), tb = one_lane(t, b), tc = one_lane(t, c);
  const Tile* all[3] = {&ta, &tb, &tc};
  Tile dst = one_lane(t, 0);
  execute(p, op, dst, std::span<const Tile* const>(all, source_count(op)));
  return dst.at(0, 0);
}
inline uint64_t cpu(Op op, ElemType t, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
  return lane(Profile::CpuSim, op, t, a, b, c);
}
inline uint64_t npu(Op op, ElemType t, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
  return lane(Profile::A2A3, op, t, a, b, c);
}

// Runs `f`, which must throw a tmu::Error of `kind` whose message contains every one of `parts`.
template <typename F>
void expect_refusal(F f, ErrorKind kind, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no refusal; expected one containing \"" << parts.front() << "\"";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    for (const std::string& part : parts) EXPECT_THAT(e.message(), ::testing::HasSubstr(part));
  }
}

}  // namespace tmu::pto::test

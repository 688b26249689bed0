// Small helpers for instruction-level tests: assemble text for the state's architecture, execute it
// on one thread, and insist that it retired.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "tmu/tensix/decode.h"
#include "tmu/tensix/exec.h"

namespace tmu::test {
using namespace tmu::tensix;

inline ExecResult run(TensixState& s, const std::string& text, unsigned thread = 0) {
  const ExecResult r = execute(s, assemble(text, s.arch), thread);
  EXPECT_EQ(r.status, ExecResult::Status::Retired) << text << ": " << r.stall_reason;
  return r;
}

inline TensixState fresh(Arch arch = Arch::Blackhole) {
  TensixState s;
  s.arch = arch;
  return s;
}

inline void give_banks_to_matrix_unit(TensixState& s) {
  for (auto& b : s.SrcA) b.AllowedClient = SrcClient::MatrixUnit;
  for (auto& b : s.SrcB) b.AllowedClient = SrcClient::MatrixUnit;
}

}  // namespace tmu::test

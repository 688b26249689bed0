// A small audit configuration the audit tests share: two source formats, two distributions, two
// fidelities, K up to 2, one sample, the Matrix Unit's rows and the AMX rows in every mode - seconds
// to run, yet every kind of row is present.
#pragma once

#include <cstdint>

#include "tmu/amx/audit/amx.h"
#include "tmu/audit/audit.h"
#include "tmu/audit/rows.h"
#include "tmu/tensix/audit/rows.h"

namespace tmu::audit::test {

inline AuditOptions small_audit_options(uint64_t seed, unsigned threads) {
  register_builtin_audit_rows();
  AuditOptions o;
  matrix_unit_settings(o).ops = {kMvmul, kElwmul};
  o.engines[kAmxRowsName] = AmxAuditConfig{};
  o.formats = {SrcFormat::BF16, SrcFormat::FP16};
  o.distributions = {Distribution::Normal, Distribution::Cancellation};
  matrix_unit_settings(o).fidelities = {1, 4};
  o.max_k = 2;
  o.table_ks = {1, 2};
  o.samples = 1;
  o.eltwise_tiles = 1;
  o.seed = seed;
  o.threads = threads;
  return o;
}

}  // namespace tmu::audit::test

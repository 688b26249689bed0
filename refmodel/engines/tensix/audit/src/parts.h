// The Tensix rows' parts (rows.cpp holds the AuditRows that calls them).
#pragma once

#include <ostream>
#include <vector>

#include "tmu/tensix/audit/rows.h"
#include "tmu/tensix/llk/phase_check.h"
#include "tmu/tensix/llk/sequence.h"

namespace tmu::audit {
using namespace tmu::tensix::llk;

// The Matrix Unit's sections of audit.md (report.cpp).
void tensix_markdown(ReportPart part, const AuditResults& r, std::ostream& md);
// Its lines of the bits-versus-K and cross-engine tables and its notes on the latter (tables.cpp).
std::vector<KLine> tensix_k_lines(const AuditResults& r, Distribution d);
std::vector<CrossLine> tensix_cross_lines(const AuditResults& r);
std::vector<CrossNote> tensix_cross_notes(const AuditResults& r);

}  // namespace tmu::audit

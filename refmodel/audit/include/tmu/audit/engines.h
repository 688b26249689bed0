// The engines whose rows the shared audit tables hold (audit.h: the Matrix Unit's MVMUL and ELWMUL,
// AMX's MATFP rows, the PTO rows and the cross-engine table), the options each adds to `tmu audit`,
// and how their values configure AuditOptions. The command line takes these as the engines' audit
// options, so it names no engine itself.
#pragma once

#include <string>
#include <vector>

#include "tmu/audit/audit.h"
#include "tmu/engine.h"

namespace tmu::audit {

// The options `engine` adds to the shared audit; none for an engine the shared tables do not hold.
std::vector<EngineOption> shared_audit_options(const std::string& engine);
// What --engines selects when not given.
std::vector<std::string> default_audit_engines();
// Each selected engine's rows with its options' values (its defaults where none was given); an
// engine not selected runs nothing. `values` may hold other engines' options, which are ignored.
// tmu::Error (BadInput) naming the option for a bad value.
// `variant` is the chosen engine's variant: the Matrix Unit's rows run on it when it names a Tensix
// architecture, on Blackhole otherwise.
void select_audit_engines(AuditOptions& o, const std::vector<std::string>& selected, const OptionValues& values,
                          const std::string& variant);
// Whether the options run any of the shared tables' rows.
bool runs_shared_tables(const AuditOptions& o);
// The files write_audit_outputs writes for these results, for the summary line.
std::string written_files(const AuditResults& r);

}  // namespace tmu::audit

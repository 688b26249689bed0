// The Apple AMX rows of the precision audit (docs/audit.md, "The AMX rows"): the K-tile matmul on
// the matfp model in every mode asked for, on the inputs of the Matrix Unit's MVMUL runs; its lines
// of the bits-versus-K table beside MVMUL, and of the cross-engine table at K = 1.
#include <algorithm>
#include <memory>
#include <ostream>

#include <fmt/format.h>

#include "tmu/amx/audit/amx.h"
#include "tmu/audit/reference.h"

namespace tmu::audit {

namespace {

bool has_mode(const AuditOptions& o, AmxMode m) {
  const AmxAuditConfig* c = amx_config(o);
  return c && std::find(c->modes.begin(), c->modes.end(), m) != c->modes.end();
}

class AmxAuditRows final : public AuditRows {
 public:
  std::string name() const override { return kAmxRowsName; }

  std::vector<EngineOption> options() const override {
    return {{"--amx-modes", "AMX matfp modes, comma-separated: bf16f32 (M2), f16f32, f32 (any case)",
             EngineOption::Kind::List, "bf16f32,f16f32,f32"}};
  }

  bool runs_by_default() const override { return true; }

  void select(AuditOptions& o, bool selected, const OptionValues& values, const std::string&) const override {
    o.engines.erase(name());
    if (!selected) return;
    AmxAuditConfig c;
    c.modes.clear();
    for (const std::string& n : given_values(values, "amx-modes", {"bf16f32", "f16f32", "f32"})) {
      const auto m = parse_amx_mode(n);
      if (!m) throw bad_option("--amx-modes", fmt::format("{} not in {{bf16f32,f16f32,f32}}", n));
      add_once(c.modes, *m);
    }
    o.engines[name()] = c;
  }

  bool runs(const AuditOptions& o) const override {
    const AmxAuditConfig* c = amx_config(o);
    return c && !c->modes.empty();
  }

  std::vector<SeriesUnit> units(const AuditOptions& o) const override {
    std::vector<SeriesUnit> units;
    for (AmxMode m : amx_config(o)->modes)
      for (Distribution d : o.distributions)
        for (unsigned i = 0; i < o.samples; ++i) units.push_back(SeriesUnit{this, 0, amx_stream(m), d, i});
    return units;
  }

  // The stream of the Matrix Unit's MVMUL unit a unit stands beside (tmu/tensix/audit/rows.h): the
  // same real draws.
  std::string stream(const SeriesUnit&) const override { return "MVMUL"; }

  // Z is f32 in every mode, so the references are FP32 too.
  void run_unit(const SeriesUnit& u, uint64_t seed, const AuditOptions& o, SeriesSink& sink) const override {
    const AmxCase c = make_amx_case(amx_mode_of_stream(u.format), u.dist, o.max_k, seed);
    const auto exact = exact_amx_prefixes(c);
    const auto sequential = ieee_sequential_amx(c, kFp32);
    const auto model = run_amx_matmul(c);
    for (unsigned t = 0; t < c.tiles; ++t) {
      auto key = [&](unsigned method) { return SeriesKey{kMatfp, t + 1, u.format, u.dist, true, method}; };
      sink.record(key(kIeeeOnce), errors_of(exact[t], ieee_rounded_once(exact[t], kFp32), kFp32));
      sink.record(key(kIeeeSeq), errors_of(exact[t], sequential[t], kFp32));
      sink.record(key(kAmxMethod), errors_of(exact[t], model[t], kFp32));
    }
  }

  void markdown(ReportPart part, const AuditResults& r, std::ostream& md) const override {
    const AuditOptions& o = r.options;
    if (!runs(o)) return;
    const std::vector<AmxMode>& modes = amx_config(o)->modes;
    if (part == ReportPart::Preamble) {
      md << "AMX matfp (MATFP rows): ";
      for (size_t i = 0; i < modes.size(); ++i) md << (i ? ", " : "") << amx_method_name(modes[i]);
      md << fmt::format(", {} run(s) of K = {} tiles per mode and distribution, on the inputs of the MVMUL runs "
                        "(rounded to the AMX source format, subnormals kept).\n\n",
                        o.samples, o.max_k);
    } else if (part == ReportPart::AfterMatmul) {
      for (Distribution d : o.distributions) {
        md << fmt::format("## Tensix MVMUL beside AMX matfp: effective bits versus K, {}\n\n", distribution_name(d));
        if (d == o.distributions.front())
          md << "Median / 99th percentile, every K from bits_vs_k.csv. Tensix with an FP32 Dst (16-bit when only that "
                "was run); AMX accumulates in its f32 Z with one rounding per multiply-add, on the same draws rounded "
                "to its source format (TF32's draws at full f32 precision for AMX f32).\n\n";
        k_table(md, r, d);
      }
    }
  }

  // Each mode below the Matrix Unit's rows of the stream it shares.
  std::vector<KLine> k_lines(const AuditResults& r, Distribution d) const override {
    std::vector<KLine> lines;
    for (AmxMode m : kAmxModes)
      if (has_mode(r.options, m))
        lines.push_back(KLine{100, "AMX matfp", amx_source_format(m).name, "FP32", amx_method_name(m),
                              SeriesKey{kMatfp, 1, amx_stream(m), d, true, kAmxMethod}});
    return lines;
  }

  std::vector<CrossLine> cross_lines(const AuditResults& r) const override {
    std::vector<CrossLine> lines;
    for (const auto& [key, stats] : r.stats)
      if (key.op == kMatfp && key.k == 1 && key.method == kAmxMethod)
        lines.push_back(CrossLine{"AMX", "MATFP K=1", amx_method_name(amx_mode_of_stream(key.format)), "FP32 Z",
                                  key.format, key.dist, stats, "AMX | MATFP K=1 | the mode on the same stream | FP32 Z",
                                  40});
    return lines;
  }

  std::vector<CrossNote> cross_notes(const AuditResults&) const override {
    return {{40, "AMX MATFP K=1 is a 32-term dot product with one rounding per multiply-add, shown for scale."}};
  }
};

}  // namespace

const AmxAuditConfig* amx_config(const AuditOptions& o) {
  const auto it = o.engines.find(kAmxRowsName);
  return it == o.engines.end() ? nullptr : std::any_cast<AmxAuditConfig>(&it->second);
}

const char* amx_series_src_name(SrcFormat stream) { return amx_source_format(amx_mode_of_stream(stream)).name; }

std::string amx_series_method_name(SrcFormat stream, unsigned method) {
  return method == kAmxMethod ? amx_method_name(amx_mode_of_stream(stream)) : method_name(method);
}

std::unique_ptr<AuditRows> make_amx_audit_rows() { return std::make_unique<AmxAuditRows>(); }

}  // namespace tmu::audit

// Functional coverage of the co-simulation testbench (docs/coverage.md). The testbench calls
// sample() for every retired instruction before the scoreboard executes it, so the model state is
// exactly what the instruction reads, and event() for micro-architectural events the RTL reports.
// Every bin has goal 1. Bins that no legal stimulus can reach are not declared (exclusions, listed
// per coverpoint with the reason); sampling one of them counts as an illegal hit, reported apart.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tmu/tensix/state.h"

namespace tmu::tb {
using namespace tmu::tensix;

struct CoverBin {
  std::string name;
  uint64_t hits = 0;
};

struct Coverpoint {
  std::string name;
  std::string description;
  std::vector<CoverBin> bins;                                // declaration order
  std::vector<std::pair<std::string, std::string>> excluded;  // bin, reason
  // Open coverpoints (events) accept bins they did not declare: the RTL may report new events.
  bool open = false;

  uint64_t bins_hit() const;
  std::vector<std::string> missed() const;
  const CoverBin* find(std::string_view bin) const;
  CoverBin* find(std::string_view bin);
};

class Coverage {
 public:
  Coverage();  // declares every coverpoint and bin

  // One retired instruction, before the model executes it. A word the model's decoder refuses
  // is counted as the illegal bin "undecodable" of "opcode_x_arch".
  void sample(const TensixState& model_before, unsigned thread, uint32_t word);
  // An RTL event ("dst_hazard_stall", ...); names not declared are added to the open "events".
  void event(std::string_view name);

  // One hit of a declared bin; an undeclared bin of a closed coverpoint is an illegal hit.
  void hit(std::string_view coverpoint, std::string_view bin);

  uint64_t hits(std::string_view coverpoint, std::string_view bin) const;  // 0 when not declared
  // The bins that count: those of an architecture ("...@bh", "...@wh:...") this coverage has no
  // run of cannot be hit, so they are left out of the totals (and the report says so). Coverage
  // with no sample at all (a file of another build) counts every bin.
  uint64_t total_bins() const;
  uint64_t hit_bins() const;
  bool counts(const CoverBin& b) const;
  const std::set<std::string>& architectures() const { return arches_; }  // "bh", "wh" sampled
  const std::vector<Coverpoint>& coverpoints() const { return points_; }
  const Coverpoint* find(std::string_view coverpoint) const;
  // "coverpoint/bin" -> hits, for samples that fell into excluded or undeclared bins.
  const std::map<std::string, uint64_t>& illegal_hits() const { return illegal_; }
  uint64_t samples() const { return samples_; }

  // Sums hits bin by bin; bins or coverpoints only `other` has are added. This is the one merge of
  // coverage: files are merged by reading them (from_json) and merging the objects, e.g. with
  // `tmu_tb --merge-cov OUT IN...`, which scripts/regress.py calls.
  void merge(const Coverage& other);

  // Text table: coverpoint, bins hit / total, percent, then the missed bins (up to max_missed per
  // coverpoint; 0 = all).
  std::string text_report(size_t max_missed = 0) const;
  // {"coverpoints": {name: {"description": ..., "bins": {bin: hits}, "excluded": {bin: reason}}},
  //  "total": N, "hit": N, "samples": N, "illegal": {"cp/bin": hits}, "architectures": ["bh", ...]}
  nlohmann::json to_json() const;
  // The declared model plus the hits in j (bins j has that this build lacks are added). Throws
  // tmu::Error(BadInput) for a document that is not a coverage file.
  static Coverage from_json(const nlohmann::json& j);
  void write_json(const std::string& path) const;
  static Coverage read_json(const std::string& path);

 private:
  Coverpoint& declare(std::string name, std::string description);
  Coverpoint& point(std::string_view name);
  void add_bin(Coverpoint& cp, std::string bin) { cp.bins.push_back(CoverBin{std::move(bin), 0}); }

  std::vector<Coverpoint> points_;
  std::map<std::string, uint64_t> illegal_;
  uint64_t samples_ = 0;
  std::set<std::string> arches_;
};

// ---- Classification helpers (exposed for tests) ----
// Special-value class of an operand datum, as the instruction reads it.
enum class ValueClass : uint8_t { Zero, NegZero, Denormal, MaxExp, InfNan, Int8Extreme, Normal, Undefined };
const char* value_class_name(ValueClass c);
// A 19-bit Src datum in one style (SrcStyle::INT8: zero, negative zero, extreme = magnitude 127
// or 1023, normal).
ValueClass classify_src(uint32_t datum19, SrcStyle style);
// A Dst16 value read in the style's 16-bit layout (BF16/TF32 -> Dst16 BF16; FP16/INT8 -> Dst16 FP16).
ValueClass classify_dst16(uint16_t bits, SrcStyle style);
// A Dst32 value: FP32 layout, or INT32 sign-magnitude (extreme = magnitude 2^31-1).
ValueClass classify_dst32(uint32_t bits, bool is_int32);

}  // namespace tmu::tb

#include "run/run_args.h"

#include <algorithm>
#include <cctype>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tmu/error.h"
#include "tmu/suggest.h"

namespace tmu::tb {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

std::vector<std::string> translate_plusargs(const std::vector<std::string>& args) {
  struct Plus {
    std::string_view name;
    const char* option;
    bool numeric;
  };
  static constexpr Plus kPlus[] = {
      {"SEED", "--seed", true},           {"ntb_random_seed", "--seed", true}, {"seed", "--seed", true},
      {"TEST", "--test", false},          {"UVM_TESTNAME", "--test", false},   {"INSTRS", "--instrs", true},
      {"VERBOSITY", "--verbosity", false}, {"UVM_VERBOSITY", "--verbosity", false}, {"ARCH", "--arch", false}};
  std::vector<std::string> out;
  for (const std::string& a : args) {
    if (a.size() < 2 || a[0] != '+') {
      out.push_back(a);
      continue;
    }
    const size_t eq = a.find('=');
    const std::string name = a.substr(1, eq == std::string::npos ? std::string::npos : eq - 1);
    const auto p = std::find_if(std::begin(kPlus), std::end(kPlus), [&](const Plus& k) { return name == k.name; });
    if (p == std::end(kPlus)) {
      std::vector<std::string> spelled;
      for (const Plus& k : kPlus) spelled.push_back(fmt::format("+{}=", k.name));
      const std::vector<std::string_view> candidates(spelled.begin(), spelled.end());
      throw Error(ErrorKind::BadInput, fmt::format("unknown plusarg '{}'{} (+SEED= +ntb_random_seed= +TEST= "
                                                   "+UVM_TESTNAME= +INSTRS= +VERBOSITY= +UVM_VERBOSITY= +ARCH=)",
                                                   a, did_you_mean(fmt::format("+{}=", name), candidates)));
    }
    if (eq == std::string::npos || eq + 1 == a.size())
      throw Error(ErrorKind::BadInput, fmt::format("plusarg '{}' needs a value ({}=...)", a, a.substr(0, eq)));
    if (p->numeric) parse_unsigned(a.substr(0, eq), a.substr(eq + 1));
    out.push_back(p->option);
    out.push_back(a.substr(eq + 1));
  }
  return out;
}

std::string unsigned_refusal(const std::string& text, uint64_t max) {
  if (text.empty()) return "needs a number";
  if (text[0] == '-') return fmt::format("'{}' is negative (a count, cycle, seed or index is 0 or more)", text);
  uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return fmt::format("'{}' is not a whole decimal number (digits 0-9 only)", text);
    const auto digit = static_cast<uint64_t>(c - '0');
    if (value > (max - digit) / 10) return fmt::format("'{}' is too large (at most {})", text, max);
    value = value * 10 + digit;
  }
  return "";
}

uint64_t parse_unsigned(const std::string& what, const std::string& text, uint64_t max) {
  if (const std::string why = unsigned_refusal(text, max); !why.empty())
    throw Error(ErrorKind::BadInput, fmt::format("{}: {}", what, why));
  return std::stoull(text);
}

Verdict decide_verdict(const RunFacts& f) {
  if (f.mismatches)
    return {"FAIL", 1, fmt::format("{} mismatches, the first at cycle {}", f.mismatches, f.first_failure_cycle)};
  // A testbench that stopped or never finished has not run the test: nothing is known of the design.
  if (f.testbench_error)
    return {"ERROR", 2, f.error_text.empty() ? std::string("testbench error: no progress for too long (stimulus deadlock)")
                                             : "testbench error: " + f.error_text};
  if (!f.finished)
    return {"ERROR", 2, fmt::format("the run did not finish within {} cycles (--max-cycles; {} simulated)", f.max_cycles,
                                    f.cycles)};
  if (f.checked && f.forbidden_stalls)
    return {"FAIL", 1, fmt::format("{} Dst hazard stall cycles in a test without Dst hazards", f.forbidden_stalls)};
  if (f.checked && f.design_failed)
    return {"FAIL", 1, "the testbench flagged a failure the scoreboard did not count"};
  return {f.checked ? "PASS" : "DONE", 0, ""};
}

std::optional<Verbosity> parse_verbosity(const std::string& text) {
  std::string t = lower(text);
  if (t.starts_with("uvm_")) t = t.substr(4);
  if (t == "none") return Verbosity::None;
  if (t == "low") return Verbosity::Low;
  if (t == "medium") return Verbosity::Medium;
  if (t == "high" || t == "full" || t == "debug") return Verbosity::High;
  return std::nullopt;
}

void write_report(const std::string& path, const RunReport& r) {
  nlohmann::ordered_json j;
  j["format"] = "tmu-tb-report 1";
  j["verdict"] = r.verdict;
  j["test"] = r.test;
  j["arch"] = r.arch;
  j["seed"] = r.seed;
  j["instrs"] = r.instrs;
  j["issued"] = r.issued;
  j["retired"] = r.retired;
  j["cycles"] = r.cycles;
  j["mismatches"] = r.mismatches;
  j["forbidden_stalls"] = r.forbidden_stalls;
  j["wall_seconds"] = r.wall_seconds;
  j["instr_per_second"] = r.wall_seconds > 0 ? static_cast<double>(r.retired) / r.wall_seconds : 0.0;
  j["exit_status"] = r.exit_status;
  j["replay"] = r.replay;
  j["first_failure_cycle"] = r.first_failure_cycle ? nlohmann::ordered_json(*r.first_failure_cycle) : nullptr;
  j["waveform"] = r.waveform ? nlohmann::ordered_json(*r.waveform) : nullptr;
  j["reason"] = r.reason;
  std::ofstream out(path);
  out << j.dump(1) << "\n";
  if (!out) throw Error(ErrorKind::BadInput, fmt::format("--report {}: cannot write the file", path));
}

}  // namespace tmu::tb

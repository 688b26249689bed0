#include "run/run_args.h"

#include <algorithm>
#include <cctype>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tmu/error.h"

namespace tmu::tb {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

std::vector<std::string> translate_plusargs(const std::vector<std::string>& args) {
  struct Plus {
    const char* name;
    const char* option;
  };
  static constexpr Plus kPlus[] = {
      {"SEED", "--seed"},   {"ntb_random_seed", "--seed"}, {"seed", "--seed"},        {"TEST", "--test"},
      {"UVM_TESTNAME", "--test"}, {"INSTRS", "--instrs"},  {"VERBOSITY", "--verbosity"},
      {"UVM_VERBOSITY", "--verbosity"}, {"ARCH", "--arch"}};
  std::vector<std::string> out;
  for (const std::string& a : args) {
    if (a.size() < 2 || a[0] != '+') {
      out.push_back(a);
      continue;
    }
    const size_t eq = a.find('=');
    const std::string name = a.substr(1, eq == std::string::npos ? std::string::npos : eq - 1);
    const auto p = std::find_if(std::begin(kPlus), std::end(kPlus), [&](const Plus& k) { return name == k.name; });
    if (p == std::end(kPlus))
      throw Error(ErrorKind::BadInput, fmt::format("unknown plusarg '{}' (+SEED= +ntb_random_seed= +TEST= "
                                                   "+UVM_TESTNAME= +INSTRS= +VERBOSITY= +UVM_VERBOSITY= +ARCH=)",
                                                   a));
    if (eq == std::string::npos || eq + 1 == a.size())
      throw Error(ErrorKind::BadInput, fmt::format("plusarg '{}' needs a value ({}=...)", a, a.substr(0, eq)));
    out.push_back(p->option);
    out.push_back(a.substr(eq + 1));
  }
  return out;
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

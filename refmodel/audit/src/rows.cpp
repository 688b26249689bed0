#include "tmu/audit/rows.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "tmu/error.h"

namespace tmu::audit {

namespace {

std::vector<std::unique_ptr<AuditRows>>& registered() {
  static std::vector<std::unique_ptr<AuditRows>> list;
  return list;
}

}  // namespace

void register_audit_rows(std::unique_ptr<AuditRows> rows) {
  auto& list = registered();
  const auto same = std::find_if(list.begin(), list.end(), [&](const auto& r) { return r->name() == rows->name(); });
  if (same != list.end()) *same = std::move(rows);
  else list.push_back(std::move(rows));
}

const std::vector<std::unique_ptr<AuditRows>>& audit_rows() { return registered(); }

const AuditRows* find_audit_rows(std::string_view name) {
  for (const auto& r : registered())
    if (r->name() == name) return r.get();
  return nullptr;
}

std::vector<EngineOption> shared_audit_options(const std::string& engine) {
  const AuditRows* rows = find_audit_rows(engine);
  return rows ? rows->options() : std::vector<EngineOption>{};
}

std::vector<std::string> default_audit_engines() {
  std::vector<std::string> names;
  for (const auto& r : registered())
    if (r->runs_by_default()) names.push_back(r->name());
  return names;
}

void select_audit_engines(AuditOptions& o, const std::vector<std::string>& selected, const OptionValues& values,
                          const std::string& variant) {
  for (const auto& r : registered())
    r->select(o, std::find(selected.begin(), selected.end(), r->name()) != selected.end(), values, variant);
}

Error bad_option(const char* option, const std::string& why) {
  return Error(ErrorKind::BadInput, fmt::format("{}: {}", option, why));
}

std::string lowercase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::vector<std::string> given_values(const OptionValues& values, const char* key, std::vector<std::string> defaults) {
  const auto* v = option_value(values, key);
  return v ? *v : defaults;
}

unsigned given_count(const OptionValues& values, const char* key, const char* option, unsigned fallback) {
  const auto* v = option_value(values, key);
  if (!v) return fallback;
  const std::string& t = v->front();
  unsigned n = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size())
    throw bad_option(option, fmt::format("'{}' is not a count", t));
  return n;
}

}  // namespace tmu::audit

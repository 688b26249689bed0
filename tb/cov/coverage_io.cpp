// The coverage database: bins and hit counts, totals, merging, the text table and the JSON form
// (docs/coverage.md). The model itself (declarations, sampling) is coverage.cpp.
#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "coverage.h"
#include "tmu/error.h"

namespace tmu::tb {

// ---------------------------------------------------------------------------------------------
// Coverpoint

uint64_t Coverpoint::bins_hit() const {
  return static_cast<uint64_t>(std::count_if(bins.begin(), bins.end(), [](const CoverBin& b) { return b.hits > 0; }));
}
std::vector<std::string> Coverpoint::missed() const {
  std::vector<std::string> out;
  for (const CoverBin& b : bins)
    if (b.hits == 0) out.push_back(b.name);
  return out;
}
const CoverBin* Coverpoint::find(std::string_view bin) const {
  for (const CoverBin& b : bins)
    if (b.name == bin) return &b;
  return nullptr;
}
CoverBin* Coverpoint::find(std::string_view bin) {
  return const_cast<CoverBin*>(static_cast<const Coverpoint*>(this)->find(bin));
}

// ---------------------------------------------------------------------------------------------
// Coverage: lookup

Coverpoint& Coverage::declare(std::string name, std::string description) {
  points_.push_back(Coverpoint{std::move(name), std::move(description), {}, {}, false});
  return points_.back();
}

Coverpoint& Coverage::point(std::string_view name) {
  for (Coverpoint& cp : points_)
    if (cp.name == name) return cp;
  throw Error(ErrorKind::BadInput, fmt::format("coverage: no coverpoint '{}'", name));
}

const Coverpoint* Coverage::find(std::string_view name) const {
  for (const Coverpoint& cp : points_)
    if (cp.name == name) return &cp;
  return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Totals, merge, reports

uint64_t Coverage::hits(std::string_view coverpoint, std::string_view bin) const {
  const Coverpoint* cp = find(coverpoint);
  if (!cp) return 0;
  const CoverBin* b = cp->find(bin);
  return b ? b->hits : 0;
}
bool Coverage::counts(const CoverBin& b) const {
  if (arches_.empty()) return true;
  const size_t at = b.name.find('@');
  if (at == std::string::npos) return true;
  const std::string tag = b.name.substr(at + 1, b.name.find(':', at) == std::string::npos ? std::string::npos
                                                                                          : b.name.find(':', at) - at - 1);
  return (tag != "bh" && tag != "wh") || arches_.count(tag) > 0;
}
uint64_t Coverage::total_bins() const {
  uint64_t n = 0;
  for (const Coverpoint& cp : points_)
    n += static_cast<uint64_t>(std::count_if(cp.bins.begin(), cp.bins.end(), [&](const CoverBin& b) { return counts(b); }));
  return n;
}
uint64_t Coverage::hit_bins() const {
  uint64_t n = 0;
  for (const Coverpoint& cp : points_)
    n += static_cast<uint64_t>(
        std::count_if(cp.bins.begin(), cp.bins.end(), [&](const CoverBin& b) { return counts(b) && b.hits > 0; }));
  return n;
}

void Coverage::merge(const Coverage& other) {
  for (const Coverpoint& ocp : other.points_) {
    Coverpoint* cp = nullptr;
    for (Coverpoint& p : points_)
      if (p.name == ocp.name) cp = &p;
    if (!cp) {
      points_.push_back(ocp);
      continue;
    }
    for (const CoverBin& ob : ocp.bins) {
      if (CoverBin* b = cp->find(ob.name)) b->hits += ob.hits;
      else cp->bins.push_back(ob);
    }
  }
  for (const auto& [k, v] : other.illegal_) illegal_[k] += v;
  samples_ += other.samples_;
  arches_.insert(other.arches_.begin(), other.arches_.end());
}

namespace {
std::string percent(uint64_t hit, uint64_t total) {
  return total ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(hit) / static_cast<double>(total)) : "n/a";
}
}  // namespace

std::string Coverage::text_report(size_t max_missed) const {
  std::ostringstream o;
  o << fmt::format("{:<20} {:>11} {:>7}\n", "coverpoint", "hit/total", "percent");
  for (const Coverpoint& cp : points_) {
    uint64_t hit = 0, total = 0;
    std::vector<std::string> missed;
    for (const CoverBin& b : cp.bins) {
      if (!counts(b)) continue;
      ++total;
      if (b.hits) ++hit;
      else missed.push_back(b.name);
    }
    o << fmt::format("{:<20} {:>11} {:>7}\n", cp.name, fmt::format("{}/{}", hit, total), percent(hit, total));
    if (missed.empty()) continue;
    const size_t shown = max_missed ? std::min(max_missed, missed.size()) : missed.size();
    o << "    missed:";
    for (size_t i = 0; i < shown; ++i) o << ' ' << missed[i];
    if (shown < missed.size()) o << fmt::format(" ... (+{} more)", missed.size() - shown);
    o << '\n';
  }
  o << fmt::format("{:<20} {:>11} {:>7}   ({} samples)\n", "TOTAL", fmt::format("{}/{}", hit_bins(), total_bins()),
                   percent(hit_bins(), total_bins()), samples_);
  for (const auto& [k, v] : illegal_) o << fmt::format("ILLEGAL {} hit {} times\n", k, v);
  for (const char* tag : {"bh", "wh"})
    if (!arches_.empty() && !arches_.count(tag))
      o << fmt::format("(the {} bins are not counted: these runs are all on {})\n",
                       std::string_view(tag) == "bh" ? "Blackhole" : "Wormhole",
                       std::string_view(tag) == "bh" ? "Wormhole" : "Blackhole");
  return o.str();
}

nlohmann::json Coverage::to_json() const {
  nlohmann::json j;
  nlohmann::json& cps = j["coverpoints"] = nlohmann::json::object();
  for (const Coverpoint& cp : points_) {
    nlohmann::json c;
    c["description"] = cp.description;
    c["bins"] = nlohmann::json::object();
    for (const CoverBin& b : cp.bins) c["bins"][b.name] = b.hits;
    c["excluded"] = nlohmann::json::object();
    for (const auto& [bin, why] : cp.excluded) c["excluded"][bin] = why;
    if (cp.open) c["open"] = true;
    cps[cp.name] = std::move(c);
  }
  j["total"] = total_bins();
  j["hit"] = hit_bins();
  j["samples"] = samples_;
  j["architectures"] = arches_;
  j["illegal"] = nlohmann::json::object();
  for (const auto& [k, v] : illegal_) j["illegal"][k] = v;
  return j;
}

namespace {

// A hit, illegal or sample count: a non-negative integer. Anything else is refused here rather than
// left to nlohmann::json's type_error or a negative number's wrap to 2^64 - n.
uint64_t count_from_json(const nlohmann::json& v, const std::string& where) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
  throw Error(ErrorKind::BadInput, fmt::format("coverage JSON: {} is not a count (a non-negative integer): {}", where,
                                               v.dump()));
}

std::string text_from_json(const nlohmann::json& c, const char* key, const std::string& where) {
  if (!c.contains(key)) return {};
  if (!c[key].is_string())
    throw Error(ErrorKind::BadInput, fmt::format("coverage JSON: {}/{} is not a string", where, key));
  return c[key].get<std::string>();
}

}  // namespace

Coverage Coverage::from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("coverpoints") || !j["coverpoints"].is_object())
    throw Error(ErrorKind::BadInput, "coverage JSON: no \"coverpoints\" object");
  Coverage cov;
  for (const auto& [name, c] : j["coverpoints"].items()) {
    if (!c.is_object() || !c.contains("bins") || !c["bins"].is_object())
      throw Error(ErrorKind::BadInput, fmt::format("coverage JSON: coverpoint '{}' has no \"bins\" object", name));
    Coverpoint* cp = nullptr;
    for (Coverpoint& p : cov.points_)
      if (p.name == name) cp = &p;
    if (!cp) {  // a coverpoint of another build: keep what the file says of it
      cp = &cov.declare(name, text_from_json(c, "description", name));
      if (c.contains("open") && !c["open"].is_boolean())
        throw Error(ErrorKind::BadInput, fmt::format("coverage JSON: {}/open is not true or false", name));
      cp->open = c.value("open", false);
      if (c.contains("excluded") && c["excluded"].is_object())
        for (const auto& [bin, why] : c["excluded"].items())
          cp->excluded.emplace_back(bin, why.is_string() ? why.get<std::string>() : std::string());
    }
    for (const auto& [bin, hits] : c["bins"].items()) {
      const uint64_t n = count_from_json(hits, fmt::format("{}/{}", name, bin));
      if (CoverBin* b = cp->find(bin)) b->hits += n;
      else cp->bins.push_back(CoverBin{bin, n});
    }
  }
  if (j.contains("illegal")) {
    if (!j["illegal"].is_object()) throw Error(ErrorKind::BadInput, "coverage JSON: \"illegal\" is not an object");
    for (const auto& [k, v] : j["illegal"].items()) cov.illegal_[k] += count_from_json(v, "illegal/" + k);
  }
  if (j.contains("samples")) cov.samples_ = count_from_json(j["samples"], "samples");
  if (j.contains("architectures") && j["architectures"].is_array())
    for (const auto& a : j["architectures"])
      if (a.is_string()) cov.arches_.insert(a.get<std::string>());
  return cov;
}

void Coverage::write_json(const std::string& path) const {
  std::ofstream f(path);
  if (!f) throw Error(ErrorKind::BadInput, fmt::format("coverage: cannot write '{}'", path));
  f << to_json().dump(1) << '\n';
  if (!f) throw Error(ErrorKind::BadInput, fmt::format("coverage: writing '{}' failed", path));
}

Coverage Coverage::read_json(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw Error(ErrorKind::BadInput, fmt::format("coverage: cannot read '{}'", path));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorKind::BadInput, fmt::format("coverage: '{}' is not JSON: {}", path, e.what()));
  }
  return from_json(j);
}

}  // namespace tmu::tb

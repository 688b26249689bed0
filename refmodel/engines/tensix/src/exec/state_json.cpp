#include "tmu/tensix/state_json.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/tensix/state_fields.h"

namespace tmu::tensix {

namespace {

const std::vector<std::string> kParts = {"rwcs", "gprs", "config", "threadconfig", "banks", "srca", "srcb", "dst", "dst32"};

nlohmann::json fields_json(const TensixState& s, FieldScope scope, unsigned thread, unsigned index) {
  nlohmann::json j = nlohmann::json::object();
  for (const StateField& f : state_fields(scope)) j[f.name] = f.get(s, thread, index);
  return j;
}

nlohmann::json src_json(const std::array<SrcBank, kSrcBanks>& banks) {
  nlohmann::json out = nlohmann::json::array();
  for (const SrcBank& bank : banks) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : bank.Rows) {
      nlohmann::json r = nlohmann::json::array();
      for (uint32_t d : row) r.push_back(fmt::format("0x{:05x}", d));
      rows.push_back(std::move(r));
    }
    out.push_back({{"rows", std::move(rows)}});
  }
  return out;
}

}  // namespace

std::optional<L1Region> parse_l1_part(const std::string& part) {
  if (part.rfind("l1:", 0) != 0) return std::nullopt;
  const auto colon = part.find(':', 3);
  if (colon == std::string::npos) return std::nullopt;
  auto number = [](const std::string& text) -> std::optional<uint64_t> {
    uint64_t v = 0;
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char* first = text.data() + (hex ? 2 : 0);
    const char* last = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(first, last, v, hex ? 16 : 10);
    if (ec != std::errc() || ptr != last || first == last) return std::nullopt;
    return v;
  };
  const auto addr = number(part.substr(3, colon - 3)), bytes = number(part.substr(colon + 1));
  if (!addr || !bytes || *bytes == 0) return std::nullopt;
  return L1Region{*addr, *bytes};
}

bool is_state_part(const std::string& part) {
  return std::find(kParts.begin(), kParts.end(), part) != kParts.end() || parse_l1_part(part).has_value();
}

nlohmann::json state_to_json(const TensixState& s, const std::vector<std::string>& parts) {
  auto want = [&](const char* p) { return parts.empty() || std::find(parts.begin(), parts.end(), p) != parts.end(); };
  nlohmann::json j;
  j["arch"] = arch_name(s.arch);
  if (want("rwcs")) {
    for (unsigned t = 0; t < kNumThreads; ++t) j["rwcs"].push_back(fields_json(s, FieldScope::Rwc, t, 0));
  }
  if (want("gprs")) {
    for (unsigned t = 0; t < kNumThreads; ++t) {
      nlohmann::json g = nlohmann::json::array();
      for (uint32_t v : s.GPRs[t]) g.push_back(fmt::format("0x{:08x}", v));
      j["gprs"].push_back(std::move(g));
    }
  }
  if (want("config")) {
    for (unsigned c = 0; c < kNumConfigStates; ++c) j["config"].push_back(fields_json(s, FieldScope::Config, 0, c));
  }
  if (want("threadconfig")) {
    for (unsigned t = 0; t < kNumThreads; ++t) {
      nlohmann::json tc = fields_json(s, FieldScope::ThreadConfig, t, 0);
      for (unsigned slot = 0; slot < kNumAddrMods; ++slot)
        tc["ADDR_MOD"].push_back(fields_json(s, FieldScope::AddrMod, t, slot));
      j["threadconfig"].push_back(std::move(tc));
    }
  }
  if (want("banks")) {
    nlohmann::json b = fields_json(s, FieldScope::Global, 0, 0);
    for (unsigned i = 0; i < kSrcBanks; ++i) {
      b["SrcA"].push_back({{"AllowedClient", src_client_name(s.SrcA[i].AllowedClient)},
                           {"Format", data_format_name(s.SrcA[i].Format)}});
      b["SrcB"].push_back({{"AllowedClient", src_client_name(s.SrcB[i].AllowedClient)},
                           {"Format", data_format_name(s.SrcB[i].Format)}});
    }
    b["Unpackers"] = {s.Unpackers[0].SrcBank, s.Unpackers[1].SrcBank};
    j["banks"] = std::move(b);
  }
  if (want("srca")) j["srca"] = src_json(s.SrcA);
  if (want("srcb")) j["srcb"] = src_json(s.SrcB);
  if (want("dst")) {
    nlohmann::json rows = nlohmann::json::object();
    for (unsigned r = 0; r < kDstRows; ++r) {
      const auto& bits = s.Dst.DstBits[r];
      const bool all_zero = std::all_of(bits.begin(), bits.end(), [](uint16_t v) { return v == 0; });
      if (!s.Dst.RowValid[r] && all_zero) continue;
      nlohmann::json vals = nlohmann::json::array();
      for (uint16_t v : bits) vals.push_back(fmt::format("0x{:04x}", v));
      rows[std::to_string(r)] = {{"valid", s.Dst.RowValid[r]}, {"bits", std::move(vals)}};
    }
    j["dst"] = std::move(rows);
  }
  if (!parts.empty() && want("dst32")) {
    // The 32-bit view, Dst32b[row] = DstBits[Adj32(row)] << 16 | DstBits[Adj32(row) + 8], with the
    // validity of the high-half row (only on request: it aliases the same storage as "dst").
    nlohmann::json rows = nlohmann::json::object();
    for (unsigned r = 0; r < kDst32Rows; ++r) {
      const bool valid = s.Dst.RowValid[DstRegs::hi_row(r)];
      nlohmann::json vals = nlohmann::json::array();
      bool all_zero = true;
      for (unsigned c = 0; c < kDstCols; ++c) {
        const uint32_t v = (uint32_t{s.Dst.DstBits[DstRegs::hi_row(r)][c]} << 16) | s.Dst.DstBits[DstRegs::lo_row(r)][c];
        all_zero = all_zero && v == 0;
        vals.push_back(fmt::format("0x{:08x}", v));
      }
      if (!valid && all_zero) continue;
      rows[std::to_string(r)] = {{"valid", valid}, {"bits", std::move(vals)}};
    }
    j["dst32"] = std::move(rows);
  }
  // L1 regions, only on request: 16 bytes a line, keyed by the line's address.
  for (const std::string& p : parts) {
    const auto region = parse_l1_part(p);
    if (!region) continue;
    const uint64_t size = l1_size(s.arch);
    if (region->addr > size || region->bytes > size - region->addr)
      throw Error(ErrorKind::BadInput, fmt::format("--show {}: bytes 0x{:x}..0x{:x} leave L1 (0x{:x} bytes on {})", p,
                                                   region->addr, region->addr + region->bytes - 1, size, arch_name(s.arch)));
    for (uint64_t a = region->addr; a < region->addr + region->bytes; a += 16) {
      nlohmann::json line = nlohmann::json::array();
      for (uint64_t b = a; b < std::min(a + 16, region->addr + region->bytes); ++b)
        line.push_back(fmt::format("0x{:02x}", s.L1.empty() ? 0 : s.L1[b]));
      j["l1"][fmt::format("0x{:06x}", a)] = std::move(line);
    }
  }
  return j;
}

}  // namespace tmu::tensix

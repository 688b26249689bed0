#include "conversion.h"

#include <algorithm>

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/hex_digits.h"

namespace tmu::tensix::vectors::detail {

namespace {

[[noreturn]] void bad(std::string reason) { throw Error(ErrorKind::BadInput, std::move(reason)); }

uint32_t parse_value(std::string_view t, uint32_t max, const char* what) {
  uint64_t v = 0;
  if (!parse_hex_digits(t, 8, v)) bad(fmt::format("{} '{}' is not a hex value (1 to 8 hex digits, no prefix)", what, t));
  if (v > max) bad(fmt::format("{} 0x{:x} is out of range 0..0x{:x}", what, v, max));
  return static_cast<uint32_t>(v);
}

uint32_t mask_of(unsigned bits) { return bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1; }

unsigned in_bits(const Conversion& c) { return pack_source_is_32bit(c.pack_cfg.from) ? 32 : 16; }
// The width of an unpacked datum: a 19-bit Src datum or a 32-bit Dst32b pattern.
unsigned out_bits(const Conversion& c) { return c.unpack_cfg.target == UnpackTarget::Dst ? 32 : 19; }

L1Format l1_format_or_bad(std::string_view s) {
  const auto f = parse_l1_format(s);
  if (!f) bad(fmt::format("unknown L1 format '{}'", s));
  return *f;
}

// "name=value" options after the formats.
std::pair<std::string_view, std::string_view> option(std::string_view w) {
  const size_t eq = w.find('=');
  if (eq == std::string_view::npos) return {w, {}};
  return {w.substr(0, eq), w.substr(eq + 1)};
}

void parse_pack(Conversion& c, std::span<const std::string_view> w, Arch arch) {
  if (w.size() < 3) bad("expected 'pack FROM TO [via=FORMAT] [threshold=HEX] [acc]'");
  PackConfig& p = c.pack_cfg;
  p.arch = arch;
  const auto from = parse_pack_source(w[1]);
  if (!from) bad(fmt::format("unknown Dst format '{}' (FP32 INT32 BF16 FP16 INT16)", w[1]));
  p.from = *from;
  p.to = l1_format_or_bad(w[2]);
  for (const std::string_view o : w.subspan(3)) {
    const auto [name, value] = option(o);
    if (name == "via" && !value.empty()) {
      const auto f = parse_data_format(value);
      if (!f) bad(fmt::format("unknown intermediate format '{}'", value));
      p.intermediate = *f;
    } else if (name == "threshold" && !value.empty()) {
      p.exp_threshold = static_cast<uint8_t>(parse_value(value, 0xFF, "exponent threshold"));
    } else if (o == "acc") {
      p.l1_acc = true;
    } else {
      bad(fmt::format("unknown pack option '{}' (via=FORMAT threshold=HEX acc)", o));
    }
  }
  (void)plan_pack(p);  // refuses what the model does not implement, naming the pair and why
}

void parse_unpack(Conversion& c, std::span<const std::string_view> w, Arch arch) {
  if (w.size() < 2) bad("expected 'unpack FROM [to=FORMAT] [into=dst] [e4m3]'");
  UnpackConfig& u = c.unpack_cfg;
  u.arch = arch;
  u.from = l1_format_or_bad(w[1]);
  for (const std::string_view o : w.subspan(2)) {
    const auto [name, value] = option(o);
    if (name == "to" && !value.empty()) u.to = l1_format_or_bad(value);
    else if (o == "into=dst") u.target = UnpackTarget::Dst;
    else if (o == "into=src") u.target = UnpackTarget::Src;
    else if (o == "e4m3") u.fp8_e4m3 = true;
    else bad(fmt::format("unknown unpack option '{}' (to=FORMAT into=src|dst e4m3)", o));
  }
  check_unpack(u);
}

template <typename T>
void append_values(std::vector<T>& to, std::span<const std::string_view> w, uint32_t max, const char* what) {
  if (w.empty()) bad(fmt::format("'{}' needs at least one value", what));
  // The most values any section can hold: the L1 bytes of 256 FP32 datums (a BFP region is smaller).
  if (to.size() + w.size() > kMaxConversionDatums * 4)
    bad(fmt::format("too many {} values in one vector", what));
  for (const std::string_view t : w) to.push_back(static_cast<T>(parse_value(t, max, what)));
}

size_t datum_count(const Conversion& c) { return c.pack ? c.in.size() : c.expect_datums.size(); }
L1Format l1_format(const Conversion& c) { return c.pack ? c.pack_cfg.to : c.unpack_cfg.from; }

void append_hex_line(std::string& out, const char* head, std::span<const uint32_t> values, unsigned digits) {
  for (size_t i = 0; i < values.size(); i += 16) {
    out += head;
    for (size_t k = i; k < std::min(values.size(), i + 16); ++k) out += fmt::format(" {:0{}x}", values[k], digits);
    out += '\n';
  }
}

std::vector<uint32_t> widen(std::span<const uint8_t> bytes) { return {bytes.begin(), bytes.end()}; }

// "L1 byte 17 (block 1 exponent)", "L1 byte 20 (datum 3)": what a byte of the L1 layout holds.
std::string l1_byte_text(L1Format f, size_t n, size_t byte) {
  const size_t exponents = l1_is_bfp(f) ? n / kBfpBlock : 0;
  if (byte < exponents) return fmt::format("L1 byte {} (block {} exponent)", byte, byte);
  const size_t first = (byte - exponents) * 8 / l1_datum_bits(f);
  const size_t per_byte = std::max<size_t>(1, 8 / l1_datum_bits(f));
  if (per_byte == 1) return fmt::format("L1 byte {} (datum {})", byte, first);
  return fmt::format("L1 byte {} (datums {}..{})", byte, first, first + per_byte - 1);
}

}  // namespace

bool is_conversion_head(std::string_view head) { return head == "pack" || head == "unpack"; }

Conversion parse_conversion_head(std::span<const std::string_view> w, Arch arch) {
  Conversion c;
  c.pack = w[0] == "pack";
  if (c.pack) parse_pack(c, w, arch);
  else parse_unpack(c, w, arch);
  return c;
}

void parse_conversion_record(Conversion& c, std::span<const std::string_view> w, int line) {
  const std::string_view head = w[0];
  // The stage a record belongs to: config 0, in 1, l1 2, expect 3; records never go back.
  const int stage = !c.expect_l1.empty() || !c.expect_datums.empty() ? 3 : !c.l1.empty() ? 2 : !c.in.empty() ? 1 : 0;
  if (head == "in") {
    if (!c.pack) bad("'in' belongs to a pack vector (an unpack vector reads its 'l1' bytes)");
    if (stage > 1) bad("'in' after 'l1' or 'expect': the input datums come first");
    append_values(c.in, w.subspan(1), mask_of(in_bits(c)), "Dst datum");
  } else if (head == "l1") {
    if (c.pack && !c.pack_cfg.l1_acc) bad("'l1' in a pack vector without 'acc': only L1 accumulation reads L1");
    if (stage > 2) bad("'l1' after 'expect': the L1 bytes come before the expected output");
    append_values(c.l1, w.subspan(1), 0xFF, "L1 byte");
  } else if (head == "expect") {
    if (w.size() < 2) bad("expected 'expect l1 BYTES' (pack) or 'expect datums DATUMS' (unpack)");
    if (c.pack && w[1] == "l1") append_values(c.expect_l1, w.subspan(2), 0xFF, "L1 byte");
    else if (!c.pack && w[1] == "datums") append_values(c.expect_datums, w.subspan(2), mask_of(out_bits(c)), "datum");
    else bad(fmt::format("'expect {}' in a{} vector: expected 'expect {}'", w[1], c.pack ? " pack" : "n unpack", c.pack ? "l1" : "datums"));
    c.expect_lines.resize(c.pack ? c.expect_l1.size() : c.expect_datums.size(), line);
  } else if (head == "pack" || head == "unpack") {
    bad(fmt::format("'{}' given twice, or after the vector's first record", head));
  } else {
    bad(fmt::format("unknown record '{}' in a conversion vector (pack unpack in l1 expect end)", head));
  }
}

void check_conversion_complete(const Conversion& c) {
  const size_t n = datum_count(c);
  const L1Format f = l1_format(c);
  const char* count_of = c.pack ? "'in' datums" : "expected datums";
  if (n == 0) bad(c.pack ? "a pack vector needs 'in' datums" : "an unpack vector needs 'expect datums'");
  if (n > kMaxConversionDatums) bad(fmt::format("{} {} (at most {})", n, count_of, kMaxConversionDatums));
  if (l1_is_bfp(f) && n % kBfpBlock != 0)
    bad(fmt::format("{} {}: {} holds whole blocks of {}", n, count_of, l1_format_name(f), kBfpBlock));
  const size_t bytes = l1_byte_count(f, n);
  if (c.pack) {
    if (c.pack_cfg.l1_acc && c.l1.size() != bytes)
      bad(fmt::format("L1 accumulation of {} datums needs {} 'l1' bytes, got {}", n, bytes, c.l1.size()));
    if (c.expect_l1.size() != bytes)
      bad(fmt::format("{} {} datums make {} L1 bytes; 'expect l1' has {}", n, l1_format_name(f), bytes, c.expect_l1.size()));
  } else if (c.l1.size() != bytes) {
    bad(fmt::format("{} {} datums take {} L1 bytes; 'l1' has {}", n, l1_format_name(f), bytes, c.l1.size()));
  }
}

void append_conversion(std::string& out, const Conversion& c) {
  if (c.pack) {
    const PackPlan plan = plan_pack(c.pack_cfg);
    out += fmt::format("pack {} {} via={}", pack_source_name(c.pack_cfg.from), l1_format_name(c.pack_cfg.to),
                       data_format_name(plan.intermediate));
    if (c.pack_cfg.exp_threshold) out += fmt::format(" threshold={:02x}", *c.pack_cfg.exp_threshold);
    if (c.pack_cfg.l1_acc) out += " acc";
    out += fmt::format("  # mode {:#x}\n", plan.mode);
    append_hex_line(out, "in", c.in, in_bits(c) / 4);
    append_hex_line(out, "l1", widen(c.l1), 2);
    append_hex_line(out, "expect l1", widen(c.expect_l1), 2);
  } else {
    const UnpackConfig& u = c.unpack_cfg;
    out += fmt::format("unpack {}", l1_format_name(u.from));
    if (u.to) out += fmt::format(" to={}", l1_format_name(*u.to));
    if (u.target == UnpackTarget::Dst) out += " into=dst";
    if (u.fp8_e4m3) out += " e4m3";
    out += '\n';
    append_hex_line(out, "l1", widen(c.l1), 2);
    append_hex_line(out, "expect datums", c.expect_datums, (out_bits(c) + 3) / 4);
  }
}

void compute_conversion(Conversion& c, Arch arch) {
  if (c.pack) {
    c.pack_cfg.arch = arch;
    c.expect_l1 = pack_to_l1(plan_pack(c.pack_cfg), c.in, c.l1);
  } else {
    c.unpack_cfg.arch = arch;
    c.expect_datums = unpack_from_l1(c.unpack_cfg, c.l1, c.expect_datums.size());
  }
}

bool replay_conversion(const Vector& v, Arch arch, const ReplayOptions& options, std::vector<Difference>& out) {
  const Conversion& c = *v.conversion;
  const size_t n = datum_count(c);
  unsigned differences = 0;
  const auto differ = [&](size_t index, std::string text) {
    if (differences++ >= options.max_differences_per_vector) return;
    const int line = index < c.expect_lines.size() ? c.expect_lines[index] : v.line;
    out.push_back(Difference{v.name, line, std::move(text)});
  };
  if (c.pack) {
    PackConfig cfg = c.pack_cfg;
    cfg.arch = arch;
    const std::vector<uint8_t> got = pack_to_l1(plan_pack(cfg), c.in, c.l1);
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != c.expect_l1[i])
        differ(i, fmt::format("{}: expected {:02x}, got {:02x}", l1_byte_text(cfg.to, n, i), c.expect_l1[i], got[i]));
  } else {
    UnpackConfig cfg = c.unpack_cfg;
    cfg.arch = arch;
    const std::vector<uint32_t> got = unpack_from_l1(cfg, c.l1, n);
    const unsigned digits = (out_bits(c) + 3) / 4;
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != c.expect_datums[i])
        differ(i, fmt::format("datum {}: expected {:0{}x}, got {:0{}x}", i, c.expect_datums[i], digits, got[i], digits));
  }
  return differences == 0;
}

uint64_t conversion_cases(const Conversion& c) { return datum_count(c); }

}  // namespace tmu::tensix::vectors::detail

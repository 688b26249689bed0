// Replaying vectors against the reference model: build the initial state, run the words, and
// compare exactly the written locations with the expected ones (docs/vector-format.md, "Checking").
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "conversion.h"
#include "text.h"
#include "tmu/tensix/decode.h"
#include "tmu/error.h"
#include "tmu/rng.h"

namespace tmu::tensix::vectors {

namespace detail {

std::string location_text(const Record& r, View dst_view) {
  const auto& names = field_names(r.space);
  switch (r.space) {
    case Space::Config: return fmt::format("Config[{}].{}", r.a, names[r.field]);
    case Space::ThreadConfig: return fmt::format("ThreadConfig[{}].{}", r.a, names[r.field]);
    case Space::AddrMod: return fmt::format("ADDR_MOD slot {} of thread {}: {}", r.b, r.a, names[r.field]);
    case Space::Rwc: return fmt::format("RWC of thread {}: {}", r.a, names[r.field]);
    case Space::Global: return std::string(names[r.field]);
    case Space::Bank: return fmt::format("{} bank {} {}", r.a ? "SrcB" : "SrcA", r.b, names[r.field]);
    case Space::Unpacker: return fmt::format("unpacker {} {}", r.a, names[r.field]);
    case Space::Gpr: return fmt::format("GPR {} of thread {}", r.b, r.a);
    case Space::SrcA: return fmt::format("SrcA bank {} row {}", r.a, r.b);
    case Space::SrcB: return fmt::format("SrcB bank {} row {}", r.a, r.b);
    case Space::Dst:
    case Space::DstValid:
      if (is_dst32_view(dst_view))
        return fmt::format("Dst row {} (Dst32b row {}, {} half)", r.a, dst32_row_of(r.a),
                           is_low_half_row(r.a) ? "low" : "high");
      return fmt::format("Dst row {}", r.a);
    case Space::L1: return fmt::format("L1 bytes 0x{:x}..0x{:x}", l1_line_address(r), l1_line_address(r) + 15);
    case Space::Adc:
      return fmt::format("ADC of thread {}, {} channel {}: {}", r.a, adc_unit_name(r.b / 2), r.b % 2, names[r.field]);
    case Space::Packer: return fmt::format("packer {}", names[r.field]);
    case Space::SrcRow: return fmt::format("unpacker {} SrcRow of thread {}", r.a, r.b);
  }
  return "?";
}

Record field_location(Space space, uint16_t a, uint16_t b, std::string_view name) {
  Record r;
  r.space = space;
  r.a = a;
  r.b = b;
  r.field = static_cast<uint16_t>(find_field(space, name));
  return r;
}

Record src_row_location(uint16_t unpacker, uint16_t thread, uint32_t value) {
  Record r;
  r.space = Space::SrcRow;
  r.a = unpacker;
  r.b = thread;
  r.value = value;
  return r;
}

// Every location a WriteSet covers for `thread`, as value-less records.
std::vector<Record> written_locations(const WriteSet& w, unsigned thread) {
  std::vector<Record> out;
  for (uint16_t row : w.dst_rows) {
    Record r;
    r.space = Space::Dst;
    r.a = row;
    out.push_back(r);
  }
  for (const auto& [space, rows] : {std::pair{Space::SrcA, &w.srca_rows}, std::pair{Space::SrcB, &w.srcb_rows}}) {
    for (const WriteSet::SrcRow& sr : *rows) {
      Record r;
      r.space = space;
      r.a = sr.bank;
      r.b = sr.row;
      out.push_back(r);
    }
  }
  for (uint8_t g : w.gprs) {
    Record r;
    r.space = Space::Gpr;
    r.a = static_cast<uint16_t>(thread);
    r.b = g;
    out.push_back(r);
  }
  const auto t = static_cast<uint16_t>(thread);
  if (w.rwcs)
    for (std::string_view name : field_names(Space::Rwc)) out.push_back(field_location(Space::Rwc, t, 0, name));
  if (w.banks) {
    out.push_back(field_location(Space::Global, 0, 0, "SrcABank"));
    out.push_back(field_location(Space::Global, 0, 0, "SrcBBank"));
    for (uint16_t ab = 0; ab < 2; ++ab)
      for (uint16_t bank = 0; bank < kSrcBanks; ++bank)
        out.push_back(field_location(Space::Bank, ab, bank, "AllowedClient"));
    for (uint16_t u = 0; u < 2; ++u) out.push_back(field_location(Space::Unpacker, u, 0, "SrcBank"));
  }
  if (w.matrix_unit) out.push_back(field_location(Space::Global, 0, 0, "LastSrcARow"));
  // Version 3: UNPACR's and PACR's writes.
  for (uint32_t line : w.l1_lines) out.push_back(l1_line_location(line));
  for (uint8_t set : w.adc_sets)  // both channels' eight counters
    for (uint16_t ch = 0; ch < 2; ++ch)
      for (std::string_view name : field_names(Space::Adc))
        out.push_back(field_location(Space::Adc, set / 3, static_cast<uint16_t>(set % 3 * 2 + ch), name));
  if (w.unpackers) {
    for (uint16_t ab = 0; ab < 2; ++ab)
      for (uint16_t bank = 0; bank < kSrcBanks; ++bank) out.push_back(field_location(Space::Bank, ab, bank, "Format"));
    for (uint16_t u = 0; u < 2; ++u)
      for (uint16_t th = 0; th < kNumThreads; ++th) out.push_back(src_row_location(u, th));
  }
  if (w.packer)
    for (std::string_view name : field_names(Space::Packer)) out.push_back(field_location(Space::Packer, 0, 0, name));
  return out;
}

void merge_writes(WriteSet& into, const WriteSet& w) {
  for (uint16_t r : w.dst_rows) into.note_dst_row(r);
  for (const auto& r : w.srca_rows) into.note_srca_row(r.bank, r.row);
  for (const auto& r : w.srcb_rows) into.note_srcb_row(r.bank, r.row);
  for (uint8_t g : w.gprs) into.note_gpr(g);
  into.rwcs = into.rwcs || w.rwcs;
  into.banks = into.banks || w.banks;
  into.matrix_unit = into.matrix_unit || w.matrix_unit;
  for (uint32_t line : w.l1_lines) into.note_l1_bytes(line, 16);
  for (uint8_t set : w.adc_sets) into.note_adc_set(set / 3, set % 3);
  into.unpackers = into.unpackers || w.unpackers;
  into.packer = into.packer || w.packer;
}

const char* adc_unit_name(unsigned unit) { return unit == 0 ? "unpacker0" : unit == 1 ? "unpacker1" : "packer"; }

}  // namespace detail

namespace {

using namespace detail;

// Every location a vector can name gets random contents (valid format codes only, so that a
// poisoned bank tag is still a format). Nothing unlisted may change the outcome.
void poison_state(TensixState& s, uint64_t seed, bool with_l1) {
  Rng rng(seed);
  for (auto* banks : {&s.SrcA, &s.SrcB}) {
    for (SrcBank& b : *banks) {
      for (auto& row : b.Rows)
        for (uint32_t& d : row) d = rng.bits(19);
      b.AllowedClient = rng.chance(1, 2) ? SrcClient::MatrixUnit : SrcClient::Unpackers;
      static constexpr uint8_t kCodes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 14, 15};
      b.Format = static_cast<DataFormat>(kCodes[rng.below(sizeof kCodes)]);
    }
  }
  for (auto& row : s.Dst.DstBits)
    for (uint16_t& d : row) d = static_cast<uint16_t>(rng.bits(16));
  for (bool& valid : s.Dst.RowValid) valid = rng.chance(1, 2);
  for (auto& gprs : s.GPRs)
    for (uint32_t& g : gprs) g = static_cast<uint32_t>(rng.next());
  for (auto& u : s.Unpackers) u.SrcBank = static_cast<uint8_t>(rng.bits(1));
  auto poison_space = [&](Space space, unsigned count_a, unsigned count_b) {
    const auto& names = field_names(space);
    for (unsigned a = 0; a < count_a; ++a)
      for (unsigned b = 0; b < count_b; ++b)
        for (unsigned f = 0; f < names.size(); ++f) {
          Record r;
          r.space = space;
          r.a = static_cast<uint16_t>(a);
          r.b = static_cast<uint16_t>(b);
          r.field = static_cast<uint16_t>(f);
          r.value = rng.bits(field_width(space, f));
          write_location(s, r);
        }
  };
  poison_space(Space::Config, kNumConfigStates, 1);
  poison_space(Space::ThreadConfig, kNumThreads, 1);
  poison_space(Space::AddrMod, kNumThreads, kNumAddrMods);
  poison_space(Space::Rwc, kNumThreads, 1);
  poison_space(Space::Global, 1, 1);
  // Version 3 locations: the ADCs, the packer's stream state, the SrcRow counters and L1.
  poison_space(Space::Adc, kNumThreads, 6);
  poison_space(Space::Packer, 1, 1);
  for (auto& u : s.Unpackers)
    for (uint8_t& row : u.SrcRow) row = static_cast<uint8_t>(rng.bits(6));
  if (!with_l1) return;  // L1 is poisoned only for the instructions that read it: 1.5 MiB per vector
  s.L1.resize(l1_size(s.arch));
  for (size_t i = 0; i < s.L1.size(); i += 8) {
    const uint64_t v = rng.next();
    for (size_t k = 0; k < 8 && i + k < s.L1.size(); ++k) s.L1[i + k] = static_cast<uint8_t>(v >> (8 * k));
  }
}

std::string hex(uint32_t v, unsigned digits) { return fmt::format("{:0{}x}", v, digits); }

std::string with_value(const std::string& bits, const std::string& value) {
  return value.empty() ? bits : bits + " (" + value + ")";
}

// Collects the differences of one vector, up to the cap.
class Differ {
 public:
  Differ(const Vector& v, const ReplayOptions& o, std::vector<Difference>& out) : v_(v), opts_(o), out_(out) {}

  void add(int line, std::string text) {
    ++count_;
    if (count_ <= opts_.max_differences_per_vector) out_.push_back({v_.name, line, std::move(text)});
  }
  void finish() {
    if (count_ > opts_.max_differences_per_vector)
      out_.push_back({v_.name, v_.line, fmt::format("... and {} more differences", count_ - opts_.max_differences_per_vector)});
  }
  bool any() const { return count_ != 0; }

 private:
  const Vector& v_;
  const ReplayOptions& opts_;
  std::vector<Difference>& out_;
  unsigned count_ = 0;
};

// Records by a key, sorted, searched by halves: built once per vector without a node per record
// (the hash maps this replaced were a large part of replaying a vector).
template <typename Key>
class RecordIndex {
 public:
  void add(Key k, const Record* r) { items_.emplace_back(k, r); }
  void sort() {
    std::stable_sort(items_.begin(), items_.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  }
  const Record* find(Key k) const {
    const auto it = std::lower_bound(items_.begin(), items_.end(), k, [](const auto& x, Key y) { return x.first < y; });
    return it != items_.end() && it->first == k ? it->second : nullptr;
  }
  bool empty() const { return items_.empty(); }

 private:
  std::vector<std::pair<Key, const Record*>> items_;
};
using RowIndex = RecordIndex<uint32_t>;

// The Dst32b word at column c of the pair containing `row`, if both halves are known.
std::optional<uint32_t> dst32_word(uint32_t row, unsigned c, const RowIndex& rows) {
  const uint32_t hi = is_low_half_row(row) ? partner_row(row) : row;
  const Record* h = rows.find(hi);
  const Record* l = rows.find(partner_row(hi));
  if (!h || !l) return std::nullopt;
  return (h->row[c] << 16) | l->row[c];
}

void compare_dst_row(const Vector& v, const Record& want, const Record& got, const TensixState& after,
                     const RowIndex& expected_rows, Differ& d) {
  // The location's name and the actual Dst32b pair are only built for a difference (most rows match).
  const auto where = [&] { return location_text(want, v.dst_view); };
  if (want.value != got.value)
    d.add(want.line, fmt::format("{}: validity: expected {}, got {}", where(), want.value, got.value));
  RowIndex actual_rows;
  Record partner;
  for (unsigned c = 0; c < kDstCols; ++c) {
    if (want.row[c] == got.row[c]) continue;
    if (is_dst32_view(v.dst_view) && actual_rows.empty()) {
      Record loc;
      loc.space = Space::Dst;
      loc.a = static_cast<uint16_t>(partner_row(want.a));
      partner = read_location(after, loc);
      actual_rows.add(got.a, &got);
      actual_rows.add(partner.a, &partner);
      actual_rows.sort();
    }
    std::string text = fmt::format("{} col {}: expected {}, got {}", where(), c,
                                   with_value(hex(want.row[c], 4), dst16_value_text(want.row[c], v.dst_view)),
                                   with_value(hex(got.row[c], 4), dst16_value_text(got.row[c], v.dst_view)));
    if (is_dst32_view(v.dst_view)) {
      const auto e = dst32_word(want.a, c, expected_rows), a = dst32_word(want.a, c, actual_rows);
      if (e && a)
        text += fmt::format("; Dst32b[{}][{}]: expected {}, got {}", dst32_row_of(want.a), c,
                            with_value(hex(*e, 8), dst32_value_text(*e, v.dst_view)),
                            with_value(hex(*a, 8), dst32_value_text(*a, v.dst_view)));
    }
    d.add(want.line, std::move(text));
  }
}

// The Dst rows a vector's validity-only records name, as they were before its instructions ran:
// their bits must not change, and they are all of the initial state the comparison reads, so a
// replay keeps these rows instead of a copy of the whole state.
class RowsBefore {
 public:
  RowsBefore(const Vector& v, const TensixState& before) {
    for (const Record& r : v.expect)
      if (r.space == Space::DstValid) rows_.emplace_back(r.a, before.Dst.DstBits[r.a]);
  }
  const std::array<uint16_t, kDstCols>& bits(uint16_t row) const {
    for (const auto& [r, bits] : rows_)
      if (r == row) return bits;
    throw std::logic_error(fmt::format("replay: Dst row {} was not kept", row));  // the constructor keeps every one
  }

 private:
  std::vector<std::pair<uint16_t, std::array<uint16_t, kDstCols>>> rows_;
};

void compare_record(const Vector& v, const Record& want, const RowsBefore& before, const TensixState& after,
                    const RowIndex& expected_rows, Differ& d) {
  const Record got = read_location(after, want);
  const auto where = [&] { return location_text(want, v.dst_view); };
  switch (want.space) {
    case Space::Dst: compare_dst_row(v, want, got, after, expected_rows, d); return;
    case Space::DstValid: {
      if (want.value != got.value)
        d.add(want.line, fmt::format("{}: validity: expected {}, got {}", where(), want.value, got.value));
      const auto& was_row = before.bits(want.a);
      for (unsigned c = 0; c < kDstCols; ++c) {
        const uint32_t was = was_row[c], is = after.Dst.DstBits[want.a][c];
        if (was != is)
          d.add(want.line, fmt::format("{} col {}: bits must stay {} (only the validity changes), got {}", where(), c,
                                       hex(was, 4), hex(is, 4)));
      }
      return;
    }
    case Space::SrcA:
    case Space::SrcB: {
      const View view = want.space == Space::SrcA ? v.srca_view : v.srcb_view;
      for (unsigned c = 0; c < kSrcCols; ++c) {
        if (want.row[c] == got.row[c]) continue;
        d.add(want.line, fmt::format("{} col {}: expected {}, got {}", where(), c,
                                     with_value(hex(want.row[c], 5), src_value_text(want.row[c], view)),
                                     with_value(hex(got.row[c], 5), src_value_text(got.row[c], view))));
      }
      return;
    }
    case Space::L1:
      for (unsigned i = 0; i < 16; ++i)
        if (want.row[i] != got.row[i])
          d.add(want.line, fmt::format("L1 byte 0x{:x}: expected {}, got {}", l1_line_address(want) + i, hex(want.row[i], 2),
                                       hex(got.row[i], 2)));
      return;
    default:
      if (want.value != got.value)
        d.add(want.line, fmt::format("{}: expected {:x}, got {:x}", where(), want.value, got.value));
      return;
  }
}

std::string actual_value_text(const Record& got, const Vector& v) {
  switch (got.space) {
    case Space::SrcA:
    case Space::SrcB:
    case Space::Dst:
    case Space::L1: {
      std::string s = got.space == Space::Dst ? fmt::format("valid {}, bits", got.value) : "bits";
      for (uint32_t x : got.row) s += " " + hex(x, got.space == Space::Dst ? 4 : got.space == Space::L1 ? 2 : 5);
      (void)v;
      return s;
    }
    default: return fmt::format("{:x}", got.value);
  }
}

}  // namespace

TensixState initial_state(const VectorFile& f, const Vector& v, const ReplayOptions& options) {
  TensixState s;
  s.arch = f.arch;
  if (options.poison) {
    const bool reads_l1 = std::any_of(v.words.begin(), v.words.end(), [&](uint32_t w) {
      const InsnSpec* spec = find_by_opcode(f.arch, static_cast<uint8_t>(w >> 24));
      return spec && (spec->unit == Unit::Unpacker || spec->unit == Unit::Packer);
    });
    poison_state(s, derive_seed(options.poison_seed, v.name), reads_l1);
  }
  for (const Record& r : v.init) write_location(s, r);
  return s;
}

namespace {

bool compare_with(const Vector& v, const RowsBefore& before, const TensixState& after, const WriteSet& writes,
                  const ReplayOptions& options, std::vector<Difference>& out) {
  Differ d(v, options, out);
  RecordIndex<uint64_t> expected;
  RowIndex expected_rows;
  for (const Record& r : v.expect) {
    expected.add(r.location_key(), &r);
    if (r.space == Space::Dst) expected_rows.add(r.a, &r);
  }
  expected.sort();
  expected_rows.sort();
  std::vector<uint64_t> written;
  for (const Record& loc : written_locations(writes, v.thread)) {
    written.push_back(loc.location_key());
    const Record* want = expected.find(loc.location_key());
    if (!want) {
      d.add(v.end_line ? v.end_line : v.line,
            fmt::format("{} was written ({}) but the vector expects no write there", location_text(loc, v.dst_view),
                        actual_value_text(read_location(after, loc), v)));
      continue;
    }
    compare_record(v, *want, before, after, expected_rows, d);
  }
  std::sort(written.begin(), written.end());
  for (const Record& r : v.expect)
    if (!std::binary_search(written.begin(), written.end(), r.location_key()))
      d.add(r.line, fmt::format("{}: expected a write, but the instructions wrote nothing there",
                                location_text(r, v.dst_view)));
  d.finish();
  return !d.any();
}

}  // namespace

bool compare_vector(const Vector& v, const TensixState& before, const TensixState& after, const WriteSet& writes,
                    const ReplayOptions& options, std::vector<Difference>& out) {
  return compare_with(v, RowsBefore(v, before), after, writes, options, out);
}

ReplayReport replay_file(const VectorFile& f, const std::string& file, const ReplayOptions& options) {
  ReplayReport report;
  for (const Vector& v : f.vectors) {
    if (v.conversion) {
      bool ok = false;
      try {
        ok = replay_conversion(v, f.arch, options, report.differences);
      } catch (const Error& e) {
        throw VectorError(file, v.line, fmt::format("vector '{}': the model cannot run it: {}", v.name, e.what()));
      }
      ++report.vectors;
      report.element_cases += element_cases(v);
      report.locations += 1;
      if (!ok) ++report.failed_vectors;
      continue;
    }
    TensixState state = initial_state(f, v, options);
    const RowsBefore before(v, state);
    WriteSet writes;
    for (size_t i = 0; i < v.words.size(); ++i) {
      const int line = i < v.word_lines.size() ? v.word_lines[i] : v.line;
      try {
        const ExecResult r = execute(state, decode(v.words[i], f.arch), v.thread);
        if (r.status == ExecResult::Status::Stalled)
          throw VectorError(file, line,
                            fmt::format("vector '{}': the instruction stalls ({}); its init must hand the bank to "
                                        "the Matrix Unit",
                                        v.name, r.stall_reason));
        merge_writes(writes, r.writes);
      } catch (const Error& e) {
        throw VectorError(file, line, fmt::format("vector '{}': the model cannot run it: {}", v.name, e.what()));
      }
    }
    ++report.vectors;
    report.element_cases += element_cases(v);
    report.locations += v.expect.size();
    if (!compare_with(v, before, state, writes, options, report.differences)) ++report.failed_vectors;
  }
  return report;
}

}  // namespace tmu::tensix::vectors

#include "builder.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "text.h"
#include "tmu/error.h"

namespace tmu::tensix::vectors::detail {

uint16_t field_id(Space s, std::string_view name) {
  const int f = find_field(s, name);
  if (f < 0) throw std::logic_error(fmt::format("vector generator: {} has no field {}", space_keyword(s), name));
  return static_cast<uint16_t>(f);
}

namespace {

struct Scratch {
  TensixState state;
  bool clean = true;
};
thread_local Scratch scratch;

TensixState& take_scratch() {
  if (!scratch.clean) scratch.state = TensixState{};
  scratch.clean = false;
  return scratch.state;
}

// Puts one location back to its reset value (zero, invalid, Unpackers, format code 0).
void reset_location(TensixState& s, Record loc) {
  loc.value = 0;
  loc.row = {};
  write_location(s, loc);
}

}  // namespace

Builder::Builder(Arch arch, unsigned thread) : s_(take_scratch()), thread_(thread) { s_.arch = arch; }

Builder::~Builder() {
  if (finished_) scratch.clean = true;
}

void Builder::set(Space space, uint16_t a, uint16_t b, std::string_view field, uint32_t value) {
  Record r;
  r.space = space;
  r.a = a;
  r.b = b;
  r.field = field_id(space, field);
  r.value = value;
  write_location(s_, r);
  add(r);
}

void Builder::set_cfg(std::string_view field, uint32_t v) {
  set(Space::Config, u16(s_.ThreadConfig[thread_].CFG_STATE_ID_StateID & 1), 0, field, v);
}

void Builder::set_gpr(unsigned index, uint32_t v) {
  s_.GPRs[thread_][index] = v;
  Record r;
  r.space = Space::Gpr;
  r.a = t();
  r.b = u16(index);
  add(r);
}

void Builder::set_src_row(bool srcb, unsigned bank, unsigned row, const std::array<uint32_t, 16>& values) {
  Record r;
  r.space = srcb ? Space::SrcB : Space::SrcA;
  r.a = u16(bank & 1);
  r.b = u16(row & (kSrcRows - 1));
  r.row = values;
  write_location(s_, r);
  add(r);
}

void Builder::set_dst_row(unsigned row, bool valid, const std::array<uint32_t, 16>& bits16) {
  Record r;
  r.space = Space::Dst;
  r.a = u16(row & (kDstRows - 1));
  r.value = valid;
  r.row = bits16;
  write_location(s_, r);
  add(r);
}

void Builder::set_dst32_row(unsigned row32, bool valid, const std::array<uint32_t, 16>& words) {
  std::array<uint32_t, 16> hi{}, lo{};
  for (unsigned c = 0; c < 16; ++c) {
    hi[c] = dst_layout::high_half(words[c]);
    lo[c] = dst_layout::low_half(words[c]);
  }
  set_dst_row(DstRegs::hi_row(row32), valid, hi);
  set_dst_row(DstRegs::lo_row(row32), valid, lo);
}

void Builder::set_record(const Record& r) {
  write_location(s_, r);
  add(r);
}

void Builder::set_dst_validity(unsigned row, bool valid) {
  Record r;
  r.space = Space::DstValid;
  r.a = u16(row & (kDstRows - 1));
  r.value = valid;
  write_location(s_, r);
  add(r);
}

void Builder::list(Space space, uint16_t a, uint16_t b, std::string_view field) {
  add(field_location(space, a, b, field));
}

void Builder::list_all_rwcs() {
  for (std::string_view name : field_names(Space::Rwc)) list(Space::Rwc, t(), 0, name);
}

void Builder::list_bank_state() {
  list(Space::Global, 0, 0, "SrcABank");
  list(Space::Global, 0, 0, "SrcBBank");
  for (uint16_t ab = 0; ab < 2; ++ab)
    for (uint16_t bank = 0; bank < kSrcBanks; ++bank) list(Space::Bank, ab, bank, "AllowedClient");
  for (uint16_t u = 0; u < 2; ++u) list(Space::Unpacker, u, 0, "SrcBank");
}

void Builder::insn(Op op, std::initializer_list<std::pair<Field, uint32_t>> fields) {
  words_.push_back(encode(arch(), op, std::vector<std::pair<Field, uint32_t>>(fields)));
}

namespace {

// Canonical order (by location key) and one record per location; a full Dst row wins over a
// validity-only record for the same row.
void sort_unique(std::vector<Record>& records) {
  std::stable_sort(records.begin(), records.end(), [](const Record& x, const Record& y) {
    if (x.location_key() != y.location_key()) return x.location_key() < y.location_key();
    return x.space == Space::Dst && y.space == Space::DstValid;
  });
  records.erase(std::unique(records.begin(), records.end(),
                            [](const Record& x, const Record& y) { return x.location_key() == y.location_key(); }),
                records.end());
}

}  // namespace

Vector Builder::finish(std::string name, std::string note, Views views, bool dst_bits_untouched) {
  Vector v;
  v.name = std::move(name);
  v.note = std::move(note);
  v.thread = thread_;
  v.srca_view = views.srca;
  v.srcb_view = views.srcb;
  v.dst_view = views.dst;
  sort_unique(locations_);
  v.init.reserve(locations_.size());
  for (const Record& loc : locations_) v.init.push_back(read_location(s_, loc));

  WriteSet writes;
  for (uint32_t w : words_) {
    const ExecResult r = execute(s_, decode(w, arch()), thread_);
    if (r.status == ExecResult::Status::Stalled)
      throw std::logic_error(fmt::format("vector generator: {} stalls: {}", v.name, r.stall_reason));
    merge_writes(writes, r.writes);
  }
  v.words = std::move(words_);

  std::vector<Record> written = written_locations(writes, thread_);
  v.expect.reserve(written.size());
  for (Record& loc : written) {
    if (loc.space == Space::Dst && dst_bits_untouched) loc.space = Space::DstValid;
    v.expect.push_back(read_location(s_, loc));
  }
  sort_unique(v.expect);
  for (const Record& loc : locations_) reset_location(s_, loc);
  for (const Record& loc : written) reset_location(s_, loc);
  finished_ = true;
  return v;
}

}  // namespace tmu::tensix::vectors::detail

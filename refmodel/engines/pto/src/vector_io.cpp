// PTO vector files: writing, reading and replaying them (docs/vector-format.md, "PTO records").
#include <istream>
#include <ostream>
#include <span>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/exact_number.h"
#include "tmu/hex_digits.h"
#include "tmu/program_error.h"
#include "tmu/pto/text.h"
#include "tmu/pto/vectors.h"
#include "tmu/vector_file.h"

namespace tmu::pto {

namespace {

// "TYPE ROWSxCOLS LAYOUT valid=VRxVC" then the Rows * Cols patterns in memory order.
std::string tile_text(const Tile& t, bool declaration) {
  std::string out;
  if (declaration)
    out = fmt::format(" {} {}x{} {} valid={}x{}", elem_name(t.type), t.rows, t.cols, layout_name(t.layout),
                      t.valid_rows, t.valid_cols);
  const unsigned digits = width_bytes(t.type) * 2;
  for (uint64_t b : t.bits) out += fmt::format(" {:0{}x}", b, digits);
  return out;
}

uint64_t pattern(std::string_view text, ElemType t, unsigned digits) {
  uint64_t v = 0;
  if (!parse_hex_digits(text, digits, v))
    throw Error(ErrorKind::BadInput,
                fmt::format("'{}' is not a {} pattern (at most {} hex digits, no 0x)", text, elem_name(t), digits));
  return v;
}

void fill_patterns(Tile& t, std::span<const std::string_view> w, size_t first) {
  if (w.size() - first != t.bits.size())
    throw Error(ErrorKind::BadInput,
                fmt::format("{} patterns for a {}x{} tile of {} elements", w.size() - first, t.rows, t.cols, t.bits.size()));
  const unsigned digits = width_bytes(t.type) * 2;
  for (size_t i = first; i < w.size(); ++i) t.bits[i - first] = pattern(w[i], t.type, digits);
}

// w[first..]: TYPE ROWSxCOLS LAYOUT valid=VRxVC P0 P1 ...
Tile read_tile(std::span<const std::string_view> w, size_t first) {
  if (w.size() < first + 4 || !w[first + 3].starts_with("valid="))
    throw Error(ErrorKind::BadInput, "a tile is TYPE ROWSxCOLS LAYOUT valid=VRxVC then its patterns");
  const auto type = elem_from_name(w[first]);
  if (!type) throw Error(ErrorKind::BadInput, fmt::format("unknown element type '{}'", w[first]));
  const auto [rows, cols] = shape_from_text(w[first + 1], "shape");
  const auto [vr, vc] = shape_from_text(w[first + 3].substr(6), "valid region");
  Tile t = make_tile(*type, rows, cols, layout_from_name(w[first + 2]), vr, vc);
  fill_patterns(t, w, first + 4);
  return t;
}

// The vector's dst after its operation under the profile; throws what execute() throws.
Tile executed(Profile p, const Vector& v) {
  Tile out = v.dst;
  std::vector<const Tile*> ptrs;
  for (const Tile& t : v.srcs) ptrs.push_back(&t);
  execute(p, v.op, out, ptrs, v.params);
  return out;
}

}  // namespace

Vector make_vector(std::string name, std::string comment, Profile p, Op op, const OpParams& params,
                   std::vector<Tile> srcs, Tile dst) {
  Vector v{std::move(name), std::move(comment), op, params, std::move(srcs), std::move(dst), {}, 0};
  v.expect = executed(p, v);
  return v;
}

void write_vector_file(std::ostream& out, const VectorFile& f) {
  out << vector_file_head("pto", {"tmu test vectors (format: docs/vector-format.md, \"PTO records\")"});
  out << "arch " << profile_name(f.profile) << "\n";
  for (const Vector& v : f.vectors) {
    out << "\n" << vector_record(v.name, v.comment);
    out << "op " << op_name(v.op) << params_text(v.op, v.params) << "\n";
    for (size_t i = 0; i < v.srcs.size(); ++i) out << "src " << i << tile_text(v.srcs[i], true) << "\n";
    out << "dst" << tile_text(v.dst, true) << "\n";
    out << "expect" << tile_text(v.expect, false) << "\n";
    out << "end\n";
  }
  out << vector_file_tail(f.vectors.size());
}

VectorFile read_vector_file(std::istream& in, const std::string& path) {
  VectorFile f;
  bool have_op = false, have_dst = false, have_expect = false;
  Vector cur;
  const auto fail = [](const std::string& why) { throw Error(ErrorKind::BadInput, why); };
  VectorRecordHandler h;
  const std::string arch = "arch " + profile_names("|");
  h.header = arch_header(arch.substr(5), [&](const std::string& name) {
    const auto p = profile_from_name(name);
    if (!p) fail(fmt::format("expected '{}' (the profile)", arch));
    f.profile = *p;
  });
  h.begin = [&](const VectorBlock& b) {
    cur = Vector{};
    cur.name = b.name;
    cur.line = b.line;
    have_op = have_dst = have_expect = false;
  };
  h.record_view = [&](const TextLineView& l) {
    const std::span<const std::string_view> w = l.words;
    const std::string_view rec = w[0];
    if (rec == "op") {
      if (have_op || w.size() < 2) fail("one 'op NAME [PARAMS]' per vector, first");
      const auto op = op_from_name(w[1]);
      if (!op) fail(unknown_operation(w[1]));
      cur.op = *op;
      ParamsGiven given;
      for (size_t i = 2; i < w.size(); ++i) param_from_text(cur.op, w[i], cur.params, given);
      require_params(cur.op, given);
      have_op = true;
    } else if (rec == "src") {
      if (!have_op || have_dst) fail("src records come after op and before dst");
      if (w.size() < 2 || w[1] != std::to_string(cur.srcs.size()))
        fail(fmt::format("expected 'src {} ...' (sources in order)", cur.srcs.size()));
      if (cur.srcs.size() == source_count(cur.op)) fail(fmt::format("{} reads {} source tiles", op_name(cur.op), source_count(cur.op)));
      cur.srcs.push_back(read_tile(w, 2));
    } else if (rec == "dst") {
      if (!have_op || have_dst) fail("one dst record per vector, after op and the sources");
      if (cur.srcs.size() != source_count(cur.op))
        fail(fmt::format("{} reads {} source tiles, {} given", op_name(cur.op), source_count(cur.op), cur.srcs.size()));
      cur.dst = read_tile(w, 1);
      have_dst = true;
    } else if (rec == "expect") {
      if (!have_dst || have_expect) fail("one expect record per vector, after dst");
      cur.expect = cur.dst;
      fill_patterns(cur.expect, w, 1);
      have_expect = true;
    } else {
      fail(fmt::format("unknown record '{}' in a vector (op src dst expect end)", rec));
    }
  };
  h.end = [&](const VectorBlock&) {
    if (!have_expect) fail(fmt::format("vector {} has no expect", cur.name));
    f.vectors.push_back(std::move(cur));
  };
  h.required_header = arch;
  read_vector_frame(in, path, "pto", h);
  return f;
}

ReplayCounts replay(const VectorFile& f, const std::string& path, std::vector<std::string>& diffs, unsigned max_diffs) {
  ReplayCounts counts;
  for (const Vector& v : f.vectors) {
    ++counts.vectors;
    Tile got;
    try {
      got = executed(f.profile, v);
    } catch (const Error& e) {
      ++counts.failed;
      diffs.push_back(fmt::format("{}:{}: vector {}: {}", path, v.line, v.name, e.what()));
      continue;
    }
    unsigned shown = 0;
    for (unsigned r = 0; r < got.rows; ++r)
      for (unsigned c = 0; c < got.cols; ++c) {
        ++counts.lanes;
        const uint64_t g = got.at(r, c), want = v.expect.at(r, c);
        if (g == want) continue;
        if (shown == 0) ++counts.failed;
        if (shown++ < max_diffs)
          diffs.push_back(fmt::format("{}:{}: vector {}: dst ({}, {}) is {} ({}), expected {} ({})", path, v.line, v.name,
                                      r, c, lane_to_text(got.type, g), fmt::format("{:#x}", g),
                                      lane_to_text(got.type, want), fmt::format("{:#x}", want)));
      }
  }
  return counts;
}

}  // namespace tmu::pto

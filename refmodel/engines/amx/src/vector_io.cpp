// AMX vector files: footprints, writing, reading and replay (docs/vector-format.md, "AMX records").
#include <charconv>
#include <istream>
#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "tmu/amx/program.h"
#include "tmu/amx/vectors.h"
#include "tmu/error.h"
#include "tmu/program_error.h"
#include "tmu/rng.h"
#include "tmu/vector_file.h"

namespace tmu::amx {

namespace {

uint8_t span_registers(unsigned offset) {
  const unsigned first = offset / kRowBytes;
  const unsigned last = (offset + kRowBytes - 1) / kRowBytes % kPoolRegs;
  return static_cast<uint8_t>((1u << first) | (1u << last));
}

Words to_words(const Row& r) {
  Words w{};
  for (unsigned k = 0; k < w.size(); ++k) w[k] = static_cast<uint32_t>(get_lane(r, 4, k));
  return w;
}

std::string row_text(const Row& r) {
  std::string s;
  for (uint32_t w : to_words(r)) s += fmt::format(" {:08x}", w);
  return s;
}

std::string lane_values(const Row& r, const std::string& view) {
  const LaneType t = parse_lane_type(view);
  std::string s;
  for (unsigned i = 0; i < kRowBytes / t.bytes; ++i)
    s += (i ? " " : "") + lane_to_text(t, get_lane(r, t.bytes, i));
  return s;
}

uint64_t hex(std::string_view text, unsigned max_digits, const char* what) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 16);
  if (text.empty() || text.size() > max_digits || ec != std::errc() || end != text.data() + text.size())
    throw Error(ErrorKind::BadInput, fmt::format("{} '{}' is not hexadecimal of at most {} digits", what, text, max_digits));
  return v;
}

unsigned index(std::string_view text, unsigned last, const char* what) {
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 10);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v > last)
    throw Error(ErrorKind::BadInput, fmt::format("{} '{}' is not a decimal index 0..{}", what, text, last));
  return v;
}

// "x|y|z INDEX W0 .. W15" from words[first].
std::pair<unsigned, Row> location(const std::vector<std::string>& w, size_t first, char& space) {
  if (w.size() != first + 2 + kRowBytes / 4)
    throw Error(ErrorKind::BadInput, fmt::format("a location is x|y|z INDEX and {} 32-bit words", kRowBytes / 4));
  const std::string& s = w[first];
  if (s != "x" && s != "y" && s != "z") throw Error(ErrorKind::BadInput, fmt::format("unknown location '{}' (x y z)", s));
  space = s[0];
  const unsigned idx = index(w[first + 1], space == 'z' ? kZRows - 1 : kPoolRegs - 1, space == 'z' ? "Z row" : "register");
  Row r{};
  for (unsigned k = 0; k < kRowBytes / 4; ++k) set_lane(r, 4, k, hex(w[first + 2 + k], 8, "word"));
  return {idx, r};
}

Row random_row(Rng& rng) {
  Row r{};
  for (auto& b : r) b = static_cast<uint8_t>(rng.next());
  return r;
}

}  // namespace

Footprint footprint(const MatfpOperand& op) {
  Footprint f;
  f.x_regs = span_registers(op.x_offset);
  f.y_regs = span_registers(op.y_offset);
  if (op.indexed) (op.index.of_y ? f.y_regs : f.x_regs) |= static_cast<uint8_t>(1u << op.index.reg);
  return f;
}

Vector make_vector(std::string name, std::string comment, const State& s, uint64_t operand, Version v) {
  Vector out;
  out.name = std::move(name);
  out.comment = std::move(comment);
  const MatfpOperand op = decode_matfp(operand);
  const LaneWidth w = lane_width(op.lane_width, v);
  out.view = z_bytes(w) == 8 ? "f64" : z_bytes(w) == 4 ? "f32" : w == LaneWidth::BF16 ? "bf16" : "f16";
  const Footprint fp = footprint(op);
  for (unsigned r = 0; r < kPoolRegs; ++r) {
    if ((fp.x_regs >> r) & 1) out.x.emplace_back(r, pool_register(s.x, r));
    if ((fp.y_regs >> r) & 1) out.y.emplace_back(r, pool_register(s.y, r));
  }
  out.operand = operand;
  State after = s;
  const WriteSet ws = execute_matfp(after, op, v);
  for (unsigned r = 0; r < kZRows; ++r) {
    if (!ws.has_row(r)) continue;
    out.z.emplace_back(r, s.z[r]);
    out.expect.emplace_back(r, after.z[r]);
  }
  return out;
}

void write_vector_file(std::ostream& out, const VectorFile& f) {
  out << vector_file_head("amx", {"tmu test vectors (format: docs/vector-format.md, \"AMX records\")"});
  out << "arch " << version_name(f.version) << "\n";
  for (const Vector& v : f.vectors) {
    out << "\n" << vector_record(v.name, v.comment);
    out << "view " << v.view << "\n";
    for (const auto& [r, row] : v.x) out << "init x " << r << row_text(row) << "\n";
    for (const auto& [r, row] : v.y) out << "init y " << r << row_text(row) << "\n";
    for (const auto& [r, row] : v.z) out << "init z " << r << row_text(row) << "\n";
    out << fmt::format("insn {:016x}  # {}\n", v.operand, disassemble_matfp(decode_matfp(v.operand), f.version));
    for (const auto& [r, row] : v.expect) out << "expect z " << r << row_text(row) << "\n";
    out << "end\n";
  }
  out << vector_file_tail(f.vectors.size());
}

VectorFile read_vector_file(std::istream& in, const std::string& path) {
  VectorFile f;
  bool have_insn = false;
  Vector cur;
  const auto fail = [](const std::string& why) { throw Error(ErrorKind::BadInput, why); };
  VectorRecordHandler h;
  h.header = arch_header("M1|M2|M3|M4", [&](const std::string& name) {
    f.version = parse_version(name);
  });
  h.begin = [&](const VectorBlock& b) {
    cur = Vector{};
    cur.name = b.name;
    cur.line = b.line;
    have_insn = false;
  };
  h.record = [&](const TextLine& l) {
    const std::vector<std::string>& w = l.words;
    const std::string& rec = w[0];
    if (rec == "view") {
      if (w.size() != 2 || !parse_lane_type(w[1]).typed) fail("view takes one of f16 bf16 f32 f64");
      cur.view = w[1];
    } else if (rec == "init") {
      if (have_insn) fail("init after insn");
      char space = 0;
      auto loc = location(w, 1, space);
      (space == 'x' ? cur.x : space == 'y' ? cur.y : cur.z).push_back(loc);
    } else if (rec == "insn") {
      if (have_insn || w.size() != 2) fail("one 'insn OPERAND' (16 hex digits) per vector");
      cur.operand = hex(w[1], 16, "operand");
      have_insn = true;
    } else if (rec == "expect") {
      if (!have_insn) fail("expect before insn");
      char space = 0;
      auto loc = location(w, 1, space);
      if (space != 'z') fail("matfp writes Z only: expect z ROW ...");
      cur.expect.push_back(loc);
    } else {
      fail(fmt::format("unknown record '{}' in a vector (view init insn expect end)", rec));
    }
  };
  h.end = [&](const VectorBlock&) {
    if (!have_insn) fail(fmt::format("vector {} has no insn", cur.name));
    f.vectors.push_back(std::move(cur));
  };
  h.required_header = "arch M1|M2|M3|M4";
  read_vector_frame(in, path, "amx", h);
  return f;
}

ReplayCounts replay(const VectorFile& f, const std::string& path, std::vector<std::string>& diffs,
                    const uint64_t* poison, unsigned max_diffs) {
  ReplayCounts counts;
  for (size_t n = 0; n < f.vectors.size(); ++n) {
    const Vector& v = f.vectors[n];
    ++counts.vectors;
    State s;
    if (poison) {
      Rng rng(derive_seed(*poison, fmt::format("{}#{}", path, n)));
      for (unsigned r = 0; r < kPoolRegs; ++r) {
        store_span(s.x, r * kRowBytes, random_row(rng));
        store_span(s.y, r * kRowBytes, random_row(rng));
      }
      for (Row& z : s.z) z = random_row(rng);
    }
    for (const auto& [r, row] : v.x) store_span(s.x, r * kRowBytes, row);
    for (const auto& [r, row] : v.y) store_span(s.y, r * kRowBytes, row);
    for (const auto& [r, row] : v.z) s.z[r] = row;
    WriteSet ws;
    try {
      ws = execute_matfp(s, v.operand, f.version);
    } catch (const Error& e) {
      throw ProgramError(path, static_cast<int>(v.line), fmt::format("vector {}: {}", v.name, e.what()));
    }
    unsigned shown = 0;
    bool failed = false;
    const auto diff = [&](const std::string& text) {
      failed = true;
      if (shown++ < max_diffs) diffs.push_back(fmt::format("{}:{}: vector {}: {}", path, v.line, v.name, text));
    };
    uint64_t listed = 0;
    for (const auto& [r, row] : v.expect) {
      listed |= uint64_t{1} << r;
      ++counts.rows;
      if (!ws.has_row(r)) {
        diff(fmt::format("Z row {} is listed but not written", r));
        continue;
      }
      if (s.z[r] != row)
        diff(fmt::format("Z row {}: expected [{}], got [{}] ({})", r, lane_values(row, v.view), lane_values(s.z[r], v.view),
                         v.view));
    }
    for (unsigned r = 0; r < kZRows; ++r)
      if (ws.has_row(r) && !((listed >> r) & 1)) diff(fmt::format("Z row {} is written but not listed", r));
    if (failed) ++counts.failed;
  }
  return counts;
}

}  // namespace tmu::amx

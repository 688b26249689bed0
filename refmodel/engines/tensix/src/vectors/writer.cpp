// Printing vector files (docs/vector-format.md). Everything goes through one memory buffer with
// fixed-width hex and shortest-exact decimal comments, so output is byte-identical on every host
// and fast enough for millions of element-cases per second.
#include <algorithm>
#include <charconv>
#include <unordered_map>

#include "conversion.h"
#include "text.h"
#include "tmu/vector_file.h"
#include "tmu/tensix/decode.h"
#include "tmu/tensix/formats.h"

namespace tmu::tensix::vectors {

namespace detail {

namespace {

void append_double(std::string& out, double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<size_t>(r.ptr - buf));
}

bool src_style_of_view(View view, SrcStyle* style) {
  switch (view) {
    case View::BF16: *style = SrcStyle::BF16; return true;
    case View::FP16: *style = SrcStyle::FP16; return true;
    case View::TF32: *style = SrcStyle::TF32; return true;
    case View::INT8: *style = SrcStyle::INT8; return true;
    default: return false;
  }
}

}  // namespace

void append_src_value(std::string& out, uint32_t datum, View view) {
  SrcStyle style;
  if (src_style_of_view(view, &style)) append_double(out, src_datum_value(datum, style));
}

void append_dst16_value(std::string& out, uint32_t bits16, View view) {
  SrcStyle style;
  if (src_style_of_view(view, &style)) append_double(out, dst16_value(static_cast<uint16_t>(bits16), style));
}

void append_dst32_value(std::string& out, uint32_t bits32, View view) {
  if (is_dst32_view(view)) append_double(out, dst32_value(bits32, view == View::INT32));
}

std::string src_value_text(uint32_t datum, View view) {
  std::string b;
  append_src_value(b, datum, view);
  return b;
}
std::string dst16_value_text(uint32_t bits16, View view) {
  std::string b;
  append_dst16_value(b, bits16, view);
  return b;
}
std::string dst32_value_text(uint32_t bits32, View view) {
  std::string b;
  append_dst32_value(b, bits32, view);
  return b;
}

}  // namespace detail

namespace {

using namespace detail;

constexpr char kHex[] = "0123456789abcdef";

void append_hex(std::string& out, uint32_t v, unsigned digits) {
  char buf[8];
  for (unsigned i = 0; i < digits; ++i) buf[digits - 1 - i] = kHex[(v >> (4 * i)) & 0xF];
  out.append(buf, digits);
}

void append_uint(std::string& out, uint64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<size_t>(r.ptr - buf));
}

void append(std::string& out, std::string_view s) { out.append(s.data(), s.size()); }

// "# a b c" or "# all a" for sixteen decoded values; `value` appends one.
template <typename AppendValue>
void append_row_comment(std::string& out, std::string_view prefix, const std::array<uint32_t, 16>& keys,
                        AppendValue value) {
  append(out, "  # ");
  append(out, prefix);
  bool all_same = true;
  for (unsigned c = 1; c < 16; ++c) all_same = all_same && keys[c] == keys[0];
  if (all_same) {
    append(out, "all ");
    value(0);
    return;
  }
  for (unsigned c = 0; c < 16; ++c) {
    if (c) out.push_back(' ');
    value(c);
  }
}

// Rows of one section by DstBits row, so a Dst32b comment can pair the high and low halves.
using RowIndex = std::unordered_map<uint32_t, const Record*>;

void append_dst_comment(std::string& out, const Record& r, View view, const RowIndex& rows) {
  if (view == View::Raw) {
    if (!r.value) append(out, "  # invalid");
    return;
  }
  const char* validity = r.value ? "" : "invalid: ";
  if (!is_dst32_view(view)) {
    append_row_comment(out, validity, r.row, [&](unsigned c) { append_dst16_value(out, r.row[c], view); });
    return;
  }
  const uint32_t row32 = dst32_row_of(r.a);
  std::string prefix = fmt::format("{}Dst32b row {}", validity, row32);
  if (is_low_half_row(r.a)) {
    append(out, "  # ");
    append(out, prefix);
    append(out, " low halves");
    return;
  }
  const auto lo = rows.find(partner_row(r.a));
  if (lo == rows.end()) {
    append(out, "  # ");
    append(out, prefix);
    append(out, " high halves");
    return;
  }
  std::array<uint32_t, 16> words;
  for (unsigned c = 0; c < 16; ++c) words[c] = (r.row[c] << 16) | lo->second->row[c];
  prefix += ": ";
  append_row_comment(out, prefix, words, [&](unsigned c) { append_dst32_value(out, words[c], view); });
}

void append_record(std::string& out, std::string_view section, const Record& r, const Vector& v,
                   const RowIndex& rows) {
  append(out, section);
  out.push_back(' ');
  append(out, space_keyword(r.space));
  out.push_back(' ');
  // "N " before a record's name; "NAME VALUE" for the records that set one field.
  const auto number = [&](uint32_t x) {
    append_uint(out, x);
    out.push_back(' ');
  };
  const auto field_value = [&] {
    append(out, field_names(r.space)[r.field]);
    out.push_back(' ');
    append_hex(out, r.value, hex_digits_for(field_width(r.space, r.field)));
  };
  switch (r.space) {
    case Space::Config:
    case Space::ThreadConfig:
    case Space::Rwc:
    case Space::Unpacker:
      number(r.a);
      field_value();
      break;
    case Space::Global:
    case Space::Packer:
      field_value();
      break;
    case Space::AddrMod:
      number(r.a);
      number(r.b);
      field_value();
      break;
    case Space::Bank:
      append(out, r.a ? "srcb " : "srca ");
      number(r.b);
      field_value();
      if (r.field == 0) append(out, r.value ? "  # MatrixUnit" : "  # Unpackers");
      else if (is_valid_data_format_code(r.value)) {
        append(out, "  # ");
        append(out, data_format_name(static_cast<DataFormat>(r.value)));
      }
      break;
    case Space::Gpr:
      number(r.a);
      number(r.b);
      append_hex(out, r.value, kWordHexDigits);
      break;
    case Space::SrcA:
    case Space::SrcB: {
      number(r.a);
      append_uint(out, r.b);
      for (uint32_t d : r.row) {
        out.push_back(' ');
        append_hex(out, d, kSrcHexDigits);
      }
      const View view = r.space == Space::SrcA ? v.srca_view : v.srcb_view;
      if (view != View::Raw)
        append_row_comment(out, "", r.row, [&](unsigned c) { append_src_value(out, r.row[c], view); });
      break;
    }
    case Space::Dst:
      number(r.a);
      append_uint(out, r.value);
      for (uint32_t d : r.row) {
        out.push_back(' ');
        append_hex(out, d, kDstHexDigits);
      }
      append_dst_comment(out, r, v.dst_view, rows);
      break;
    case Space::DstValid:
      number(r.a);
      append_uint(out, r.value);
      break;
    case Space::L1:
      append_uint(out, l1_line_address(r));
      for (uint32_t b : r.row) {
        out.push_back(' ');
        append_hex(out, b, 2);
      }
      break;
    case Space::Adc:
      number(r.a);
      append(out, adc_unit_name(r.b / 2));
      out.push_back(' ');
      number(r.b % 2u);
      field_value();
      break;
    case Space::SrcRow:
      number(r.a);
      number(r.b);
      append_hex(out, r.value, 2);
      break;
  }
  out.push_back('\n');
}

RowIndex index_dst_rows(const std::vector<Record>& records, View view) {
  RowIndex rows;
  if (!is_dst32_view(view)) return rows;
  for (const Record& r : records)
    if (r.space == Space::Dst) rows.emplace(r.a, &r);
  return rows;
}

void append_vector(std::string& out, const Vector& v, Arch arch) {
  append(out, "vector ");
  append(out, v.name);
  if (!v.note.empty()) {
    append(out, "  # ");
    append(out, v.note);
  }
  if (v.conversion) {
    out.push_back('\n');
    append_conversion(out, *v.conversion);
    append(out, "end\n\n");
    return;
  }
  append(out, "\nthread ");
  append_uint(out, v.thread);
  out.push_back('\n');
  const std::pair<const char*, View> views[] = {{"srca", v.srca_view}, {"srcb", v.srcb_view}, {"dst", v.dst_view}};
  for (const auto& [what, view] : views) {
    if (view == View::Raw) continue;
    append(out, "view ");
    append(out, what);
    out.push_back(' ');
    append(out, view_name(view));
    out.push_back('\n');
  }
  const RowIndex init_rows = index_dst_rows(v.init, v.dst_view);
  for (const Record& r : v.init) append_record(out, "init", r, v, init_rows);
  for (uint32_t w : v.words) {
    append(out, "insn ");
    append_hex(out, w, kWordHexDigits);
    append(out, "  # ");
    append(out, disassemble(decode(w, arch)));
    out.push_back('\n');
  }
  const RowIndex expect_rows = index_dst_rows(v.expect, v.dst_view);
  for (const Record& r : v.expect) append_record(out, "expect", r, v, expect_rows);
  append(out, "end\n\n");
}

}  // namespace

std::string format_vector_file(const VectorFile& f) {
  std::string out;
  // About 200 bytes per record; one allocation for the whole file in the common case.
  size_t records = 0;
  for (const Vector& v : f.vectors) records += v.init.size() + v.expect.size() + v.words.size() + 8;
  out.reserve(records * 200 + 4096);
  append(out, kVectorMagic);
  out.push_back(' ');
  // Version 1 unless the file holds conversion vectors (2) or L1, ADC, packer or SrcRow records (3),
  // so that instruction files read everywhere they did.
  const bool conversions = std::any_of(f.vectors.begin(), f.vectors.end(), [](const Vector& v) { return v.conversion.has_value(); });
  const auto l1 = [](const std::vector<Record>& rs) {
    return std::any_of(rs.begin(), rs.end(), [](const Record& r) { return is_l1_space(r.space); });
  };
  const bool l1_records = std::any_of(f.vectors.begin(), f.vectors.end(), [&](const Vector& v) { return l1(v.init) || l1(v.expect); });
  append_uint(out, l1_records ? kL1FormatVersion : conversions ? kConversionFormatVersion : kVectorFormatVersion);
  out.push_back('\n');
  for (const std::string& line : f.header) {
    append(out, line.empty() ? "#" : "# ");
    append(out, line);
    out.push_back('\n');
  }
  append(out, "arch ");
  append(out, arch_name(f.arch));
  append(out, "\n\n");
  for (const Vector& v : f.vectors) append_vector(out, v, f.arch);
  append(out, "eof ");
  append_uint(out, f.vectors.size());
  out.push_back('\n');
  return out;
}

}  // namespace tmu::tensix::vectors

// matfp text -> operand: the inverse of disassemble_matfp, plus the fields by their names.
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tmu/amx/matfp.h"
#include "tmu/error.h"
#include "tmu/suggest.h"
#include "tmu/exact_number.h"

namespace tmu::amx {

namespace {

[[noreturn]] void fail(std::string_view token, const std::string& why) {
  throw Error(ErrorKind::BadInput, fmt::format("matfp: '{}': {}", token, why));
}

// Whitespace separates tokens except inside parentheses ("xen=2:3(first 3)").
std::vector<std::string_view> tokens(std::string_view text) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (i == text.size()) break;
    const size_t start = i;
    int depth = 0;
    for (; i < text.size(); ++i) {
      if (text[i] == '(') ++depth;
      if (text[i] == ')') --depth;
      if (depth == 0 && (text[i] == ' ' || text[i] == '\t')) break;
    }
    if (depth != 0) fail(text.substr(start, i - start), "unbalanced parentheses");
    out.push_back(text.substr(start, i - start));
  }
  return out;
}

uint64_t number(std::string_view token, std::string_view digits, uint64_t limit) {
  const auto v = parse_unsigned(digits);
  if (!v) fail(token, fmt::format("'{}' is not a number", digits));
  if (*v > limit) fail(token, fmt::format("{} is more than {}", *v, limit));
  return *v;
}

// "MODE:VALUE" with an optional "(text)" that must be what enable_text says.
void enable(std::string_view token, std::string_view arg, char operand, unsigned& mode, unsigned& value) {
  std::string_view text;
  if (const size_t open = arg.find('('); open != std::string_view::npos) {
    if (arg.back() != ')') fail(token, "text after the parenthesis");
    text = arg.substr(open + 1, arg.size() - open - 2);
    arg = arg.substr(0, open);
  }
  const size_t colon = arg.find(':');
  if (colon == std::string_view::npos) fail(token, "expected MODE:VALUE");
  mode = static_cast<unsigned>(number(token, arg.substr(0, colon), 7));
  value = static_cast<unsigned>(number(token, arg.substr(colon + 1), 31));
  if (!text.empty() && text != enable_text(mode, value, operand))
    fail(token, fmt::format("mode {} value {} selects '{}'", mode, value, enable_text(mode, value, operand)));
}

unsigned shuffle_number(std::string_view token, std::string_view arg) {
  if (arg.size() != 2 || arg[0] != 'S' || arg[1] < '0' || arg[1] > '3') fail(token, "expected S0, S1, S2 or S3");
  return static_cast<unsigned>(arg[1] - '0');
}

// "x<-x3/2b": which pool, the register indexed into (of the same pool), 2- or 4-bit indices.
void indexed(std::string_view token, std::string_view arg, MatfpOperand& op) {
  if (arg.size() != 8 || (arg[0] != 'x' && arg[0] != 'y') || arg.substr(1, 2) != "<-" || arg[3] != arg[0] ||
      arg[4] < '0' || arg[4] > '7' || (arg.substr(5) != "/2b" && arg.substr(5) != "/4b"))
    fail(token, "expected idx=x<-xR/2b, x<-xR/4b, y<-yR/2b or y<-yR/4b (R 0..7)");
  op.indexed = true;
  op.index.of_y = arg[0] == 'y';
  op.index.reg = static_cast<unsigned>(arg[4] - '0');
  op.index.four_bit = arg[6] == '4';
}

}  // namespace

MatfpOperand assemble_matfp(std::string_view text, Version v) {
  const std::vector<std::string_view> toks = tokens(text);
  if (toks.empty() || toks[0] != "matfp") fail(toks.empty() ? text : toks[0], "a matfp operand starts with 'matfp'");
  MatfpOperand op;
  std::set<std::string> seen;
  bool width_given = false, alu_given = false, alu_is_add = false;
  const auto once = [&](std::string_view token, const std::string& what) {
    if (!seen.insert(what).second) fail(token, fmt::format("{} given twice", what));
  };
  const auto width = [&](std::string_view token, unsigned code) {
    once(token, "lane width");
    op.lane_width = code;
    width_given = true;
  };
  const auto alu = [&](std::string_view token, unsigned mode) {
    once(token, "ALU mode");
    op.alu_mode = mode;
    alu_given = true;
    alu_is_add = mode == kAluAdd;
  };
  for (size_t t = 1; t < toks.size(); ++t) {
    const std::string_view tok = toks[t];
    if (tok == "f16") { width(tok, 2); continue; }
    if (tok == "f32") { width(tok, 4); continue; }
    if (tok == "f64") { width(tok, 7); continue; }
    if (tok == "f16f32") { width(tok, 3); continue; }
    if (tok == "bf16" || tok == "bf16f32") {
      if (v == Version::M1) fail(tok, "bf16 lane widths exist from M2 on (--amx-version)");
      width(tok, tok == "bf16" ? 0 : 1);
      continue;
    }
    if (tok.starts_with("f16(lw=") && tok.ends_with(")")) {
      const unsigned code = static_cast<unsigned>(number(tok, tok.substr(7, tok.size() - 8), 15));
      if (lane_width(code, v) != LaneWidth::F16)
        fail(tok, fmt::format("code {} is {} on {}", code, lane_width_name(lane_width(code, v)), version_name(v)));
      width(tok, code);
      continue;
    }
    if (tok == "z+=x*y") { alu(tok, kAluAdd); continue; }
    if (tok == "z-=x*y") { alu(tok, kAluSub); continue; }
    if (tok == "z=x<=0?0:y") { alu(tok, kAluSelect); continue; }
    if (tok.starts_with("nop(alu=") && tok.ends_with(")")) {
      const unsigned mode = static_cast<unsigned>(number(tok, tok.substr(8, tok.size() - 9), 63));
      if (mode == kAluAdd || mode == kAluSub || mode == kAluSelect) fail(tok, fmt::format("ALU mode {} is not a no-op", mode));
      alu(tok, mode);
      continue;
    }
    if (tok.starts_with("nop(mbz=") && tok.ends_with(")")) {
      once(tok, "must_be_zero");
      op.must_be_zero = static_cast<unsigned>(number(tok, tok.substr(8, tok.size() - 9), 7));
      continue;
    }
    const size_t eq = tok.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      static constexpr std::string_view kWords[] = {"f16", "f32", "f64", "f16f32", "bf16", "bf16f32",
                                                    "z+=x*y", "z-=x*y", "z=x<=0?0:y"};
      fail(tok, fmt::format("not a matfp token{}: a lane width (f16 f32 f64 f16f32 bf16 bf16f32 f16(lw=N)), an ALU "
                            "mode (z+=x*y z-=x*y z=x<=0?0:y nop(alu=N)) or FIELD=VALUE (x= y= zrow= xen= yen= xshuf= "
                            "yshuf= idx= ign= and the field names; docs/program-format.md)",
                            did_you_mean(tok, kWords)));
    }
    const std::string key(tok.substr(0, eq));
    const std::string_view arg = tok.substr(eq + 1);
    // The short names disassemble_matfp prints, then MatfpOperand's field names.
    const std::string field = key == "x" ? "x_offset" : key == "y" ? "y_offset" : key == "zrow" ? "z_row"
                            : key == "xshuf" ? "x_shuffle" : key == "yshuf" ? "y_shuffle" : key == "ign" ? "ignored"
                            : key;
    if (field == "xen" || field == "yen") {
      once(tok, field == "xen" ? "x_enable_mode" : "y_enable_mode");
      once(tok, field == "xen" ? "x_enable_value" : "y_enable_value");
      if (field == "xen") enable(tok, arg, 'x', op.x_enable_mode, op.x_enable_value);
      else enable(tok, arg, 'y', op.y_enable_mode, op.y_enable_value);
      continue;
    }
    if (field == "idx") {
      once(tok, "indexed");
      indexed(tok, arg, op);
      continue;
    }
    once(tok, field);
    if (field == "x_shuffle" && key == "xshuf") { op.x_shuffle = shuffle_number(tok, arg); continue; }
    if (field == "y_shuffle" && key == "yshuf") { op.y_shuffle = shuffle_number(tok, arg); continue; }
    const auto u = [&](uint64_t limit) { return static_cast<unsigned>(number(tok, arg, limit)); };
    if (field == "y_offset") op.y_offset = u(511);
    else if (field == "x_offset") op.x_offset = u(511);
    else if (field == "z_row") op.z_row = u(7);
    else if (field == "y_enable_mode") op.y_enable_mode = u(7);
    else if (field == "y_enable_value") op.y_enable_value = u(31);
    else if (field == "x_enable_mode") op.x_enable_mode = u(7);
    else if (field == "x_enable_value") op.x_enable_value = u(31);
    else if (field == "y_shuffle") op.y_shuffle = u(3);
    else if (field == "x_shuffle") op.x_shuffle = u(3);
    else if (field == "lane_width") { op.lane_width = u(15); width_given = true; }
    else if (field == "alu_mode") { op.alu_mode = u(63); alu_given = true; alu_is_add = op.alu_mode == kAluAdd; }
    else if (field == "indexed") op.indexed = u(1) != 0;
    else if (field == "index_of_y") op.index.of_y = u(1) != 0;
    else if (field == "index_four_bit") op.index.four_bit = u(1) != 0;
    else if (field == "index_reg") op.index.reg = u(7);
    else if (field == "must_be_zero") op.must_be_zero = u(7);
    else if (field == "ignored") op.ignored = number(tok, arg, ~uint64_t{0});
    else {
      static constexpr std::string_view kFields[] = {
          "x", "y", "zrow", "xen", "yen", "xshuf", "yshuf", "idx", "ign", "y_offset", "x_offset", "z_row",
          "y_enable_mode", "y_enable_value", "x_enable_mode", "x_enable_value", "y_shuffle", "x_shuffle",
          "lane_width", "alu_mode", "indexed", "index_of_y", "index_four_bit", "index_reg", "must_be_zero", "ignored"};
      fail(tok, fmt::format("no matfp field '{}'{}", key, did_you_mean(key, kFields)));
    }
  }
  if (!width_given) fail(text, "no lane width (f16, f32, f64, f16f32, bf16, bf16f32 or lane_width=N)");
  if (op.indexed) {
    // Bits 47..52 are the index fields: the ALU is z + x*y, written as such or not at all.
    if (alu_given && !alu_is_add) fail(text, "an indexed load computes z+=x*y (bits 47..52 hold the index fields)");
    op.alu_mode = 0;
  } else if (!alu_given) {
    fail(text, "no ALU mode (z+=x*y, z-=x*y, z=x<=0?0:y, nop(alu=N) or alu_mode=N)");
  }
  encode_matfp(op);  // the ignored bits and the index fields against the indexed bit
  return op;
}

}  // namespace tmu::amx

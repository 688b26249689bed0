// Names of types, layouts, profiles, modes and operations as pto-isa spells them.
#include <array>
#include <string>

#include <fmt/format.h>

#include "tmu/error.h"
#include "tmu/pto/ops.h"
#include "tmu/suggest.h"

namespace tmu::pto {

namespace {

constexpr std::array<std::string_view, 13> kElemNames = {"f32", "f16", "bf16", "i8",  "u8",     "i16",   "u16",
                                                         "i32", "u32", "i64",  "u64", "f8e4m3", "f8e5m2"};
constexpr std::array<std::string_view, kOpCount> kOpNames = {
    "TADD",   "TABS",  "TAND",  "TOR",   "TSUB",  "TMUL",  "TMIN", "TMAX", "TCMP",  "TDIV",
    "TSHL",   "TSHR",  "TXOR",  "TLOG",  "TRECIP", "TPRELU", "TADDC", "TSUBC", "TCVT", "TSEL",
    "TRSQRT", "TSQRT", "TEXP",  "TPOW",  "TNOT",  "TRELU", "TNEG", "TREM", "TFMOD"};

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& ch : u)
    if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
  return u;
}

}  // namespace

ieee::Format float_format(ElemType t) {
  switch (t) {
    case ElemType::F32: return ieee::kBinary32;
    case ElemType::F16: return ieee::kBinary16;
    case ElemType::BF16: return ieee::kBfloat16;
    default: break;
  }
  throw Error(ErrorKind::BadInput, fmt::format("{} is not a float element type", elem_name(t)));
}

std::string_view elem_name(ElemType t) { return kElemNames[static_cast<unsigned>(t)]; }

std::optional<ElemType> elem_from_name(std::string_view name) {
  for (ElemType t : kAllElemTypes)
    if (elem_name(t) == name) return t;
  return std::nullopt;
}

std::string_view layout_name(Layout l) { return l == Layout::RowMajor ? "row_major" : "col_major"; }

Layout layout_from_name(std::string_view name) {
  if (name == "row_major" || name == "RowMajor" || name == "ND") return Layout::RowMajor;
  if (name == "col_major" || name == "ColMajor" || name == "DN") return Layout::ColMajor;
  const std::string u = upper(name);
  if (u == "NZ" || u == "ZN" || u == "ZZ" || u == "NN")
    throw Error(ErrorKind::Unsupported,
                fmt::format("layout {}: boxed layouts (SLayout RowMajor/ColMajor inside the tile) are not modelled; "
                            "use row_major or col_major",
                            name));
  throw Error(ErrorKind::BadInput, fmt::format("unknown layout '{}' (row_major, col_major)", name));
}

std::string_view profile_name(Profile p) {
  switch (p) {
    case Profile::CpuSim: return "cpusim";
    case Profile::A2A3: return "a2a3";
    case Profile::A5: return "a5";
  }
  return "?";
}

std::optional<Profile> profile_from_name(std::string_view name) {
  if (name == "cpusim") return Profile::CpuSim;
  if (name == "a2a3") return Profile::A2A3;
  if (name == "a5") return Profile::A5;
  return std::nullopt;
}

std::string profile_names(std::string_view separator) {
  std::string out;
  for (Profile p : kAllProfiles) out += std::string(out.empty() ? "" : separator) + std::string(profile_name(p));
  return out;
}

std::string_view cmp_name(CmpMode m) {
  constexpr std::array<std::string_view, 6> names = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  return names[static_cast<unsigned>(m)];
}

std::optional<CmpMode> cmp_from_name(std::string_view name) {
  const std::string u = upper(name);
  for (unsigned i = 0; i < 6; ++i)
    if (cmp_name(static_cast<CmpMode>(i)) == u) return static_cast<CmpMode>(i);
  return std::nullopt;
}

std::string_view round_name(RoundMode m) {
  constexpr std::array<std::string_view, 7> names = {"NONE", "RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD"};
  return names[static_cast<unsigned>(m)];
}

std::optional<RoundMode> round_from_name(std::string_view name) {
  const std::string u = upper(name);
  for (unsigned i = 0; i < 7; ++i)
    if (round_name(static_cast<RoundMode>(i)) == u) return static_cast<RoundMode>(i);
  return std::nullopt;
}

std::string_view op_name(Op op) { return kOpNames[static_cast<unsigned>(op)]; }

std::optional<Op> op_from_name(std::string_view name) {
  if (name.starts_with("pto.")) name.remove_prefix(4);
  const std::string u = upper(name);
  for (unsigned i = 0; i < kOpCount; ++i)
    if (kOpNames[i] == u) return static_cast<Op>(i);
  return std::nullopt;
}

std::string unknown_operation(std::string_view name) {
  std::string_view bare = name;
  if (bare.starts_with("pto.")) bare.remove_prefix(4);
  return fmt::format("unknown operation '{}'{}", name, did_you_mean(bare, kOpNames));
}

unsigned source_count(Op op) {
  switch (op) {
    case Op::TABS: case Op::TLOG: case Op::TRECIP: case Op::TCVT: case Op::TRSQRT: case Op::TSQRT:
    case Op::TEXP: case Op::TNOT: case Op::TRELU: case Op::TNEG:
      return 1;
    case Op::TADDC: case Op::TSUBC: case Op::TSEL:
      return 3;
    default:
      return 2;
  }
}

}  // namespace tmu::pto

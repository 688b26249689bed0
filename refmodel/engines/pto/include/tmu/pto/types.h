// The vocabulary of PTO's elementwise tile operations, with the spellings of pto-isa's
// include/pto/common/type.hpp: element types, tile layouts, compare and rounding modes, and the
// profiles tmu models (which implementation's behaviour a result follows).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tmu/fp8.h"
#include "tmu/ieee.h"

namespace tmu::pto {

// F8E4M3 and F8E5M2 are the OCP 8-bit floats (tmu/fp8.h), A5-only in pto-isa (type-system.md):
// floats, but not IEEE formats here (float_format refuses them; is_ieee_float tells them apart).
enum class ElemType : uint8_t { F32, F16, BF16, I8, U8, I16, U16, I32, U32, I64, U64, F8E4M3, F8E5M2 };
inline constexpr ElemType kAllElemTypes[] = {ElemType::F32, ElemType::F16,    ElemType::BF16,  ElemType::I8,
                                             ElemType::U8,  ElemType::I16,    ElemType::U16,   ElemType::I32,
                                             ElemType::U32, ElemType::I64,    ElemType::U64,   ElemType::F8E4M3,
                                             ElemType::F8E5M2};

constexpr unsigned width_bits(ElemType t) {
  switch (t) {
    case ElemType::I8: case ElemType::U8: case ElemType::F8E4M3: case ElemType::F8E5M2: return 8;
    case ElemType::F16: case ElemType::BF16: case ElemType::I16: case ElemType::U16: return 16;
    case ElemType::F32: case ElemType::I32: case ElemType::U32: return 32;
    case ElemType::I64: case ElemType::U64: return 64;
  }
  return 0;
}
constexpr unsigned width_bytes(ElemType t) { return width_bits(t) / 8; }
constexpr bool is_f8(ElemType t) { return t == ElemType::F8E4M3 || t == ElemType::F8E5M2; }
constexpr bool is_ieee_float(ElemType t) { return t == ElemType::F32 || t == ElemType::F16 || t == ElemType::BF16; }
constexpr bool is_float(ElemType t) { return is_ieee_float(t) || is_f8(t); }
// The tmu::fp8 format of an 8-bit float type (call only when is_f8(t)).
constexpr fp8::Kind f8_kind(ElemType t) { return t == ElemType::F8E4M3 ? fp8::Kind::E4M3 : fp8::Kind::E5M2; }
constexpr bool is_signed_int(ElemType t) {
  return t == ElemType::I8 || t == ElemType::I16 || t == ElemType::I32 || t == ElemType::I64;
}
constexpr bool is_unsigned_int(ElemType t) { return !is_float(t) && !is_signed_int(t); }
constexpr uint64_t lane_mask(ElemType t) {
  return width_bits(t) == 64 ? ~uint64_t{0} : (uint64_t{1} << width_bits(t)) - 1;
}
// The IEEE format of an IEEE float element type (bf16 is bfloat16: the CPU simulator's
// std::bfloat16_t); the 8-bit floats are refused (BadInput).
ieee::Format float_format(ElemType t);

// "f32", "f16", "bf16", "i8", "u8", ... as the per-op pages write them; "f8e4m3", "f8e5m2" as the
// type-system page does.
std::string_view elem_name(ElemType t);
std::optional<ElemType> elem_from_name(std::string_view name);

// pto-isa's BLayout for tiles without a box (SLayout NoneBox). The boxed layouts (Nz, Zn, Zz, Nn)
// are not modelled: layout_from_name refuses their names with a tmu::Error (Unsupported).
enum class Layout : uint8_t { RowMajor, ColMajor };
std::string_view layout_name(Layout l);
Layout layout_from_name(std::string_view name);

// Whose behaviour a result follows. CpuSim: pto-isa's CPU simulator (include/pto/cpu/) bit for bit
// where it defines a result. A2A3: the A2/A3 NPU sources (include/pto/npu/a2a3/) where they differ
// from the simulator. A5: the A5 NPU sources (include/pto/npu/a5/), float lanes under the assumption
// named in src/profile_a5.cpp (kA5FloatAssumption). Each profile's differences are one table of
// rules, src/profile_rules.cpp.
enum class Profile : uint8_t { CpuSim, A2A3, A5 };
inline constexpr Profile kAllProfiles[] = {Profile::CpuSim, Profile::A2A3, Profile::A5};
std::string_view profile_name(Profile p);
std::optional<Profile> profile_from_name(std::string_view name);
// Every profile's name, joined by `separator` ("cpusim|a2a3|a5"), for messages that list them.
std::string profile_names(std::string_view separator);

// type.hpp's CmpMode, same numbering.
enum class CmpMode : uint8_t { EQ = 0, NE = 1, LT = 2, LE = 3, GT = 4, GE = 5 };
std::string_view cmp_name(CmpMode m);
std::optional<CmpMode> cmp_from_name(std::string_view name);  // "EQ".."GE", any case

// type.hpp's RoundMode (TCVT), same numbering.
enum class RoundMode : uint8_t { None = 0, Rint = 1, Round = 2, Floor = 3, Ceil = 4, Trunc = 5, Odd = 6 };
std::string_view round_name(RoundMode m);  // "NONE", "RINT", ...
std::optional<RoundMode> round_from_name(std::string_view name);  // any case
// type.hpp's SaturationMode: ON = 0 is the CTRL register's default; TCVT without a saturation
// argument runs with OFF in the CPU simulator, and on A2/A3 with OFF for the narrowing pairs and ON
// for the others (a2a3/TCvt.hpp).
enum class SaturationMode : uint8_t { On = 0, Off = 1 };

}  // namespace tmu::pto

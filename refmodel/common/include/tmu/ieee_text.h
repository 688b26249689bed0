// IEEE values written as text and shown as text, for programs, vector files and the CLI: not on the
// bit-exact path. A value in a program is taken only when the format holds it exactly; nothing is
// rounded on the way in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tmu/ieee.h"

namespace tmu::ieee {

// The pattern of `text` (tmu/exact_number.h: "1.5", "-0x1p-24", "inf", "-0") in format f, or
// nullopt with the reason when the text is malformed or the value is not exactly a number of the
// format (too many significant bits, below the smallest subnormal, beyond the largest finite).
// Subnormals are ordinary values here. "nan" is the default NaN (Format::default_nan), "-nan" the
// same with the sign set; other NaNs are given as raw bits. Decimal text is limited to 400 digits and
// magnitudes within 10^+-60: binary64 values beyond that are written as hex floats.
std::optional<uint64_t> from_text(Format f, std::string_view text, std::string* reason);

// The value of a pattern as text that from_text reads back to the same pattern: the shortest decimal
// when it is the value exactly ("1.5", "-0", "65504"), otherwise the hex float ("0x1p-24", where the
// shortest decimal 5.960464477539063e-08 is only near it); "inf". NaNs are the exception: they print
// as "nan" or "snan" with the sign ("-nan") and without the payload, and from_text reads "nan" as the
// default NaN and refuses "snan". Host doubles only for display: every binary16, bfloat16, binary32
// and binary64 value is one exactly.
std::string to_text(Format f, uint64_t bits);

// The value of a pattern as a host double, for display and analysis, never for the bit-exact path:
// exact for every binary16, bfloat16, binary32 and binary64 value (infinities included); NaNs are a
// quiet NaN of their sign.
double to_double(Format f, uint64_t bits);

}  // namespace tmu::ieee

// Shared by the vector printer, parser and replay: decoded values for comments and diffs.
#pragma once

#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "tmu/bits.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/vectors.h"

namespace tmu::tensix::vectors::detail {

// Hex digits a field of `width` bits is printed with.
constexpr unsigned hex_digits_for(unsigned width) { return (width + 3) / 4; }
inline constexpr unsigned kSrcHexDigits = 5;
inline constexpr unsigned kDstHexDigits = 4;
inline constexpr unsigned kWordHexDigits = 8;

// The value a Src datum / DstBits half / Dst32b word means under a view, as the shortest decimal
// text that reads back exactly ("1.5", "-0", "3.4028236692093846e+38"). Raw views print nothing.
void append_src_value(std::string& out, uint32_t datum, View view);
void append_dst16_value(std::string& out, uint32_t bits16, View view);
void append_dst32_value(std::string& out, uint32_t bits32, View view);

// "SrcA bank 0 row 5", "Dst row 17 (Dst32b row 9, low half)", "RWC thread 0 SrcA", for messages.
std::string location_text(const Record& r, View dst_view = View::Raw);

// A field location (no value) by name; the name must exist.
Record field_location(Space space, uint16_t a, uint16_t b, std::string_view name);
// An unpacker's SrcRow counter of a thread (a location without fields), holding `value`.
Record src_row_location(uint16_t unpacker, uint16_t thread, uint32_t value = 0);
// Every location a WriteSet covers for the issuing thread, as value-less records: Dst rows (as
// Space::Dst), Src rows, GPRs, all RWC fields when `rwcs`, the eight bank locations when `banks`
// (SrcABank, SrcBBank, each bank's AllowedClient, each unpacker's SrcBank), LastSrcARow when
// `matrix_unit`; and of format version 3: the L1 lines written, both channels' counters of every ADC
// set moved, each bank's Format and every SrcRow when `unpackers`, the packer's stream state when
// `packer`.
std::vector<Record> written_locations(const WriteSet& w, unsigned thread);
void merge_writes(WriteSet& into, const WriteSet& w);
const char* adc_unit_name(unsigned unit);  // 0 "unpacker0", 1 "unpacker1", 2 "packer"

// "1.5" etc. as a string, for diffs.
std::string src_value_text(uint32_t datum, View view);
std::string dst16_value_text(uint32_t bits16, View view);
std::string dst32_value_text(uint32_t bits32, View view);

// The Dst32b row whose high (lo == false) or low half DstBits row `row` holds (Dst.md's Adj32
// mapping inverted): bit 3 of a DstBits row tells the halves apart.
constexpr bool is_low_half_row(uint32_t row) { return bits<3, 3>(row) != 0; }
constexpr uint32_t dst32_row_of(uint32_t row) { return (bits<9, 4>(row) << 3) | bits<2, 0>(row); }
static_assert(dst32_row_of(adj32_row(511)) == 511 && dst32_row_of(adj32_row(9) + 8) == 9);
constexpr uint32_t partner_row(uint32_t row) { return with_bits<3, 3>(row, bits<3, 3>(row) ^ 1); }

}  // namespace tmu::tensix::vectors::detail

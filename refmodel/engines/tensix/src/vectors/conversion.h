// Conversion vectors (docs/vector-format.md, "Conversion records"): one packer or unpacker
// conversion of l1_formats.h with its configuration, its input datums or bytes and its expected
// output, read, printed and replayed here so the instruction vectors' code stays as it is.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tmu/tensix/vectors.h"

namespace tmu::tensix::vectors::detail {

// The most datums one conversion vector holds (sixteen BFP blocks).
inline constexpr size_t kMaxConversionDatums = 256;

// Whether `head`, the first record of a vector, starts a conversion vector.
bool is_conversion_head(std::string_view head);
// The `pack` / `unpack` record. Throws tmu::Error (BadInput) with the reason: a malformed record, a
// configuration the model refuses (the reason plan_pack / check_unpack give).
Conversion parse_conversion_head(std::span<const std::string_view> w, Arch arch);
// Each further record (`in`, `l1`, `expect`), in order; `line` is kept for the expected values.
// Throws tmu::Error (BadInput): a malformed record, a value out of range, a record out of order.
void parse_conversion_record(Conversion& c, std::span<const std::string_view> w, int line);
// At the vector's `end`: the records it needs are there and their sizes agree.
void check_conversion_complete(const Conversion& c);

void append_conversion(std::string& out, const Conversion& c);

// Runs the conversion on the model and compares; appends "L1 byte ..." / "datum ..." differences.
// Throws tmu::Error when the model refuses the configuration.
bool replay_conversion(const Vector& v, Arch arch, const ReplayOptions& options, std::vector<Difference>& out);

// Output datums: the L1 datums a pack writes, the datums an unpack reads.
uint64_t conversion_cases(const Conversion& c);

// Fills the expected output of a conversion from the model (generation); for an unpack, as many
// datums as expect_datums holds on entry.
void compute_conversion(Conversion& c, Arch arch);

}  // namespace tmu::tensix::vectors::detail

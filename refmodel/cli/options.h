// Options that several subcommands take, spelled once here. Each concept has one primary spelling;
// the spellings earlier versions used stay accepted as aliases, so old command lines keep working,
// and --help lists every alias beside the primary name.
//   -o, --out       (alias --output)   output directory
//   --format        (alias --formats)  data formats, comma-separated
//   --family        (alias --ops)      instruction families / operations, comma-separated
//   --fidelity      (alias --phase)    fidelity: lofi, hifi2, hifi3, hifi4 (any case) or 0..3
//   --arch, --engine, --amx-version, --profile   before or after the subcommand, with the same meaning
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "commands.h"

namespace tmu::cli {

inline constexpr const char* kOutNames = "-o,--out,--output";
inline constexpr const char* kFormatNames = "--format,--formats";
inline constexpr const char* kFamilyNames = "--family,--ops";
inline constexpr const char* kFidelityNames = "--fidelity,--phase";

// A fidelity is given by name or as its number 0..3: LoFi runs fidelity phase 0 only, HiFi2 phases
// 0..1, HiFi3 0..2, HiFi4 0..3, so lofi = 0, hifi2 = 1, hifi3 = 2, hifi4 = 3. Names are matched in any
// case and replaced by their number before the option's value is converted.
CLI::Validator fidelity_names();
inline constexpr const char* kFidelitySpellings = "lofi|hifi2|hifi3|hifi4 (any case) or 0..3";

// A command-line hex number of at most `bits` bits, 0x optional; tmu::Error (BadInput) "'TEXT' is
// not a BITS-bit hex NOUN" otherwise.
uint64_t parse_hex(const std::string& text, unsigned bits, const char* noun);

// `--arch`, `--engine`, `--amx-version` and `--profile` on a subcommand, writing the same settings as the
// options before it.
void add_arch_option(CLI::App* sub, GlobalOptions& global);
// The same four on the app itself.
void add_engine_options(CLI::App& app, GlobalOptions& global);

}  // namespace tmu::cli

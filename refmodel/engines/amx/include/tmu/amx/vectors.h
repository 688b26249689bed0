// AMX test vectors: one matfp with exactly the X, Y and Z it reads and the Z rows it writes, in the
// vector-file format family of docs/vector-format.md ("AMX records"). `tmu --engine amx vectors`
// writes them, `tmu --engine amx check` replays them.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "tmu/amx/matfp.h"
#include "tmu/amx/state.h"

namespace tmu::amx {

// A 64-byte register or row as sixteen little-endian 32-bit words, the form vector files use.
using Words = std::array<uint32_t, kRowBytes / 4>;

struct Vector {
  std::string name;
  std::string comment;            // after the name: what the vector exercises
  std::string view = "f32";       // f16 bf16 f32 f64: how comments and diffs read lanes
  std::vector<std::pair<unsigned, Row>> x, y, z;  // init: register / row index and its bytes
  uint64_t operand = 0;
  std::vector<std::pair<unsigned, Row>> expect;    // Z rows written, in row order
  unsigned line = 0;              // where it starts in the file it was read from
};

struct VectorFile {
  Version version = Version::M1;
  std::vector<Vector> vectors;
};

// The X and Y registers a matfp operand reads: the 64-byte span at the offset covers one or two, an
// indexed load one more. (Of Z it reads the rows it writes: the ALU reads z, and the lanes it does
// not write keep their value.)
struct Footprint {
  uint8_t x_regs = 0, y_regs = 0;  // bit r: register r
};
Footprint footprint(const MatfpOperand& op);

// A vector from a state and an operand: init from the footprint and the Z rows written, expect from
// executing it.
Vector make_vector(std::string name, std::string comment, const State& s, uint64_t operand, Version v);

// Generation: level 1 (special-value classes, ties, cancellations per lane width and ALU mode) and
// level 2 (`random` random operands with every field drawn, over states mixing special values and
// random bits, from `seed`). One file per generation M1, M2 (bf16 appears from M2).
struct GenOptions {
  unsigned level = 1;
  unsigned random = 64;  // level 2: vectors per file
  uint64_t seed = 0;
};
struct GenFile {
  std::string path;  // relative: amx/<version>-<group>.tmv
  VectorFile file;
};
std::vector<GenFile> generate_vectors(const GenOptions& opts);

void write_vector_file(std::ostream& out, const VectorFile& f);
// Throws tmu::ProgramError ("FILE:LINE: reason") for anything malformed.
VectorFile read_vector_file(std::istream& in, const std::string& path);

// Replays every vector; from zero state, or with `poison` from state drawn from that seed, which
// shows that init lists everything read. Each difference is a line of `diffs` (at most max_diffs
// per vector); returns the number of vectors that failed.
struct ReplayCounts {
  unsigned vectors = 0, failed = 0, rows = 0;
};
ReplayCounts replay(const VectorFile& f, const std::string& path, std::vector<std::string>& diffs,
                    const uint64_t* poison, unsigned max_diffs);

}  // namespace tmu::amx

// PTO test vectors: one elementwise operation with its whole source and destination tiles before,
// and the destination tile after, in the vector-file format family of docs/vector-format.md ("PTO
// records"). `tmu --engine pto vectors` writes them, `tmu --engine pto check` replays them.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "tmu/pto/ops.h"
#include "tmu/pto/tile.h"

namespace tmu::pto {

struct Vector {
  std::string name;
  std::string comment;     // after the name: what the vector exercises
  Op op = Op::TADD;
  OpParams params;
  std::vector<Tile> srcs;  // in the intrinsic's order, with their stored patterns
  Tile dst;                // before the operation
  Tile expect;             // dst after it
  unsigned line = 0;       // where it starts in the file it was read from
};

struct VectorFile {
  Profile profile = Profile::CpuSim;
  std::vector<Vector> vectors;
};

// A vector from its operands: expect from executing it. Throws what execute() throws.
Vector make_vector(std::string name, std::string comment, Profile p, Op op, const OpParams& params,
                   std::vector<Tile> srcs, Tile dst);

// Generation. Level 1, per profile and element type: for each operation the profile accepts on the
// type, the special values of the type crossed (each value for unary operations, every pair for
// binary ones, pairs with the third source cycling for TADDC/TSUBC); TCMP in every mode and
// predicate type; TSEL with random masks; TCVT to every type in every rounding mode and saturation
// setting. Level 2 adds `random` vectors for each (operation, element type, predicate, mask or
// destination type) the profile accepts, each with a drawn mode, shape, layout and valid region,
// half special values and half random bits, from `seed`; the lanes outside valid regions are random
// bits. Lanes the model refuses (undefined behaviour) are never written: their operands are redrawn
// (after eight draws, every source of the lane is 1).
struct GenOptions {
  unsigned level = 1;
  unsigned random = 16;  // level 2: vectors per accepted combination
  uint64_t seed = 0;
};
struct GenFile {
  std::string path;  // relative: pto/<profile>-<type>.tmv, pto/<profile>-random.tmv
  VectorFile file;
};
std::vector<GenFile> generate_vectors(const GenOptions& opts);

void write_vector_file(std::ostream& out, const VectorFile& f);
// Throws tmu::ProgramError ("FILE:LINE: reason") for anything malformed.
VectorFile read_vector_file(std::istream& in, const std::string& path);

// Replays every vector. Each differing dst element is a line of `diffs` (at most max_diffs per
// vector); a vector the model refuses is a difference too. Returns the counts.
struct ReplayCounts {
  unsigned vectors = 0, failed = 0;
  uint64_t lanes = 0;  // dst elements compared
};
ReplayCounts replay(const VectorFile& f, const std::string& path, std::vector<std::string>& diffs, unsigned max_diffs);

}  // namespace tmu::pto

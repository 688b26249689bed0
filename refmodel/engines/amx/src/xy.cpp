#include "tmu/amx/xy.h"

#include <string>

#include "tmu/error.h"

namespace tmu::amx {

namespace {

unsigned lanes_of(unsigned elem_bytes) {
  if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8)
    throw Error(ErrorKind::BadInput, "AMX element of " + std::to_string(elem_bytes) + " bytes");
  return kRowBytes / elem_bytes;
}

}  // namespace

Row indexed_load(const Row& indices, const Row& table, unsigned index_bits, unsigned elem_bytes) {
  if (index_bits != 2 && index_bits != 4)
    throw Error(ErrorKind::BadInput, "AMX indexed load with " + std::to_string(index_bits) + "-bit indices");
  const unsigned lanes = lanes_of(elem_bytes);
  Row out{};
  for (unsigned k = 0; k < lanes; ++k) {
    const unsigned bit = k * index_bits;  // index_bits divides 8: a field never straddles a byte
    const unsigned idx = (indices[bit / 8] >> (bit % 8)) & ((1u << index_bits) - 1);
    set_lane(out, elem_bytes, k, get_lane(table, elem_bytes, idx % lanes));
  }
  return out;
}

Row shuffle(const Row& v, unsigned s, unsigned elem_bytes) {
  if (s > 3) throw Error(ErrorKind::BadInput, "AMX shuffle S" + std::to_string(s) + " (S0..S3)");
  const unsigned lanes = lanes_of(elem_bytes);
  const unsigned blocks = 1u << s;
  if (s == 0) return v;  // the identity, and every matfp's default
  if (blocks > lanes) return v;  // cannot happen for lanes >= 8; kept so the formula stays in range
  Row out{};
  for (unsigned d = 0; d < lanes; ++d)
    set_lane(out, elem_bytes, d, get_lane(v, elem_bytes, (d % blocks) * (lanes / blocks) + d / blocks));
  return out;
}

uint64_t lane_enables(unsigned mode, unsigned value, unsigned lanes) {
  if (lanes != 8 && lanes != 16 && lanes != 32 && lanes != 64)
    throw Error(ErrorKind::BadInput, "AMX vector of " + std::to_string(lanes) + " lanes");
  if (mode > 7 || value > 31)
    throw Error(ErrorKind::BadInput, "AMX enable mode " + std::to_string(mode) + " value " + std::to_string(value));
  const uint64_t all = lanes == 64 ? ~uint64_t{0} : (uint64_t{1} << lanes) - 1;
  const auto first = [&](unsigned n) { return (uint64_t{1} << n) - 1; };  // n < lanes <= 32 here
  const unsigned n = value % lanes;
  switch (mode) {
    case 0:
      switch (value) {
        case 0: case 3: case 4: case 5: return all;
        case 1: return all & 0xAAAAAAAAAAAAAAAAull;  // odd lanes
        case 2: return all & 0x5555555555555555ull;  // even lanes
        default: return 0;
      }
    case 1: return uint64_t{1} << n;
    case 2: return n == 0 ? all : first(n);
    case 3: return n == 0 ? all : first(n) << (lanes - n);
    case 4: return first(n);
    case 5: return n == 0 ? 0 : first(n) << (lanes - n);
    default: return 0;
  }
}

}  // namespace tmu::amx

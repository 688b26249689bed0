#include "tmu/amx/state.h"

#include <string>

#include "tmu/error.h"

namespace tmu::amx {

namespace {

void check_offset(unsigned offset) {
  if (offset >= kPoolBytes)
    throw Error(ErrorKind::BadInput, "AMX pool byte offset " + std::to_string(offset) + " is past 511");
}

void check_lane(unsigned bytes, unsigned lane) {
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
    throw Error(ErrorKind::BadInput, "AMX lane width of " + std::to_string(bytes) + " bytes (1, 2, 4 or 8)");
  if (lane >= kRowBytes / bytes)
    throw Error(ErrorKind::BadInput, "AMX lane " + std::to_string(lane) + " of a row of " +
                                         std::to_string(kRowBytes / bytes) + " lanes");
}

}  // namespace

Row load_span(const Pool& pool, unsigned offset) {
  check_offset(offset);
  Row r;
  for (unsigned b = 0; b < kRowBytes; ++b) r[b] = pool[(offset + b) % kPoolBytes];
  return r;
}

void store_span(Pool& pool, unsigned offset, const Row& bytes) {
  check_offset(offset);
  for (unsigned b = 0; b < kRowBytes; ++b) pool[(offset + b) % kPoolBytes] = bytes[b];
}

Row pool_register(const Pool& pool, unsigned reg) {
  if (reg >= kPoolRegs)
    throw Error(ErrorKind::BadInput, "AMX register " + std::to_string(reg) + " (a pool has 8)");
  return load_span(pool, reg * kRowBytes);
}

uint64_t get_lane(const Row& row, unsigned bytes, unsigned lane) {
  check_lane(bytes, lane);
  return lane_bits(row, bytes, lane);
}

void set_lane(Row& row, unsigned bytes, unsigned lane, uint64_t bits) {
  check_lane(bytes, lane);
  put_lane_bits(row, bytes, lane, bits);
}

}  // namespace tmu::amx

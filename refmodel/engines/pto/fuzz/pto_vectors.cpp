// The pto engine's vector files: the framing and its records (tmu::fuzz::replay_vector_file).
#include "fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tmu::fuzz::replay_vector_file("pto", data, size);
  return 0;
}

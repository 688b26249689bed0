// The toy engine's scoreboard through libtmu_dpi.so's C calls, as a simulator makes them, with the
// toy loaded as a plugin (TMU_ENGINE_PLUGINS) into the library of this build. The three svdpi
// open-array calls the library takes from the simulator are this program's, over plain vectors.
// Prints what it saw; plugin_dpi.cmake compares it with hand-worked values.
#include <cstdint>
#include <iostream>
#include <vector>

#include "../support/dpi_open_arrays.h"

int main() {
  void* h = tmu_eng_create("toy", "sat", "dpi_toy", 1);
  if (!h) {
    std::cout << "create failed: " << tmu_eng_last_error(nullptr) << "\n";
    return 1;
  }
  std::vector<uint32_t> a{0x01FF80C8}, b{0x02010064};  // lanes, low byte first: a = 200 128 255 1, b = 100 0 1 2
  std::vector<uint32_t> design{0x03FF802C};            // the sum with lane 0 wrapped: 44 128 255 3
  std::cout << "load " << tmu_eng_load(h, "a", &a) << tmu_eng_load(h, "b", &b) << "\n";
  std::cout << "execute " << tmu_eng_execute(h, "add") << "\n";
  std::cout << "compare " << tmu_eng_compare(h, "c", &design) << "\n";
  std::cout << "mismatches " << tmu_eng_mismatch_count(h) << "\n";
  std::cout << tmu_eng_report(h) << "\n";
  tmu_eng_destroy(h);
  return 0;
}

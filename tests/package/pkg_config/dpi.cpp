// Built by tests/package/pkg_config.cmake with `pkg-config --cflags --libs tmu-dpi` alone, as a
// simulator's link step would: a PTO scoreboard opened through the DPI-C calls. The three svdpi
// open-array calls libtmu_dpi.so takes from the simulator are this program's, over plain arrays.
#include <cstdint>
#include <iostream>
#include <vector>

#include "../../support/dpi_open_arrays.h"

int main() {
  void* h = tmu_eng_create("pto", "cpusim", "pkg_config", 1);
  if (!h) {
    std::cout << "create failed: " << tmu_eng_last_error(nullptr) << "\n";
    return 1;
  }
  std::cout << "declare " << tmu_eng_declare(h, "a f32 1x8") << "\n";
  std::cout << "bad engine " << (tmu_eng_create("npu", "", "t", 1) == nullptr) << ": " << tmu_eng_last_error(nullptr) << "\n";
  tmu_eng_destroy(h);
  return 0;
}

// Built by tests/package/pkg_config.cmake with `pkg-config --cflags --libs tmu` alone: the installed
// models through the engine registry.
#include <iostream>

#include "tmu/engine.h"

int main() {
  tmu::register_builtin_engines();
  std::cout << tmu::engine_names() << "\n";
  // 0x10184000 is ZEROACC (README): the installed Tensix decoder through the registry.
  std::cout << tmu::find_engine("tensix")->words()->disassemble("0x10184000", "blackhole", {}) << "\n";
  return 0;
}

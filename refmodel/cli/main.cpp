// tmu: command-line front end of the reference models. Exit status: 0 success, 2 bad input
// (reported with the place and the reason), 1 internal failure or a mismatch.
#include <iostream>

#include "commands.h"
#include "tmu/engine.h"
#include "tmu/error.h"

int main(int argc, char** argv) {
  try {
    tmu::register_builtin_engines();
  } catch (const tmu::Error& e) {  // an engine plugin that cannot be loaded
    std::cerr << "tmu: " << e.message() << "\n";
    return 2;
  }
  return tmu::cli::run(argc, argv);
}

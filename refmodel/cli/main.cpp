// tmu: command-line front end of the reference models. Exit status: 0 success, 2 bad input
// (reported with the place and the reason), 1 internal failure or a mismatch.
#include "commands.h"
#include "tmu/engine.h"

int main(int argc, char** argv) {
  tmu::register_builtin_engines();
  return tmu::cli::run(argc, argv);
}

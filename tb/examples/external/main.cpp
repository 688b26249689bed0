// Clocks gpr_bench_top until it is done; exit 0 when the scoreboard found no mismatch. --bug makes
// the design write the wrong half of each GPR.
#include <cstring>
#include <memory>

#include "Vgpr_bench_top.h"
#include "verilated.h"

int main(int argc, char** argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<Vgpr_bench_top>(ctx.get());
  top->bug_i = 0;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--bug") == 0) top->bug_i = 1;
  top->rst_i = 1;
  for (int cycle = 0; cycle < 100000 && !top->done_o; ++cycle) {
    if (cycle == 2) top->rst_i = 0;
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
  }
  top->final();
  return top->done_o && top->pass_o ? 0 : 1;
}

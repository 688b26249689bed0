// Runs tmu_dpi_lanes_top (tmu_dpi.svh's lane helpers called from SystemVerilog): its initial block
// does everything in the first evaluation. Exit 0 when every lane agreed with the model, 1 when one
// did not (the report is printed), as a bench's verdict. Plusargs go to the model (+plant).
#include <memory>

#include "Vtmu_dpi_lanes_top.h"
#include "verilated.h"

int main(int argc, char** argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<Vtmu_dpi_lanes_top>(ctx.get());
  top->eval();
  const bool pass = top->pass_o;
  top->final();
  return pass ? 0 : 1;
}

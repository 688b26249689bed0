// Compiled only by `verilator --dpi-hdr-only` (tb/CMakeLists.txt) to generate Vtmu_dpi__Dpi.h, the C
// prototypes of tmu_dpi.svh, which tmu_dpi.cpp includes so the compiler checks both sides agree.
module tmu_dpi_prototypes;
`include "tmu_dpi.svh"
endmodule

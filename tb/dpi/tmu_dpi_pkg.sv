// tmu's DPI-C scoreboard as a SystemVerilog package: `import tmu_dpi_pkg::*;` in a testbench gives
// every function of tmu_dpi.svh (scoreboard.md, in <prefix>/share/doc/tmu). Compile with the directory of tmu_dpi.svh on
// the include path, and load libtmu_dpi.so (-sv_lib tmu_dpi, or link it into a Verilator model).
package tmu_dpi_pkg;
`include "tmu_dpi.svh"
endpackage

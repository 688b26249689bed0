// SystemVerilog that Yosys 0.23 misreads, one line per rule of tests/rtl/yosys_pitfalls.cmake:
// rtl.yosys_pitfalls.detects checks that the check finds all five.
package misread_pkg;
  typedef logic [3:0] nibble_t;
  function automatic logic [3:0] twice(input logic [3:0] v);
    return v << 1;
  endfunction
endpackage
module misread (output logic [31:0] mask_o, output logic [7:0] pair_o, output logic [7:0] ones_o);
  localparam logic [7:0] Ones = '1;
  import tmu_pkg::*;
  misread_pkg::nibble_t [1:0] pair;
  assign mask_o = ~32'((1 << 13) - 1);
  assign pair   = '0;
  assign pair_o = pair;
  assign ones_o = Ones;
endmodule

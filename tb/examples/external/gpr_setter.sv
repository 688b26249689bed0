// The design under test: the Scalar Unit's SETDMAREG alone, three threads of 64 GPRs. SETDMAREG
// (opcode 0x45) writes NewValue [23:8] into the low (ResultHalfReg[0] = 0) or high half of GPR
// ResultHalfReg[6:1]; SetSignalsMode [7] = 1 selects another behaviour this design does not have,
// so it writes nothing then. bug_i = 1 writes the other half: the fault the scoreboard must catch.
module gpr_setter (
  input  logic        clk_i,
  input  logic        rst_i,
  input  logic        bug_i,
  input  logic        valid_i,
  input  logic [1:0]  thread_i,
  input  logic [31:0] word_i,
  output logic        wr_valid_o,
  output logic [5:0]  wr_index_o,
  output logic [31:0] wr_value_o
);
  logic [31:0] gpr_q [3][64];

  logic        high;
  logic [31:0] old;
  always_comb begin
    wr_valid_o = valid_i && word_i[31:24] == 8'h45 && !word_i[7] && thread_i != 2'd3;
    wr_index_o = word_i[6:1];
    high       = word_i[0] ^ bug_i;
    old        = gpr_q[thread_i == 2'd3 ? 2'd0 : thread_i][word_i[6:1]];
    wr_value_o = high ? {word_i[23:8], old[15:0]} : {old[31:16], word_i[23:8]};
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      for (int t = 0; t < 3; t++)
        for (int g = 0; g < 64; g++) gpr_q[t][g] <= '0;
    end else if (wr_valid_o) begin
      gpr_q[thread_i][wr_index_o] <= wr_value_o;
    end
  end
endmodule

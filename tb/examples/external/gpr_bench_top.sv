// The bench: drives SETDMAREG words into gpr_setter and, every cycle, reports what the design did
// to tmu's scoreboard through the installed DPI package, which executes the same word on the
// reference model and compares (scoreboard.md).
module gpr_bench_top (
  input  logic clk_i,
  input  logic rst_i,
  input  logic bug_i,
  output logic done_o,
  output logic pass_o
);
  import tmu_dpi_pkg::*;

  localparam int unsigned Words = 300;

  chandle      sb;
  int unsigned n;
  longint      mismatches;
  logic [1:0]  thread;
  logic [31:0] word;
  logic        wr_valid;
  logic [5:0]  wr_index;
  logic [31:0] wr_value;

  // Word n: thread n mod 3, ResultHalfReg (37 n) mod 128 (37 is odd, so every half of every GPR
  // index comes up), NewValue from n; SetSignalsMode 0.
  always_comb begin
    thread = 2'(n % 3);
    word   = {8'h45, 16'(n * 32'h9E37 + 32'h1234), 1'b0, 7'((n * 37) % 128)};
  end

  gpr_setter dut (
    .clk_i, .rst_i, .bug_i,
    .valid_i   (!rst_i && !finished_q),
    .thread_i  (thread),
    .word_i    (word),
    .wr_valid_o(wr_valid),
    .wr_index_o(wr_index),
    .wr_value_o(wr_value)
  );

  function automatic void check(int r);
    if (r < 0) $fatal(1, "tmu scoreboard: %s", tmu_sb_last_error(sb));
  endfunction

  initial begin
    sb = tmu_sb_create("blackhole", "external_gpr", 64'd1, "", "");
    if (sb == null) $fatal(1, "tmu_sb_create refused the architecture");
  end

  logic finished_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      n          <= 0;
      mismatches <= 0;
      finished_q <= 1'b0;
    end else if (!finished_q) begin
      check(tmu_sb_obs_begin(sb, 32'(thread), word, longint'(n)));
      check(tmu_sb_obs_verdict(sb, 0));
      if (wr_valid) check(tmu_sb_obs_gpr(sb, 32'(thread), 32'(wr_index), wr_value));
      mismatches <= mismatches + longint'(tmu_sb_retire(sb));
      n          <= n + 1;
      finished_q <= n + 1 == Words;
    end
  end

  // The verdict, once, the cycle after the last word.
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      done_o <= 1'b0;
      pass_o <= 1'b0;
    end else if (finished_q && !done_o) begin
      done_o <= 1'b1;
      pass_o <= mismatches == 0 && tmu_sb_retired_count(sb) == 64'(Words);
      if (mismatches != 0) $display("%s", tmu_sb_report(sb));
      $display("gpr_bench: %s words=%0d mismatches=%0d", mismatches == 0 ? "PASS" : "FAIL", n, mismatches);
    end
  end
endmodule

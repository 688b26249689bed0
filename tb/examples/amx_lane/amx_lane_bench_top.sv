// The bench: main.cpp drives one matfp step a cycle (X and Y registers, a Z row, the row's j and
// zrow); this top mirrors each step into tmu's AMX scoreboard (load, execute the same 64-bit
// operand) and hands the design the lanes it computes; the cycle after, it compares the design's Z
// row with the model's through the installed DPI package (scoreboard.md, "AMX").
module amx_lane_bench_top (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         bug_i,      // the design truncates instead of rounding to nearest even
  input  logic [63:0]  seed_i,     // recorded in the scoreboard's report
  input  logic         valid_i,
  input  logic         finish_i,   // after the last step has been compared: print the verdict
  input  logic [2:0]   x_reg_i,
  input  logic [2:0]   y_reg_i,
  input  logic [3:0]   j_i,        // the Y lane, so the Z row 4j + zrow
  input  logic [1:0]   zrow_i,
  input  logic [511:0] x_row_i,
  input  logic [511:0] y_row_i,
  input  logic [511:0] z_row_i,
  output logic         done_o,
  output logic         pass_o
);
  import tmu_dpi_pkg::*;

  localparam logic [3:0] LaneWidthF32 = 4'd4;  // matfp lane-width code (bits 42..45)
  localparam logic [2:0] EnableOnly = 3'd1;    // enable mode 1: lane `value` only (bits 23..25)

  chandle      sb;
  string       replay_dir;
  logic [63:0] operand;
  logic [5:0]  row, row_q;
  logic        dut_valid, dut_range_err;
  logic [511:0] dut_z;
  longint unsigned steps_q, mismatches_q;

  // x=64*x_reg y=64*y_reg zrow yen=1:j: f32 z[4j + zrow][i] += x[i] * y[j], one Z row.
  always_comb begin
    operand        = '0;
    operand[62:58] = 5'(j_i);      // Y enable value
    operand[45:42] = LaneWidthF32;
    operand[25:23] = EnableOnly;   // Y enable mode
    operand[22:20] = 3'(zrow_i);
    operand[18:10] = {x_reg_i, 6'd0};  // X byte offset: register x_reg
    operand[8:0]   = {y_reg_i, 6'd0};
    row     = {j_i, zrow_i};
  end

  amx_fma_row #(.Lanes(16)) dut (
    .clk_i,
    .rst_ni,
    .trunc_i    (bug_i),
    .valid_i    (valid_i),
    .x_i        (x_row_i),
    .y_i        (y_row_i[32*j_i +: 32]),
    .z_i        (z_row_i),
    .valid_o    (dut_valid),
    .z_o        (dut_z),
    .range_err_o(dut_range_err)
  );

  function automatic void check(int r);
    if (r < 0) $fatal(1, "tmu scoreboard: %s", tmu_eng_last_error(sb));
  endfunction

  // Initial blocks run in the first eval(), after main.cpp has set seed_i.
  initial begin
    sb = tmu_eng_create("amx", "M1", "amx_lane", seed_i);
    if (sb == null) $fatal(1, "%s", tmu_eng_last_error(null));
    // +tmu_replay_dir=DIR: each failing step is written there as a `tmu run` program of the model alone.
    if ($value$plusargs("tmu_replay_dir=%s", replay_dir)) check(tmu_eng_replay_dir(sb, replay_dir));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      row_q        <= '0;
      steps_q      <= '0;
      mismatches_q <= '0;
      done_o       <= 1'b0;
      pass_o       <= 1'b0;
    end else begin
      // The previous step's row first: this edge may load a new value into the same row.
      if (dut_valid) begin
        automatic int m = tmu_amx_compare_z_row(sb, 32'(row_q), dut_z);
        check(m);
        if (dut_range_err) $fatal(1, "amx_lane: the stimulus left the design's range (see amx_fma_f32.sv)");
        mismatches_q <= mismatches_q + longint'(m);
      end
      if (valid_i) begin
        check(tmu_amx_load_x_reg(sb, 32'(x_reg_i), x_row_i));
        check(tmu_amx_load_y_reg(sb, 32'(y_reg_i), y_row_i));
        check(tmu_amx_load_z_row(sb, 32'(row), z_row_i));
        check(tmu_amx_execute(sb, operand));
        row_q   <= row;
        steps_q <= steps_q + 1;
      end
      if (finish_i && !done_o) begin
        done_o <= 1'b1;
        pass_o <= mismatches_q == 0 && tmu_eng_mismatch_count(sb) == 0 && steps_q != 0;
        if (mismatches_q != 0) $display("%s", tmu_eng_report(sb));
        $display("amx_lane: %s steps=%0d lanes=%0d mismatches=%0d seed=%0d", mismatches_q == 0 ? "PASS" : "FAIL",
                 steps_q, steps_q * 16, mismatches_q, seed_i);
      end
    end
  end
endmodule

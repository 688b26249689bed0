// The bench: main.cpp drives one operation a cycle (TADD, TMAX or TCMP on an i32 or f32 row of eight
// lanes); this top mirrors it into tmu's PTO scoreboard (load the source rows, execute the same
// operation line) and hands it to pto_lane_unit; the cycle after, it compares the design's row, or
// for TCMP its predicate byte, with the model's through the installed DPI package
// (scoreboard.md, "PTO").
module pto_lane_bench_top (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         bug_i,      // the design swaps TCMP's LT and LE
  input  logic [63:0]  seed_i,     // recorded in the scoreboard's report
  input  logic         valid_i,
  input  logic         finish_i,   // after the last operation has been compared: print the verdict
  input  logic [1:0]   op_i,       // 0 TADD, 1 TMAX, 2 TCMP (pto_lane_unit's codes)
  input  logic         float_i,
  input  logic [2:0]   cmp_i,      // EQ 0, NE 1, LT 2, LE 3, GT 4, GE 5
  input  logic [255:0] a_i,
  input  logic [255:0] b_i,
  output logic         done_o,
  output logic         pass_o
);
  import tmu_dpi_pkg::*;

  chandle          sb;
  string           replay_dir;
  logic            dut_valid, dut_range_err;
  logic [255:0]    dut_r;
  logic [7:0]      dut_mask;
  logic [1:0]      op_q;
  logic            float_q;
  longint unsigned ops_q, mismatches_q;

  pto_lane_unit dut (
    .clk_i,
    .rst_ni,
    .swap_lt_le_i(bug_i),
    .valid_i     (valid_i),
    .op_i        (op_i),
    .float_i     (float_i),
    .cmp_i       (cmp_i),
    .a_i         (a_i),
    .b_i         (b_i),
    .valid_o     (dut_valid),
    .r_o         (dut_r),
    .mask_o      (dut_mask),
    .range_err_o (dut_range_err)
  );

  function automatic void check(int r);
    if (r < 0) $fatal(1, "tmu scoreboard: %s", tmu_eng_last_error(sb));
  endfunction

  // The tiles: one 32-byte row each; fa fb fc are f32, ia ib ic i32, p the u8 predicate row TCMP
  // writes (bit k of byte 0 = lane k).
  function automatic string tile(bit is_float, string role);
    tile = {is_float ? "f" : "i", role};
  endfunction

  function automatic string cmp_name(logic [2:0] cmp);
    unique case (cmp)
      3'd0:    cmp_name = "EQ";
      3'd1:    cmp_name = "NE";
      3'd2:    cmp_name = "LT";
      3'd3:    cmp_name = "LE";
      3'd4:    cmp_name = "GT";
      default: cmp_name = "GE";
    endcase
  endfunction

  function automatic string operation(logic [1:0] op, bit is_float, logic [2:0] cmp);
    unique case (op)
      2'd0:    operation = $sformatf("TADD %s %s %s", tile(is_float, "c"), tile(is_float, "a"), tile(is_float, "b"));
      2'd1:    operation = $sformatf("TMAX %s %s %s", tile(is_float, "c"), tile(is_float, "a"), tile(is_float, "b"));
      default: operation = $sformatf("TCMP p %s %s cmp=%s", tile(is_float, "a"), tile(is_float, "b"), cmp_name(cmp));
    endcase
  endfunction

  // Initial blocks run in the first eval(), after main.cpp has set seed_i.
  initial begin
    sb = tmu_eng_create("pto", "cpusim", "pto_lane", seed_i);
    if (sb == null) $fatal(1, "%s", tmu_eng_last_error(null));
    // +tmu_replay_dir=DIR: each failing step is written there as a `tmu run` program of the model alone.
    if ($value$plusargs("tmu_replay_dir=%s", replay_dir)) check(tmu_eng_replay_dir(sb, replay_dir));
    check(tmu_eng_declare(sb, "fa f32 1x8"));
    check(tmu_eng_declare(sb, "fb f32 1x8"));
    check(tmu_eng_declare(sb, "fc f32 1x8"));
    check(tmu_eng_declare(sb, "ia i32 1x8"));
    check(tmu_eng_declare(sb, "ib i32 1x8"));
    check(tmu_eng_declare(sb, "ic i32 1x8"));
    check(tmu_eng_declare(sb, "p u8 1x32"));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      op_q         <= '0;
      float_q      <= 1'b0;
      ops_q        <= '0;
      mismatches_q <= '0;
      done_o       <= 1'b0;
      pass_o       <= 1'b0;
    end else begin
      // The previous operation's result first: this edge may load new sources.
      if (dut_valid) begin
        // One call with the location chosen: Verilator 5.006 turns an if/else whose arms only
        // assign a function's result into ?:, calling both arms' DPI functions.
        automatic string        tile_name = op_q == 2'd2 ? "p" : tile(float_q, "c");
        automatic logic [255:0] row       = op_q == 2'd2 ? {248'd0, dut_mask} : dut_r;
        automatic int           m         = tmu_pto_compare_row256(sb, tile_name, 0, row);
        check(m);
        if (dut_range_err) $fatal(1, "pto_lane: the stimulus left the design's range (see pto_f32_add.sv)");
        mismatches_q <= mismatches_q + longint'(m);
      end
      if (valid_i) begin
        check(tmu_pto_load_row256(sb, tile(float_i, "a"), 0, a_i));
        check(tmu_pto_load_row256(sb, tile(float_i, "b"), 0, b_i));
        check(tmu_eng_execute(sb, operation(op_i, float_i, cmp_i)));
        op_q    <= op_i;
        float_q <= float_i;
        ops_q   <= ops_q + 1;
      end
      if (finish_i && !done_o) begin
        done_o <= 1'b1;
        pass_o <= mismatches_q == 0 && tmu_eng_mismatch_count(sb) == 0 && ops_q != 0;
        if (mismatches_q != 0) $display("%s", tmu_eng_report(sb));
        $display("pto_lane: %s operations=%0d mismatches=%0d seed=%0d", mismatches_q == 0 ? "PASS" : "FAIL", ops_q,
                 mismatches_q, seed_i);
      end
    end
  end
endmodule

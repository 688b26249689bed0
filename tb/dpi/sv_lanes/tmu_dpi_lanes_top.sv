// The typed lane helpers of tmu_dpi.svh called from SystemVerilog, as a bench would call them: one
// AMX matfp step per lane width (f32, f16, f64) and one PTO TADD per element width (f32, i16), each
// result compared lane by lane with tmu_amx_compare_lane32/16/64 and tmu_pto_compare_elem. The
// "design" values are the results worked out by hand below; +plant makes one lane of each compare
// wrong (its value +1), which the scoreboard must report as that lane's one mismatch.
// main.cpp evaluates the model once; exit 0 when no lane mismatched (ctest dpi.sv_lane_helpers).
module tmu_dpi_lanes_top (
  output logic pass_o
);
  import tmu_dpi_pkg::*;

  chandle amx, pto;
  bit     plant;
  longint unsigned amx_mismatches, pto_mismatches;

  function automatic void check(chandle h, int r);
    if (r < 0) $fatal(1, "tmu scoreboard: %s", tmu_eng_last_error(h));
  endfunction

  // A lane value as the design gives it: the hand-worked result, one more where +plant plants.
  function automatic longint unsigned design_lane(longint unsigned v, bit planted);
    return planted && plant ? v + 1 : v;
  endfunction

  // AMX: X register 0 lanes all 1.5, Y register 0 lane 0 = 2.0 and its other lanes 0, Z row 0 lanes
  // all 0.25; matfp z += x*y with Y lane 0 enabled among all writes Z row 0 lane i = 0.25 + 1.5 * 2
  // = 3.25 = 1.625 * 2^1 (the other Y lanes add +0 to other rows). Lane width code at bits 45:42:
  // 4 f32, 0 f16, 7 f64.
  //   f32 3.25: sign 0, exponent 127 + 1 = 0x80, fraction .625 = 0x500000 -> 0x40500000
  //   f16 3.25: exponent 15 + 1 = 16, fraction .625 * 2^10 = 0x280 -> 0x4280
  //   f64 3.25: exponent 1023 + 1 = 0x400, fraction .625 * 2^52 = 0xA000000000000 -> 0x400A000000000000
  task automatic amx_step(int width, bit [63:0] operand, longint unsigned one_and_half, longint unsigned two,
                          longint unsigned quarter, longint unsigned expected, int planted_lane);
    bit [511:0] x, y, z;
    int lanes;
    lanes = 512 / width;
    x = '0;
    y = '0;
    z = '0;
    for (int i = 0; i < lanes; i++)
      case (width)
        16: begin
          x[16*i +: 16] = 16'(one_and_half);
          z[16*i +: 16] = 16'(quarter);
        end
        32: begin
          x[32*i +: 32] = 32'(one_and_half);
          z[32*i +: 32] = 32'(quarter);
        end
        default: begin
          x[64*i +: 64] = one_and_half;
          z[64*i +: 64] = quarter;
        end
      endcase
    y[63:0] = two;  // lane 0; the lanes above it 0
    if (width == 32) begin  // lane by lane, through tmu_amx_load_lane32
      for (int i = 0; i < lanes; i++) begin
        check(amx, tmu_amx_load_lane32(amx, "x", 0, i, x[32*i +: 32]));
        check(amx, tmu_amx_load_lane32(amx, "y", 0, i, y[32*i +: 32]));
        check(amx, tmu_amx_load_lane32(amx, "z", 0, i, z[32*i +: 32]));
      end
    end else begin
      check(amx, tmu_amx_load_x_reg(amx, 0, x));
      check(amx, tmu_amx_load_y_reg(amx, 0, y));
      check(amx, tmu_amx_load_z_row(amx, 0, z));
    end
    check(amx, tmu_amx_execute(amx, operand));
    for (int i = 0; i < lanes; i++) begin
      automatic longint unsigned v = design_lane(expected, i == planted_lane);
      automatic int m;
      // Each arm a block of two statements: Verilator 5.006 turns arms that each only assign m
      // (and a ?:) into one expression that makes every arm's call, each recording a comparison.
      if (width == 32) begin
        m = tmu_amx_compare_lane32(amx, "z", 0, i, 32'(v));
        check(amx, m);
      end else if (width == 16) begin
        m = tmu_amx_compare_lane16(amx, "z", 0, i, 16'(v));
        check(amx, m);
      end else begin
        m = tmu_amx_compare_lane64(amx, "z", 0, i, v);
        check(amx, m);
      end
      if (m != 0) $display("tmu_dpi_lanes: amx f%0d z 0 lane %0d: %0d mismatch", width, i, m);
      amx_mismatches += longint'(m);
    end
  endtask

  // PTO (cpusim): TADD c = a + b on one row, element by element through tmu_pto_load_elem and
  // tmu_pto_compare_elem. f32 lanes: 1.5 + 0.25 = 1.75 = 1.75 * 2^0 -> exponent 0x7F, fraction .75 =
  // 0x600000: 0x3FE00000. i16 lanes: 100 * c + (-7) = 100c - 7, as 16 bits (c = 0: 0xFFF9).
  task automatic pto_add(string type_name, int lane_bits, int lanes, int planted_elem);
    check(pto, tmu_eng_declare(pto, $sformatf("%sa %s 1x%0d", type_name, type_name, lanes)));
    check(pto, tmu_eng_declare(pto, $sformatf("%sb %s 1x%0d", type_name, type_name, lanes)));
    check(pto, tmu_eng_declare(pto, $sformatf("%sc %s 1x%0d", type_name, type_name, lanes)));
    for (int c = 0; c < lanes; c++) begin
      check(pto, tmu_pto_load_elem(pto, {type_name, "a"}, 0, c, lane_bits,
                                   lane_bits == 32 ? 64'h3FC00000 : 64'($unsigned(16'(100 * c)))));
      check(pto, tmu_pto_load_elem(pto, {type_name, "b"}, 0, c, lane_bits,
                                   lane_bits == 32 ? 64'h3E800000 : 64'($unsigned(16'(-7)))));
    end
    check(pto, tmu_eng_execute(pto, $sformatf("TADD %sc %sa %sb", type_name, type_name, type_name)));
    for (int c = 0; c < lanes; c++) begin
      automatic longint unsigned sum = lane_bits == 32 ? 64'h3FE00000 : 64'($unsigned(16'(100 * c - 7)));
      automatic longint unsigned v = design_lane(sum, c == planted_elem);
      automatic int m = tmu_pto_compare_elem(pto, {type_name, "c"}, 0, c, lane_bits, lane_bits == 16 ? 64'(16'(v)) : v);
      check(pto, m);
      if (m != 0) $display("tmu_dpi_lanes: pto %s c 0 %0d: %0d mismatch", type_name, c, m);
      pto_mismatches += longint'(m);
    end
  endtask

  initial begin
    plant = $test$plusargs("plant") != 0;
    amx_mismatches = 0;
    pto_mismatches = 0;
    amx = tmu_eng_create("amx", "M1", "sv_lanes", 1);
    if (amx == null) $fatal(1, "%s", tmu_eng_last_error(null));
    amx_step(32, 64'h0000100000000000, 64'h3FC00000, 64'h40000000, 64'h3E800000, 64'h40500000, 5);
    amx_step(16, 64'h0000000000000000, 64'h3E00, 64'h4000, 64'h3400, 64'h4280, 17);
    amx_step(64, 64'h00001C0000000000, 64'h3FF8000000000000, 64'h4000000000000000, 64'h3FD0000000000000,
             64'h400A000000000000, 3);
    pto = tmu_eng_create("pto", "cpusim", "sv_lanes", 1);
    if (pto == null) $fatal(1, "%s", tmu_eng_last_error(null));
    pto_add("f32", 32, 8, 6);
    pto_add("i16", 16, 16, 9);
    if (amx_mismatches != 0) $display("%s", tmu_eng_report(amx));
    if (pto_mismatches != 0) $display("%s", tmu_eng_report(pto));
    // The calls' counts and the scoreboards' own must agree: no comparison went unseen.
    if (tmu_eng_mismatch_count(amx) != amx_mismatches || tmu_eng_mismatch_count(pto) != pto_mismatches)
      $fatal(1, "tmu_dpi_lanes: mismatches (amx/pto) counted by the scoreboards %0d/%0d, returned by the calls %0d/%0d",
             tmu_eng_mismatch_count(amx), tmu_eng_mismatch_count(pto), amx_mismatches, pto_mismatches);
    pass_o = amx_mismatches == 0 && pto_mismatches == 0;
    $display("tmu_dpi_lanes: %s amx_mismatches=%0d pto_mismatches=%0d", pass_o ? "PASS" : "FAIL", amx_mismatches,
             pto_mismatches);
    tmu_eng_destroy(amx);
    tmu_eng_destroy(pto);
  end
endmodule

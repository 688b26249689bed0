// tmu_gmpool_column: one column j of GMPOOL, pipelined in two register stages (refmodel
// src/fpu/gmpool_compare.cpp gmpool_column and gmpool_other_row_value):
//
//   compare  each of the 16 SrcA datums of the column scaled by the exponent of its SrcB element
//            (gmpool_read_and_scale_src), the running maximum read from the top Dst row
//            (gmpool_read_dst), and two comparison trees (gmpool_candidate_wins): the Dst value
//            with the first eight visited rows (4..7, 0..3, which also decide the argmax index),
//            and rows 8..15                                          -> first_q, last_q, index_q
//   write    the later group against the earlier one, the winner packed in the Dst style with the
//            argmax index and index phase (gmpool_write_dst)     -> row0_o, index_phases_o
//
// The model folds the 17 values one after the other, a candidate replacing the maximum when its
// key is >= the maximum's. That is "the last value in visit order with the greatest key", which an
// order-keeping tree computes with the same rule at every node (the later operand wins a tie).
// Each value travels as its sign and an unsigned 20-bit key ordered like the model's signed
// key: {1, magnitude} for a positive value or a zero of either sign, {0, ~magnitude} for a
// negative one. The sign is kept beside the key only for -0, whose key equals +0's.
//
// The mode comes from tmu_gmpool_unit (the *_compare inputs belong to the operation entering the
// compare stage, the *_write ones to the operation entering the write stage); the Dst style of the running maximum
// (fpu::gmpool_dst_style) arrives as flags: INT32, FP16, TF32, and BF16 when none is set.
// Registers load only with their stage's valid, so an idle unit does not toggle, and the
// stages' logic is evaluated only then, so an idle unit costs a simulator next to nothing
// (docs/cosim.md "Writing RTL that simulates fast").
module tmu_gmpool_column (
  input  logic                                           clk_i,
  input  logic                                           rst_ni,

  // ---- compare stage ----
  input  logic                                           compare_valid_i,
  // Datum i in bits [i*SrcDatumW +: SrcDatumW]: SrcA[srca_row + i][j], and SrcB[srcb_row][i],
  // which scales SrcA row i (SrcB's row is transposed onto SrcA's rows).
  input  logic [tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] srca_col_i,
  input  logic [tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] srcb_row_i,
  // Dst[dst_row + k][j] in bits [k*32 +: 32], k = 0..3, as read (16-bit views in the low half).
  input  logic [4*32-1:0]                                dst_col_i,
  input  tmu_pkg::src_style_e                            srca_style_compare_i,
  input  logic                                           dst32_compare_i,
  input  logic                                           argmax_compare_i,
  input  logic                                           int32_compare_i,
  input  logic                                           fp16_compare_i,
  input  logic                                           tf32_compare_i,

  // ---- write stage ----
  input  logic                                           write_valid_i,
  input  logic                                           dst32_write_i,
  input  logic                                           argmax_write_i,
  input  logic                                           int32_write_i,
  input  logic                                           fp16_write_i,
  input  logic                                           tf32_write_i,

  // The new stored value of the top row (16-bit views in the low half), and of rows 1..3 only
  // bits 11:8 (the argmax index phase; everything else is written as zero): row k at
  // [(k-1)*4 +: 4].
  output logic [31:0]                                    row0_o,
  output logic [11:0]                                    index_phases_o
);

  localparam int unsigned Rows    = tmu_pkg::SrcCols;  // the SrcA block's 16 rows
  localparam int unsigned DatumW  = tmu_pkg::SrcDatumW;
  localparam int unsigned KeyW    = 20;                // 9 exponent + 10 mantissa bits + order bit
  localparam int unsigned CandW   = 1 + KeyW;          // {sign, key}
  localparam int unsigned HalfW   = 8;                 // values per comparison tree

  // GMPOOL.md's "minus infinity" (sign 1, every exponent and mantissa bit set) as a candidate:
  // the smallest key. A +0 candidate: sign 0, order bit set, magnitude 0.
  localparam logic [CandW-1:0] MinusInfinity = {1'b1, {KeyW{1'b0}}};
  localparam logic [CandW-1:0] PlusZero      = {2'b01, {(KeyW-1){1'b0}}};

  // {sign, key} of the datum (sign, exponent, mantissa); see the header for the key.
  function automatic logic [CandW-1:0] candidate(input logic sign, input logic [8:0] exponent,
                                                 input logic [9:0] mantissa);
    logic [KeyW-2:0] magnitude;
    logic            negative;
    magnitude = {exponent, mantissa};
    negative  = sign & (|magnitude);
    candidate = {sign, ~negative, magnitude ^ {(KeyW-1){negative}}};
  endfunction

  // The later of two values in visit order replaces the earlier on an equal key.
  function automatic logic later_wins(input logic [KeyW-1:0] earlier, input logic [KeyW-1:0] later);
    later_wins = later >= earlier;
  endfunction

  // GMPOOL.md's argmax index of SrcA row 0..7: 0, 3, 6, 1, 4, 7, 2, 5, which is (3 * row) mod 8.
  function automatic logic [2:0] argmax_index(input logic [2:0] row);
    argmax_index = {row[1:0], 1'b0} + row;
  endfunction

  // ---- compare stage: scale SrcA by SrcB ----
  // Candidate s in visit order: steps 0..7 are rows 4..7, 0..3 (row = step ^ 4), then 8..15.
  logic [Rows*CandW-1:0] visit;
  logic                  style_fp16_compare, style_int8_compare, style_bf16_compare;
  logic [Rows*(DatumW-8)-1:0] unused_srcb_sign_mantissa;  // only SrcB's exponent scales

  assign style_fp16_compare = (srca_style_compare_i == tmu_pkg::SRC_STYLE_FP16);
  assign style_int8_compare = (srca_style_compare_i == tmu_pkg::SRC_STYLE_INT8);
  assign style_bf16_compare = (srca_style_compare_i == tmu_pkg::SRC_STYLE_BF16);

  for (genvar r = 0; r < Rows; r++) begin : g_scale
    localparam int unsigned Step = (r < HalfW) ? (r ^ 4) : r;
    // Datum fields (tmu_pkg::src_datum_t: sign 18, mantissa 17:8, exponent 7:0), taken apart by
    // hand: Yosys 0.23 reads no struct variables in generate blocks.
    logic [DatumW-1:0] a, b;
    logic [8:0]        exp_a, exp_b, exponent;
    logic [9:0]        mantissa;
    logic [CandW-1:0]  cand;

    assign a = srca_col_i[r*DatumW +: DatumW];
    assign b = srcb_row_i[r*DatumW +: DatumW];
    assign unused_srcb_sign_mantissa[r*(DatumW-8) +: DatumW-8] = b[DatumW-1:8];

    always_comb begin
      exp_a    = 'x;
      exp_b    = 'x;
      exponent = 'x;
      mantissa = 'x;
      cand     = 'x;
      if (compare_valid_i) begin
        // FP16 (and INT8) exponents are five bits; the sum keeps nine, like the model's mask.
        exp_a    = style_fp16_compare ? {4'd0, a[4:0]} : {1'b0, a[7:0]};
        exp_b    = style_fp16_compare ? {4'd0, b[4:0]} : {1'b0, b[7:0]};
        exponent = style_int8_compare ? 9'd0 : exp_a + exp_b;
        mantissa = style_bf16_compare ? {a[17:11], 3'd0} : a[17:8];
        // Whole 8-bit exponent fields decide "scaled by zero" and "SrcA is zero", in every style.
        if (b[7:0] == 8'd0) begin
          cand = MinusInfinity;
        end else if (a[7:0] == 8'd0) begin
          cand = PlusZero;
        end else begin
          cand = candidate(a[18], exponent, mantissa);
        end
      end
    end

    assign visit[Step*CandW +: CandW] = cand;
  end

  // ---- compare stage: read the running maximum from the top Dst row ----
  logic [31:0]      dst_value;  // a 16-bit view moved to the high half, as the model compares it
  logic [8:0]       dst_exponent;
  logic [9:0]       dst_mantissa;
  logic [CandW-1:0] dst_cand;
  logic [3:0]       index_phase_compare;  // the argmax index phase: Dst bits 11:8 advanced by one

  assign dst_value = dst32_compare_i ? dst_col_i[0 +: 32] : {dst_col_i[0 +: 16], 16'd0};
  assign index_phase_compare = dst_value[11:8] + 4'd1;

  always_comb begin
    dst_exponent = 'x;
    dst_mantissa = 'x;
    if (compare_valid_i) begin
      if (int32_compare_i) begin
        // Sign-magnitude: magnitude bits 9:0 and 15:10 in the low half, 18:16 at 26:24.
        dst_exponent = {dst_value[26:24], dst_value[15:10]};
        dst_mantissa = dst_value[9:0];
      end else if (fp16_compare_i) begin
        dst_exponent = {4'd0, dst_value[20:16]} + 9'd15;
        dst_mantissa = dst_value[30:21];
      end else begin
        // BF16 is the high half of TF32; TF32 adds the next three mantissa bits from the low half.
        dst_exponent = {1'b0, dst_value[23:16]} + 9'd127;
        dst_mantissa = {dst_value[30:24], tf32_compare_i ? dst_value[15:13] : 3'd0};
      end
    end
  end
  assign dst_cand = candidate(dst_value[31], dst_exponent, dst_mantissa);

  // ---- compare stage: the two comparison trees ----
  // Level sizes 8 -> 4 -> 2 -> 1; the first tree also tracks the winning step.
  logic [4*CandW-1:0] first_l1, last_l1;
  logic [2*CandW-1:0] first_l2, last_l2;
  logic [CandW-1:0]   first_l3, last_l3;
  logic [4*1-1:0]     step_l1;
  logic [2*2-1:0]     step_l2;
  logic [2:0]         step_l3;
  logic               l1_pick, l2_pick, l3_pick;

  always_comb begin
    first_l1 = 'x;
    last_l1  = 'x;
    first_l2 = 'x;
    last_l2  = 'x;
    first_l3 = 'x;
    last_l3  = 'x;
    step_l3  = 'x;
    l3_pick  = 'x;
    step_l1  = 'x;
    step_l2  = 'x;
    l1_pick  = 1'bx;
    l2_pick  = 1'bx;
    if (compare_valid_i) begin
      for (int unsigned k = 0; k < 4; k++) begin
        l1_pick = later_wins(visit[(2*k)*CandW +: KeyW], visit[(2*k + 1)*CandW +: KeyW]);
        first_l1[k*CandW +: CandW] = l1_pick ? visit[(2*k + 1)*CandW +: CandW]
                                             : visit[(2*k)*CandW +: CandW];
        step_l1[k] = l1_pick;
        last_l1[k*CandW +: CandW] =
            later_wins(visit[(HalfW + 2*k)*CandW +: KeyW], visit[(HalfW + 2*k + 1)*CandW +: KeyW])
                ? visit[(HalfW + 2*k + 1)*CandW +: CandW] : visit[(HalfW + 2*k)*CandW +: CandW];
      end
      for (int unsigned k = 0; k < 2; k++) begin
        l2_pick = later_wins(first_l1[(2*k)*CandW +: KeyW], first_l1[(2*k + 1)*CandW +: KeyW]);
        first_l2[k*CandW +: CandW] = l2_pick ? first_l1[(2*k + 1)*CandW +: CandW]
                                             : first_l1[(2*k)*CandW +: CandW];
        step_l2[k*2 +: 2] = l2_pick ? {1'b1, step_l1[2*k + 1]} : {1'b0, step_l1[2*k]};
        last_l2[k*CandW +: CandW] =
            later_wins(last_l1[(2*k)*CandW +: KeyW], last_l1[(2*k + 1)*CandW +: KeyW])
                ? last_l1[(2*k + 1)*CandW +: CandW] : last_l1[(2*k)*CandW +: CandW];
      end
      l3_pick  = later_wins(first_l2[0 +: KeyW], first_l2[CandW +: KeyW]);
      first_l3 = l3_pick ? first_l2[CandW +: CandW] : first_l2[0 +: CandW];
      step_l3  = l3_pick ? {1'b1, step_l2[2 +: 2]} : {1'b0, step_l2[0 +: 2]};
      last_l3  = later_wins(last_l2[0 +: KeyW], last_l2[CandW +: KeyW]) ? last_l2[CandW +: CandW]
                                                                           : last_l2[0 +: CandW];
    end
  end

  // The Dst value comes before every row. When a row of the first group wins, the index is that
  // row's; otherwise the Dst value's own low byte stays (rows 8..15 never set an index).
  logic             rows_win;
  logic [CandW-1:0] first, first_d, first_q, last_d, last_q;
  logic [7:0]       index, index_d, index_q;
  logic [3:0]       index_phase_d, index_phase_q;
  logic [11:0]      index_phases, index_phases_d, index_phases_q;

  assign rows_win = later_wins(dst_cand[KeyW-1:0], first_l3[KeyW-1:0]);
  assign first    = rows_win ? first_l3 : dst_cand;
  assign index    = rows_win ? {index_phase_compare, 1'b0, argmax_index(step_l3 ^ 3'd4)}
                           : dst_value[7:0];

  // Rows 1..3: with argmax and a 32-bit Dst, the index phase advanced from what the row held.
  for (genvar k = 1; k < 4; k++) begin : g_other_row
    logic [31:0] previous;
    logic [27:0] unused_previous;  // only the index phase bits carry over
    assign previous = dst_col_i[k*32 +: 32];
    assign unused_previous = {previous[31:12], previous[7:0]};
    assign index_phases[(k-1)*4 +: 4] =
        (dst32_compare_i && argmax_compare_i) ? previous[11:8] + 4'd1 : 4'd0;
  end

  assign first_d        = compare_valid_i ? first : first_q;
  assign last_d         = compare_valid_i ? last_l3 : last_q;
  assign index_d        = compare_valid_i ? index : index_q;
  assign index_phase_d  = compare_valid_i ? index_phase_compare : index_phase_q;
  assign index_phases_d = compare_valid_i ? index_phases : index_phases_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      first_q        <= '0;
      last_q         <= '0;
      index_q        <= '0;
      index_phase_q  <= '0;
      index_phases_q <= '0;
    end else begin
      first_q        <= first_d;
      last_q         <= last_d;
      index_q        <= index_d;
      index_phase_q  <= index_phase_d;
      index_phases_q <= index_phases_d;
    end
  end

  // ---- write stage: final comparison and the Dst write ----
  logic [CandW-1:0] best;
  logic             best_sign, best_negative;
  logic [8:0]       best_exponent;
  logic [9:0]       best_mantissa;
  logic [31:0]      written, index_word, value;
  logic [31:0]      row0, row0_d, row0_q;

  assign best          = later_wins(first_q[KeyW-1:0], last_q[KeyW-1:0]) ? last_q : first_q;
  assign best_sign     = best[CandW-1];
  assign best_negative = ~best[KeyW-1];
  assign {best_exponent, best_mantissa} = best[KeyW-2:0] ^ {(KeyW-1){best_negative}};
  assign index_word    = {20'd0, index_phase_q, index_q};

  always_comb begin
    written = 'x;
    value   = 'x;
    row0    = 'x;
    if (write_valid_i) begin
      written = '0;
      if (int32_write_i) begin
        // Only 13 magnitude bits come back: the mantissa and three exponent bits.
        written = {best_sign, 18'd0, best_exponent[2:0], best_mantissa};
      end else if (fp16_write_i) begin
        // Removing the bias wraps when SrcB's scale was not 1.0; five bits are kept.
        if (best_exponent[5:0] != 6'd0) begin
          written = {best_sign, best_mantissa, best_exponent[4:0] - 5'd15, 16'd0};
        end
      end else if (best_exponent != 9'd0) begin
        written = {best_sign, best_mantissa[9:3], best_exponent[7:0] - 8'd127,
                   tf32_write_i ? best_mantissa[2:0] : 3'd0, 13'd0};
      end
      value = written;
      if (argmax_write_i) begin
        // An INT32-style maximum (INT8, or TF32 with argmax) leaves only the index.
        value = int32_write_i ? index_word : (written | index_word);
      end
      row0 = dst32_write_i ? value : {16'd0, value[31:16]};
    end
  end

  logic [11:0] result_index_phases_d, result_index_phases_q;

  assign row0_d                = write_valid_i ? row0 : row0_q;
  assign result_index_phases_d = write_valid_i ? index_phases_q : result_index_phases_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      row0_q                <= '0;
      result_index_phases_q <= '0;
    end else begin
      row0_q                <= row0_d;
      result_index_phases_q <= result_index_phases_d;
    end
  end

  assign row0_o         = row0_q;
  assign index_phases_o = result_index_phases_q;

endmodule

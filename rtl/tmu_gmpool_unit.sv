// tmu_gmpool_unit: GMPOOL for one instruction (refmodel src/insn/gmpool.cpp): per column the
// maximum of the 16 SrcA rows, each scaled by the exponent of its SrcB element, folded into the
// top row of the aligned 4-row Dst block, optionally with the argmax index; rows 1..3 of the block
// get what gmpool.cpp writes there. Bit-exact with fpu::gmpool_column / gmpool_other_row_value.
//
// Pipeline (valid_i in cycle t -> valid_o in cycle t + Latency, one operation per cycle):
//   compare   scale and the two comparison trees (in the columns) -> column registers
//   write     final comparison, Dst packing                       -> column result registers
//   delay     Latency - 2 further register stages on the compact result (row 0's value and the
//             index phase bits of rows 1..3, the only bits of those rows that can be non-zero)
// The mode is held once here and travels beside the data, so back-to-back operations may each
// have their own mode.
module tmu_gmpool_unit #(
  parameter int unsigned Latency = 4  // cycles from valid_i to valid_o, at least 2
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,

  input  logic                                valid_i,
  // SrcA[srca_row + i][j] in bits [(i*16 + j)*SrcDatumW +: SrcDatumW].
  input  logic [16*16*tmu_pkg::SrcDatumW-1:0] srca_i,
  // SrcB[srcb_row][i] in bits [i*SrcDatumW +: SrcDatumW]; element i scales SrcA row i.
  input  logic [16*tmu_pkg::SrcDatumW-1:0]    srcb_i,
  // Dst[dst_row + k][j] in bits [(k*16 + j)*32 +: 32], k = 0..3, as read with GMPOOL's identity
  // for invalid rows (16-bit views in the low half).
  input  logic [4*16*32-1:0]                  dst_i,
  input  tmu_pkg::src_style_e                 srca_style_i,
  input  logic                                dst32_i,
  input  logic                                argmax_i,

  output logic                                valid_o,
  output logic [4*16*32-1:0]                  dst_o  // the 4 rows' new stored values
);

  localparam int unsigned Cols        = tmu_pkg::DstCols;
  localparam int unsigned Rows        = tmu_pkg::SrcCols;  // SrcA rows per column
  localparam int unsigned DatumW      = tmu_pkg::SrcDatumW;
  localparam int unsigned ColResultW  = 32 + 3*4;  // row 0's value, rows 1..3's index phases
  localparam int unsigned ResultW     = Cols * ColResultW;

  // ---- the write stage's valid and mode ----
  logic               write_valid;  // from u_pipe
  // The Dst style of the running maximum (fpu::gmpool_dst_style) as flags; BF16 when none is set.
  logic               int32_compare, fp16_compare, tf32_compare;
  logic               dst32_d, dst32_q, argmax_d, argmax_q;
  logic               int32_d, int32_q, fp16_d, fp16_q, tf32_d, tf32_q;

  always_comb begin
    // INT8 always keeps an integer maximum, TF32 with argmax keeps only the index; a float
    // maximum is stored TF32 in a 32-bit Dst unless argmax shares the word with the index.
    int32_compare = (srca_style_i == tmu_pkg::SRC_STYLE_INT8) ||
                    ((srca_style_i == tmu_pkg::SRC_STYLE_TF32) && argmax_i);
    tf32_compare  = !int32_compare && dst32_i && !argmax_i;
    fp16_compare  = (srca_style_i == tmu_pkg::SRC_STYLE_FP16) && !tf32_compare;
    dst32_d  = valid_i ? dst32_i : dst32_q;
    argmax_d = valid_i ? argmax_i : argmax_q;
    int32_d  = valid_i ? int32_compare : int32_q;
    fp16_d   = valid_i ? fp16_compare : fp16_q;
    tf32_d   = valid_i ? tf32_compare : tf32_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dst32_q  <= 1'b0;
      argmax_q <= 1'b0;
      int32_q  <= 1'b0;
      fp16_q   <= 1'b0;
      tf32_q   <= 1'b0;
    end else begin
      dst32_q  <= dst32_d;
      argmax_q <= argmax_d;
      int32_q  <= int32_d;
      fp16_q   <= fp16_d;
      tf32_q   <= tf32_d;
    end
  end

  // ---- the columns ----
  logic [ResultW-1:0] results;  // column j at [j*ColResultW +: ColResultW]: {index_phases, row 0}

  for (genvar j = 0; j < Cols; j++) begin : g_col
    logic [Rows*DatumW-1:0] srca_col;
    logic [4*32-1:0]        dst_col;

    for (genvar i = 0; i < Rows; i++) begin : g_row
      assign srca_col[i*DatumW +: DatumW] = srca_i[(i*Cols + j)*DatumW +: DatumW];
    end
    for (genvar k = 0; k < 4; k++) begin : g_dst
      assign dst_col[k*32 +: 32] = dst_i[(k*Cols + j)*32 +: 32];
    end

    tmu_gmpool_column u_column (
      .clk_i                (clk_i),
      .rst_ni               (rst_ni),
      .compare_valid_i      (valid_i),
      .srca_col_i           (srca_col),
      .srcb_row_i           (srcb_i),
      .dst_col_i            (dst_col),
      .srca_style_compare_i (srca_style_i),
      .dst32_compare_i      (dst32_i),
      .argmax_compare_i     (argmax_i),
      .int32_compare_i      (int32_compare),
      .fp16_compare_i       (fp16_compare),
      .tf32_compare_i       (tf32_compare),
      .write_valid_i        (write_valid),
      .dst32_write_i        (dst32_q),
      .argmax_write_i       (argmax_q),
      .int32_write_i        (int32_q),
      .fp16_write_i         (fp16_q),
      .tf32_write_i         (tf32_q),
      .row0_o               (results[j*ColResultW +: 32]),
      .index_phases_o       (results[j*ColResultW + 32 +: 12])
    );
  end

  // ---- the result stages ----
  logic [ResultW-1:0] delayed;

  tmu_unit_pipe #(.Width (ResultW), .Latency (Latency)) u_pipe (
    .clk_i, .rst_ni, .valid_i, .second_valid_o (write_valid),
    .result_i (results), .valid_o, .result_o (delayed)
  );

  // ---- the 4 Dst rows: rows 1..3 hold only their index phase at bits 11:8 ----
  for (genvar j = 0; j < Cols; j++) begin : g_out
    localparam int unsigned Base = j*ColResultW;
    assign dst_o[j*32 +: 32] = delayed[Base +: 32];
    for (genvar k = 1; k < 4; k++) begin : g_other_row
      assign dst_o[(k*Cols + j)*32 +: 32] = {20'd0, delayed[Base + 32 + (k-1)*4 +: 4], 8'd0};
    end
  end

`ifndef SYNTHESIS
  if (Cols != Rows) begin : g_shape_check
    $error("tmu_gmpool_unit: SrcA is addressed as a 16 x 16 block");
  end
`endif

endmodule

// tmu_mvmul_block: the Matrix Unit's multiplier array for MVMUL / DOTPV / GAPOOL, Rows x 16 output
// elements, each a tmu_mvmul_element: Dst[i][j] += sum_k SrcB[i][k] * SrcA[k][j] for one fidelity
// phase, bit-exact with the refmodel's fpu::mvmul_block / mvmul_element, for the float styles and
// INT8 math (int8_i: integer "8" sources, sign-magnitude INT32 Dst with saturation, int8_math.cpp).
// INT8 math always works on the Dst32 view: dst_i must then hold what read_dst32 returns, and the
// result is what write_dst32 stores, whatever dst32_i says.
//
// Pipeline (valid_i in cycle t -> valid_o in cycle t + Latency, one operation per cycle):
//   term      multiply + group sums (in the elements)       -> element registers
//   accum     accumulate with Dst + normalise + round        -> element result registers
//   delay     Latency - 2 further register stages on the result, the slots a full unit spends
//             reading Src/Dst and writing Dst back (MatrixUnit.md: MVMUL latency 5)
// The mode is held once here and travels beside the data, so back-to-back operations may each
// have their own mode.
module tmu_mvmul_block #(
  parameter int unsigned Rows    = 8,  // output rows per operation: 8 for MVMUL
  parameter int unsigned Latency = 5   // cycles from valid_i to valid_o, at least 2
) (
  input  logic                                        clk_i,
  input  logic                                        rst_ni,

  input  logic                                        valid_i,
  // SrcA[k][j] in bits [(k*16 + j)*SrcDatumW +: SrcDatumW]: the instruction's 16 x 16 SrcA block.
  input  logic [16*16*tmu_pkg::SrcDatumW-1:0]         srca_i,
  // SrcB[i][k] in bits [(i*16 + k)*SrcDatumW +: SrcDatumW]: the SrcB row output row i dots with.
  input  logic [Rows*16*tmu_pkg::SrcDatumW-1:0]       srcb_i,
  // Dst[i][j] as stored in bits [(i*16 + j)*32 +: 32] (16-bit formats in the low half).
  input  logic [Rows*16*32-1:0]                       dst_i,
  input  tmu_pkg::src_style_e                         srca_style_i,
  input  tmu_pkg::src_style_e                         srcb_style_i,
  input  logic                                        dst32_i,
  input  tmu_pkg::fidelity_phase_t                    phase_i,
  input  tmu_pkg::arch_e                              arch_i,
  input  logic                                        int8_i,  // INT8 math: SrcA style INT8
  // ALU_ACC_CTRL_Zero_Flag_disabled_src: no effect on MVMUL (see tmu_mvmul_element).
  input  logic                                        zero_flag_disabled_i,

  output logic                                        valid_o,
  output logic [Rows*16*32-1:0]                       dst_o  // the new stored Dst values
);

  localparam int unsigned Cols        = tmu_pkg::DstCols;
  localparam int unsigned Dot         = tmu_pkg::SrcCols;
  localparam int unsigned DatumW      = tmu_pkg::SrcDatumW;
  localparam int unsigned ValueW      = 32;
  localparam int unsigned BlockW      = Rows * Cols * ValueW;

  // ---- the accum stage's valid and mode ----
  logic                     accum_valid;
  tmu_pkg::dst_format_e     dst_format_term, dst_format_accum;
  logic                     dst32_accum, exponent_8b_accum, quirk_accum, int8_accum;
  tmu_pkg::fidelity_phase_t phase_accum;  // INT8: the slices' bit position

  tmu_accum_mode u_accum_mode (
    .clk_i, .rst_ni, .valid_i,
    .srca_style_i, .dst32_i, .int8_i, .phase_i, .arch_i,
    .dst_format_term_o (dst_format_term),
    .dst32_o (dst32_accum), .exponent_8b_o (exponent_8b_accum), .minus_one_quirk_o (quirk_accum),
    .int8_o (int8_accum), .dst_format_o (dst_format_accum), .phase_o (phase_accum)
  );

  // ---- the elements ----
  logic [BlockW-1:0] results;

  for (genvar j = 0; j < Cols; j++) begin : g_col
    logic [Dot*DatumW-1:0] srca_col;
    for (genvar k = 0; k < Dot; k++) begin : g_dot
      assign srca_col[k*DatumW +: DatumW] = srca_i[(k*Cols + j)*DatumW +: DatumW];
    end

    for (genvar i = 0; i < Rows; i++) begin : g_row
      tmu_mvmul_element u_element (
        .clk_i                    (clk_i),
        .rst_ni                   (rst_ni),
        .term_valid_i             (valid_i),
        .srca_col_i               (srca_col),
        .srcb_row_i               (srcb_i[i*Dot*DatumW +: Dot*DatumW]),
        .dst_stored_i             (dst_i[(i*Cols + j)*ValueW +: ValueW]),
        .srca_style_term_i        (srca_style_i),
        .srcb_style_term_i        (srcb_style_i),
        .dst32_term_i             (dst32_i),
        .phase_term_i             (phase_i),
        .dst_format_term_i        (dst_format_term),
        .int8_term_i              (int8_i),
        .zero_flag_disabled_term_i(zero_flag_disabled_i),
        .accum_valid_i            (accum_valid),
        .dst32_accum_i            (dst32_accum),
        .exponent_8b_accum_i      (exponent_8b_accum),
        .minus_one_quirk_accum_i  (quirk_accum),
        .dst_format_accum_i       (dst_format_accum),
        .int8_accum_i             (int8_accum),
        .phase_accum_i            (phase_accum),
        .result_o                 (results[(i*Cols + j)*ValueW +: ValueW])
      );
    end
  end

  // ---- the result stages ----
  tmu_unit_pipe #(.Width (BlockW), .Latency (Latency)) u_pipe (
    .clk_i, .rst_ni, .valid_i, .second_valid_o (accum_valid),
    .result_i (results), .valid_o, .result_o (dst_o)
  );

`ifndef SYNTHESIS
  if (Cols != Dot) begin : g_shape_check
    $error("tmu_mvmul_block: SrcA is addressed as a 16 x 16 block");
  end
  // The slices pick their INT8 slices by SrcA's style (refmodel is_int8_math), the rest of the
  // element by int8_i: the two must agree.
  a_int8_style: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i |-> (int8_i == (srca_style_i == tmu_pkg::SRC_STYLE_INT8)));
`endif

endmodule

// tmu_mac_array: the Matrix Unit's multiplier array for MVMUL / DOTPV / GAPOOL, Rows x 16 output
// elements, each a tmu_mac_element: Dst[i][j] += sum_k SrcB[i][k] * SrcA[k][j] for one fidelity
// phase, bit-exact with the refmodel's fpu::mvmul_block / mvmul_element, for the float styles and
// INT8 math (int8_i: integer "8" sources, sign-magnitude INT32 Dst with saturation, int8_math.cpp).
// INT8 math always works on the Dst32 view: dst_i must then hold what read_dst32 returns, and the
// result is what write_dst32 stores, whatever dst32_i says.
//
// Pipeline (valid_i in cycle t -> valid_o in cycle t + Latency, one operation per cycle):
//   stage 1   multiply + group sums (in the elements)       -> element registers
//   stage 2   accumulate with Dst + normalise + round        -> element result registers
//   delay     Latency - 2 further register stages on the result, the slots a full unit spends
//             reading Src/Dst and writing Dst back (MatrixUnit.md: MVMUL latency 5)
// The mode is held once here and travels beside the data, so back-to-back operations may each
// have their own mode.
module tmu_mac_array #(
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
  // ALU_ACC_CTRL_Zero_Flag_disabled_src: no effect on MVMUL (see tmu_mac_element).
  input  logic                                        zero_flag_disabled_i,

  output logic                                        valid_o,
  output logic [Rows*16*32-1:0]                       dst_o  // the new stored Dst values
);

  localparam int unsigned Cols        = tmu_pkg::DstCols;
  localparam int unsigned Dot         = tmu_pkg::SrcCols;
  localparam int unsigned DatumW      = tmu_pkg::SrcDatumW;
  localparam int unsigned ValueW      = 32;
  localparam int unsigned BlockW      = Rows * Cols * ValueW;
  localparam int unsigned DelayStages = (Latency > 2) ? Latency - 2 : 0;

  // ---- valid and mode pipeline ----
  // valid_q[0]: an operation is in stage 2; valid_q[1]: its result is registered; valid_q[1 + m]:
  // it is in delay stage m.
  logic [Latency-1:0]       valid_d, valid_q;
  tmu_pkg::dst_format_e     dst_format_s1;
  logic                     dst32_d, dst32_q;
  logic                     exponent_8b_d, exponent_8b_q;
  logic                     quirk_d, quirk_q;
  tmu_pkg::dst_format_e     dst_format_d, dst_format_q;
  logic                     int8_d, int8_q;
  tmu_pkg::fidelity_phase_t phase_d, phase_q;  // INT8: the slices' bit position

  always_comb begin
    valid_d       = {valid_q[Latency-2:0], valid_i};
    // INT32's sign and 31 magnitude bits sit where FP32 keeps its sign, exponent and mantissa
    // (formats.cpp dst32_to_int32 goes through dst32_to_fp32), so INT8 math reads and writes Dst
    // through the FP32 layout.
    dst_format_s1 = int8_i ? tmu_pkg::DST_FP32 : tmu_pkg::dst_format(srca_style_i, dst32_i);
    dst32_d       = dst32_q;
    exponent_8b_d = exponent_8b_q;
    quirk_d       = quirk_q;
    dst_format_d  = dst_format_q;
    int8_d        = int8_q;
    phase_d       = phase_q;
    if (valid_i) begin
      dst32_d       = dst32_i;
      exponent_8b_d = tmu_pkg::has_8bit_exponent(srca_style_i);
      quirk_d       = tmu_pkg::has_minus_one_lsb_renormalisation_bug(arch_i);
      dst_format_d  = dst_format_s1;
      int8_d        = int8_i;
      phase_d       = phase_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q       <= '0;
      dst32_q       <= 1'b0;
      exponent_8b_q <= 1'b0;
      quirk_q       <= 1'b0;
      dst_format_q  <= tmu_pkg::DST_FP32;
      int8_q        <= 1'b0;
      phase_q       <= '0;
    end else begin
      valid_q       <= valid_d;
      dst32_q       <= dst32_d;
      exponent_8b_q <= exponent_8b_d;
      quirk_q       <= quirk_d;
      dst_format_q  <= dst_format_d;
      int8_q        <= int8_d;
      phase_q       <= phase_d;
    end
  end

  // ---- the elements ----
  logic [BlockW-1:0] results;

  for (genvar j = 0; j < Cols; j++) begin : g_col
    logic [Dot*DatumW-1:0] srca_col;
    for (genvar k = 0; k < Dot; k++) begin : g_dot
      assign srca_col[k*DatumW +: DatumW] = srca_i[(k*Cols + j)*DatumW +: DatumW];
    end

    for (genvar i = 0; i < Rows; i++) begin : g_row
      tmu_mac_element u_element (
        .clk_i                  (clk_i),
        .rst_ni                 (rst_ni),
        .s1_valid_i             (valid_i),
        .srca_col_i             (srca_col),
        .srcb_row_i             (srcb_i[i*Dot*DatumW +: Dot*DatumW]),
        .dst_stored_i           (dst_i[(i*Cols + j)*ValueW +: ValueW]),
        .srca_style_s1_i        (srca_style_i),
        .srcb_style_s1_i        (srcb_style_i),
        .dst32_s1_i             (dst32_i),
        .phase_s1_i             (phase_i),
        .dst_format_s1_i        (dst_format_s1),
        .int8_s1_i              (int8_i),
        .zero_flag_disabled_s1_i(zero_flag_disabled_i),
        .s2_valid_i             (valid_q[0]),
        .dst32_s2_i             (dst32_q),
        .exponent_8b_s2_i       (exponent_8b_q),
        .minus_one_quirk_s2_i   (quirk_q),
        .dst_format_s2_i        (dst_format_q),
        .int8_s2_i              (int8_q),
        .phase_s2_i             (phase_q),
        .result_o               (results[(i*Cols + j)*ValueW +: ValueW])
      );
    end
  end

  // ---- delay stages ----
  tmu_delay_line #(
    .Width(BlockW),
    .Depth(DelayStages)
  ) u_delay (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .valid_i(valid_q[Latency-1:1]),
    .data_i (results),
    .data_o (dst_o)
  );

  assign valid_o = valid_q[Latency-1];

`ifndef SYNTHESIS
  if (Latency < 2) begin : g_latency_check
    $error("tmu_mac_array: Latency must be at least 2 (two datapath register stages)");
  end
  if (Cols != Dot) begin : g_shape_check
    $error("tmu_mac_array: SrcA is addressed as a 16 x 16 block");
  end
  // The slices pick their INT8 slices by SrcA's style (refmodel is_int8_math), the rest of the
  // element by int8_i: the two must agree.
  a_int8_style: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i |-> (int8_i == (srca_style_i == tmu_pkg::SRC_STYLE_INT8)));
`endif

endmodule

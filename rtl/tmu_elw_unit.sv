// tmu_elw_unit: the Matrix Unit's element-wise unit for ELWMUL / ELWADD / ELWSUB on one aligned
// 8 x 16 block, each element a tmu_elw_element, bit-exact with the refmodel (src/insn/elw.cpp and
// the fpu::elw*_element / int8_elw*_element functions).
//
// Operands: SrcA[i][j] with SrcB[i][j], or SrcB row 0 for every row (bcast_row_i), column 0 for
// every column (bcast_col0_i), or both (one scalar). Dst is added when add_dst_i (the top drives
// 1 for ELWMUL, which always accumulates); otherwise it reads as 0.
//
// Pipeline (valid_i in cycle t -> valid_o in cycle t + Latency, one operation per cycle):
//   stage 1   operand multiply / add (in the elements)          -> element registers
//   stage 2   accumulate with Dst + normalise + round / saturate -> element result registers
//   delay     Latency - 2 further register stages on the result
// The mode is held once here and travels beside the data, so back-to-back operations may each
// have their own mode.
module tmu_elw_unit #(
  parameter int unsigned Latency = 4  // cycles from valid_i to valid_o, at least 2
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,

  input  logic                               valid_i,
  input  tmu_pkg::elw_op_e                   op_i,
  input  logic                               add_dst_i,
  input  logic                               bcast_row_i,   // BroadcastSrcBRow
  input  logic                               bcast_col0_i,  // BroadcastSrcBCol0
  // Row i, column j at [(i*16 + j)*SrcDatumW +: SrcDatumW].
  input  logic [8*16*tmu_pkg::SrcDatumW-1:0] srca_i,
  input  logic [8*16*tmu_pkg::SrcDatumW-1:0] srcb_i,
  // Dst[i][j] as read at [(i*16 + j)*32 +: 32] (16-bit views in the low half).
  input  logic [8*16*32-1:0]                 dst_i,
  input  tmu_pkg::src_style_e                srca_style_i,
  input  tmu_pkg::src_style_e                srcb_style_i,
  input  logic                               dst32_i,
  input  tmu_pkg::fidelity_phase_t           phase_i,
  input  tmu_pkg::arch_e                     arch_i,
  input  logic                               zero_flag_disabled_i,
  input  logic                               int8_i,        // INT8 math (Dst32 integers)

  output logic                               valid_o,
  output logic [8*16*32-1:0]                 dst_o  // the stored results
);

  localparam int unsigned Rows        = tmu_pkg::DstBlockRows;
  localparam int unsigned Cols        = tmu_pkg::DstCols;
  localparam int unsigned DatumW      = tmu_pkg::SrcDatumW;
  localparam int unsigned ValueW      = 32;
  localparam int unsigned BlockW      = Rows * Cols * ValueW;
  localparam int unsigned DelayStages = (Latency > 2) ? Latency - 2 : 0;

  // ---- valid and mode pipeline ----
  // valid_q[0]: an operation is in stage 2; valid_q[1]: its result is registered; valid_q[1 + m]:
  // it is in delay stage m.
  logic [Latency-1:0]   valid_d, valid_q;
  logic                 int8_s1;
  tmu_pkg::dst_format_e dst_format_s1;
  logic                 dst32_d, dst32_q;
  logic                 exponent_8b_d, exponent_8b_q;
  logic                 quirk_d, quirk_q;
  logic                 int8_d, int8_q;
  tmu_pkg::dst_format_e dst_format_d, dst_format_q;

  always_comb begin
    valid_d = {valid_q[Latency-2:0], valid_i};
    // SrcA style INT8 selects the integer path in the refmodel's element functions too.
    int8_s1 = int8_i || (srca_style_i == tmu_pkg::SRC_STYLE_INT8);
    // INT8 reads and writes Dst32's sign-magnitude layout, the FP32 one.
    dst_format_s1 = int8_s1 ? tmu_pkg::DST_FP32 : tmu_pkg::dst_format(srca_style_i, dst32_i);
    dst32_d       = dst32_q;
    exponent_8b_d = exponent_8b_q;
    quirk_d       = quirk_q;
    int8_d        = int8_q;
    dst_format_d  = dst_format_q;
    if (valid_i) begin
      dst32_d       = dst32_i;
      exponent_8b_d = tmu_pkg::has_8bit_exponent(srca_style_i);
      quirk_d       = tmu_pkg::has_minus_one_lsb_renormalisation_bug(arch_i);
      int8_d        = int8_s1;
      dst_format_d  = dst_format_s1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q       <= '0;
      dst32_q       <= 1'b0;
      exponent_8b_q <= 1'b0;
      quirk_q       <= 1'b0;
      int8_q        <= 1'b0;
      dst_format_q  <= tmu_pkg::DST_FP32;
    end else begin
      valid_q       <= valid_d;
      dst32_q       <= dst32_d;
      exponent_8b_q <= exponent_8b_d;
      quirk_q       <= quirk_d;
      int8_q        <= int8_d;
      dst_format_q  <= dst_format_d;
    end
  end

  // ---- the elements ----
  logic [BlockW-1:0] results;

  for (genvar i = 0; i < Rows; i++) begin : g_row
    for (genvar j = 0; j < Cols; j++) begin : g_col
      // The broadcasts pick SrcB row 0 and / or column 0.
      logic [DatumW-1:0] srcb;
      always_comb begin
        unique case ({bcast_row_i, bcast_col0_i})
          2'b00:   srcb = srcb_i[(i*Cols + j)*DatumW +: DatumW];
          2'b01:   srcb = srcb_i[(i*Cols)*DatumW +: DatumW];
          2'b10:   srcb = srcb_i[j*DatumW +: DatumW];
          default: srcb = srcb_i[0 +: DatumW];
        endcase
      end

      tmu_elw_element u_element (
        .clk_i                  (clk_i),
        .rst_ni                 (rst_ni),
        .s1_valid_i             (valid_i),
        .srca_i                 (srca_i[(i*Cols + j)*DatumW +: DatumW]),
        .srcb_i                 (srcb),
        .dst_stored_i           (dst_i[(i*Cols + j)*ValueW +: ValueW]),
        .op_s1_i                (op_i),
        .add_dst_s1_i           (add_dst_i),
        .srca_style_s1_i        (srca_style_i),
        .srcb_style_s1_i        (srcb_style_i),
        .dst32_s1_i             (dst32_i),
        .phase_s1_i             (phase_i),
        .zero_flag_disabled_s1_i(zero_flag_disabled_i),
        .int8_s1_i              (int8_s1),
        .dst_format_s1_i        (dst_format_s1),
        .s2_valid_i             (valid_q[0]),
        .dst32_s2_i             (dst32_q),
        .exponent_8b_s2_i       (exponent_8b_q),
        .minus_one_quirk_s2_i   (quirk_q),
        .int8_s2_i              (int8_q),
        .dst_format_s2_i        (dst_format_q),
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
    $error("tmu_elw_unit: Latency must be at least 2 (two datapath register stages)");
  end
  a_known_op: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i |-> (op_i inside {tmu_pkg::ELW_MUL, tmu_pkg::ELW_ADD, tmu_pkg::ELW_SUB}));
`endif

endmodule

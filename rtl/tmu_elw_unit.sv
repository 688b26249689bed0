// tmu_elw_unit: the Matrix Unit's element-wise unit for ELWMUL / ELWADD / ELWSUB on one aligned
// 8 x 16 block, each element a tmu_elw_element, bit-exact with the refmodel (src/insn/elw.cpp and
// the fpu::elw*_element / int8_elw*_element functions).
//
// Operands: SrcA[i][j] with SrcB[i][j], or SrcB row 0 for every row (bcast_row_i), column 0 for
// every column (bcast_col0_i), or both (one scalar). Dst is added when add_dst_i (the top drives
// 1 for ELWMUL, which always accumulates); otherwise it reads as 0.
//
// Pipeline (valid_i in cycle t -> valid_o in cycle t + Latency, one operation per cycle):
//   term      operand multiply / add (in the elements)          -> element registers
//   accum     accumulate with Dst + normalise + round / saturate -> element result registers
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

  // ---- the accum stage's valid and mode ----
  logic                     int8_term;
  logic                     accum_valid;
  tmu_pkg::dst_format_e     dst_format_term, dst_format_accum;
  logic                     dst32_accum, exponent_8b_accum, quirk_accum, int8_accum;
  tmu_pkg::fidelity_phase_t unused_phase_accum;  // the element-wise accum stage has no slice position

  // SrcA style INT8 selects the integer path in the refmodel's element functions too.
  assign int8_term = int8_i || (srca_style_i == tmu_pkg::SRC_STYLE_INT8);

  tmu_accum_mode u_accum_mode (
    .clk_i, .rst_ni, .valid_i,
    .srca_style_i, .dst32_i, .int8_i (int8_term), .phase_i, .arch_i,
    .dst_format_term_o (dst_format_term),
    .dst32_o (dst32_accum), .exponent_8b_o (exponent_8b_accum), .minus_one_quirk_o (quirk_accum),
    .int8_o (int8_accum), .dst_format_o (dst_format_accum), .phase_o (unused_phase_accum)
  );

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
        .clk_i                    (clk_i),
        .rst_ni                   (rst_ni),
        .term_valid_i             (valid_i),
        .srca_i                   (srca_i[(i*Cols + j)*DatumW +: DatumW]),
        .srcb_i                   (srcb),
        .dst_stored_i             (dst_i[(i*Cols + j)*ValueW +: ValueW]),
        .op_term_i                (op_i),
        .add_dst_term_i           (add_dst_i),
        .srca_style_term_i        (srca_style_i),
        .srcb_style_term_i        (srcb_style_i),
        .dst32_term_i             (dst32_i),
        .phase_term_i             (phase_i),
        .zero_flag_disabled_term_i(zero_flag_disabled_i),
        .int8_term_i              (int8_term),
        .dst_format_term_i        (dst_format_term),
        .accum_valid_i            (accum_valid),
        .dst32_accum_i            (dst32_accum),
        .exponent_8b_accum_i      (exponent_8b_accum),
        .minus_one_quirk_accum_i  (quirk_accum),
        .int8_accum_i             (int8_accum),
        .dst_format_accum_i       (dst_format_accum),
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
  a_known_op: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i |-> (op_i inside {tmu_pkg::ELW_MUL, tmu_pkg::ELW_ADD, tmu_pkg::ELW_SUB}));
`endif

endmodule

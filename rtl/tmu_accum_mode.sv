// tmu_accum_mode: the accum stage's mode in tmu_mvmul_block and tmu_elw_unit, held once for all
// the unit's elements. It is registered as an operation enters the term stage, so it travels
// beside the data and back-to-back operations may each have their own. Also the Dst layout the term
// stage reads Dst in (tmu_dst_to_acc), which the accum stage packs the result back into.
module tmu_accum_mode (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     valid_i,            // an operation enters the term stage
  input  tmu_pkg::src_style_e      srca_style_i,
  input  logic                     dst32_i,
  input  logic                     int8_i,             // INT8 math, by the unit's rule
  input  tmu_pkg::fidelity_phase_t phase_i,
  input  tmu_pkg::arch_e           arch_i,
  output tmu_pkg::dst_format_e     dst_format_term_o,
  output logic                     dst32_o,
  output logic                     exponent_8b_o,
  output logic                     minus_one_quirk_o,
  output logic                     int8_o,
  output tmu_pkg::dst_format_e     dst_format_o,
  output tmu_pkg::fidelity_phase_t phase_o             // INT8: the slices' bit position
);

  logic                     dst32_d, dst32_q;
  logic                     exponent_8b_d, exponent_8b_q;
  logic                     quirk_d, quirk_q;
  logic                     int8_d, int8_q;
  tmu_pkg::dst_format_e     dst_format_d, dst_format_q;
  tmu_pkg::fidelity_phase_t phase_d, phase_q;

  always_comb begin
    // INT32's sign and 31 magnitude bits sit where FP32 keeps its sign, exponent and mantissa
    // (formats.cpp dst32_to_int32 goes through dst32_to_fp32), so INT8 math reads and writes Dst
    // through the FP32 layout.
    dst_format_term_o = int8_i ? tmu_pkg::DST_FP32 : tmu_pkg::dst_format(srca_style_i, dst32_i);
    dst32_d       = dst32_q;
    exponent_8b_d = exponent_8b_q;
    quirk_d       = quirk_q;
    int8_d        = int8_q;
    dst_format_d  = dst_format_q;
    phase_d       = phase_q;
    if (valid_i) begin
      dst32_d       = dst32_i;
      exponent_8b_d = tmu_pkg::has_8bit_exponent(srca_style_i);
      quirk_d       = tmu_pkg::has_minus_one_lsb_renormalisation_bug(arch_i);
      int8_d        = int8_i;
      dst_format_d  = dst_format_term_o;
      phase_d       = phase_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dst32_q       <= 1'b0;
      exponent_8b_q <= 1'b0;
      quirk_q       <= 1'b0;
      int8_q        <= 1'b0;
      dst_format_q  <= tmu_pkg::DST_FP32;
      phase_q       <= '0;
    end else begin
      dst32_q       <= dst32_d;
      exponent_8b_q <= exponent_8b_d;
      quirk_q       <= quirk_d;
      int8_q        <= int8_d;
      dst_format_q  <= dst_format_d;
      phase_q       <= phase_d;
    end
  end

  assign dst32_o           = dst32_q;
  assign exponent_8b_o     = exponent_8b_q;
  assign minus_one_quirk_o = quirk_q;
  assign int8_o            = int8_q;
  assign dst_format_o      = dst_format_q;
  assign phase_o           = phase_q;

endmodule

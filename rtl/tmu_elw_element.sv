// tmu_elw_element: one output element of ELWMUL / ELWADD / ELWSUB, pipelined in two register
// stages (refmodel src/fpu/elementwise.cpp elwmul_element / elwadd_element / elwsub_element and
// src/fpu/int8_math.cpp int8_elw*_element):
//
//   term   the single term entering the accumulator, and the Dst value as a word
//     ELWMUL  tmu_fidelity_slice (SrcB's zero flag may be disabled); a product whose exponent
//             underflows (<= 0) is dropped to a zero product, unlike in MVMUL's adder tree
//     ELWADD/ELWSUB  tmu_elw_adder (ELWSUB inverts SrcB's sign first)
//     INT8    the signed product of the phase's slices (the same multiplier) or the signed sum
//             of the whole operands, held as sign and magnitude in the term register
//                                                                      -> term_q, dst_word_q
//   accum  float: tmu_accum_normalize of the term with Dst and tmu_acc_to_dst;
//             INT8: tmu_int8_sat_acc, Dst + value saturated at +/-(2^31 - 1), in the Dst32
//             sign-magnitude layout
//                                                                      -> result_o (registered)
//
// The mode comes from tmu_elw_unit, which holds one copy for all elements: the *_term inputs belong
// to the operation entering the term stage, the *_accum inputs to the one entering the accum stage.
//
// Each path is evaluated only while its stage holds an operation that takes it - the multiplier
// for ELWMUL, the adder for float ELWADD/ELWSUB, the accumulator for float operations - so an idle
// unit costs a simulator next to nothing (docs/cosim.md "Writing RTL that simulates fast"). The
// registers load only then, so the results are those of ungated logic.
module tmu_elw_element (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  // ---- term stage ----
  input  logic                     term_valid_i,
  input  tmu_pkg::src_datum_t      srca_i,
  input  tmu_pkg::src_datum_t      srcb_i,
  input  logic [31:0]              dst_stored_i,  // 16-bit formats: 15:0
  input  tmu_pkg::elw_op_e         op_term_i,
  input  logic                     add_dst_term_i,  // else Dst reads as 0
  input  tmu_pkg::src_style_e      srca_style_term_i,
  input  tmu_pkg::src_style_e      srcb_style_term_i,
  input  logic                     dst32_term_i,
  input  tmu_pkg::fidelity_phase_t phase_term_i,
  input  logic                     zero_flag_disabled_term_i,
  input  logic                     int8_term_i,
  // Dst layout of the term-stage read: the float format, or DST_FP32 for INT8 (Dst32 sign-magnitude).
  input  tmu_pkg::dst_format_e     dst_format_term_i,

  // ---- accum stage ----
  input  logic                     accum_valid_i,
  input  logic                     dst32_accum_i,
  input  logic                     exponent_8b_accum_i,
  input  logic                     minus_one_quirk_accum_i,
  input  logic                     int8_accum_i,
  input  tmu_pkg::dst_format_e     dst_format_accum_i,  // as dst_format_term_i

  output logic [31:0]              result_o  // the new stored Dst value
);

  localparam int unsigned ExpW  = tmu_pkg::ExpW;
  localparam int unsigned TermW = tmu_pkg::TermMantW;
  localparam int unsigned Int8W = 21;  // INT8 product magnitude: 12-bit slice product << 9
  localparam int unsigned Int32MagW = tmu_pkg::Int32MagW;
  localparam int signed   Fp16ToFp32ZeroExp = 127 - 2 * 15;

  // ---- term stage ----
  tmu_pkg::src_datum_t    srcb;
  logic [31:0]            dst_stored;
  tmu_pkg::src_style_e    slice_srca_style;
  tmu_pkg::slice_product_t product;
  tmu_pkg::acc_word_t     dst_word;
  tmu_pkg::acc_term_t     add_term;
  tmu_pkg::acc_word_t     add_dst_word;
  tmu_pkg::acc_term_t     mul_term;
  tmu_pkg::acc_term_t     int8_term;
  tmu_pkg::dp_exp_t       zero_exp;
  tmu_pkg::acc_term_t     term_d, term_q;
  tmu_pkg::acc_word_t     dst_word_d, dst_word_q;

  logic mul_valid;  // the multiplier's product is used: ELWMUL, float or INT8
  logic add_valid;  // the float adder's term is used: ELWADD / ELWSUB

  always_comb begin
    srcb = srcb_i;
    if (op_term_i == tmu_pkg::ELW_SUB) srcb.sign = ~srcb_i.sign;
    dst_stored = add_dst_term_i ? dst_stored_i : '0;
    // The INT8 slices come from the same multiplier, which takes them when SrcA's style is INT8.
    slice_srca_style = int8_term_i ? tmu_pkg::SRC_STYLE_INT8 : srca_style_term_i;
    mul_valid = term_valid_i && (op_term_i == tmu_pkg::ELW_MUL);
    add_valid = term_valid_i && !int8_term_i && (op_term_i != tmu_pkg::ELW_MUL);
  end

  tmu_fidelity_slice u_slice (
    .valid_i                   (mul_valid),
    .srca_i                    (srca_i),
    .srcb_i                    (srcb),
    .srca_style_i              (slice_srca_style),
    .srcb_style_i              (srcb_style_term_i),
    .dst32_i                   (dst32_term_i),
    .phase_i                   (phase_term_i),
    .srcb_zero_flag_disabled_i (zero_flag_disabled_term_i),
    .product_o                 (product)
  );

  tmu_dst_to_acc u_dst_to_acc (
    .valid_i  (term_valid_i),
    .stored_i (dst_stored),
    .format_i (dst_format_term_i),
    .word_o   (dst_word)
  );

  tmu_elw_adder u_adder (
    .valid_i                   (add_valid),
    .srca_i                    (srca_i),
    .srcb_i                    (srcb),
    .srca_style_i              (srca_style_term_i),
    .srcb_style_i              (srcb_style_term_i),
    .dst32_i                   (dst32_term_i),
    .phase_i                   (phase_term_i),
    .srcb_zero_flag_disabled_i (zero_flag_disabled_term_i),
    .dst_i                     (dst_word),
    .term_o                    (add_term),
    .dst_o                     (add_dst_word)
  );

  // ELWMUL: the product as a term (10 -> 23 fraction bits); an underflowing product becomes the
  // zero product, whose exponent is the phase adjustment clamped at 0 (non-zero only for FP16
  // sources into an FP32 Dst).
  always_comb begin
    zero_exp = 'x;
    mul_term = 'x;
    if (mul_valid && !int8_term_i) begin
      zero_exp = '0;
      if (dst32_term_i && !tmu_pkg::StyleHas8bitExponent[srca_style_term_i]) begin
        zero_exp = ExpW'(Fp16ToFp32ZeroExp);
        if (phase_term_i[0]) zero_exp = zero_exp - ExpW'(5);
        if (phase_term_i[1]) zero_exp = zero_exp - ExpW'(7);
      end
      mul_term.sign     = product.sign;
      mul_term.exponent = product.exponent;
      mul_term.mantissa = TermW'({product.mantissa, 13'b0});
      if (product.exponent <= 0) begin
        mul_term = '0;
        mul_term.exponent = zero_exp;
      end
    end
  end

  // INT8: the value as sign and magnitude.
  logic [Int8W-1:0]        int8_product;
  logic signed [11:0]      int8_a, int8_b, int8_sum;
  logic [11:0]             int8_sum_mag;

  always_comb begin
    int8_product = 'x;
    int8_a       = 'x;
    int8_b       = 'x;
    int8_sum     = 'x;
    int8_sum_mag = 'x;
    int8_term    = 'x;
    if (term_valid_i && int8_term_i) begin
      int8_a = '0;
      int8_b = '0;
      int8_term = '0;
      int8_product = Int8W'(product.mantissa) << product.exponent[3:0];
      if (srca_i.exponent != '0) begin
        int8_a = srca_i.sign ? -$signed({2'b0, srca_i.mantissa}) : $signed({2'b0, srca_i.mantissa});
      end
      if ((srcb.exponent != '0) || zero_flag_disabled_term_i) begin
        int8_b = srcb.sign ? -$signed({2'b0, srcb.mantissa}) : $signed({2'b0, srcb.mantissa});
      end
      int8_sum = int8_a + int8_b;
      int8_sum_mag = int8_sum[11] ? 12'(-int8_sum) : int8_sum;

      if (op_term_i == tmu_pkg::ELW_MUL) begin
        int8_term.sign     = product.sign;
        int8_term.mantissa = TermW'(int8_product);
      end else begin
        int8_term.sign     = int8_sum[11];
        int8_term.mantissa = TermW'(int8_sum_mag);
      end
    end
  end

  always_comb begin
    term_d     = term_q;
    dst_word_d = dst_word_q;
    if (term_valid_i) begin
      dst_word_d = dst_word;
      if (int8_term_i) begin
        term_d = int8_term;
      end else if (op_term_i == tmu_pkg::ELW_MUL) begin
        term_d = mul_term;
      end else begin
        term_d     = add_term;
        dst_word_d = add_dst_word;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      term_q     <= '0;
      dst_word_q <= '0;
    end else begin
      term_q     <= term_d;
      dst_word_q <= dst_word_d;
    end
  end

  // ---- accum stage ----
  tmu_pkg::acc_word_t      float_word;
  tmu_pkg::accum_outcome_e unused_outcome;  // for a testbench's trace; the unit only stores
  tmu_pkg::acc_term_t      no_term;         // ELW feeds one term; the second group is empty

  assign no_term = '0;

  logic float_accum_valid;

  assign float_accum_valid = accum_valid_i && !int8_accum_i;

  tmu_accum_normalize u_accum (
    .valid_i           (float_accum_valid),
    .group0_i          (term_q),
    .group1_i          (no_term),
    .dst_i             (dst_word_q),
    .dst32_i           (dst32_accum_i),
    .exponent_8b_i     (exponent_8b_accum_i),
    .minus_one_quirk_i (minus_one_quirk_accum_i),
    .result_o          (float_word),
    .outcome_o         (unused_outcome)
  );

  // INT8: Dst + value, saturated (tmu_int8_sat_acc), in the FP32 layout INT8 math reads and
  // writes Dst32 in: acc_word_t's exponent and mantissa hold the INT32's magnitude.
  logic                    int8_accum_valid;
  tmu_pkg::int32_sm_t      int8_dst, int8_value, int8_result;
  tmu_pkg::acc_word_t      int8_word;
  tmu_pkg::acc_word_t      out_word;
  logic [31:0]             stored;
  logic [31:0]             result_d, result_q;

  assign int8_accum_valid = accum_valid_i && int8_accum_i;

  always_comb begin
    int8_dst.sign        = dst_word_q.sign;
    int8_dst.magnitude   = {dst_word_q.exponent, dst_word_q.mantissa};
    int8_value.sign      = term_q.sign;
    int8_value.magnitude = Int32MagW'(term_q.mantissa);
  end

  tmu_int8_sat_acc u_int8_acc (
    .valid_i  (int8_accum_valid),
    .dst_i    (int8_dst),
    .value_i  (int8_value),
    .result_o (int8_result)
  );

  always_comb begin
    int8_word.sign     = int8_result.sign;
    int8_word.exponent = int8_result.magnitude[30:23];
    int8_word.mantissa = int8_result.magnitude[22:0];
    out_word = int8_accum_i ? int8_word : float_word;
  end

  tmu_acc_to_dst u_acc_to_dst (
    .valid_i  (accum_valid_i),
    .word_i   (out_word),
    .format_i (dst_format_accum_i),
    .stored_o (stored)
  );

  assign result_d = accum_valid_i ? stored : result_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      result_q <= '0;
    end else begin
      result_q <= result_d;
    end
  end

  assign result_o = result_q;

endmodule

// tmu_fidelity_slice: datapath stage 1 for one SrcA x SrcB datum pair. Reads both datums in their
// styles, cuts the mantissa slices the fidelity phase feeds to the 5x7 multiplier, multiplies,
// and gives the product its exponent (refmodel src/fpu/fidelity_slice.cpp fidelity_slice_product).
//
// Float styles (SrcASrcB.md "Fidelity phases"):
//   SrcA, phase bit 0 clear: implicit 1 + mantissa[9:6];  set: mantissa[5:1].
//   SrcB, phase bit 1 clear: implicit 1 + mantissa[9:4];  set: mantissa[3:0] placed at the top of
//   the 7-bit port, so its weight stays in the exponent adjustment.
//   exponent = exp(A) + exp(B) - bias [+ FP16->FP32 rebias] - 5 (phase bit 0) - 7 (phase bit 1).
//   A zero exponent reads as zero (SrcB: unless the zero flag is disabled, ELWMUL only); a zero
//   product carries the adjustment clamped at 0, which still takes part in the group's exponent.
// INT8 math (SrcA style INT8; SrcASrcB.md "Fidelity phases (integer)", int8_math.cpp): the same
//   multiplier takes magnitude slices that keep their bit positions - SrcA bits 4:0 (phase bit 0)
//   or 7:5, SrcB bits 3:0 (phase bit 1) or 9:4 - and the output exponent is the slices' combined
//   bit position (0, 4, 5 or 9): value = mantissa << exponent. Either operand with an all-zero
//   8-bit exponent field reads as 0 (SrcB unless the zero flag is disabled).
module tmu_fidelity_slice (
  input  logic                     valid_i,  // low: outputs undefined, nothing evaluated
  input  tmu_pkg::src_datum_t      srca_i,
  input  tmu_pkg::src_datum_t      srcb_i,
  input  tmu_pkg::src_style_e      srca_style_i,
  input  tmu_pkg::src_style_e      srcb_style_i,
  input  logic                     dst32_i,                    // Dst accessed as Dst32b
  input  tmu_pkg::fidelity_phase_t phase_i,
  // ALU_ACC_CTRL_Zero_Flag_disabled_src: SrcB keeps zero-exponent datums (the ELWMUL path).
  input  logic                     srcb_zero_flag_disabled_i,
  output tmu_pkg::slice_product_t  product_o
);

  localparam int unsigned SliceAW = tmu_pkg::SrcASliceW;
  localparam int unsigned SliceBW = tmu_pkg::SrcBSliceW;
  localparam int unsigned ExpW    = tmu_pkg::ExpW;
  // Rebias of a product of two biased exponents to the accumulator's bias (fidelity_slice.cpp
  // product_exponent_adjust): -127 for 8-bit exponents, -15 for FP16 into a 16-bit Dst, and
  // 127 - 2 * 15 for FP16 into an FP32 Dst.
  localparam int signed   Exp8Adjust      = -127;
  localparam int signed   Fp16Adjust      = -15;
  localparam int signed   Fp16ToFp32Adjust = 127 - 2 * 15;
  // The weight of the low slices below the implicit one.
  localparam int signed   SrcALowSliceShift = 5;
  localparam int signed   SrcBLowSliceShift = 7;
  // INT8 slice positions inside the magnitude.
  localparam int unsigned Int8SrcAHighPos = 5;
  localparam int unsigned Int8SrcBHighPos = 4;

  tmu_pkg::src_style_e srcb_style;
  logic                exp8;
  logic                int8;
  logic [7:0]          exp_a, exp_b;
  logic [9:0]          mant_a, mant_b;
  logic                unused_mant_a_lsb;  // no SrcA slice reaches mantissa bit 0
  logic                zero_a, zero_b;
  logic [SliceAW-1:0]  slice_a;
  logic [SliceBW-1:0]  slice_b;
  logic [tmu_pkg::ProductMantW-1:0] slice_product;
  tmu_pkg::dp_exp_t    adjust;
  tmu_pkg::dp_exp_t    zero_exponent;
  tmu_pkg::dp_exp_t    int8_position;

  assign unused_mant_a_lsb = mant_a[0];

  // Operand read: the style decides which exponent bits count and whether BF16's three unused
  // mantissa bits are ignored.
  always_comb begin
    srcb_style = tmu_pkg::SRC_STYLE_FP16;
    exp8       = 1'bx;
    int8       = 1'bx;
    exp_a      = 'x;
    exp_b      = 'x;
    mant_a     = 'x;
    mant_b     = 'x;
    zero_a     = 1'bx;
    zero_b     = 1'bx;
    if (valid_i) begin
      srcb_style = (tmu_pkg::StyleHas8bitExponent[srca_style_i] &&
                    tmu_pkg::StyleHas8bitExponent[srcb_style_i]) ? srcb_style_i : srca_style_i;
      exp8       = tmu_pkg::StyleHas8bitExponent[srca_style_i];
      int8       = (srca_style_i == tmu_pkg::SRC_STYLE_INT8);

      exp_a  = (srca_style_i == tmu_pkg::SRC_STYLE_FP16) ? {3'b0, srca_i.exponent[4:0]}
                                                         : srca_i.exponent;
      exp_b  = (srcb_style == tmu_pkg::SRC_STYLE_FP16) ? {3'b0, srcb_i.exponent[4:0]}
                                                       : srcb_i.exponent;
      mant_a = (srca_style_i == tmu_pkg::SRC_STYLE_BF16) ? {srca_i.mantissa[9:3], 3'b0}
                                                         : srca_i.mantissa;
      mant_b = (srcb_style == tmu_pkg::SRC_STYLE_BF16) ? {srcb_i.mantissa[9:3], 3'b0}
                                                       : srcb_i.mantissa;

      // INT8 looks at the whole 8-bit exponent field; for the float styles exp_a/exp_b already
      // equal it except for FP16, whose dropped bits are zero in valid data.
      if (int8) begin
        zero_a = (srca_i.exponent == '0);
        zero_b = (srcb_i.exponent == '0) && !srcb_zero_flag_disabled_i;
      end else begin
        zero_a = (exp_a == '0);
        zero_b = (exp_b == '0) && !srcb_zero_flag_disabled_i;
      end
    end
  end

  // Slice selection: one 5-bit and one 7-bit multiplier port shared by the float and integer
  // paths.
  always_comb begin
    slice_a       = 'x;
    slice_b       = 'x;
    slice_product = 'x;
    if (valid_i) begin
      if (int8) begin
        slice_a = phase_i[0] ? srca_i.mantissa[4:0] : {2'b0, srca_i.mantissa[7:5]};
        slice_b = phase_i[1] ? {3'b0, srcb_i.mantissa[3:0]} : {1'b0, srcb_i.mantissa[9:4]};
      end else begin
        // The implicit one leads the high slices.
        slice_a = phase_i[0] ? mant_a[5:1] : {1'b1, mant_a[9:6]};
        slice_b = phase_i[1] ? {mant_b[3:0], 3'b0} : {1'b1, mant_b[9:4]};
      end
      slice_product = tmu_pkg::ProductMantW'(slice_a) * tmu_pkg::ProductMantW'(slice_b);
    end
  end

  // Exponent: rebias, minus the weight of the low slices this phase consumes.
  always_comb begin
    adjust        = 'x;
    zero_exponent = 'x;
    int8_position = 'x;
    if (valid_i) begin
      int8_position = '0;
      if (exp8) begin
        adjust = ExpW'(Exp8Adjust);
      end else if (dst32_i) begin
        adjust = ExpW'(Fp16ToFp32Adjust);
      end else begin
        adjust = ExpW'(Fp16Adjust);
      end
      if (phase_i[0]) adjust = adjust - ExpW'(SrcALowSliceShift);
      if (phase_i[1]) adjust = adjust - ExpW'(SrcBLowSliceShift);
      zero_exponent = (adjust > 0) ? adjust : '0;

      if (!phase_i[0]) int8_position = int8_position + ExpW'(Int8SrcAHighPos);
      if (!phase_i[1]) int8_position = int8_position + ExpW'(Int8SrcBHighPos);
    end
  end

  always_comb begin
    product_o = '0;
    if (!valid_i) begin
      product_o = 'x;
    end else if (int8) begin
      if (!zero_a && !zero_b) begin
        product_o.sign     = srca_i.sign ^ srcb_i.sign;
        product_o.mantissa = slice_product;
      end
      product_o.exponent = int8_position;
    end else if (zero_a || zero_b) begin
      product_o.exponent = zero_exponent;
    end else begin
      product_o.sign     = srca_i.sign ^ srcb_i.sign;
      product_o.exponent = $signed({2'b0, exp_a}) + $signed({2'b0, exp_b}) + adjust;
      product_o.mantissa = slice_product;
    end
  end

endmodule

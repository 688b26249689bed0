// tmu_mvmul_element: one output element of MVMUL / DOTPV / GAPOOL, pipelined in two register stages
// (refmodel src/fpu/elementwise.cpp mvmul_element):
//
//   term   16 tmu_fidelity_slice products of SrcA[k][j] x SrcB[i][k], products 0..7 and 8..15
//          each aligned and summed by a tmu_align_group_sum (the two accumulator terms), and the
//          stored Dst value read as an accumulator word (tmu_dst_to_acc) -> groups_q, dst_word_q
//   accum  tmu_accum_normalize of the two group terms with the Dst word, packed back into the Dst
//          layout (tmu_acc_to_dst)                                       -> result_o (registered)
//
// The stage names are the refmodel's: the term stage computes what fpu::fidelity_slice_product and
// fpu::align_group_sum compute, the accum stage fpu::accum_normalize.
//
// The split balances the two halves: a 5x7 multiply, an eight-way exponent maximum, the product
// alignment and an eight-input add on one side; the three-way alignment, add, leading-zero count
// and rounding on the other. The mode comes from tmu_mvmul_block, which holds one copy for all
// elements and delays it alongside the data: the *_term inputs belong to the operation entering
// the term stage, the *_accum inputs to the one entering the accum stage. Registers load only with
// their stage's valid, so an idle array does not toggle.
//
// INT8 math (refmodel src/fpu/int8_math.cpp int8_mvmul_element) shares everything up to the
// term stage registers: the slices' multipliers give the INT8 slice products, all at the phase's bit
// position, and the group adders sum them exactly (see group_products); the group registers carry
// the two sums and dst_word_q the Dst32 value, whose FP32 bit positions hold INT32's sign and
// magnitude (tmu_mvmul_block selects the FP32 layout for INT8). The accum stage adds the two sums at
// their bit position to Dst with INT32 saturation (tmu_int8_sat_acc, which tmu_elw_element shares),
// beside the float accumulator, and the result takes the same FP32-layout packing.
//
// Every stage's logic is evaluated only while its stage holds an operation (the stage modules'
// valid_i; the float accumulator only for float operations, the INT8 adder only for INT8), so an
// idle array costs a simulator next to nothing (docs/cosim.md "Writing RTL that simulates fast").
// The registers load only then, so the results are those of ungated logic.
module tmu_mvmul_element (
  input  logic                                           clk_i,
  input  logic                                           rst_ni,

  // ---- term stage ----
  input  logic                                           term_valid_i,
  // Datum k in bits [k*SrcDatumW +: SrcDatumW]: SrcA[k][j] (the element's column), SrcB[i][k].
  input  logic [tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] srca_col_i,
  input  logic [tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] srcb_row_i,
  input  logic [31:0]                                    dst_stored_i,  // 16-bit formats: 15:0
  input  tmu_pkg::src_style_e                            srca_style_term_i,
  input  tmu_pkg::src_style_e                            srcb_style_term_i,
  input  logic                                           dst32_term_i,
  input  tmu_pkg::fidelity_phase_t                       phase_term_i,
  input  tmu_pkg::dst_format_e                           dst_format_term_i,
  input  logic                                           int8_term_i,  // SrcA style INT8
  // ALU_ACC_CTRL_Zero_Flag_disabled_src. MVMUL ignores it in both paths (the refmodel's
  // fidelity_slice_product and int8_mvmul_element always apply SrcB's zero flag; only ELW* obey
  // it); it is an input so the mode interface matches fpu::FpuMode field for field.
  input  logic                                           zero_flag_disabled_term_i,

  // ---- accum stage ----
  input  logic                                           accum_valid_i,
  input  logic                                           dst32_accum_i,
  input  logic                                           exponent_8b_accum_i,
  input  logic                                           minus_one_quirk_accum_i,
  input  tmu_pkg::dst_format_e                           dst_format_accum_i,
  input  logic                                           int8_accum_i,
  input  tmu_pkg::fidelity_phase_t                       phase_accum_i,

  output logic [31:0]                                    result_o  // the new stored Dst value
);

  localparam int unsigned NumProducts     = tmu_pkg::SrcCols;
  localparam int unsigned DatumW          = tmu_pkg::SrcDatumW;
  localparam int unsigned ProductW        = tmu_pkg::SliceProductW;
  localparam int unsigned ProductMantW    = tmu_pkg::ProductMantW;  // below the exponent LSB
  localparam int unsigned GroupW          = tmu_pkg::ProductsPerGroup * ProductW;
  localparam int unsigned TermW           = tmu_pkg::AccTermW;
  localparam int unsigned SumW            = tmu_pkg::GroupSumW;
  localparam int unsigned ExpW            = tmu_pkg::ExpW;
  localparam int unsigned FractionGap     = tmu_pkg::AccFractionBits - tmu_pkg::ProductFractionBits;
  // INT8: |group0 +- group1| < 2^(SumW + 1); the slices' bit positions add at most 5 + 4 bits.
  localparam int unsigned DotMagW         = SumW + 1;
  localparam int unsigned Int8SrcAHighPos = 5;  // tmu_fidelity_slice: SrcA bits 7:5
  localparam int unsigned Int8SrcBHighPos = 4;  // SrcB bits 9:4
  localparam int unsigned IntMagW         = tmu_pkg::Int32MagW;  // INT32 sign-magnitude

  // ---- term stage: multiply, align, group sums ----
  logic [NumProducts*ProductW-1:0] products;
  logic [NumProducts*ProductW-1:0] group_products;
  logic                            unused_zero_flag_disabled;

  assign unused_zero_flag_disabled = zero_flag_disabled_term_i;
  logic [2*TermW-1:0]              groups_d, groups_q;
  tmu_pkg::acc_word_t              dst_word_d, dst_word_q;

  for (genvar k = 0; k < NumProducts; k++) begin : g_slice
    tmu_fidelity_slice u_slice (
      .valid_i                   (term_valid_i),
      .srca_i                    (srca_col_i[k*DatumW +: DatumW]),
      .srcb_i                    (srcb_row_i[k*DatumW +: DatumW]),
      .srca_style_i              (srca_style_term_i),
      .srcb_style_i              (srcb_style_term_i),
      .dst32_i                   (dst32_term_i),
      .phase_i                   (phase_term_i),
      .srcb_zero_flag_disabled_i (1'b0),  // MVMUL always flushes zero-exponent SrcB datums
      .product_o                 (products[k*ProductW +: ProductW])
    );
  end

  // An INT8 product's exponent is the bit position of its slices, the same for all sixteen (it
  // depends on the phase only), and the group sums it exactly - no alignment shift - unless it is
  // 0 (phase 3), which tmu_align_group_sum drops as an underflowed group. Setting exponent bit 0
  // lifts 0 to 1 and keeps the positions equal (4 and 5 both become 5); the accum stage applies the real
  // position from the phase.
  always_comb begin
    group_products = 'x;
    if (term_valid_i) begin
      group_products = products;
      if (int8_term_i) begin
        for (int unsigned k = 0; k < NumProducts; k++) begin
          group_products[k*ProductW + ProductMantW] = 1'b1;
        end
      end
    end
  end

  logic [2*TermW-1:0] group_terms;

  for (genvar g = 0; g < 2; g++) begin : g_group
    tmu_align_group_sum u_group (
      .valid_i    (term_valid_i),
      .products_i (group_products[g*GroupW +: GroupW]),
      .term_o     (group_terms[g*TermW +: TermW])
    );
  end

  tmu_pkg::acc_word_t dst_word;

  tmu_dst_to_acc u_dst_to_acc (
    .valid_i  (term_valid_i),
    .stored_i (dst_stored_i),
    .format_i (dst_format_term_i),
    .word_o   (dst_word)
  );

  assign groups_d   = term_valid_i ? group_terms : groups_q;
  assign dst_word_d = term_valid_i ? dst_word : dst_word_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      groups_q   <= '0;
      dst_word_q <= '0;
    end else begin
      groups_q   <= groups_d;
      dst_word_q <= dst_word_d;
    end
  end

  // ---- accum stage: accumulate with Dst, normalise, round, pack ----
  tmu_pkg::acc_word_t      acc_word;
  tmu_pkg::accum_outcome_e unused_outcome;  // for a testbench's trace; the array only stores
  tmu_pkg::acc_word_t      int8_word;
  tmu_pkg::acc_word_t      result_word;
  logic [31:0]             stored;
  logic [31:0]             result_d, result_q;

  logic float_accum_valid;
  logic int8_accum_valid;

  assign float_accum_valid = accum_valid_i && !int8_accum_i;
  assign int8_accum_valid  = accum_valid_i && int8_accum_i;

  tmu_accum_normalize u_accum (
    .valid_i           (float_accum_valid),
    .group0_i          (groups_q[0 +: TermW]),
    .group1_i          (groups_q[TermW +: TermW]),
    .dst_i             (dst_word_q),
    .dst32_i           (dst32_accum_i),
    .exponent_8b_i     (exponent_8b_accum_i),
    .minus_one_quirk_i (minus_one_quirk_accum_i),
    .result_o          (acc_word),
    .outcome_o         (unused_outcome)
  );

  // ---- accum stage, INT8: Dst + (group0 + group1) << position, saturated to +/-(2^31 - 1) ----
  // The dot product as sign and magnitude at its bit position; tmu_int8_sat_acc adds it to Dst32,
  // whose FP32 fields hold the INT32's sign and magnitude.
  tmu_pkg::acc_term_t       int8_group0, int8_group1;
  logic signed [DotMagW:0]  dot;
  logic                     dot_negative;
  logic [DotMagW-1:0]       dot_magnitude;
  logic [IntMagW-1:0]       dot_shifted;
  tmu_pkg::int32_sm_t       int8_dst, int8_value, int8_result;
  logic [2*FractionGap-1:0] unused_group_fraction;
  logic [2*ExpW-1:0]        unused_group_exponent;

  always_comb begin
    int8_group0 = groups_q[0 +: TermW];
    int8_group1 = groups_q[TermW +: TermW];
    unused_group_fraction = {int8_group0.mantissa[FractionGap-1:0],
                             int8_group1.mantissa[FractionGap-1:0]};
    unused_group_exponent = {int8_group0.exponent, int8_group1.exponent};
    dot            = 'x;
    dot_negative   = 1'bx;
    dot_magnitude  = 'x;
    dot_shifted    = 'x;
    if (int8_accum_valid) begin
      dot = '0;
      if (int8_group0.sign) dot = dot - $signed({2'b0, int8_group0.mantissa[FractionGap +: SumW]});
      else                  dot = dot + $signed({2'b0, int8_group0.mantissa[FractionGap +: SumW]});
      if (int8_group1.sign) dot = dot - $signed({2'b0, int8_group1.mantissa[FractionGap +: SumW]});
      else                  dot = dot + $signed({2'b0, int8_group1.mantissa[FractionGap +: SumW]});
      dot_negative  = dot[DotMagW];
      dot_magnitude = DotMagW'(dot_negative ? -dot : dot);

      // The slices' bit position: SrcA's high slice (phase bit 0 clear) sits 5 bits up, SrcB's
      // (phase bit 1 clear) 4 bits.
      dot_shifted = IntMagW'(dot_magnitude);
      if (!phase_accum_i[0]) dot_shifted = dot_shifted << Int8SrcAHighPos;
      if (!phase_accum_i[1]) dot_shifted = dot_shifted << Int8SrcBHighPos;
    end
    int8_dst.sign        = dst_word_q.sign;
    int8_dst.magnitude   = {dst_word_q.exponent, dst_word_q.mantissa};
    int8_value.sign      = dot_negative;
    int8_value.magnitude = dot_shifted;
  end

  tmu_int8_sat_acc u_int8_acc (
    .valid_i  (int8_accum_valid),
    .dst_i    (int8_dst),
    .value_i  (int8_value),
    .result_o (int8_result)
  );

  always_comb begin
    int8_word.sign     = int8_result.sign;
    int8_word.exponent = int8_result.magnitude[IntMagW-1 -: 8];
    int8_word.mantissa = int8_result.magnitude[22:0];
    result_word = int8_accum_i ? int8_word : acc_word;
  end

  tmu_acc_to_dst u_acc_to_dst (
    .valid_i  (accum_valid_i),
    .word_i   (result_word),
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

`ifndef SYNTHESIS
  if (NumProducts != 2 * tmu_pkg::ProductsPerGroup) begin : g_width_check
    $error("tmu_mvmul_element: a dot product is two groups of ProductsPerGroup products");
  end
`endif

endmodule

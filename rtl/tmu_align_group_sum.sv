// tmu_align_group_sum: datapath stage 2. Eight slice products (one half of a 16-term dot product)
// are aligned to the group's largest exponent - no normalisation, no guard bits: the bits shifted
// out round away, ties away from zero - and summed as signed integers (refmodel
// src/fpu/align_group_sum.cpp). A group whose largest exponent is <= 0 contributes an all-zero
// term; otherwise the term carries the group exponent even when the sum cancels to zero, because
// that exponent still takes part in the accumulator's choice of common exponent.
module tmu_align_group_sum (
  input  tmu_pkg::slice_product_t [tmu_pkg::ProductsPerGroup-1:0] products_i,
  output tmu_pkg::acc_term_t                                      term_o
);

  localparam int unsigned NumProducts = tmu_pkg::ProductsPerGroup;
  localparam int unsigned MantW       = tmu_pkg::ProductMantW;
  localparam int unsigned ExpW        = tmu_pkg::ExpW;
  // Any alignment of MantW + 1 or more places leaves nothing; clamping the distance to a 4-bit
  // shift keeps the shifter small without changing a result.
  localparam int unsigned ShiftW      = 4;
  localparam int unsigned MaxShift    = (1 << ShiftW) - 1;
  // The signed sum of eight magnitudes below 2^MantW.
  localparam int unsigned SumW        = tmu_pkg::GroupSumW + 1;
  localparam int unsigned FractionGap = tmu_pkg::AccFractionBits - tmu_pkg::ProductFractionBits;

  tmu_pkg::dp_exp_t                      group_exponent;
  logic [NumProducts-1:0][ShiftW-1:0]    shift;
  logic [NumProducts-1:0][MantW-1:0]     aligned;
  logic signed [SumW-1:0]                sum;
  logic [tmu_pkg::GroupSumW-1:0]         magnitude;

  always_comb begin
    group_exponent = products_i[0].exponent;
    for (int unsigned i = 1; i < NumProducts; i++) begin
      if (products_i[i].exponent > group_exponent) group_exponent = products_i[i].exponent;
    end
  end

  for (genvar i = 0; i < NumProducts; i++) begin : g_align
    // One bit wider than an exponent: the distance between two exponents reaches 1022.
    logic signed [ExpW:0] group_wide, product_wide, distance;

    always_comb begin
      group_wide   = {group_exponent[ExpW-1], group_exponent};
      product_wide = {products_i[i].exponent[ExpW-1], products_i[i].exponent};
      distance     = group_wide - product_wide;  // never negative
      shift[i]     = (distance > (ExpW + 1)'(MaxShift)) ? ShiftW'(MaxShift) : distance[ShiftW-1:0];
    end

    tmu_shift_round #(
      .Width (MantW),
      .ShiftW(ShiftW)
    ) u_align (
      .magnitude_i(products_i[i].mantissa),
      .negative_i (1'b0),  // products round their magnitudes, ties away from zero
      .shift_i    (shift[i]),
      .magnitude_o(aligned[i])
    );
  end

  always_comb begin
    sum = '0;
    for (int unsigned i = 0; i < NumProducts; i++) begin
      if (products_i[i].sign) begin
        sum = sum - $signed({{(SumW - MantW){1'b0}}, aligned[i]});
      end else begin
        sum = sum + $signed({{(SumW - MantW){1'b0}}, aligned[i]});
      end
    end
    magnitude = tmu_pkg::GroupSumW'(sum[SumW-1] ? -sum : sum);

    term_o = '0;
    if (group_exponent > 0) begin
      term_o.sign     = sum[SumW-1];
      term_o.exponent = group_exponent;
      term_o.mantissa = {magnitude, FractionGap'(0)};
    end
  end

endmodule

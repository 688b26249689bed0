// tmu_align_group_sum: datapath stage 2. Eight slice products (one half of a 16-term dot product)
// are aligned to the group's largest exponent - no normalisation, no guard bits: the bits shifted
// out round away, ties away from zero - and summed as signed integers (refmodel
// src/fpu/align_group_sum.cpp). A group whose largest exponent is <= 0 contributes an all-zero
// term; otherwise the term carries the group exponent even when the sum cancels to zero, because
// that exponent still takes part in the accumulator's choice of common exponent.
module tmu_align_group_sum (
  input  logic                                                         valid_i,  // low: outputs undefined, nothing evaluated
  // Product i in bits [i*SliceProductW +: SliceProductW] (a flat vector: see tmu_pkg).
  input  logic [tmu_pkg::ProductsPerGroup*tmu_pkg::SliceProductW-1:0] products_i,
  output tmu_pkg::acc_term_t                                           term_o
);

  localparam int unsigned NumProducts = tmu_pkg::ProductsPerGroup;
  localparam int unsigned ProductW    = tmu_pkg::SliceProductW;
  localparam int unsigned MantW       = tmu_pkg::ProductMantW;
  localparam int unsigned ExpW        = tmu_pkg::ExpW;
  // The signed sum of eight magnitudes below 2^MantW.
  localparam int unsigned SumW        = tmu_pkg::GroupSumW + 1;
  localparam int unsigned FractionGap = tmu_pkg::AccFractionBits - tmu_pkg::ProductFractionBits;

  logic [NumProducts*ExpW-1:0]   exponents;
  logic [NumProducts-1:0]        signs;
  logic [NumProducts*MantW-1:0]  aligned;
  tmu_pkg::dp_exp_t              group_exponent;
  logic signed [SumW-1:0]        sum;
  logic [tmu_pkg::GroupSumW-1:0] magnitude;

  // Struct-typed signals inside a generate block defeat Yosys 0.23, so each product is taken
  // apart by its own instance, whose ports carry the struct.
  for (genvar i = 0; i < NumProducts; i++) begin : g_product
    assign exponents[i*ExpW +: ExpW] = products_i[i*ProductW + MantW +: ExpW];
    tmu_align_product u_align (
      .valid_i         (valid_i),
      .product_i       (products_i[i*ProductW +: ProductW]),
      .group_exponent_i(group_exponent),
      .sign_o          (signs[i]),
      .aligned_o       (aligned[i*MantW +: MantW])
    );
  end

  always_comb begin
    group_exponent = 'x;
    if (valid_i) begin
      group_exponent = exponents[ExpW-1:0];
      for (int unsigned i = 1; i < NumProducts; i++) begin
        if ($signed(exponents[i*ExpW +: ExpW]) > group_exponent) begin
          group_exponent = exponents[i*ExpW +: ExpW];
        end
      end
    end
  end

  always_comb begin
    sum       = 'x;
    magnitude = 'x;
    term_o    = 'x;
    if (valid_i) begin
      sum = '0;
      term_o = '0;
      for (int unsigned i = 0; i < NumProducts; i++) begin
        if (signs[i]) begin
          sum = sum - $signed({{(SumW - MantW){1'b0}}, aligned[i*MantW +: MantW]});
        end else begin
          sum = sum + $signed({{(SumW - MantW){1'b0}}, aligned[i*MantW +: MantW]});
        end
      end
      magnitude = tmu_pkg::GroupSumW'(sum[SumW-1] ? -sum : sum);
      if (group_exponent > 0) begin
        term_o.sign     = sum[SumW-1];
        term_o.exponent = group_exponent;
        term_o.mantissa = {magnitude, FractionGap'(0)};
      end
    end
  end

`ifndef SYNTHESIS
  if ($bits(tmu_pkg::slice_product_t) != ProductW) begin : g_width_check
    $error("tmu_pkg::SliceProductW does not match tmu_pkg::slice_product_t");
  end
`endif

endmodule

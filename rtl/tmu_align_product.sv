// tmu_align_product: one product of an align_group_sum group, aligned to the group's exponent.
// The magnitude is shifted right by (group exponent - product exponent) and rounded, ties away
// from zero, with no guard bits (refmodel src/fpu/align_group_sum.cpp align_product). The group finds its
// largest exponent from the products themselves.
module tmu_align_product (
  input  logic                               valid_i,  // low: outputs undefined, nothing evaluated
  input  tmu_pkg::slice_product_t            product_i,
  input  tmu_pkg::dp_exp_t                   group_exponent_i,
  output logic                               sign_o,
  output logic [tmu_pkg::ProductMantW-1:0]   aligned_o
);

  localparam int unsigned MantW    = tmu_pkg::ProductMantW;
  localparam int unsigned ExpW     = tmu_pkg::ExpW;
  // Any alignment of MantW + 1 or more places leaves nothing; clamping the distance to a 4-bit
  // shift keeps the shifter small without changing a result.
  localparam int unsigned ShiftW   = 4;
  localparam int unsigned MaxShift = (1 << ShiftW) - 1;

  // One bit wider than an exponent: the distance between two exponents reaches 1022.
  logic signed [ExpW:0] group_wide, product_wide, distance;
  logic [ShiftW-1:0]    shift;

  always_comb begin
    group_wide   = 'x;
    product_wide = 'x;
    distance     = 'x;
    shift        = 'x;
    sign_o       = 1'bx;
    if (valid_i) begin
      group_wide   = {group_exponent_i[ExpW-1], group_exponent_i};
      product_wide = {product_i.exponent[ExpW-1], product_i.exponent};
      distance     = group_wide - product_wide;  // never negative for a product of the group
      shift        = (distance > (ExpW + 1)'(MaxShift)) ? ShiftW'(MaxShift) : distance[ShiftW-1:0];
      sign_o       = product_i.sign;
    end
  end

  tmu_shift_round #(
    .Width (MantW),
    .ShiftW(ShiftW)
  ) u_round (
    .valid_i    (valid_i),
    .magnitude_i(product_i.mantissa),
    .negative_i (1'b0),  // products round their magnitudes, ties away from zero
    .shift_i    (shift),
    .magnitude_o(aligned_o)
  );


endmodule

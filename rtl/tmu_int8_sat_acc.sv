// tmu_int8_sat_acc: INT8 math's accumulation into Dst - an INT32 Dst value plus a signed value,
// saturated to +/-(2^31 - 1) (refmodel src/fpu/int8_math.cpp accumulate and saturating_add_int32).
// One module for the two callers: tmu_mvmul_element adds the dot product at its slices' bit
// position, tmu_elw_element the product, sum or difference of one element.
//
// Both operands and the result are sign and magnitude, as Dst32 stores them, so the sum is one add
// or subtract of the magnitudes, one bit wider than they are: its top bit is an addition's overflow
// (the magnitudes sum past 2^31 - 1: saturate, symmetrically as the model does) or a subtraction's
// borrow (the value outweighs Dst: negate, and the result takes the value's sign). A subtraction
// never saturates and an addition never borrows. Nothing is rounded or truncated: the callers' values
// are exact integers, and no intermediate is narrower than the result.
//
// A zero result is +0 whatever the signs (dst32_from_int32 of 0), and a -0 input counts as 0.
//
// valid_i low: nothing is evaluated and result_o is X, which no register may load (docs/cosim.md
// "Writing RTL that simulates fast"), as in every datapath stage.
module tmu_int8_sat_acc (
  input  logic               valid_i,
  input  tmu_pkg::int32_sm_t dst_i,    // the stored Dst32 value
  input  tmu_pkg::int32_sm_t value_i,  // what INT8 math adds to it
  output tmu_pkg::int32_sm_t result_o  // the new Dst32 value
);

  localparam int unsigned MagW = tmu_pkg::Int32MagW;

  logic            subtract;
  logic [MagW:0]   magnitude_sum;  // bit MagW: the overflow of an add, the borrow of a subtract
  logic            sign;
  logic [MagW-1:0] magnitude;

  always_comb begin
    subtract      = 1'bx;
    magnitude_sum = 'x;
    sign          = 1'bx;
    magnitude     = 'x;
    if (valid_i) begin
      subtract      = dst_i.sign ^ value_i.sign;
      magnitude_sum = subtract ? {1'b0, dst_i.magnitude} - {1'b0, value_i.magnitude}
                               : {1'b0, dst_i.magnitude} + {1'b0, value_i.magnitude};
      sign      = dst_i.sign;
      magnitude = magnitude_sum[MagW-1:0];
      if (magnitude_sum[MagW]) begin
        if (subtract) begin
          sign      = value_i.sign;
          magnitude = -magnitude_sum[MagW-1:0];
        end else begin
          magnitude = '1;  // 2^31 - 1, the saturation limit
        end
      end
      if (magnitude == '0) sign = 1'b0;
    end
    result_o.sign      = sign;
    result_o.magnitude = magnitude;
  end

`ifndef SYNTHESIS
  // The callers map tmu_pkg::acc_word_t's exponent and mantissa fields onto the magnitude.
  if ($bits(tmu_pkg::int32_sm_t) != $bits(tmu_pkg::acc_word_t)) begin : g_width_check
    $error("tmu_int8_sat_acc: int32_sm_t must have acc_word_t's width");
  end
`endif

endmodule

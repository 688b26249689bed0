// tmu_shift_round: a magnitude divided by 2^shift, rounded to nearest by adding half an output LSB
// and truncating - the one rounding the datapath uses whenever it aligns a value to a larger
// exponent or drops low bits (refmodel src/fpu/shift_round.cpp).
//
// Ties go away from zero for a positive value. For a negative value held as sign and magnitude
// (negative_i set) the hardware first subtracts the sign bit, so an exact tie rounds toward zero
// in magnitude, i.e. toward +infinity - what a two's-complement add-half-and-truncate gives.
// shift_i == 0 passes the magnitude through untouched; a shift beyond Width gives 0.
//
// valid_i low: nothing is evaluated and the output is undefined (X), which no register may load
// (docs/cosim.md "Writing RTL that simulates fast"). Every datapath stage module has this input;
// the X lets synthesis drop the gating, so the netlist is that of the ungated logic.
module tmu_shift_round #(
  parameter int unsigned Width  = 24,
  parameter int unsigned ShiftW = 5
) (
  input  logic              valid_i,
  input  logic [Width-1:0]  magnitude_i,
  input  logic              negative_i,
  input  logic [ShiftW-1:0] shift_i,
  output logic [Width-1:0]  magnitude_o
);

  logic [Width-1:0] biased;      // magnitude minus the sign bit (never below zero)
  logic [Width-1:0] one_short;   // biased >> (shift - 1): its bit 0 is the half-LSB
  logic [Width-1:0] rounded;

  always_comb begin
    biased      = 'x;
    one_short   = 'x;
    rounded     = 'x;
    magnitude_o = 'x;
    if (valid_i) begin
      biased = magnitude_i;
      if (negative_i && (magnitude_i != '0)) begin
        biased = magnitude_i - Width'(1);
      end
      // (m + 2^(s-1)) >> s == (m >> s) + bit s-1 of m, which cannot overflow Width bits for s >= 1.
      one_short   = biased >> (shift_i - ShiftW'(1));
      rounded     = (one_short >> 1) + Width'(one_short[0]);
      magnitude_o = (shift_i == '0) ? magnitude_i : rounded;
    end
  end

endmodule

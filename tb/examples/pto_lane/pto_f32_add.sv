// f32 a + b rounded to nearest even, for normal operands at most 39 binades apart: both are placed
// at their common lowest bit weight in an exact 64-bit window and added, so rounding sees every bit
// and needs no sticky logic. range_err_o flags what the unit does not implement (subnormal,
// infinite or NaN operands, too wide an exponent gap, a result that would overflow or go
// subnormal), which a bench must not send.
module pto_f32_add (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] r_o,
  output logic        range_err_o
);
  localparam int unsigned Acc = 64;
  // A sum whose leading one is bit `lead` at lowest weight 2^(emin - 150) has biased exponent
  // lead + emin - 150 + 127.
  localparam logic [8:0] ResultBias = 9'd23;

  logic [23:0]    ma, mb;
  logic [7:0]     emin, sa, sb;
  logic [Acc-1:0] x, y, mag, norm;
  logic           sign, round_up, inputs_ok;
  logic [5:0]     lead;
  logic [8:0]     rexp;
  logic [30:0]    rounded;

  always_comb begin
    ma   = {1'b1, a_i[22:0]};
    mb   = {1'b1, b_i[22:0]};
    emin = a_i[30:23] < b_i[30:23] ? a_i[30:23] : b_i[30:23];
    sa   = a_i[30:23] - emin;
    sb   = b_i[30:23] - emin;
    x    = Acc'(ma) << sa;
    y    = Acc'(mb) << sb;

    // Sign-magnitude addition: the larger magnitude keeps its sign.
    if (a_i[31] == b_i[31]) begin
      mag  = x + y;
      sign = a_i[31];
    end else if (x >= y) begin
      mag  = x - y;
      sign = a_i[31];
    end else begin
      mag  = y - x;
      sign = b_i[31];
    end

    lead = '0;
    for (int unsigned i = 0; i < Acc; i++) begin
      if (mag[i]) lead = 6'(i);
    end
    norm     = mag << (6'(Acc - 1) - lead);  // leading one at bit 63
    rexp     = 9'(lead) + 9'(emin) - ResultBias;
    // Round to nearest, ties to even: the kept lsb at bit 40, guard 39, sticky below.
    round_up = norm[39] && (norm[40] || |norm[38:0]);
    rounded  = {rexp[7:0], norm[62:40]} + 31'(round_up);
    r_o      = mag == '0 ? 32'd0 : {sign, rounded};  // an exact cancellation is +0

    inputs_ok   = a_i[30:23] != 8'd0 && a_i[30:23] != 8'hff && b_i[30:23] != 8'd0 && b_i[30:23] != 8'hff;
    // Exact while both shifted significands stay below bit 63 (their sum then fits); normal while
    // the biased exponent, after rounding, stays in 1..254.
    range_err_o = !inputs_ok || sa >= 8'(Acc - 24) || sb >= 8'(Acc - 24) ||
                  (mag != '0 && (!norm[Acc-1] || 9'(lead) + 9'(emin) <= ResultBias || rexp >= 9'd255 ||
                                 rounded[30:23] == 8'hff));
  end
endmodule

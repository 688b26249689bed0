// One f32 lane of AMX matfp's z + x*y with a single rounding to nearest even, for normal operands
// whose product and addend lie within an exact 128-bit window: x*y and z are placed at their common
// lowest bit weight and added exactly, so rounding sees every bit and needs no sticky logic. The
// window holds the sum when the exponents of x*y and z (their lowest bits) differ by less than 80,
// and the result is normal when its exponent lands in 1..254; range_err_o flags operands outside
// that (subnormal, infinite or NaN inputs, too wide an exponent gap, a result that would overflow or
// go subnormal), which a bench must not send. trunc_i = 1 truncates instead of rounding: the bug
// the example bench injects.
module amx_fma_f32 (
  input  logic        trunc_i,
  input  logic [31:0] x_i,
  input  logic [31:0] y_i,
  input  logic [31:0] z_i,
  output logic [31:0] r_o,
  output logic        range_err_o
);
  localparam int unsigned Acc = 128;  // the exact window
  // f32 value = significand * 2^(exponent - 150); the product's lowest bit weighs
  // 2^(ex + ey - 300) and z's 2^(ez - 150), so both are compared as ex + ey and ez + 150.
  localparam logic [9:0] ZBias = 10'd150;
  // A sum whose leading one is bit `lead` at lowest weight emin has biased exponent
  // lead + emin - 300 + 127.
  localparam logic [9:0] ResultBias = 10'd173;

  logic [23:0]    mx, my, mz;
  logic [47:0]    prod;
  logic [9:0]     wp, wz, emin, sp, sz, rexp;
  logic [Acc-1:0] a, b, mag, norm;
  logic           sign, round_up, inputs_ok;
  logic [6:0]     lead;
  logic [30:0]    rounded;

  always_comb begin
    mx   = {1'b1, x_i[22:0]};
    my   = {1'b1, y_i[22:0]};
    mz   = {1'b1, z_i[22:0]};
    prod = 48'(mx) * 48'(my);
    wp   = 10'(x_i[30:23]) + 10'(y_i[30:23]);
    wz   = 10'(z_i[30:23]) + ZBias;
    emin = wp < wz ? wp : wz;
    sp   = wp - emin;
    sz   = wz - emin;
    a    = Acc'(prod) << sp;
    b    = Acc'(mz) << sz;

    // Sign-magnitude addition: the larger magnitude keeps its sign.
    if ((x_i[31] ^ y_i[31]) == z_i[31]) begin
      mag  = a + b;
      sign = z_i[31];
    end else if (a >= b) begin
      mag  = a - b;
      sign = x_i[31] ^ y_i[31];
    end else begin
      mag  = b - a;
      sign = z_i[31];
    end

    lead = '0;
    for (int unsigned i = 0; i < Acc; i++) begin
      if (mag[i]) lead = 7'(i);
    end
    norm     = mag << (7'(Acc - 1) - lead);  // leading one at bit 127
    rexp     = 10'(lead) + emin - ResultBias;
    // Round to nearest, ties to even: guard bit 103, sticky below, the kept lsb at 104.
    round_up = !trunc_i && norm[103] && (norm[104] || |norm[102:0]);
    rounded  = {rexp[7:0], norm[126:104]} + 31'(round_up);

    if (mag == '0) begin
      r_o = '0;  // an exact cancellation is +0 when rounding to nearest
    end else begin
      r_o = {sign, rounded};
    end

    inputs_ok   = x_i[30:23] != 8'd0 && x_i[30:23] != 8'hff && y_i[30:23] != 8'd0 && y_i[30:23] != 8'hff &&
                  z_i[30:23] != 8'd0 && z_i[30:23] != 8'hff;
    // The window is exact while the shifted product and addend stay below bit 127 (their sum then
    // fits too); the result is normal while its biased exponent, after rounding, stays in 1..254.
    range_err_o = !inputs_ok || sp >= 10'(Acc - 48) || sz >= 10'(Acc - 24) ||
                  (mag != '0 && (!norm[Acc-1] || 10'(lead) + emin <= ResultBias || rexp >= 10'd255 ||
                                 rounded[30:23] == 8'hff));
  end
endmodule

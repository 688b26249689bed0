// tmu_mov_to_dst: one datum of MOVA2D / MOVB2D, Src -> Dst (refmodel movconv.h mova2d_datum,
// movb2d_datum): denormal flush, MOVB2D's read in the SrcB format's style, the 16-bit value in the
// SrcA format's exponent width, and the Dst write for the configuration's DstWriteKind.
// Combinational.
module tmu_mov_to_dst (
  input  logic [tmu_pkg::SrcDatumW-1:0] datum_i,
  // The Dst32b value the datum replaces: a Dst32bLow16 write keeps its high half.
  input  logic [15:0]                   dst_old_hi_i,
  input  logic                          flush_i,           // !Zero_Flag_disabled_src
  // movb2d_srcb_read (MOVB2D without FP16A_FORCE): an FP16-style SrcB format has no exponent bits
  // 7:5, a BF16-style one no mantissa bits 10:8.
  input  logic                          clear_exp_hi3_i,
  input  logic                          clear_mant_lo3_i,
  input  logic                          exp8_i,            // mov_uses_8bit_exponent
  input  logic                          tf32_i,            // SrcA format TF32: a Dst32b write
  input  logic                          use_dst32b_lo_i,   // UseDst32bLo
  output logic [31:0]                   value_o            // the new stored Dst value
);

  logic [tmu_pkg::SrcDatumW-1:0] flushed, datum;
  logic [15:0]                   val16, tf32_low;

  always_comb begin
    // Every style alike: only the eight exponent bits decide, so INT8 zero and INT16 data whose
    // low byte is zero flush too (movconv.h flush_src_denormal).
    flushed = (flush_i && (datum_i[7:0] == 8'd0)) ? '0 : datum_i;
    datum   = flushed;
    if (clear_exp_hi3_i) datum[7:5] = 3'd0;
    if (clear_mant_lo3_i) datum[10:8] = 3'd0;

    // RemoveLowMantissa (BF16 layout) or RemoveHighExponent (FP16 layout).
    val16 = exp8_i ? {datum[18], datum[17:11], datum[7:0]} : {datum[18], datum[17:8], datum[4:0]};

    // TF32 in Dst32b is the FP32 layout: mantissa bits 10:8 follow the BF16 high half.
    tf32_low = {datum[10:8], 13'd0} | (use_dst32b_lo_i ? val16 : 16'd0);

    if (tf32_i) begin
      value_o = {val16, tf32_low};
    end else if (use_dst32b_lo_i) begin
      value_o = {dst_old_hi_i, val16};
    end else begin
      value_o = {16'd0, val16};
    end
  end

endmodule

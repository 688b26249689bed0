// tmu_mov_from_dst: one datum of MOVD2A / MOVD2B, Dst -> Src (refmodel movconv.h
// mov_from_dst_datum for a plan_mov_from_dst plan that is defined). Combinational.
module tmu_mov_from_dst (
  // The Dst value as read: the Dst32b value when read32_i, else the Dst16b value in the low half.
  input  logic [31:0]                   dst_i,
  input  logic                          read32_i,         // plan.read_dst32b
  input  logic                          use_dst32b_lo_i,  // plan.use_dst32b_lo
  input  tmu_pkg::src_style_e           style_i,          // plan.style (INT8 converts as FP16)
  output logic [tmu_pkg::SrcDatumW-1:0] datum_o
);

  logic [15:0] half;

  always_comb begin
    // With UseDst32bLo the low half of a Dst32b value stands where the high half would be.
    half = (read32_i && !use_dst32b_lo_i) ? dst_i[31:16] : dst_i[15:0];

    unique case (style_i)
      // ShuffleBF16: mantissa to 17:11, zeros in 10:8.
      tmu_pkg::SRC_STYLE_BF16: datum_o = {half[15], half[14:8], 3'd0, half[7:0]};
      // ShuffleTF32: the FP32 layout truncated to TF32; with UseDst32bLo the 13 bits FP32 -> TF32
      // discards, as they are. (Dst16b + TF32 is undefined; the plan refuses it.)
      tmu_pkg::SRC_STYLE_TF32: datum_o = use_dst32b_lo_i ? {6'd0, dst_i[12:0]}
                                                         : {dst_i[31:24], dst_i[15:13], dst_i[23:16]};
      // ShuffleFP16 (INT8 data is overlaid on FP16): mantissa to 17:8, zeros in 7:5.
      default:                 datum_o = {half[15:5], 3'd0, half[4:0]};
    endcase
  end

endmodule

// tmu_acc_to_dst: an accumulator word as the value Dst stores, in the physical layout of the
// format (Dst.md; refmodel src/fpu/fpu_mode.cpp acc_to_dst). 16-bit formats come out in
// bits 15:0 with bits 31:16 zero; the BF16 and FP16 roundings have already cleared the mantissa
// bits these formats drop. INT32 words do not come from here (0).
module tmu_acc_to_dst (
  input  logic                 valid_i,  // low: outputs undefined, nothing evaluated
  input  tmu_pkg::acc_word_t   word_i,
  input  tmu_pkg::dst_format_e format_i,
  output logic [31:0]          stored_o
);

  tmu_pkg::dst32_fp32_t fp32;
  tmu_pkg::dst16_fp16_t fp16;

  always_comb begin
    fp32     = 'x;
    fp16     = 'x;
    stored_o = 'x;
    if (valid_i) begin
      fp32.high.sign     = word_i.sign;
      fp32.high.exponent = word_i.exponent;
      fp32.high.mantissa = word_i.mantissa[22:16];
      fp32.mantissa_lo   = word_i.mantissa[15:0];
      fp16.sign          = word_i.sign;
      fp16.exponent      = word_i.exponent[4:0];
      fp16.mantissa      = word_i.mantissa[22:13];
      // Plain case: the items are distinct constants, and a unique case's run-time check would
      // name the instance, making the simulation code of each element different.
      case (format_i)
        tmu_pkg::DST_FP32: stored_o = fp32;
        tmu_pkg::DST_BF16: stored_o = {16'b0, fp32.high};
        tmu_pkg::DST_FP16: stored_o = {16'b0, fp16};
        default:           stored_o = '0;  // DST_INT32
      endcase
    end
  end

endmodule

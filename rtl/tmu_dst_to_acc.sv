// tmu_dst_to_acc: a stored Dst value, in the physical layout of its format (Dst.md), as the
// accumulator word the datapath computes on (refmodel src/fpu/fpu_mode.cpp dst_to_acc).
// 16-bit formats take bits 15:0. FP16 goes into the low exponent bits and the top ten mantissa
// bits, so one normaliser serves both exponent widths. INT32 has no accumulator word (0).
module tmu_dst_to_acc (
  input  logic                 valid_i,  // low: outputs undefined, nothing evaluated
  input  logic [31:0]          stored_i,
  input  tmu_pkg::dst_format_e format_i,
  output tmu_pkg::acc_word_t   word_o
);

  tmu_pkg::dst32_fp32_t fp32;
  tmu_pkg::dst16_bf16_t bf16;
  tmu_pkg::dst16_fp16_t fp16;

  always_comb begin
    fp32   = stored_i;
    bf16   = stored_i[15:0];
    fp16   = stored_i[15:0];
    word_o = 'x;
    if (valid_i) begin
      // Plain case: the items are distinct constants, and a unique case's run-time check would
      // name the instance, making the simulation code of each element different.
      case (format_i)
        tmu_pkg::DST_FP32: begin
          word_o.sign     = fp32.high.sign;
          word_o.exponent = fp32.high.exponent;
          word_o.mantissa = {fp32.high.mantissa, fp32.mantissa_lo};
        end
        tmu_pkg::DST_BF16: begin
          word_o.sign     = bf16.sign;
          word_o.exponent = bf16.exponent;
          word_o.mantissa = {bf16.mantissa, 16'b0};
        end
        tmu_pkg::DST_FP16: begin
          word_o.sign     = fp16.sign;
          word_o.exponent = {3'b0, fp16.exponent};
          word_o.mantissa = {fp16.mantissa, 13'b0};
        end
        default: word_o = '0;  // DST_INT32
      endcase
    end
  end

endmodule

// tmu_accum_normalize: datapath stage 3, the one place that rounds and packs a float result
// (refmodel src/fpu/accum_normalize.cpp accum_normalize).
//
//  1. The two group terms and the Dst word are aligned to their common (largest) exponent. The
//     group terms round the bits shifted out with ties toward +infinity, the Dst magnitude with
//     ties away from zero. A Dst denormal reads as zero but its exponent (0) still competes.
//  2. With a 16-bit Dst every aligned term is first rounded to a multiple of 2^13 (the adder's
//     narrow mode), whatever the 16-bit format.
//  3. The terms are added with the Dst sign as reference; a negative total flips the sign.
//  4. The sum is renormalised so its leading one sits at bit 23 (Wormhole: a sum of exactly one
//     LSB with a negative sign is shifted 27 places too few), rounded once to the Dst width (FP32
//     keeps 24 significant bits, BF16 8, FP16 11; ties away from zero), and checked: exponent <= 0
//     gives +0; FP32/BF16 exponents >= 255 give sign | 255 | 0; FP16 exponents > 31 saturate to
//     sign | 31 | all-ones mantissa.
// The outcome output says which of these ended the computation, for a testbench's trace.
module tmu_accum_normalize (
  input  logic                    valid_i,       // low: outputs undefined, nothing evaluated
  input  tmu_pkg::acc_term_t      group0_i,
  input  tmu_pkg::acc_term_t      group1_i,
  input  tmu_pkg::acc_word_t      dst_i,
  input  logic                    dst32_i,       // FP32 Dst: no narrow pre-rounding, 24-bit result
  input  logic                    exponent_8b_i, // BF16/TF32 style (else FP16, 5-bit exponent)
  input  logic                    minus_one_quirk_i,  // the Wormhole -1 LSB renormalisation bug
  output tmu_pkg::acc_word_t      result_o,
  output tmu_pkg::accum_outcome_e outcome_o
);

  localparam int unsigned ExpW      = tmu_pkg::ExpW;
  localparam int unsigned TermW     = tmu_pkg::TermMantW;
  localparam int unsigned FracBits  = tmu_pkg::AccFractionBits;
  localparam int unsigned DstMantW  = FracBits + 1;  // Dst significand with its implicit one
  // Alignment distances are clamped to this shifter width: anything past TermW + 1 places leaves
  // nothing of a TermW-bit (or narrower) magnitude either way.
  localparam int unsigned AlignShiftW = 5;
  localparam int unsigned MaxAlign    = (1 << AlignShiftW) - 1;
  // 16-bit Dst: terms are rounded at this bit before the add.
  localparam int unsigned NarrowPresumBits = 13;
  // Terms after the narrow rounding can carry one bit above TermW (e.g. 2^28 from 2^28 - 1).
  localparam int unsigned PresumW = TermW + 1;
  // Two terms and the Dst magnitude, signed: < 2^29 + 2^29 + 2^25, plus a sign bit.
  localparam int unsigned SumW    = PresumW + 3;
  localparam int unsigned MagW    = SumW - 1;
  // Mantissa bits the final rounding drops (24 - 8 for BF16, 24 - 11 for FP16).
  localparam int unsigned Bf16DropBits = 16;
  localparam int unsigned Fp16DropBits = 13;
  // Normalisation: shift = leading zeros - (MagW - 1 - FracBits); left up to FracBits places,
  // right up to MagW - 1 - FracBits places (more with the Wormhole quirk).
  localparam int unsigned NormW     = 7;  // signed shift amounts, [-64, 63]
  localparam int unsigned LzcW      = 5;
  localparam int unsigned RoundW    = 6;  // right-shift amounts of the final rounding
  localparam int signed   MaxExponent8    = 255;
  localparam int signed   MaxExponentFp16 = 31;

  // Exponent arithmetic two bits wider than an exponent cannot overflow. (Yosys 0.23 reads no
  // casts to a user type, so widening is spelled out.)
  localparam int unsigned WideW = ExpW + 2;
  typedef logic signed [WideW-1:0] wide_exp_t;

  // ---- 1. alignment ----
  logic [DstMantW-1:0]    dst_mantissa;
  wide_exp_t              exp_g0, exp_g1, exp_d, common;
  logic [TermW-1:0]       aligned_g0, aligned_g1;
  logic [DstMantW-1:0]    aligned_d;

  // Distance of each addend from the common exponent, clamped at MaxAlign: written out for each,
  // not as a function (see tmu_pkg's StyleHas8bitExponent on function calls in element modules).
  wide_exp_t              distance_g0, distance_g1, distance_d;
  logic [AlignShiftW-1:0] shift_g0, shift_g1, shift_d;

  always_comb begin
    dst_mantissa = 'x;
    exp_g0       = 'x;
    exp_g1       = 'x;
    exp_d        = 'x;
    common       = 'x;
    distance_g0  = 'x;
    distance_g1  = 'x;
    distance_d   = 'x;
    shift_g0     = 'x;
    shift_g1     = 'x;
    shift_d      = 'x;
    if (valid_i) begin
      dst_mantissa = (dst_i.exponent != '0) ? {1'b1, dst_i.mantissa} : '0;
      exp_g0 = {{2{group0_i.exponent[ExpW-1]}}, group0_i.exponent};
      exp_g1 = {{2{group1_i.exponent[ExpW-1]}}, group1_i.exponent};
      exp_d  = $signed(WideW'(dst_i.exponent));
      common = exp_g0;
      if (exp_g1 > common) common = exp_g1;
      if (exp_d > common) common = exp_d;
      distance_g0 = common - exp_g0;
      distance_g1 = common - exp_g1;
      distance_d  = common - exp_d;
      shift_g0 = (distance_g0 > $signed(WideW'(MaxAlign))) ? AlignShiftW'(MaxAlign)
                                                            : distance_g0[AlignShiftW-1:0];
      shift_g1 = (distance_g1 > $signed(WideW'(MaxAlign))) ? AlignShiftW'(MaxAlign)
                                                            : distance_g1[AlignShiftW-1:0];
      shift_d  = (distance_d > $signed(WideW'(MaxAlign)))  ? AlignShiftW'(MaxAlign)
                                                            : distance_d[AlignShiftW-1:0];
    end
  end

  tmu_shift_round #(.Width(TermW), .ShiftW(AlignShiftW)) u_align_g0 (
    .valid_i    (valid_i),
    .magnitude_i(group0_i.mantissa),
    .negative_i (group0_i.sign),
    .shift_i    (shift_g0),
    .magnitude_o(aligned_g0)
  );

  tmu_shift_round #(.Width(TermW), .ShiftW(AlignShiftW)) u_align_g1 (
    .valid_i    (valid_i),
    .magnitude_i(group1_i.mantissa),
    .negative_i (group1_i.sign),
    .shift_i    (shift_g1),
    .magnitude_o(aligned_g1)
  );

  tmu_shift_round #(.Width(DstMantW), .ShiftW(AlignShiftW)) u_align_d (
    .valid_i    (valid_i),
    .magnitude_i(dst_mantissa),
    .negative_i (1'b0),  // the Dst magnitude rounds ties away from zero whatever its sign
    .shift_i    (shift_d),
    .magnitude_o(aligned_d)
  );

  // ---- 2. narrow pre-rounding (16-bit Dst) ----
  localparam int unsigned NarrowKeptW = TermW - NarrowPresumBits;
  logic [TermW-1:0]    narrow_g0, narrow_g1, narrow_d;
  logic [PresumW-1:0]  presum_g0, presum_g1, presum_d;

  tmu_shift_round #(.Width(TermW), .ShiftW(4)) u_narrow_g0 (
    .valid_i    (valid_i),
    .magnitude_i(aligned_g0),
    .negative_i (group0_i.sign),
    .shift_i    (4'(NarrowPresumBits)),
    .magnitude_o(narrow_g0)
  );

  tmu_shift_round #(.Width(TermW), .ShiftW(4)) u_narrow_g1 (
    .valid_i    (valid_i),
    .magnitude_i(aligned_g1),
    .negative_i (group1_i.sign),
    .shift_i    (4'(NarrowPresumBits)),
    .magnitude_o(narrow_g1)
  );

  tmu_shift_round #(.Width(TermW), .ShiftW(4)) u_narrow_d (
    .valid_i    (valid_i),
    .magnitude_i(TermW'(aligned_d)),
    .negative_i (1'b0),
    .shift_i    (4'(NarrowPresumBits)),
    .magnitude_o(narrow_d)
  );

  logic unused_narrow_high;  // a rounded TermW-bit value >> 13 fits NarrowKeptW + 1 bits

  always_comb begin
    presum_g0 = 'x;
    presum_g1 = 'x;
    presum_d  = 'x;
    if (valid_i) begin
      if (dst32_i) begin
        presum_g0 = PresumW'(aligned_g0);
        presum_g1 = PresumW'(aligned_g1);
        presum_d  = PresumW'(aligned_d);
      end else begin
        presum_g0 = {narrow_g0[NarrowKeptW:0], NarrowPresumBits'(0)};
        presum_g1 = {narrow_g1[NarrowKeptW:0], NarrowPresumBits'(0)};
        presum_d  = {narrow_d[NarrowKeptW:0], NarrowPresumBits'(0)};
      end
    end
  end

  assign unused_narrow_high = ^{narrow_g0[TermW-1:NarrowKeptW+1], narrow_g1[TermW-1:NarrowKeptW+1],
                                narrow_d[TermW-1:NarrowKeptW+1]};

  // ---- 3. signed add relative to the Dst sign ----
  logic signed [SumW-1:0] sum;
  logic                   sign;
  logic [MagW-1:0]        magnitude;

  always_comb begin
    sum       = 'x;
    sign      = 'x;
    magnitude = 'x;
    if (valid_i) begin
      sum = $signed({3'b0, presum_d});
      if (group0_i.sign == dst_i.sign) sum = sum + $signed({3'b0, presum_g0});
      else                             sum = sum - $signed({3'b0, presum_g0});
      if (group1_i.sign == dst_i.sign) sum = sum + $signed({3'b0, presum_g1});
      else                             sum = sum - $signed({3'b0, presum_g1});
      sign      = dst_i.sign ^ sum[SumW-1];
      magnitude = MagW'(sum[SumW-1] ? -sum : sum);
    end
  end

  // ---- 4. renormalise, round to the Dst width, range checks ----
  logic [LzcW-1:0]         leading_zeros;
  logic signed [NormW-1:0] norm_shift;     // left shift putting the leading one at bit FracBits
  logic signed [NormW-1:0] narrow_shift;   // the same, less the bits the Dst format drops
  logic [4:0]              drop_bits;
  logic [RoundW-1:0]       right_amount;
  logic [MagW-1:0]         rounded_right;
  logic [MagW-1:0]         scaled;         // leading one at bit FracBits (or FracBits + 1)
  wide_exp_t               exponent;
  logic                    quirk;

  always_comb begin
    leading_zeros = 'x;
    quirk         = 'x;
    norm_shift    = 'x;
    drop_bits     = 'x;
    narrow_shift  = 'x;
    right_amount  = 'x;
    if (valid_i) begin
      leading_zeros = '0;
      for (int unsigned i = 0; i < MagW; i++) begin
        if (magnitude[i]) leading_zeros = LzcW'(MagW - 1 - i);
      end
      quirk = minus_one_quirk_i && sign && (magnitude == MagW'(1));
      norm_shift = $signed({2'b0, leading_zeros}) - NormW'(MagW - 1 - FracBits);
      if (quirk) norm_shift = norm_shift - NormW'(tmu_pkg::WormholeMinusOneShiftError);

      if (dst32_i)            drop_bits = 5'd0;
      else if (exponent_8b_i) drop_bits = 5'(Bf16DropBits);
      else                    drop_bits = 5'(Fp16DropBits);
      narrow_shift = norm_shift - $signed({2'b0, drop_bits});
      right_amount = RoundW'(-narrow_shift);
    end
  end

  tmu_shift_round #(.Width(MagW), .ShiftW(RoundW)) u_round (
    .valid_i    (valid_i),
    .magnitude_i(magnitude),
    .negative_i (1'b0),
    .shift_i    (right_amount),
    .magnitude_o(rounded_right)
  );

  always_comb begin
    scaled   = 'x;
    exponent = 'x;
    if (valid_i) begin
      if (narrow_shift < 0) scaled = rounded_right << drop_bits;
      else                  scaled = magnitude << $unsigned(norm_shift);
      exponent = common - {{(WideW - NormW){norm_shift[NormW-1]}}, norm_shift};
      // Rounding carries into bit FracBits + 1 only as exactly 2^(FracBits + 1).
      if (scaled[FracBits+1]) exponent = exponent + $signed(WideW'(1));
    end
  end

  logic unused_scaled_high;  // nothing reaches above bit FracBits + 1 after normalisation
  assign unused_scaled_high = ^scaled[MagW-1:FracBits+2];

  always_comb begin
    result_o  = 'x;
    outcome_o = tmu_pkg::ACC_NORMAL;
    if (valid_i) begin
      result_o = '0;
      if (common <= 0) begin
        outcome_o = tmu_pkg::ACC_EARLY_UNDERFLOW;
      end else if (magnitude == '0) begin
        outcome_o = tmu_pkg::ACC_CANCELLED;
      end else if (exponent <= 0) begin
        outcome_o = tmu_pkg::ACC_LATE_UNDERFLOW;
      end else if (dst32_i || exponent_8b_i) begin
        result_o.sign = sign;
        if (exponent >= $signed(WideW'(MaxExponent8))) begin
          outcome_o         = tmu_pkg::ACC_OVERFLOW;
          result_o.exponent = 8'(MaxExponent8);
        end else begin
          result_o.exponent = exponent[7:0];
          result_o.mantissa = scaled[FracBits-1:0];
        end
      end else begin
        result_o.sign = sign;
        if (exponent > $signed(WideW'(MaxExponentFp16))) begin
          outcome_o         = tmu_pkg::ACC_FP16_SATURATED;
          result_o.exponent = 8'(MaxExponentFp16);
          result_o.mantissa = {10'h3FF, 13'b0};
        end else begin
          result_o.exponent = exponent[7:0];
          result_o.mantissa = scaled[FracBits-1:0];
        end
      end
    end
  end

endmodule

// tmu_elw_adder: the float ELWADD / ELWSUB operand adder of one element, producing the single term
// the accumulator (tmu_accum_normalize) adds to Dst (refmodel src/fpu/elw_adder.cpp
// elw_adder; ELWSUB arrives here with SrcB's sign bit already inverted).
//
//  1. Both datums are read in their styles. A flushed operand (zero exponent; SrcB only when the
//     zero flag is enabled) is all zeros, sign included; a SrcB kept despite a zero exponent keeps
//     its implicit one unless the whole datum is zero.
//  2. The larger magnitude ({exponent, mantissa}) goes first; the other significand is aligned to
//     its exponent with ties-away rounding and no guard bits, then added or subtracted.
//  3. The term has the larger operand's sign and exponent (FP16 into an FP32 Dst: rebiased, or 97
//     for a zero exponent), less 5 / 7 for the fidelity phase bits (ISA-defined division).
//
// One input pair makes the difference negative: a flushed SrcA against a SrcB of -0 kept by a
// disabled zero flag (0 - 1.0). ttsim and the refmodel compute it in a 32-bit datapath, where the
// difference 0xFF800000 wraps: at the common exponent it acts as -1.0, shifted right it is a
// large positive number, and the 32-bit Dst adder may wrap again. tmu_accum_normalize holds
// 28-bit terms, so this module works that case out itself and hands the accumulator an
// equivalent (term, Dst word) pair: the term -1.0 when Dst does not raise the common exponent,
// else the finished sum as a term against a zero Dst, scaled down by 2^4 when it exceeds 28 bits
// (safe: such a sum is rounded by at least 5 more bits afterwards, see the wrap block below).
module tmu_elw_adder (
  input  logic                     valid_i,  // low: outputs undefined, nothing evaluated
  input  tmu_pkg::src_datum_t      srca_i,
  input  tmu_pkg::src_datum_t      srcb_i,
  input  tmu_pkg::src_style_e      srca_style_i,
  input  tmu_pkg::src_style_e      srcb_style_i,
  input  logic                     dst32_i,
  input  tmu_pkg::fidelity_phase_t phase_i,
  input  logic                     srcb_zero_flag_disabled_i,
  input  tmu_pkg::acc_word_t       dst_i,   // the Dst word (zero when Dst is not added)
  output tmu_pkg::acc_term_t       term_o,
  output tmu_pkg::acc_word_t       dst_o    // the Dst word the accumulator is to use
);

  localparam int unsigned ExpW       = tmu_pkg::ExpW;
  localparam int unsigned TermW      = tmu_pkg::TermMantW;
  localparam int unsigned SigW       = tmu_pkg::SignificandW;
  localparam int unsigned KeyW       = 18;  // {exponent, mantissa}
  localparam int unsigned ToAccShift = tmu_pkg::AccFractionBits - (SigW - 1);  // 13
  localparam int signed   Fp16ToFp32Rebias = 127 - 15;
  localparam int signed   Fp16ZeroSumExp   = 127 - 2 * 15;
  localparam int unsigned NarrowBits = 13;  // 16-bit Dst: the accumulator's pre-rounding bit
  // The wrapped difference 0xFF800000 is 0x1FF << 23; shifted right by s it is 0x1FF << (23 - s).
  localparam int unsigned WrapTopBits = 9;
  localparam int unsigned WideScale   = 4;  // scale-down of a wrapped sum above 28 bits

  tmu_pkg::src_style_e srcb_style;
  logic                exp8;
  logic [7:0]          exp_a, exp_b;
  logic [9:0]          mant_a, mant_b;
  logic                flush_a, flush_b;
  logic                sign_a, sign_b;
  logic [SigW-1:0]     sig_a, sig_b;
  logic [KeyW-1:0]     key_a, key_b;
  logic                swap;
  logic                big_sign, small_sign;
  logic [7:0]          big_exp, small_exp;
  logic [SigW-1:0]     big_sig, small_sig;
  logic [7:0]          exp_diff;
  logic [3:0]          align_shift;
  logic [SigW-1:0]     small_aligned;
  logic [SigW:0]       sum;
  logic                wrapped;
  tmu_pkg::dp_exp_t    scale;
  tmu_pkg::dp_exp_t    term_exp;

  // ---- 1. operand read ----
  always_comb begin
    exp8       = 'x;
    exp_a      = 'x;
    exp_b      = 'x;
    mant_a     = 'x;
    mant_b     = 'x;
    flush_a    = 'x;
    flush_b    = 'x;
    sign_a     = 'x;
    sign_b     = 'x;
    sig_a      = 'x;
    sig_b      = 'x;
    key_a      = 'x;
    key_b      = 'x;
    srcb_style = tmu_pkg::SRC_STYLE_FP16;
    if (valid_i) begin
      srcb_style = (tmu_pkg::StyleHas8bitExponent[srca_style_i] &&
                    tmu_pkg::StyleHas8bitExponent[srcb_style_i]) ? srcb_style_i : srca_style_i;
      exp8       = tmu_pkg::StyleHas8bitExponent[srca_style_i];
      exp_a  = (srca_style_i == tmu_pkg::SRC_STYLE_FP16) ? {3'b0, srca_i.exponent[4:0]} : srca_i.exponent;
      exp_b  = (srcb_style == tmu_pkg::SRC_STYLE_FP16) ? {3'b0, srcb_i.exponent[4:0]} : srcb_i.exponent;
      mant_a = (srca_style_i == tmu_pkg::SRC_STYLE_BF16) ? {srca_i.mantissa[9:3], 3'b0} : srca_i.mantissa;
      mant_b = (srcb_style == tmu_pkg::SRC_STYLE_BF16) ? {srcb_i.mantissa[9:3], 3'b0} : srcb_i.mantissa;
      flush_a = (exp_a == '0);
      flush_b = (exp_b == '0) && !srcb_zero_flag_disabled_i;

      sign_a = srca_i.sign;
      sig_a  = {1'b1, mant_a};
      if (flush_a) begin
        sign_a = 1'b0;
        exp_a  = '0;
        mant_a = '0;
        sig_a  = '0;
      end
      sign_b = srcb_i.sign;
      sig_b  = {1'b1, mant_b};
      if (flush_b) begin
        sign_b = 1'b0;
        exp_b  = '0;
        mant_b = '0;
        sig_b  = '0;
      end else if (!sign_b && (exp_b == '0) && (mant_b == '0)) begin
        sig_b = '0;  // a kept +0 has no implicit one
      end
      key_a = {exp_a, mant_a};
      key_b = {exp_b, mant_b};
    end
  end

  // ---- 2. order, align, add ----
  always_comb begin
    swap        = 'x;
    big_sign    = 'x;
    big_exp     = 'x;
    big_sig     = 'x;
    small_sign  = 'x;
    small_exp   = 'x;
    small_sig   = 'x;
    exp_diff    = 'x;
    align_shift = 'x;
    if (valid_i) begin
      swap       = (key_a < key_b);
      big_sign   = swap ? sign_b : sign_a;
      big_exp    = swap ? exp_b : exp_a;
      big_sig    = swap ? sig_b : sig_a;
      small_sign = swap ? sign_a : sign_b;
      small_exp  = swap ? exp_a : exp_b;
      small_sig  = swap ? sig_a : sig_b;
      exp_diff   = big_exp - small_exp;
      // Past 11 places an 11-bit significand rounds to nothing; 15 stands for every such distance.
      align_shift = (exp_diff > 8'd15) ? 4'd15 : exp_diff[3:0];
    end
  end

  tmu_shift_round #(.Width(SigW), .ShiftW(4)) u_align (
    .valid_i    (valid_i),
    .magnitude_i(small_sig),
    .negative_i (1'b0),
    .shift_i    (align_shift),
    .magnitude_o(small_aligned)
  );

  always_comb begin
    wrapped  = 'x;
    sum      = 'x;
    scale    = 'x;
    term_exp = 'x;
    if (valid_i) begin
      wrapped = 1'b0;
      if (big_sign == small_sign) begin
        sum = {1'b0, big_sig} + {1'b0, small_aligned};
      end else begin
        sum     = {1'b0, big_sig} - {1'b0, small_aligned};
        wrapped = (big_sig < small_aligned);
      end

      scale = '0;
      if (phase_i[0]) scale = scale + ExpW'(5);
      if (phase_i[1]) scale = scale + ExpW'(7);
      if (dst32_i && !exp8) begin
        term_exp = (big_exp != '0) ? $signed({2'b0, big_exp}) + ExpW'(Fp16ToFp32Rebias)
                                   : ExpW'(Fp16ZeroSumExp);
      end else begin
        term_exp = $signed({2'b0, big_exp});
      end
      term_exp = term_exp - scale;
    end
  end

  // ---- 3. the wrapped difference ----
  // The wrapped term sits at term_exp with sign +. With Dst's exponent De <= term_exp it is aligned
  // by 0 and acts as -1.0 (Dst aligns to it as usual). Otherwise the common exponent is De, the
  // term is shifted by s = De - term_exp >= 1 to 0x1FF << (23 - s) (nothing from s = 24 on), a
  // 16-bit Dst rounds both addends at bit 13, and the 32-bit sum relative to Dst's sign is done
  // here. A result of 2^28 or more has its leading one at bit 28+, so the accumulator drops at
  // least 5 (FP32) or 18 (16-bit Dst) bits when it rounds: truncating the 4 (or 17) bits below
  // the scaled value's LSB first changes no add-half-and-truncate result. A zero Dst exponent can
  // take this branch only with term_exp < 0; the pair handed on then has common exponent 0 and
  // underflows to +0 as in the model (the sum stays below 2^28 there: s >= 5).
  localparam int unsigned WideW = 32;

  tmu_pkg::dp_exp_t dst_exp;
  tmu_pkg::dp_exp_t wrap_shift;
  logic [WideW-1:0] wrap_term;
  logic [WideW-1:0] dst_sig;
  logic [WideW-1:0] wrap_sum;
  logic [WideW-1:0] wrap_mag;
  logic             wrap_sign;
  logic [TermW-1:0] scaled_mag;

  // A 16-bit Dst keeps NarrowBits fewer bits: round half up to a multiple of 2^NarrowBits (written
  // out, not as a function: see tmu_pkg's StyleHas8bitExponent on functions in element modules).
  // The mask is a concatenation because Yosys 0.23 drops the '~' of ~WideW'(...) and would
  // synthesise the mask 0x1FFF (docs/cosim.md, "Writing RTL that simulates fast", rule 5).
  localparam logic [WideW-1:0] NarrowHalf = WideW'(1 << (NarrowBits - 1));
  localparam logic [WideW-1:0] NarrowKeep = {{(WideW - NarrowBits){1'b1}}, {NarrowBits{1'b0}}};

  always_comb begin
    dst_exp    = 'x;
    wrap_shift = 'x;
    wrap_term  = 'x;
    dst_sig    = 'x;
    wrap_sum   = 'x;
    wrap_mag   = 'x;
    wrap_sign  = 'x;
    scaled_mag = 'x;
    if (valid_i) begin
      dst_exp    = $signed({2'b0, dst_i.exponent});
      wrap_shift = dst_exp - term_exp;
      wrap_term  = '0;
      if (wrap_shift <= $signed(ExpW'(23))) begin
        wrap_term = WideW'({WrapTopBits{1'b1}}) << (5'd23 - wrap_shift[4:0]);
      end
      dst_sig = WideW'({1'b1, dst_i.mantissa});
      if (!dst32_i) begin
        wrap_term = (wrap_term + NarrowHalf) & NarrowKeep;
        dst_sig   = (dst_sig + NarrowHalf) & NarrowKeep;
      end
      wrap_sum  = dst_i.sign ? dst_sig - wrap_term : dst_sig + wrap_term;
      wrap_mag  = wrap_sum[WideW-1] ? -wrap_sum : wrap_sum;
      wrap_sign = dst_i.sign ^ wrap_sum[WideW-1];
      scaled_mag = wrap_mag[WideW-1:WideScale];
      if (!dst32_i) scaled_mag[NarrowBits-1:0] = '0;
    end
  end

  always_comb begin
    term_o = 'x;
    dst_o  = 'x;
    if (valid_i) begin
      term_o.sign     = big_sign;
      term_o.exponent = term_exp;
      term_o.mantissa = TermW'({sum, ToAccShift'(0)});
      dst_o           = dst_i;
      if (wrapped) begin
        if (dst_exp <= term_exp) begin
          term_o.sign     = 1'b1;
          term_o.mantissa = TermW'(1) << tmu_pkg::AccFractionBits;
        end else begin
          dst_o       = '0;
          term_o.sign = wrap_sign;
          if (wrap_mag[WideW-1:TermW] != '0) begin
            term_o.exponent = dst_exp + ExpW'(WideScale);
            term_o.mantissa = scaled_mag;
          end else begin
            term_o.exponent = dst_exp;
            term_o.mantissa = wrap_mag[TermW-1:0];
          end
        end
      end
    end
  end

endmodule

// tmu_pkg: types, sizes and small pure functions shared by every tmu RTL block.
//
// Names follow the ISA documentation (SrcASrcB.md, Dst.md, RWCs.md, ScalarUnit.md) and the
// refmodel (refmodel/engines/tensix/include/tmu/tensix/state.h, formats.h, fpu/datapath.h), so that one grep finds a
// concept in the spec, the model and the RTL. Enum encodings equal the refmodel's C++ enums, which
// lets a testbench pass them across unchanged.
//
// Yosys 0.23 limits (each seen to fail, most of them silently, with Debian's 0.23):
//  - no `import tmu_pkg::*;` and no `return` in functions: write tmu_pkg::name, assign to the
//    function name;
//  - no multi-dimensional packed arrays (`logic [N-1:0][W-1:0]`: syntax error) and no packed arrays
//    of a typedef (`foo_t [N-1:0]`: the array dimension is silently dropped) - arrays of elements
//    travel as flat vectors sliced with [i*W +: W];
//  - no struct-typed locals in functions and no member writes to a struct-valued function result
//    (wrong logic, no error) - the package's functions work on enums and plain vectors only, and
//    struct fields are taken apart in modules, where Yosys handles them;
//  - no `~` applied to a size cast (`~W'(x)` reads as `W'(x)`): write such masks as concatenations.
// ctest rtl.yosys_pitfalls looks for each of these.
// Every block uses only part of the package, so unused-parameter warnings are waived for it.
/* verilator lint_off UNUSEDPARAM */
package tmu_pkg;

  // ---------------------------------------------------------------------------------------------
  // Architecture
  // ---------------------------------------------------------------------------------------------

  // A block that behaves differently per architecture takes the architecture as an input, so one
  // simulation model serves both; a top that is built for one architecture ties it to a constant.
  typedef enum logic {
    ARCH_BLACKHOLE = 1'b0,
    ARCH_WORMHOLE  = 1'b1
  } arch_e;

  // ---------------------------------------------------------------------------------------------
  // Architectural sizes (state.h)
  // ---------------------------------------------------------------------------------------------

  localparam int unsigned NumThreads  = 3;
  localparam int unsigned ThreadW     = 2;
  localparam int unsigned NumGprs     = 64;  // per thread
  localparam int unsigned GprIdxW     = 6;
  localparam int unsigned GprW        = 32;
  localparam int unsigned SrcRows     = 64;
  localparam int unsigned SrcRowW     = 6;   // RWC.SrcA / RWC.SrcB are counters of this width
  localparam int unsigned SrcCols     = 16;
  localparam int unsigned DstRows     = 1024;  // rows of the 16-bit view
  localparam int unsigned DstRowW     = 10;    // RWC.Dst is a counter of this width
  localparam int unsigned DstCols     = 16;
  localparam int unsigned NumAddrMods = 8;
  localparam int unsigned AddrModW    = 3;   // slot index; Wormhole instructions carry only 2 bits

  typedef logic [ThreadW-1:0] thread_t;
  typedef logic [GprIdxW-1:0] gpr_idx_t;
  typedef logic [GprW-1:0]    gpr_t;

  // ---------------------------------------------------------------------------------------------
  // Src datum (SrcASrcB.md; Bits32.lua Src_*): one 19-bit frame for every style
  // ---------------------------------------------------------------------------------------------

  localparam int unsigned SrcDatumW = 19;

  // BF16 uses only mantissa[9:3]; FP16 and INT8 use only exponent[4:0]; INT8 keeps a sign and a
  // 10-bit magnitude in the mantissa field.
  typedef struct packed {
    logic       sign;      // 18
    logic [9:0] mantissa;  // 17:8
    logic [7:0] exponent;  // 7:0
  } src_datum_t;

  // How the Matrix Unit reads a Src datum (formats.h SrcStyle; same encoding).
  typedef enum logic [1:0] {
    SRC_STYLE_BF16 = 2'd0,
    SRC_STYLE_FP16 = 2'd1,
    SRC_STYLE_TF32 = 2'd2,
    SRC_STYLE_INT8 = 2'd3
  } src_style_e;

  // (RWC.FidelityPhase + FIDELITY_BASE_Phase) & 3. Bit 0 selects SrcA's slice, bit 1 SrcB's.
  typedef logic [1:0] fidelity_phase_t;

  // ---------------------------------------------------------------------------------------------
  // Dst layouts (Dst.md; Bits32.lua Dst16_*, Dst32_*). These are NOT the IEEE bit orders.
  // ---------------------------------------------------------------------------------------------

  typedef struct packed {
    logic       sign;      // 15
    logic [6:0] mantissa;  // 14:8
    logic [7:0] exponent;  // 7:0
  } dst16_bf16_t;

  typedef struct packed {
    logic       sign;      // 15
    logic [9:0] mantissa;  // 14:5
    logic [4:0] exponent;  // 4:0
  } dst16_fp16_t;

  // The high half of a Dst32b FP32 value is exactly a Dst16 BF16 value.
  typedef struct packed {
    dst16_bf16_t high;         // sign, mantissa[22:16], exponent
    logic [15:0] mantissa_lo;  // mantissa[15:0]
  } dst32_fp32_t;

  // The format a Dst element holds for a given mode (datapath.h DstFormat; same encoding).
  typedef enum logic [1:0] {
    DST_FP32  = 2'd0,
    DST_BF16  = 2'd1,
    DST_FP16  = 2'd2,
    DST_INT32 = 2'd3
  } dst_format_e;

  // ---------------------------------------------------------------------------------------------
  // The accumulator word: the datapath's internal float in FP32 bit order. In FP16 mode the
  // exponent field holds the FP16 exponent (bias 15) and the FP16 mantissa fills mantissa[22:13].
  // ---------------------------------------------------------------------------------------------

  localparam int unsigned AccFractionBits = 23;  // terms and words keep the implicit one at bit 23

  typedef struct packed {
    logic        sign;
    logic [7:0]  exponent;
    logic [22:0] mantissa;
  } acc_word_t;

  // INT8 math's INT32 as Dst32 stores it: sign and a 31-bit magnitude, at the bit positions of
  // acc_word_t (formats.cpp dst32_from_int32: sign-magnitude in the FP32 layout). The magnitude
  // never exceeds 2^31 - 1 (int8_math.h kInt32SaturationLimit), so -2^31 has no encoding and
  // -0 reads as 0.
  localparam int unsigned Int32MagW = 31;

  typedef struct packed {
    logic                 sign;
    logic [Int32MagW-1:0] magnitude;
  } int32_sm_t;

  // ---------------------------------------------------------------------------------------------
  // Datapath stage interfaces (datapath.h)
  // ---------------------------------------------------------------------------------------------

  localparam int unsigned SrcASliceW          = 5;   // the multiplier's SrcA port
  localparam int unsigned SrcBSliceW          = 7;   // the multiplier's SrcB port
  localparam int unsigned SignificandW        = 11;  // implicit one + 10 mantissa bits
  localparam int unsigned ProductFractionBits = 10;  // a 5x7 product of 1.xxxx and 1.xxxxxx
  localparam int unsigned ProductMantW        = SrcASliceW + SrcBSliceW;
  localparam int unsigned ProductsPerGroup    = 8;
  // Exponents inside the datapath are signed: a product of two small exponents with a phase
  // adjustment goes down to 1 + 1 - 127 - 12 = -137, two large ones up to 255 + 255 - 127 = 383,
  // and normalisation moves the result by at most 23 down and 7 up. Ten bits hold [-512, 511].
  localparam int unsigned ExpW                = 10;
  // A group sum of eight 12-bit products needs 15 magnitude bits; accumulator terms carry 23
  // fraction bits where products carry 10, so a term's mantissa is the sum shifted up by 13.
  localparam int unsigned GroupSumW           = ProductMantW + 3;
  localparam int unsigned TermMantW           = GroupSumW + AccFractionBits - ProductFractionBits;

  typedef logic signed [ExpW-1:0] dp_exp_t;

  // One 5x7 product, value (-1)^sign * mantissa / 2^10 * 2^(exponent - accumulator bias).
  // INT8 math reuses the multiplier: mantissa is then the slice product and exponent the bit
  // position of the slices in the magnitude (value = mantissa << exponent).
  typedef struct packed {
    logic                    sign;
    dp_exp_t                 exponent;
    logic [ProductMantW-1:0] mantissa;
  } slice_product_t;

  // A sign-magnitude term entering the accumulator: (-1)^sign * mantissa / 2^23 * 2^(exponent -
  // bias); mantissa may exceed 24 bits (an unnormalised sum).
  typedef struct packed {
    logic                 sign;
    dp_exp_t              exponent;
    logic [TermMantW-1:0] mantissa;
  } acc_term_t;

  // Widths of the stage interface types, for ports that carry arrays of them as flat vectors
  // (Yosys 0.23 reads no $bits(type)); the blocks check them against $bits in simulation.
  localparam int unsigned SliceProductW = 1 + ExpW + ProductMantW;
  localparam int unsigned AccTermW      = 1 + ExpW + TermMantW;

  // How accum_normalize finished (datapath.h AccumOutcome; same encoding).
  typedef enum logic [2:0] {
    ACC_NORMAL          = 3'd0,
    ACC_EARLY_UNDERFLOW = 3'd1,  // every input exponent <= 0
    ACC_CANCELLED       = 3'd2,  // the signed sum is exactly zero
    ACC_LATE_UNDERFLOW  = 3'd3,  // exponent <= 0 after normalisation and rounding
    ACC_OVERFLOW        = 3'd4,  // FP32/BF16: exponent >= 255
    ACC_FP16_SATURATED  = 3'd5   // FP16 Dst: exponent > 31
  } accum_outcome_e;

  // Wormhole B0 mis-normalises a sum of magnitude exactly one LSB with a negative sign: its
  // leading-sign count shifts 27 places too few (ttsim fpu_accum_normalize_encode,
  // TT_ARCH_VERSION == 0). Blackhole is correct.
  localparam int unsigned WormholeMinusOneShiftError = 27;

  function automatic logic has_minus_one_lsb_renormalisation_bug(input tmu_pkg::arch_e arch);
    has_minus_one_lsb_renormalisation_bug = (arch == tmu_pkg::ARCH_WORMHOLE);
  endfunction

  // BF16 and TF32 styles have an 8-bit exponent (bias 127); FP16 and INT8 a 5-bit one. Indexed
  // by src_style_e.
  localparam logic [3:0] StyleHas8bitExponent = 4'b0101;

  // Modules instantiated once per element (tmu_mvmul_element, tmu_elw_element and their stages)
  // index StyleHas8bitExponent instead of calling a function: Verilator gives each inlined call
  // numbered temporaries of its own, which makes the simulation code of every instance different,
  // so the 128 MVMUL elements would compile to 128 copies instead of one (docs/cosim.md, "Writing
  // RTL that simulates fast").
  function automatic logic has_8bit_exponent(input tmu_pkg::src_style_e style);
    has_8bit_exponent = StyleHas8bitExponent[style];
  endfunction

  // SrcB is read with its own style only when both styles have 8-bit exponents; otherwise with
  // SrcA's (fpu_mode.cpp effective_srcb_style). The operand reads of tmu_fidelity_slice and
  // tmu_elw_adder apply it with StyleHas8bitExponent.

  function automatic tmu_pkg::dst_format_e dst_format(input tmu_pkg::src_style_e srca_style,
                                                      input logic dst32);
    if (srca_style == tmu_pkg::SRC_STYLE_INT8) begin
      dst_format = tmu_pkg::DST_INT32;
    end else if (dst32) begin
      dst_format = tmu_pkg::DST_FP32;
    end else if (srca_style == tmu_pkg::SRC_STYLE_FP16) begin
      dst_format = tmu_pkg::DST_FP16;
    end else begin
      dst_format = tmu_pkg::DST_BF16;
    end
  endfunction

  // ---------------------------------------------------------------------------------------------
  // RWCs and ADDR_MOD slots (RWCs.md)
  // ---------------------------------------------------------------------------------------------

  // One thread's register-write counters (state.h Rwc).
  typedef struct packed {
    logic [DstRowW-1:0] dst;                 // RWC.Dst
    logic [DstRowW-1:0] dst_cr;              // RWC.Dst_Cr
    logic [SrcRowW-1:0] srca;                // RWC.SrcA
    logic [SrcRowW-1:0] srca_cr;             // RWC.SrcA_Cr
    logic [SrcRowW-1:0] srcb;                // RWC.SrcB
    logic [SrcRowW-1:0] srcb_cr;             // RWC.SrcB_Cr
    fidelity_phase_t    fidelity_phase;      // RWC.FidelityPhase
    logic               extra_addr_mod_bit;  // RWC.ExtraAddrModBit
  } rwc_t;

  localparam int unsigned RwcW = 2 * DstRowW + 4 * SrcRowW + 2 + 1;

  // The three ThreadConfig sections of one ADDR_MOD slot, in the bit layout of the
  // ADDR_MOD_{AB,DST,BIAS}_SEC<n> registers (ttsim data/bh/tensix_regs.json), so a configuration
  // write can store the register value as it is.
  typedef struct packed {
    logic       srcb_clear;  // 15    SrcBClear
    logic       srcb_cr;     // 14    SrcBCR
    logic [5:0] srcb_incr;   // 13:8  SrcBIncr
    logic       srca_clear;  // 7     SrcAClear
    logic       srca_cr;     // 6     SrcACR
    logic [5:0] srca_incr;   // 5:0   SrcAIncr
  } addr_mod_ab_t;

  typedef struct packed {
    logic       fidelity_clear;  // 15    FidelityClear
    logic [1:0] fidelity_incr;   // 14:13 FidelityIncr
    logic       dest_c_to_cr;    // 12    DestCToCR
    logic       dest_clear;      // 11    DestClear
    logic       dest_cr;         // 10    DestCR
    logic [9:0] dest_incr;       // 9:0   DestIncr
  } addr_mod_dst_t;

  typedef struct packed {
    logic       bias_clear;  // 4    BiasClear
    logic [3:0] bias_incr;   // 3:0  BiasIncr
  } addr_mod_bias_t;

  // What the RWC unit does with one command.
  typedef enum logic [1:0] {
    RWC_CMD_SETRWC   = 2'd0,  // SETRWC word
    RWC_CMD_INCRWC   = 2'd1,  // INCRWC word
    RWC_CMD_ADDR_MOD = 2'd2   // ApplyAddrMod after a Matrix Unit instruction
  } rwc_cmd_e;

  // Which ThreadConfig field a configuration write to the RWC unit targets.
  typedef enum logic [1:0] {
    RWC_CFG_ADDR_MOD_AB   = 2'd0,  // ADDR_MOD_AB_SEC<slot>
    RWC_CFG_ADDR_MOD_DST  = 2'd1,  // ADDR_MOD_DST_SEC<slot>
    RWC_CFG_ADDR_MOD_BIAS = 2'd2,  // ADDR_MOD_BIAS_SEC<slot>
    RWC_CFG_ADDR_MOD_SET  = 2'd3   // ADDR_MOD_SET_Base (Wormhole)
  } rwc_cfg_sel_e;

  // ---------------------------------------------------------------------------------------------
  // Instruction outcome categories (refmodel error.h ErrorKind): an instruction the model refuses
  // retires with its category and no architectural write, so a scoreboard can match the model's
  // exception instead of comparing state.
  // ---------------------------------------------------------------------------------------------

  typedef enum logic [1:0] {
    INSN_OK          = 2'd0,
    INSN_DECODE_ERR  = 2'd1,  // unknown opcode, reserved bit set, field above its maximum
    INSN_UNDEFINED   = 2'd2,  // the ISA defines no result (e.g. a GPR op Mode that does not exist)
    INSN_UNSUPPORTED = 2'd3   // tmu does not model it (e.g. SETDMAREG SetSignalsMode)
  } insn_status_e;

  // ---------------------------------------------------------------------------------------------
  // Src register files and Dst storage (tmu_src_regs, tmu_dst_regs)
  // ---------------------------------------------------------------------------------------------

  // The data format code an unpacker tags a Src bank with (formats.h DataFormat; same encoding).
  localparam int unsigned DataFormatW = 4;

  // What a Matrix Unit instruction does to one Src operand's banks.
  typedef enum logic [1:0] {
    SRC_CMD_NONE         = 2'd0,
    SRC_CMD_CLEAR_DVALID = 2'd1,  // FlipSrcA/B of MVMUL, ELW*, SETRWC, ... (context.cpp clear_dvalid)
    SRC_CMD_CLEARDVALID  = 2'd2,  // the CLEARDVALID instruction
    SRC_CMD_ZEROSRC      = 2'd3   // the ZEROSRC instruction
  } src_cmd_e;

  // Dst is accessed in blocks of 8 rows (the MVMUL output block); a 32-bit-view block of 8 rows
  // occupies two adjacent 16-bit blocks (Adj32: high halves, then low halves 8 rows on).
  localparam int unsigned DstBlockRows  = 8;
  localparam int unsigned DstBlockLanes = DstBlockRows * DstCols;  // elements of a block
  localparam int unsigned DstBlockW     = DstRowW - 3;             // an 8-row block's number

  // ZEROACC Mode (ZEROACC.md; zeroacc.cpp).
  typedef enum logic [1:0] {
    ZEROACC_ONE_ROW      = 2'd0,
    ZEROACC_SIXTEEN_ROWS = 2'd1,
    ZEROACC_HALF_OF_DST  = 2'd2,
    ZEROACC_ALL_OF_DST   = 2'd3
  } zeroacc_mode_e;

  // DstBits row holding the high half of Dst32b[row] (formats.h adj32_row); the low half is 8 on.
  function automatic logic [DstRowW-1:0] adj32_row(input logic [DstRowW-1:0] row);
    adj32_row = {row[8:3], 1'b0, row[2:0]} | {row[9], 6'd0, row[2:0]};
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Functional-unit operations (tmu_elw_unit, tmu_mov_unit)
  // ---------------------------------------------------------------------------------------------

  // Which functional unit carries a Matrix Unit instruction through the pipeline.
  typedef enum logic [2:0] {
    MU_UNIT_NONE   = 3'd0,  // bookkeeping only (RWCs, banks, ZEROACC, no-ops)
    MU_UNIT_MVMUL    = 3'd1,  // MVMUL, DOTPV, GAPOOL
    MU_UNIT_ELW    = 3'd2,  // ELWMUL, ELWADD, ELWSUB
    MU_UNIT_GMPOOL = 3'd3,  // GMPOOL
    MU_UNIT_MOV    = 3'd4   // MOV*, SHIFTXA, SHIFTXB, TRNSPSRCB
  } mu_unit_e;

  typedef enum logic [1:0] {
    ELW_MUL = 2'd0,  // ELWMUL: Dst += SrcA * SrcB (one fidelity phase)
    ELW_ADD = 2'd1,  // ELWADD: Dst (+)= SrcA + SrcB
    ELW_SUB = 2'd2   // ELWSUB: Dst (+)= SrcA - SrcB
  } elw_op_e;

  typedef enum logic [2:0] {
    MOV_A2D      = 3'd0,  // MOVA2D: 1 or 8 SrcA rows -> Dst
    MOV_B2D      = 3'd1,  // MOVB2D: 1 or 4 SrcB rows, or 1 row broadcast to 8 -> Dst
    MOV_D2A      = 3'd2,  // MOVD2A: 1 or 4 Dst rows -> SrcA
    MOV_D2B      = 3'd3,  // MOVD2B: 1 or 4 Dst rows -> SrcB
    MOV_B2A      = 3'd4,  // MOVB2A: 4 SrcB rows -> SrcA
    MOV_SHIFTXA  = 3'd5,  // SHIFTXA: 16 SrcA rows shifted one lane -> SrcA rows 0..15
    MOV_SHIFTXB  = 3'd6,  // SHIFTXB: one SrcB row rotated/shifted one lane, in place
    MOV_TRNSPSRCB = 3'd7  // TRNSPSRCB: SrcB rows 16..31 transposed in place
  } mov_op_e;

  // ---------------------------------------------------------------------------------------------
  // Configuration write port (tmu_config): the Config / ThreadConfig / global fields the Matrix
  // Unit reads, by their state.h names. ADDR_MOD slots go to tmu_rwc in their register layouts.
  // ---------------------------------------------------------------------------------------------

  typedef enum logic [1:0] {
    CFG_SCOPE_CONFIG       = 2'd0,  // Config[index] (index = state 0/1)
    CFG_SCOPE_THREADCONFIG = 2'd1,  // ThreadConfig[index] (index = thread)
    CFG_SCOPE_GLOBAL       = 2'd2,  // state-wide fields
    CFG_SCOPE_ADDR_MOD     = 2'd3   // ThreadConfig[thread].ADDR_MOD_*_SEC[slot] (tmu_rwc layouts)
  } cfg_scope_e;

  typedef enum logic [4:0] {
    // Config
    CFG_SRCA_VAL        = 5'd0,   // ALU_FORMAT_SPEC_REG_SrcA_val
    CFG_SRCA_OVERRIDE   = 5'd1,   // ALU_FORMAT_SPEC_REG_SrcA_override
    CFG_SRCB_VAL        = 5'd2,   // ALU_FORMAT_SPEC_REG_SrcB_val
    CFG_SRCB_OVERRIDE   = 5'd3,   // ALU_FORMAT_SPEC_REG_SrcB_override
    CFG_REG0_SRCA       = 5'd4,   // ALU_FORMAT_SPEC_REG0_SrcA
    CFG_REG1_SRCB       = 5'd5,   // ALU_FORMAT_SPEC_REG1_SrcB
    CFG_FP32_ENABLED    = 5'd6,   // ALU_ACC_CTRL_Fp32_enabled
    CFG_INT8_MATH       = 5'd7,   // ALU_ACC_CTRL_INT8_math_enabled
    CFG_ZERO_FLAG_SRC   = 5'd8,   // ALU_ACC_CTRL_Zero_Flag_disabled_src
    CFG_REGW_BASE       = 5'd9,   // DEST_REGW_BASE_Base (low 10 bits: Dst rows wrap at 1024)
    // ThreadConfig
    TCFG_STATE_ID       = 5'd10,  // CFG_STATE_ID_StateID
    TCFG_MATH_OFFSET    = 5'd11,  // DEST_TARGET_REG_CFG_MATH_Offset (low 10 bits)
    TCFG_NO_IMPLIED_A   = 5'd12,  // DISABLE_IMPLIED_SRCA_FMT_Base
    TCFG_NO_IMPLIED_B   = 5'd13,  // DISABLE_IMPLIED_SRCB_FMT_Base
    TCFG_CLR_DVALID_A   = 5'd14,  // CLR_DVALID_SrcA_Disable
    TCFG_CLR_DVALID_B   = 5'd15,  // CLR_DVALID_SrcB_Disable
    TCFG_FIDELITY_BASE  = 5'd16,  // FIDELITY_BASE_Phase
    TCFG_FP16A_FORCE    = 5'd17,  // FP16A_FORCE_Enable
    TCFG_ADDR_MOD_SET   = 5'd18,  // ADDR_MOD_SET_Base (Wormhole; to tmu_rwc)
    // Global
    GCFG_DBG_BIT11      = 5'd19,  // DbgFeatureDisableBit11
    GCFG_ZEROACC_ABS    = 5'd20,  // DEST_ACCESS_CFG_zeroacc_absolute_tile_mode
    // ADDR_MOD sections (scope CFG_SCOPE_ADDR_MOD, index = slot): the whole register value
    AM_AB_SEC           = 5'd21,
    AM_DST_SEC          = 5'd22,
    AM_BIAS_SEC         = 5'd23
  } cfg_field_e;

  // The configuration the issuing thread sees (tmu_config: its ThreadConfig, Config[its
  // CFG_STATE_ID] and the state-wide fields), in the ISA's field names.
  typedef struct packed {
    logic [DataFormatW-1:0] srca_val;                 // ALU_FORMAT_SPEC_REG_SrcA_val
    logic                   srca_override;            // ALU_FORMAT_SPEC_REG_SrcA_override
    logic [DataFormatW-1:0] srcb_val;                 // ALU_FORMAT_SPEC_REG_SrcB_val
    logic                   srcb_override;            // ALU_FORMAT_SPEC_REG_SrcB_override
    logic [DataFormatW-1:0] reg0_srca;                // ALU_FORMAT_SPEC_REG0_SrcA
    logic [DataFormatW-1:0] reg1_srcb;                // ALU_FORMAT_SPEC_REG1_SrcB
    logic                   fp32_enabled;             // ALU_ACC_CTRL_Fp32_enabled
    logic                   int8_math;                // ALU_ACC_CTRL_INT8_math_enabled
    logic                   zero_flag_disabled_src;   // ALU_ACC_CTRL_Zero_Flag_disabled_src
    logic [DstRowW-1:0]     dst_row_base;             // MATH_Offset + DEST_REGW_BASE_Base
    logic [DstRowW-1:0]     math_offset;              // DEST_TARGET_REG_CFG_MATH_Offset
    logic                   no_implied_srca;          // DISABLE_IMPLIED_SRCA_FMT_Base
    logic                   no_implied_srcb;          // DISABLE_IMPLIED_SRCB_FMT_Base
    logic                   clr_dvalid_srca_disable;  // CLR_DVALID_SrcA_Disable
    logic                   clr_dvalid_srcb_disable;  // CLR_DVALID_SrcB_Disable
    fidelity_phase_t        fidelity_base;            // FIDELITY_BASE_Phase
    logic                   fp16a_force;              // FP16A_FORCE_Enable
    logic                   dbg_bit11;                // DbgFeatureDisableBit11
    logic                   zeroacc_absolute;         // DEST_ACCESS_CFG_zeroacc_absolute_tile_mode
  } mu_cfg_t;

  // ---- What one Matrix Unit instruction does, worked out at issue by tmu_mu_ctrl ----

  // Src: waits (AllowedClient must be the Matrix Unit), read windows, the write at retirement.
  typedef struct packed {
    logic                wait_srca;
    logic                wait_srcb;
    logic                reads;        // reads a Src window
    logic [SrcRowW-1:0]  srca_rd_row;
    logic [SrcRowW-1:0]  srcb_rd_row;
    logic                we;           // a Src write at retirement (row mask from the MOV unit)
    logic                wr_srcb;      // ... into SrcB (else SrcA)
    logic [SrcRowW-1:0]  wr_row;
    logic                mov_is_srcb;  // the MOV unit's Src window is SrcB's
  } mu_src_ctrl_t;

  // Dst: the 8-row window and the write (rows relative to the window). The views and whether it
  // is read at all are in mu_access_t: the MOVs' depend on the MOV unit's answer.
  typedef struct packed {
    logic [DstRowW-1:0]  row;          // first row of the window (view row)
    logic [31:0]         identity;     // what an undefined row reads as
    logic                we;
    logic [7:0]          wr_mask;      // all ones for MOV: the MOV unit's mask applies
  } mu_dst_ctrl_t;

  // The datapath mode (fpu::FpuMode and the instruction's flags).
  typedef struct packed {
    src_style_e          srca_style;
    src_style_e          srcb_style;
    logic                dst32;
    logic                int8;
    fidelity_phase_t     phase;
    logic                bcast_row;    // MVMUL / ELW* BroadcastSrcBRow
    logic                bcast_col0;   // ELW* BroadcastSrcBCol0, MOVB2D BroadcastCol0
    elw_op_e             elw_op;
    logic                add_dst;
    logic                argmax;
  } mu_mode_t;

  // The MOV unit's operation (movconv.h's configuration).
  typedef struct packed {
    mov_op_e                op;
    logic [3:0]             rows;
    logic                   bcast_row;
    logic                   shift_left;
    logic                   shift_in_zero;
    logic [DataFormatW-1:0] srca_format;
    logic [DataFormatW-1:0] srcb_format;
    logic                   use_dst32b_lo;  // UseDst32bLo
    logic                   use_dst32b;     // Fp32_enabled || INT8_math_enabled (MOVD2A/B)
  } mu_mov_ctrl_t;

  // The RWC command and SHIFTXA's latch.
  typedef struct packed {
    logic                valid;
    rwc_cmd_e            cmd;
    logic [AddrModW-1:0] addr_mod;
    logic                latch_srca;
    logic [SrcRowW-1:0]  latch_srca_row;
  } mu_rwc_ctrl_t;

  // The Src bank commands (tmu_src_regs).
  typedef struct packed {
    src_cmd_e            srca_cmd;
    src_cmd_e            srcb_cmd;
    logic                flip_srca;
    logic                flip_srcb;
    logic                cleardvalid_reset;
    logic                keep_reading;
    logic                zerosrc_both_banks;
    logic                zerosrc_single_bank_mu;
    logic                zerosrc_negative_inf;
  } mu_bank_ctrl_t;

  // ZEROACC, applied at retirement (tmu_dst_regs).
  typedef struct packed {
    logic                valid;
    zeroacc_mode_e       mode;
    logic [DstRowW-1:0]  row;
    logic                dst32;
    logic [7:0]          block;
    logic                revert;
    logic                upper_half;
  } mu_zeroacc_t;

  typedef struct packed {
    logic                scalar;           // a GPR instruction: not the Matrix Unit's
    mu_unit_e            unit;
    logic                two_cycle_issue;  // 0.5 instructions per cycle (SHIFTXB)
    mu_src_ctrl_t        src;
    mu_dst_ctrl_t        dst;
    mu_mode_t            mode;
    mu_mov_ctrl_t        mov;
    mu_rwc_ctrl_t        rwc;
    mu_bank_ctrl_t       bank;
    mu_zeroacc_t         za;
  } mu_ctrl_t;

  // The part settled with the MOV unit's answer to mu_ctrl_t.mov: a separate value, so the path
  // through the MOV unit is not a combinational loop.
  typedef struct packed {
    insn_status_e        status;       // not INSN_OK: the model refuses it; no effect
    logic                dst_rd;
    logic                dst_rd32;
    logic                dst_rd_high16;  // DbgFeatureDisableBit11: 16-bit reads take the 32-bit view's high halves
    logic                dst_wr32;
  } mu_access_t;

  // One Matrix Unit instruction's record as it travels from issue to retirement (tmu_top st1..st4).
  typedef struct packed {
    logic                valid;
    logic                ok;          // status == INSN_OK: it has effects
    thread_t             thread;
    logic [31:0]         word;
    insn_status_e        status;
    mu_unit_e            unit;
    logic                dst_we;      // Dst rows dst_mask of the window at dst_row (view dst_wr32)
    logic [DstRowW-1:0]  dst_row;
    logic                dst_wr32;
    logic [7:0]          dst_mask;
    logic [DstRows/8-1:0] hz_groups;  // 8-row DstBits groups it writes (the Dst hazard)
    logic                src_we;      // Src rows from src_row (mask from the MOV unit)
    logic                src_wr_b;
    logic                src_bank;
    logic [SrcRowW-1:0]  src_row;
    mu_zeroacc_t         za;
    logic [4:0]          zerosrc;     // {NegativeInfSrcA, SrcB banks, SrcA banks} cleared at issue
    rwc_t                rwc;         // snapshots taken the cycle after issue: the state after it
    logic [7:0]          banks;
    logic [SrcRowW-1:0]  last_srca;
  } mu_stage_t;

endpackage
/* verilator lint_on UNUSEDPARAM */

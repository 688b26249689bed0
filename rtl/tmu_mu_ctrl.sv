// tmu_mu_ctrl: what one Matrix Unit instruction does, worked out in its issue cycle - which unit runs
// it, the Src/Dst rows it reads and writes, the datapath mode, its RWC, bank and ZEROACC commands, and
// whether the refmodel would refuse it. Purely combinational; tmu_top acts on it. The addressing and
// the refusals follow refmodel/engines/tensix/src/insn/*.cpp instruction by instruction (the file named beside
// each case).
module tmu_mu_ctrl (
  input  logic [31:0]                      word_i,
  input  tmu_pkg::arch_e                   arch_i,

  // The issuing thread's RWCs and configuration (tmu_config), and the shared state.
  input  tmu_pkg::rwc_t                    rwc_i,
  input  tmu_pkg::mu_cfg_t                 cfg_i,
  input  logic [tmu_pkg::DataFormatW-1:0]  srca_bank_format_i,  // the Matrix Unit's SrcA bank's tag
  input  logic [tmu_pkg::DataFormatW-1:0]  srcb_bank_format_i,
  input  logic [tmu_pkg::SrcRowW-1:0]      last_srca_row_i,

  // From tmu_mov_unit, combinational on the mov_* outputs below.
  input  logic                             mov_dst_read32_i,
  input  logic                             mov_dst_write32_i,
  input  logic                             mov_undefined_i,

  output tmu_pkg::mu_ctrl_t                ctrl_o,
  output tmu_pkg::mu_access_t              access_o   // status and Dst views, with the MOV unit's answer
);

  localparam int unsigned SrcRowW = tmu_pkg::SrcRowW;
  localparam int unsigned RowW    = tmu_pkg::DstRowW;
  localparam logic [31:0] GmpoolUndefinedDst32 = 32'hFFFF_FFFF;  // gmpool_compare.h
  localparam logic [31:0] GmpoolUndefinedDst16 = 32'h0000_FFFF;

  // ---- decode ----
  logic                          known, legal, scalar;
  logic [tmu_isa_pkg::IdxW-1:0]  idx;
  logic [0:0] f_AddDst, f_ArgMax, f_BothBanks, f_Broadcast1RowTo8, f_BroadcastCol0, f_BroadcastSrcBCol0;
  logic [0:0] f_BroadcastSrcBRow, f_ClearSrcA, f_ClearSrcB, f_Dim16x16, f_Dst, f_DstCr, f_DstCtoCr;
  logic [0:0] f_Fidelity, f_FlipSrcA, f_FlipSrcB, f_KeepReadingSameSrc, f_Move4Rows, f_Move8Rows;
  logic [0:0] f_NegativeInfSrcA, f_Reset, f_Revert, f_ShiftInZero, f_SingleBankMatrixUnit;
  logic [0:0] f_SrcA, f_SrcACr, f_SrcB, f_SrcBCr, f_UseDst32b, f_UseDst32bLo;
  logic [0:0] f_IndexEn, f_InvalidateSrcBCache, f_OpBisConst, f_ResetSrcAGateControl, f_SetSignalsMode;
  logic [2:0] f_AddrMod, f_Mode;
  logic [1:0] f_Direction;
  logic [3:0] f_ConditionMask, f_DstInc, f_DstVal, f_SrcAInc, f_SrcAVal, f_SrcBInc, f_SrcBVal;
  logic [4:0] f_RotateWeights;
  logic [5:0] f_LeftReg, f_ResultReg, f_RightReg, f_SrcARow, f_SrcBRow, f_SrcRow;
  logic [6:0] f_ResultHalfReg;
  // UNPACR's and PACR's fields: the RTL has no unpacker or packer, so they are decoded and unused.
  logic [0:0] f_AllDatumsAreZero, f_Concat, f_DstAccessMode, f_FlipSrc, f_Flush, f_Last;
  logic [0:0] f_MultiContextMode, f_OvrdThreadId, f_RowSearch, f_UseContextCounter, f_WhichUnpacker;
  logic [0:0] f_ZeroWrite;
  logic [1:0] f_AddrCntContext, f_CfgContext, f_Ch0YInc, f_Ch0ZInc, f_Ch1YInc, f_Ch1ZInc, f_ContextADC;
  logic [1:0] f_CtxtCtrl;
  logic [2:0] f_ContextNumber, f_RowPadZero;
  logic [3:0] f_PackerMask, f_ReadIntfSel;
  logic [9:0] f_DstRow, f_Imm10;
  logic [15:0] f_NewValue;

  tmu_decode u_decode (
    .word_i (word_i), .arch_i (arch_i), .known_o (known), .legal_o (legal), .scalar_o (scalar),
    .idx_o (idx),
    .f_AddDst_o (f_AddDst), .f_AddrMod_o (f_AddrMod), .f_ArgMax_o (f_ArgMax),
    .f_BothBanks_o (f_BothBanks), .f_Broadcast1RowTo8_o (f_Broadcast1RowTo8),
    .f_BroadcastCol0_o (f_BroadcastCol0), .f_BroadcastSrcBCol0_o (f_BroadcastSrcBCol0),
    .f_BroadcastSrcBRow_o (f_BroadcastSrcBRow), .f_ClearSrcA_o (f_ClearSrcA), .f_ClearSrcB_o (f_ClearSrcB),
    .f_ConditionMask_o (f_ConditionMask), .f_Dim16x16_o (f_Dim16x16), .f_Direction_o (f_Direction),
    .f_Dst_o (f_Dst), .f_DstCr_o (f_DstCr), .f_DstCtoCr_o (f_DstCtoCr), .f_DstInc_o (f_DstInc),
    .f_DstRow_o (f_DstRow), .f_DstVal_o (f_DstVal), .f_Fidelity_o (f_Fidelity),
    .f_FlipSrcA_o (f_FlipSrcA), .f_FlipSrcB_o (f_FlipSrcB), .f_Imm10_o (f_Imm10), .f_IndexEn_o (f_IndexEn),
    .f_InvalidateSrcBCache_o (f_InvalidateSrcBCache), .f_KeepReadingSameSrc_o (f_KeepReadingSameSrc),
    .f_LeftReg_o (f_LeftReg), .f_Mode_o (f_Mode), .f_Move4Rows_o (f_Move4Rows), .f_Move8Rows_o (f_Move8Rows),
    .f_NegativeInfSrcA_o (f_NegativeInfSrcA), .f_NewValue_o (f_NewValue), .f_OpBisConst_o (f_OpBisConst),
    .f_ResetSrcAGateControl_o (f_ResetSrcAGateControl), .f_Reset_o (f_Reset),
    .f_ResultHalfReg_o (f_ResultHalfReg), .f_ResultReg_o (f_ResultReg), .f_Revert_o (f_Revert),
    .f_RightReg_o (f_RightReg), .f_RotateWeights_o (f_RotateWeights),
    .f_SetSignalsMode_o (f_SetSignalsMode), .f_ShiftInZero_o (f_ShiftInZero),
    .f_SingleBankMatrixUnit_o (f_SingleBankMatrixUnit), .f_SrcA_o (f_SrcA), .f_SrcACr_o (f_SrcACr),
    .f_SrcAInc_o (f_SrcAInc), .f_SrcARow_o (f_SrcARow), .f_SrcAVal_o (f_SrcAVal), .f_SrcB_o (f_SrcB),
    .f_SrcBCr_o (f_SrcBCr), .f_SrcBInc_o (f_SrcBInc), .f_SrcBRow_o (f_SrcBRow), .f_SrcBVal_o (f_SrcBVal),
    .f_SrcRow_o (f_SrcRow), .f_UseDst32b_o (f_UseDst32b), .f_UseDst32bLo_o (f_UseDst32bLo),
    .f_AddrCntContext_o (f_AddrCntContext), .f_AllDatumsAreZero_o (f_AllDatumsAreZero),
    .f_CfgContext_o (f_CfgContext), .f_Ch0YInc_o (f_Ch0YInc), .f_Ch0ZInc_o (f_Ch0ZInc),
    .f_Ch1YInc_o (f_Ch1YInc), .f_Ch1ZInc_o (f_Ch1ZInc), .f_Concat_o (f_Concat),
    .f_ContextADC_o (f_ContextADC), .f_ContextNumber_o (f_ContextNumber), .f_CtxtCtrl_o (f_CtxtCtrl),
    .f_DstAccessMode_o (f_DstAccessMode), .f_FlipSrc_o (f_FlipSrc), .f_Flush_o (f_Flush),
    .f_Last_o (f_Last), .f_MultiContextMode_o (f_MultiContextMode), .f_OvrdThreadId_o (f_OvrdThreadId),
    .f_PackerMask_o (f_PackerMask), .f_ReadIntfSel_o (f_ReadIntfSel), .f_RowPadZero_o (f_RowPadZero),
    .f_RowSearch_o (f_RowSearch), .f_UseContextCounter_o (f_UseContextCounter),
    .f_WhichUnpacker_o (f_WhichUnpacker), .f_ZeroWrite_o (f_ZeroWrite)
  );

  // Fields only the GPR unit, the RWC unit (which decodes SETRWC/INCRWC itself) or nobody reads.
  // The Src banks (CLR_DVALID disables) and the datapath (the zero flag) read these fields of the
  // configuration directly; the control does not.
  logic unused_cfg;
  assign unused_cfg = ^{cfg_i.zero_flag_disabled_src, cfg_i.clr_dvalid_srca_disable,
                        cfg_i.clr_dvalid_srcb_disable};
  logic unused_fields;
  assign unused_fields = ^{f_ConditionMask, f_DstInc, f_DstVal, f_SrcAInc, f_SrcAVal, f_SrcBInc,
                           f_SrcBVal, f_Dst, f_DstCr, f_DstCtoCr, f_Fidelity, f_SrcA, f_SrcACr, f_SrcB,
                           f_SrcBCr, f_IndexEn, f_InvalidateSrcBCache, f_OpBisConst,
                           f_ResetSrcAGateControl, f_SetSignalsMode, f_LeftReg, f_ResultReg, f_RightReg,
                           f_RotateWeights, f_ResultHalfReg, f_NewValue, f_UseDst32b, f_Mode[2],
                           rwc_i.dst_cr, rwc_i.srca_cr, rwc_i.srcb_cr, za_offset[7:0],
                           f_AddrCntContext, f_AllDatumsAreZero, f_CfgContext, f_Ch0YInc, f_Ch0ZInc,
                           f_Ch1YInc, f_Ch1ZInc, f_Concat, f_ContextADC, f_ContextNumber, f_CtxtCtrl,
                           f_DstAccessMode, f_FlipSrc, f_Flush, f_Last, f_MultiContextMode,
                           f_OvrdThreadId, f_PackerMask, f_ReadIntfSel, f_RowPadZero, f_RowSearch,
                           f_UseContextCounter, f_WhichUnpacker, f_ZeroWrite};

  // ---- shared values ----
  // context.cpp operand_style / formats.cpp src_style_of_format_code.
  function automatic tmu_pkg::src_style_e style_of_code(input logic [3:0] code);
    unique case (code)
      4'd0, 4'd5, 4'd6, 4'd7, 4'd8, 4'd9, 4'd15: style_of_code = tmu_pkg::SRC_STYLE_BF16;
      4'd1, 4'd2, 4'd3, 4'd10, 4'd11, 4'd14:     style_of_code = tmu_pkg::SRC_STYLE_FP16;
      default:                                   style_of_code = tmu_pkg::SRC_STYLE_TF32;
    endcase
  endfunction

  // formats.h is_valid_data_format_code: 12, 13 name no hardware format.
  function automatic logic valid_format_code(input logic [3:0] code);
    valid_format_code = code != 4'd12 && code != 4'd13;
  endfunction

  logic                 blackhole;
  logic [RowW-1:0]      dst_unaligned;  // DstRow + offsets + RWC.Dst (context.cpp dst_row_unaligned)
  logic [RowW-1:0]      imm_unaligned;  // the same with ZEROACC's Imm10
  logic [SrcRowW:0]     movb2a_srca, movb2a_srcb;  // one bit wider: MOVB2A's rows must stay below 64
  logic [3:0]           spec_srca, spec_srcb;      // ALU_FORMAT_SPEC's choice
  logic [3:0]           mov_a_code;                // mov.cpp mov_srca_format for the bank moved
  logic                 mov_a_from_srcb;           // ... which is SrcB's for MOVB2D / MOVD2B
  tmu_pkg::src_style_e  math_srca, math_srcb;
  tmu_pkg::insn_status_e status_base;  // the refusals that do not need the MOV unit's answer
  logic                 dst_rd_base;
  logic [RowW-1:0]      za_offset;
  logic [8:0]           za_block_wide;  // ZEROACC's 16-row block before the range check

  always_comb begin
    blackhole     = arch_i == tmu_pkg::ARCH_BLACKHOLE;
    dst_unaligned = f_DstRow + cfg_i.dst_row_base + rwc_i.dst;
    imm_unaligned = f_Imm10 + cfg_i.dst_row_base + rwc_i.dst;
    movb2a_srca   = {1'b0, f_SrcARow} + {1'b0, rwc_i.srca};
    movb2a_srcb   = {1'b0, f_SrcBRow} + {1'b0, rwc_i.srcb};
    spec_srca     = cfg_i.srca_override ? cfg_i.srca_val : cfg_i.reg0_srca;
    spec_srcb     = cfg_i.srcb_override ? cfg_i.srcb_val : cfg_i.reg1_srcb;
    math_srca     = (blackhole && !cfg_i.no_implied_srca) ? style_of_code(srca_bank_format_i)
                                                          : style_of_code(spec_srca);
    math_srcb     = (blackhole && !cfg_i.no_implied_srcb) ? style_of_code(srcb_bank_format_i)
                                                          : style_of_code(spec_srcb);
    za_offset     = cfg_i.math_offset + rwc_i.dst;
  end

  always_comb begin
    mov_a_from_srcb = idx == tmu_isa_pkg::IDX_MOVB2D || idx == tmu_isa_pkg::IDX_MOVD2B;
    mov_a_code = (blackhole && !cfg_i.no_implied_srca)
               ? (mov_a_from_srcb ? srcb_bank_format_i : srca_bank_format_i) : spec_srca;
  end

  // The ISA table's issue cycles (1 / throughput) of the instruction.
  logic [tmu_isa_pkg::IssueCyclesW-1:0] issue_cycles;
  assign issue_cycles = tmu_isa_pkg::ISSUE_CYCLES[idx*tmu_isa_pkg::IssueCyclesW +: tmu_isa_pkg::IssueCyclesW];

  // ---- the instruction ----
  always_comb begin
    status_base            = legal ? tmu_pkg::INSN_OK : tmu_pkg::INSN_DECODE_ERR;
    ctrl_o.scalar          = scalar;
    ctrl_o.unit            = tmu_pkg::MU_UNIT_NONE;
    ctrl_o.src.wait_srca   = 1'b0;
    ctrl_o.src.wait_srcb   = 1'b0;
    ctrl_o.src.reads       = 1'b0;
    ctrl_o.src.srca_rd_row = rwc_i.srca & 6'h38;
    ctrl_o.src.srcb_rd_row = rwc_i.srcb & 6'h38;
    ctrl_o.src.we          = 1'b0;
    ctrl_o.src.wr_srcb     = 1'b0;
    ctrl_o.src.wr_row      = '0;
    ctrl_o.src.mov_is_srcb = 1'b0;
    dst_rd_base            = 1'b0;
    ctrl_o.dst.row         = dst_unaligned & 10'h3f8;
    ctrl_o.dst.identity    = '0;
    ctrl_o.dst.we          = 1'b0;
    ctrl_o.dst.wr_mask     = '1;
    // math_formats (context.cpp): FP16A_FORCE, then INT8 math, then the operand styles.
    ctrl_o.mode.srca_style   = cfg_i.fp16a_force ? tmu_pkg::SRC_STYLE_FP16
                             : cfg_i.int8_math ? tmu_pkg::SRC_STYLE_INT8 : math_srca;
    ctrl_o.mode.srcb_style   = cfg_i.fp16a_force ? tmu_pkg::SRC_STYLE_FP16
                             : cfg_i.int8_math ? tmu_pkg::SRC_STYLE_INT8 : math_srcb;
    ctrl_o.mode.int8         = !cfg_i.fp16a_force && cfg_i.int8_math;
    ctrl_o.mode.dst32        = !cfg_i.fp16a_force && (cfg_i.int8_math || cfg_i.fp32_enabled);
    ctrl_o.mode.phase        = rwc_i.fidelity_phase + cfg_i.fidelity_base;
    ctrl_o.mode.bcast_row    = f_BroadcastSrcBRow;
    ctrl_o.mode.bcast_col0   = f_BroadcastSrcBCol0;
    ctrl_o.mode.elw_op       = tmu_pkg::ELW_MUL;
    ctrl_o.mode.add_dst      = 1'b1;
    ctrl_o.mode.argmax       = f_ArgMax;
    ctrl_o.mov.op            = tmu_pkg::MOV_A2D;
    ctrl_o.mov.rows          = 4'd1;
    ctrl_o.mov.bcast_row     = 1'b0;
    ctrl_o.mov.shift_left    = f_Direction == 2'd3;
    ctrl_o.mov.shift_in_zero = f_ShiftInZero;
    ctrl_o.mov.srca_format   = mov_a_code;
    ctrl_o.mov.srcb_format   = (blackhole && !cfg_i.no_implied_srcb) ? srcb_bank_format_i : cfg_i.reg1_srcb;
    ctrl_o.mov.use_dst32b_lo = f_UseDst32bLo;
    ctrl_o.mov.use_dst32b    = cfg_i.fp32_enabled || cfg_i.int8_math;
    // A GPR instruction's cycles are the GPR unit's, not the Matrix Unit's.
    ctrl_o.two_cycle_issue             = known && !scalar && issue_cycles == tmu_isa_pkg::IssueCyclesW'(2);
    ctrl_o.rwc.valid                   = 1'b0;
    ctrl_o.rwc.cmd                     = tmu_pkg::RWC_CMD_ADDR_MOD;
    ctrl_o.rwc.addr_mod                = f_AddrMod;
    ctrl_o.rwc.latch_srca              = 1'b0;
    ctrl_o.rwc.latch_srca_row          = rwc_i.srca;
    ctrl_o.bank.srca_cmd               = tmu_pkg::SRC_CMD_NONE;
    ctrl_o.bank.srcb_cmd               = tmu_pkg::SRC_CMD_NONE;
    ctrl_o.bank.flip_srca              = f_FlipSrcA;
    ctrl_o.bank.flip_srcb              = f_FlipSrcB;
    ctrl_o.bank.cleardvalid_reset      = f_Reset;
    ctrl_o.bank.keep_reading           = f_KeepReadingSameSrc;
    ctrl_o.bank.zerosrc_both_banks     = f_BothBanks;
    ctrl_o.bank.zerosrc_single_bank_mu = f_SingleBankMatrixUnit;
    ctrl_o.bank.zerosrc_negative_inf   = f_NegativeInfSrcA;
    ctrl_o.za.valid                    = 1'b0;
    unique case (f_Mode[1:0])  // (Yosys 0.23 takes no casts to enum types)
      2'd0:    ctrl_o.za.mode = tmu_pkg::ZEROACC_ONE_ROW;
      2'd1:    ctrl_o.za.mode = tmu_pkg::ZEROACC_SIXTEEN_ROWS;
      2'd2:    ctrl_o.za.mode = tmu_pkg::ZEROACC_HALF_OF_DST;
      default: ctrl_o.za.mode = tmu_pkg::ZEROACC_ALL_OF_DST;
    endcase
    ctrl_o.za.row        = imm_unaligned;
    ctrl_o.za.dst32      = f_UseDst32b;
    ctrl_o.za.block      = f_Imm10[7:0];
    za_block_wide        = '0;
    ctrl_o.za.revert     = f_Revert;
    ctrl_o.za.upper_half = f_Imm10[0];

    unique case (idx)
      // mvmul.cpp: MVMUL (8 rows; 7 with BroadcastSrcBRow, even rows only), DOTPV, GAPOOL (4 rows).
      tmu_isa_pkg::IDX_MVMUL, tmu_isa_pkg::IDX_DOTPV, tmu_isa_pkg::IDX_GAPOOL: begin
        ctrl_o.unit           = tmu_pkg::MU_UNIT_MVMUL;
        ctrl_o.src.wait_srca  = 1'b1;
        ctrl_o.src.wait_srcb  = 1'b1;
        ctrl_o.src.reads      = 1'b1;
        dst_rd_base           = 1'b1;
        ctrl_o.dst.we         = 1'b1;
        ctrl_o.mode.bcast_row = idx == tmu_isa_pkg::IDX_MVMUL && f_BroadcastSrcBRow == 1'b1;
        if (ctrl_o.mode.bcast_row) begin
          ctrl_o.src.srcb_rd_row = rwc_i.srcb;
          ctrl_o.dst.row         = dst_unaligned & 10'h3f9;   // kDstRows - 7
          ctrl_o.dst.wr_mask     = 8'b0101_0101;
        end
        if (idx == tmu_isa_pkg::IDX_GAPOOL) begin
          ctrl_o.dst.row     = dst_unaligned & 10'h3fc;
          ctrl_o.dst.wr_mask = 8'b0000_1111;
          if (f_Dim16x16 == 1'b0) status_base = tmu_pkg::INSN_UNSUPPORTED;
        end
        if (idx == tmu_isa_pkg::IDX_DOTPV && f_AddDst == 1'b1) status_base = tmu_pkg::INSN_UNSUPPORTED;
        ctrl_o.rwc.latch_srca     = 1'b1;
        ctrl_o.rwc.latch_srca_row = rwc_i.srca & 6'h38;
      end
      // elw.cpp
      tmu_isa_pkg::IDX_ELWMUL, tmu_isa_pkg::IDX_ELWADD, tmu_isa_pkg::IDX_ELWSUB: begin
        ctrl_o.unit          = tmu_pkg::MU_UNIT_ELW;
        ctrl_o.src.wait_srca = 1'b1;
        ctrl_o.src.wait_srcb = 1'b1;
        ctrl_o.src.reads     = 1'b1;
        ctrl_o.mode.elw_op   = idx == tmu_isa_pkg::IDX_ELWMUL ? tmu_pkg::ELW_MUL
                             : idx == tmu_isa_pkg::IDX_ELWADD ? tmu_pkg::ELW_ADD : tmu_pkg::ELW_SUB;
        ctrl_o.mode.add_dst  = idx == tmu_isa_pkg::IDX_ELWMUL || f_AddDst == 1'b1;
        dst_rd_base          = ctrl_o.mode.add_dst;
        ctrl_o.dst.we        = 1'b1;
        if (f_BroadcastSrcBRow == 1'b1) ctrl_o.src.srcb_rd_row = rwc_i.srcb;
        ctrl_o.rwc.latch_srca     = 1'b1;
        ctrl_o.rwc.latch_srca_row = rwc_i.srca & 6'h38;
      end
      // gmpool.cpp
      tmu_isa_pkg::IDX_GMPOOL: begin
        ctrl_o.unit            = tmu_pkg::MU_UNIT_GMPOOL;
        ctrl_o.src.wait_srca   = 1'b1;
        ctrl_o.src.wait_srcb   = 1'b1;
        ctrl_o.src.reads       = 1'b1;
        ctrl_o.src.srca_rd_row = rwc_i.srca & 6'h30;
        dst_rd_base            = 1'b1;
        ctrl_o.dst.we          = 1'b1;
        ctrl_o.dst.row         = dst_unaligned & 10'h3fc;
        ctrl_o.dst.wr_mask     = 8'b0000_1111;
        ctrl_o.dst.identity    = ctrl_o.mode.dst32 ? GmpoolUndefinedDst32 : GmpoolUndefinedDst16;
        if (f_Dim16x16 == 1'b0) status_base = tmu_pkg::INSN_UNSUPPORTED;
        ctrl_o.rwc.latch_srca     = 1'b1;
        ctrl_o.rwc.latch_srca_row = rwc_i.srca & 6'h30;
      end
      // mov.cpp exec_mova2d
      tmu_isa_pkg::IDX_MOVA2D: begin
        ctrl_o.unit               = tmu_pkg::MU_UNIT_MOV;
        ctrl_o.mov.op             = tmu_pkg::MOV_A2D;
        ctrl_o.mov.rows           = f_Move8Rows == 1'b1 ? 4'd8 : 4'd1;
        ctrl_o.src.wait_srca      = 1'b1;
        ctrl_o.src.reads          = 1'b1;
        ctrl_o.src.srca_rd_row    = (f_SrcRow + rwc_i.srca) & (f_Move8Rows == 1'b1 ? 6'h38 : 6'h3f);
        ctrl_o.dst.row            = dst_unaligned & (f_Move8Rows == 1'b1 ? 10'h3f8 : 10'h3ff);
        dst_rd_base               = 1'b0;  // Dst32bLow16 reads the 32-bit value first: below
        ctrl_o.dst.we             = 1'b1;
        ctrl_o.rwc.latch_srca     = 1'b1;
        ctrl_o.rwc.latch_srca_row = ctrl_o.src.srca_rd_row;
      end
      // mov.cpp exec_movb2d
      tmu_isa_pkg::IDX_MOVB2D: begin
        ctrl_o.unit            = tmu_pkg::MU_UNIT_MOV;
        ctrl_o.mov.op          = tmu_pkg::MOV_B2D;
        ctrl_o.mov.bcast_row   = f_Broadcast1RowTo8;
        ctrl_o.mode.bcast_col0 = f_BroadcastCol0;
        ctrl_o.mov.rows        = f_Broadcast1RowTo8 == 1'b1 ? 4'd8 : f_Move4Rows == 1'b1 ? 4'd4 : 4'd1;
        ctrl_o.src.mov_is_srcb = 1'b1;
        ctrl_o.src.wait_srcb   = 1'b1;
        ctrl_o.src.reads       = 1'b1;
        ctrl_o.src.srcb_rd_row = (f_SrcRow + rwc_i.srcb)
                        & (f_Broadcast1RowTo8 == 1'b1 ? 6'h3f : f_Move4Rows == 1'b1 ? 6'h3c : 6'h3f);
        ctrl_o.dst.row       = dst_unaligned
                        & (f_Broadcast1RowTo8 == 1'b1 ? 10'h3f8 : f_Move4Rows == 1'b1 ? 10'h3fc : 10'h3ff);
        dst_rd_base           = 1'b0;  // as MOVA2D
        ctrl_o.dst.we         = 1'b1;
        ctrl_o.rwc.latch_srca = 1'b1;
        if (!(blackhole && !cfg_i.no_implied_srcb) && !valid_format_code(cfg_i.reg1_srcb))
          status_base = tmu_pkg::INSN_UNDEFINED;
      end
      // mov.cpp move_dst_to_src
      tmu_isa_pkg::IDX_MOVD2A, tmu_isa_pkg::IDX_MOVD2B: begin
        ctrl_o.unit        = tmu_pkg::MU_UNIT_MOV;
        ctrl_o.mov.op      = idx == tmu_isa_pkg::IDX_MOVD2A ? tmu_pkg::MOV_D2A : tmu_pkg::MOV_D2B;
        ctrl_o.mov.rows    = f_Move4Rows == 1'b1 ? 4'd4 : 4'd1;
        ctrl_o.dst.row     = dst_unaligned & (f_Move4Rows == 1'b1 ? 10'h3fc : 10'h3ff);
        dst_rd_base        = 1'b1;
        ctrl_o.src.we      = 1'b1;
        ctrl_o.src.wr_srcb = idx == tmu_isa_pkg::IDX_MOVD2B;
        ctrl_o.src.wr_row  = (f_SrcRow + (ctrl_o.src.wr_srcb ? rwc_i.srcb : rwc_i.srca))
                      & (f_Move4Rows == 1'b1 ? 6'h3c : 6'h3f);
        ctrl_o.rwc.latch_srca  = 1'b1;
        if (!ctrl_o.src.wr_srcb) ctrl_o.rwc.latch_srca_row = ctrl_o.src.wr_row;
      end
      // mov.cpp exec_movb2a: four rows from 4-aligned rows below 64, or refused.
      tmu_isa_pkg::IDX_MOVB2A: begin
        ctrl_o.unit               = tmu_pkg::MU_UNIT_MOV;
        ctrl_o.mov.op             = tmu_pkg::MOV_B2A;
        ctrl_o.mov.rows           = 4'd4;
        ctrl_o.src.mov_is_srcb    = 1'b1;
        ctrl_o.src.wait_srcb      = 1'b1;
        ctrl_o.src.reads          = 1'b1;
        ctrl_o.src.srcb_rd_row    = movb2a_srcb[SrcRowW-1:0];
        ctrl_o.src.we             = 1'b1;
        ctrl_o.src.wr_row         = movb2a_srca[SrcRowW-1:0];
        ctrl_o.rwc.latch_srca     = 1'b1;
        ctrl_o.rwc.latch_srca_row = movb2a_srca[SrcRowW-1:0];
        if (f_Move4Rows == 1'b0 || movb2a_srca[SrcRowW] || movb2a_srcb[SrcRowW] ||
            movb2a_srca[1:0] != 2'd0 || movb2a_srcb[1:0] != 2'd0)
          status_base = tmu_pkg::INSN_UNSUPPORTED;
      end
      // shift.cpp exec_shiftxa: the input is the aligned 16 rows around LastSrcARow; output rows 0..15.
      tmu_isa_pkg::IDX_SHIFTXA: begin
        ctrl_o.unit            = tmu_pkg::MU_UNIT_MOV;
        ctrl_o.mov.op          = tmu_pkg::MOV_SHIFTXA;
        ctrl_o.src.wait_srca   = 1'b1;
        ctrl_o.src.reads       = 1'b1;
        ctrl_o.src.srca_rd_row = last_srca_row_i & 6'h30;
        ctrl_o.src.we          = 1'b1;
        ctrl_o.src.wr_row      = '0;
        if (f_Direction[1] == 1'b0) status_base = tmu_pkg::INSN_UNDEFINED;
      end
      // shift.cpp exec_shiftxb
      tmu_isa_pkg::IDX_SHIFTXB: begin
        ctrl_o.unit            = tmu_pkg::MU_UNIT_MOV;
        ctrl_o.mov.op          = tmu_pkg::MOV_SHIFTXB;
        ctrl_o.src.mov_is_srcb = 1'b1;
        ctrl_o.src.wait_srcb   = 1'b1;
        ctrl_o.src.reads       = 1'b1;
        ctrl_o.src.srcb_rd_row = f_SrcRow + rwc_i.srcb;
        ctrl_o.src.we          = 1'b1;
        ctrl_o.src.wr_srcb     = 1'b1;
        ctrl_o.src.wr_row      = ctrl_o.src.srcb_rd_row;
      end
      // src_banks.cpp exec_trnspsrcb: SrcB rows 16..31 in place.
      tmu_isa_pkg::IDX_TRNSPSRCB: begin
        ctrl_o.unit            = tmu_pkg::MU_UNIT_MOV;
        ctrl_o.mov.op          = tmu_pkg::MOV_TRNSPSRCB;
        ctrl_o.src.mov_is_srcb = 1'b1;
        ctrl_o.src.wait_srcb   = 1'b1;
        ctrl_o.src.reads       = 1'b1;
        ctrl_o.src.srcb_rd_row = 6'd16;
        ctrl_o.src.we          = 1'b1;
        ctrl_o.src.wr_srcb     = 1'b1;
        ctrl_o.src.wr_row      = 6'd16;
      end
      // zeroacc.cpp
      tmu_isa_pkg::IDX_ZEROACC: begin
        ctrl_o.za.valid = 1'b1;
        unique case (f_Mode[1:0])
          2'd0: begin
            ctrl_o.za.dst32 = cfg_i.fp32_enabled || cfg_i.int8_math || cfg_i.dbg_bit11;
            if (f_Revert == 1'b1) status_base = tmu_pkg::INSN_UNDEFINED;
          end
          2'd1: begin
            za_block_wide = {1'b0, f_Imm10[7:0]};
            // Blackhole's relative tile mode: the block is taken within the half the offset points into.
            // A block pushed past 255 is still out of range (the refmodel adds in 32 bits): 0xff
            // clears nothing in either view.
            if (blackhole && !cfg_i.zeroacc_absolute) begin
              if (f_UseDst32b == 1'b1 && za_offset[9:8] != 2'd0) za_block_wide = {1'b0, f_Imm10[7:0]} + 9'd16;
              if (f_UseDst32b == 1'b0 && za_offset[9])         za_block_wide = {1'b0, f_Imm10[7:0]} + 9'd32;
            end
            ctrl_o.za.block = za_block_wide[8] ? 8'hff : za_block_wide[7:0];
          end
          default: if (f_Revert == 1'b1) status_base = tmu_pkg::INSN_UNDEFINED;
        endcase
        ctrl_o.rwc.valid = f_Mode[1] == 1'b0;
      end
      // src_banks.cpp exec_zerosrc, exec_cleardvalid
      tmu_isa_pkg::IDX_ZEROSRC: begin
        if (f_ClearSrcA == 1'b1) ctrl_o.bank.srca_cmd = tmu_pkg::SRC_CMD_ZEROSRC;
        if (f_ClearSrcB == 1'b1) ctrl_o.bank.srcb_cmd = tmu_pkg::SRC_CMD_ZEROSRC;
      end
      tmu_isa_pkg::IDX_CLEARDVALID: begin
        ctrl_o.bank.srca_cmd = tmu_pkg::SRC_CMD_CLEARDVALID;
        ctrl_o.bank.srcb_cmd = tmu_pkg::SRC_CMD_CLEARDVALID;
      end
      // rwc.cpp: the RWC unit decodes the word; the Src banks take SETRWC's flips.
      tmu_isa_pkg::IDX_SETRWC: begin
        ctrl_o.rwc.valid = 1'b1;
        ctrl_o.rwc.cmd   = tmu_pkg::RWC_CMD_SETRWC;
      end
      tmu_isa_pkg::IDX_INCRWC: begin
        ctrl_o.rwc.valid = 1'b1;
        ctrl_o.rwc.cmd   = tmu_pkg::RWC_CMD_INCRWC;
      end
      // legacy.cpp: the neutered legacy instructions keep their bank hand-back and AddrMod.
      tmu_isa_pkg::IDX_CONV3S1, tmu_isa_pkg::IDX_CONV3S2, tmu_isa_pkg::IDX_APOOL3S1,
      tmu_isa_pkg::IDX_APOOL3S2, tmu_isa_pkg::IDX_MPOOL3S1, tmu_isa_pkg::IDX_MPOOL3S2: begin
        ctrl_o.rwc.latch_srca = 1'b1;
      end
      // The RTL has no unpacker or packer: an UNPACR or PACR is reported as unsupported and changes
      // nothing (the co-simulation stimulus never issues one).
      tmu_isa_pkg::IDX_UNPACR, tmu_isa_pkg::IDX_PACR: status_base = tmu_pkg::INSN_UNSUPPORTED;
      default: ;  // GATESRCRST, CLREXPHIST: no architectural effect; GPR ops: the GPR unit
    endcase

    // The arithmetic instructions and the legacy ones end with clear_dvalid and ApplyAddrMod
    // (math_common.h finish_math_insn); the MOVs and SHIFTXB with ApplyAddrMod alone.
    unique case (ctrl_o.unit)
      tmu_pkg::MU_UNIT_MVMUL, tmu_pkg::MU_UNIT_ELW, tmu_pkg::MU_UNIT_GMPOOL: begin
        ctrl_o.bank.srca_cmd = tmu_pkg::SRC_CMD_CLEAR_DVALID;
        ctrl_o.bank.srcb_cmd = tmu_pkg::SRC_CMD_CLEAR_DVALID;
        ctrl_o.rwc.valid     = 1'b1;
      end
      tmu_pkg::MU_UNIT_MOV:
        ctrl_o.rwc.valid = ctrl_o.mov.op != tmu_pkg::MOV_SHIFTXA && ctrl_o.mov.op != tmu_pkg::MOV_TRNSPSRCB;
      default: ;
    endcase
    if (ctrl_o.rwc.latch_srca && ctrl_o.unit == tmu_pkg::MU_UNIT_NONE) begin  // legacy
      ctrl_o.bank.srca_cmd = tmu_pkg::SRC_CMD_CLEAR_DVALID;
      ctrl_o.bank.srcb_cmd = tmu_pkg::SRC_CMD_CLEAR_DVALID;
      ctrl_o.rwc.valid     = 1'b1;
    end
    if (idx == tmu_isa_pkg::IDX_SETRWC) begin
      ctrl_o.bank.srca_cmd = tmu_pkg::SRC_CMD_CLEAR_DVALID;
      ctrl_o.bank.srcb_cmd = tmu_pkg::SRC_CMD_CLEAR_DVALID;
    end

    // mov.cpp hardware_format: MOVA2D / MOVB2D / MOVD2A / MOVD2B read SrcAFmt.
    if (ctrl_o.unit == tmu_pkg::MU_UNIT_MOV && ctrl_o.mov.op == tmu_pkg::MOV_A2D && !valid_format_code(mov_a_code))
      status_base = tmu_pkg::INSN_UNDEFINED;
    // Blackhole's AddrMod has three bits; ApplyAddrMod with RWC.ExtraAddrModBit set is refused.
    if (ctrl_o.rwc.valid && ctrl_o.rwc.cmd == tmu_pkg::RWC_CMD_ADDR_MOD && blackhole && rwc_i.extra_addr_mod_bit)
      status_base = tmu_pkg::INSN_UNSUPPORTED;
    if (!legal) status_base = tmu_pkg::INSN_DECODE_ERR;
  end

  // The parts that depend on tmu_mov_unit's answers, which depend on the MOV fields above: kept in a
  // process of their own so the loop through the MOV unit is not a combinational loop.
  logic mov_rmw;  // MOVA2D / MOVB2D writing Dst32bLow16 read the 32-bit value first
  always_comb begin
    mov_rmw                = ctrl_o.unit == tmu_pkg::MU_UNIT_MOV &&
                             (ctrl_o.mov.op == tmu_pkg::MOV_A2D || ctrl_o.mov.op == tmu_pkg::MOV_B2D);
    access_o.dst_rd        = dst_rd_base || (mov_rmw && mov_dst_read32_i);
    // Dst views: the MOVs choose theirs; DbgFeatureDisableBit11 reads Dst16b through the 32-bit view.
    access_o.dst_rd32      = ctrl_o.unit == tmu_pkg::MU_UNIT_MOV ? mov_dst_read32_i : ctrl_o.mode.dst32;
    access_o.dst_wr32      = ctrl_o.unit == tmu_pkg::MU_UNIT_MOV ? mov_dst_write32_i : ctrl_o.mode.dst32;
    access_o.dst_rd_high16 = cfg_i.dbg_bit11 && !access_o.dst_rd32;
    access_o.status        = status_base;
    if (ctrl_o.unit == tmu_pkg::MU_UNIT_MOV && mov_undefined_i) access_o.status = tmu_pkg::INSN_UNDEFINED;
    // context.h write_dst16: a Dst16b write with DBG_FEATURE_DISABLE bit 11 is refused.
    if (ctrl_o.dst.we && !access_o.dst_wr32 && cfg_i.dbg_bit11) access_o.status = tmu_pkg::INSN_UNDEFINED;
    if (status_base != tmu_pkg::INSN_OK) access_o.status = status_base;
  end

endmodule

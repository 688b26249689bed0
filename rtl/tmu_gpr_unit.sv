// tmu_gpr_unit: the Scalar Unit's (ThCon's) GPR instructions - SETDMAREG, ADDDMAREG, SUBDMAREG,
// MULDMAREG, SHIFTDMAREG, BITWOPDMAREG, CMPDMAREG, FLUSHDMA, DMANOP - on 3 threads x 64 GPRs
// (ScalarUnit.md and the *DMAREG.md functional models; refmodel src/insn/gpr.cpp).
//
// Timing (ScalarUnit.md): no pipelining. An instruction accepted in cycle A occupies the unit for
// N cycles - 1 for SETDMAREG and DMANOP; 2 for FLUSHDMA, longer while a selected condition says
// "keep waiting"; 3 for the other ops with an immediate or with both registers in one aligned
// group of four GPRs, 4 otherwise. issue_ready_o is low in cycles A+1 .. A+N-1, the result is
// readable in cycle A+N, and the retirement report is valid in cycle A+N. The issuing thread may
// issue nothing, to any unit, until then: thread_blocked_o says which thread that is.
//
// Operands are read in the instruction's last cycle, when the result is written; nothing but the
// debug port can write a GPR while the unit is busy, and it must not write in that last cycle.
//
// An instruction the refmodel refuses retires after one cycle with its category in
// retire_status_o and writes nothing: an opcode that is not one of these (INSN_DECODE_ERR), a
// reserved bit set or SHIFTDMAREG's RightImm5 above 31 (INSN_DECODE_ERR), a Mode the ISA does not
// define (INSN_UNDEFINED), SETDMAREG's SetSignalsMode, which reads packer state (INSN_UNSUPPORTED).
module tmu_gpr_unit (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,

  // Instruction issue (valid/ready). The word is raw: opcode in bits 31:24.
  input  logic                                  issue_valid_i,
  output logic                                  issue_ready_o,
  input  logic [31:0]                           issue_insn_i,
  input  tmu_pkg::thread_t                      issue_thread_i,

  // FLUSHDMA conditions C3..C0 per thread (thread t in bits [4t +: 4]); a set bit means "keep on
  // waiting" (FLUSHDMA.md). Tie to zero where no such requests exist.
  input  logic [tmu_pkg::NumThreads*4-1:0]      flush_wait_i,

  // The thread whose instruction is in flight (cycles A+1 .. A+N-1).
  output logic [tmu_pkg::NumThreads-1:0]        thread_blocked_o,

  // GPR access for a testbench or debugger: combinational read, write at the clock edge (never
  // in an instruction's last cycle, when the unit writes).
  input  tmu_pkg::thread_t                      dbg_thread_i,
  input  tmu_pkg::gpr_idx_t                     dbg_idx_i,
  output tmu_pkg::gpr_t                         dbg_rdata_o,
  input  logic                                  dbg_we_i,
  input  tmu_pkg::gpr_t                         dbg_wdata_i,

  // Retirement: one report per instruction, in the cycle its result becomes readable.
  output logic                                  retire_valid_o,
  output tmu_pkg::thread_t                      retire_thread_o,
  output logic [31:0]                           retire_insn_o,
  output tmu_pkg::insn_status_e                 retire_status_o,
  output logic                                  retire_gpr_we_o,
  output tmu_pkg::gpr_idx_t                     retire_gpr_idx_o,
  output tmu_pkg::gpr_t                         retire_gpr_data_o,
  output logic [7:0]                            retire_cycles_o   // N, saturating at 255
);

  localparam int unsigned NumRegs   = tmu_pkg::NumThreads * tmu_pkg::NumGprs;
  localparam int unsigned RegW      = tmu_pkg::GprW;
  localparam int unsigned RegAddrW  = tmu_pkg::ThreadW + tmu_pkg::GprIdxW;
  localparam int unsigned CountW    = 8;
  // ScalarUnit.md cycle counts.
  localparam int unsigned CyclesSingle     = 1;  // SETDMAREG, DMANOP
  localparam int unsigned CyclesFlushMin   = 2;  // FLUSHDMA with nothing to wait for
  localparam int unsigned CyclesSameGroup  = 3;  // reg-reg ops within one group of four, immediates
  localparam int unsigned CyclesCrossGroup = 4;
  localparam int unsigned GprGroupShift    = 2;  // aligned groups of four GPRs
  // SHIFTDMAREG's RightImm5 and the five bits of a RightReg value it uses.
  localparam int unsigned ShiftImmW        = 5;
  // Mode encodings (SHIFTDMAREG.md, BITWOPDMAREG.md, CMPDMAREG.md).
  localparam logic [2:0] ShiftLeft = 3'd0, ShiftRight = 3'd1;
  localparam logic [2:0] BitwAnd = 3'd0, BitwOr = 3'd1, BitwXor = 3'd2;
  localparam logic [2:0] CmpGt = 3'd0, CmpLt = 3'd1, CmpEq = 3'd2;

  // ---------------------------------------------------------------------------------------------
  // The instruction in its active cycles: the issue port's in the cycle of acceptance, the held
  // one after that.
  // ---------------------------------------------------------------------------------------------
  logic              busy_q, busy_d;
  logic [31:0]       insn_q, insn_d;
  tmu_pkg::thread_t  thread_q, thread_d;
  logic [CountW-1:0] elapsed_q, elapsed_d;  // cycles of the held instruction already spent

  logic              accept;
  logic              active;
  logic [31:0]       insn;
  tmu_pkg::thread_t  thread;
  logic [CountW-1:0] elapsed;

  assign issue_ready_o = !busy_q;
  assign accept        = issue_valid_i && issue_ready_o;
  assign active        = busy_q || accept;
  assign insn          = busy_q ? insn_q : issue_insn_i;
  assign thread        = busy_q ? thread_q : issue_thread_i;
  assign elapsed       = busy_q ? elapsed_q : '0;

  // ---------------------------------------------------------------------------------------------
  // Decode: the reg-reg/immediate ops share one field layout (checked at elaboration below).
  // ---------------------------------------------------------------------------------------------
  logic [7:0]        opcode;
  logic [23:0]       reserved_mask;
  logic              known_op;
  logic              is_set, is_add, is_sub, is_mul, is_shift, is_bitw, is_cmp, is_flush, is_nop;
  logic              is_alu;
  tmu_pkg::gpr_idx_t left_reg, right_reg, result_reg;
  logic              op_b_is_const;
  logic [2:0]        mode;
  logic [6:0]        result_half_reg;
  logic              set_signals_mode;
  logic [15:0]       new_value;
  logic [3:0]        condition_mask;

  always_comb begin
    opcode   = insn[31:24];
    is_set   = (opcode == tmu_isa_pkg::OP_SETDMAREG);
    is_add   = (opcode == tmu_isa_pkg::OP_ADDDMAREG);
    is_sub   = (opcode == tmu_isa_pkg::OP_SUBDMAREG);
    is_mul   = (opcode == tmu_isa_pkg::OP_MULDMAREG);
    is_shift = (opcode == tmu_isa_pkg::OP_SHIFTDMAREG);
    is_bitw  = (opcode == tmu_isa_pkg::OP_BITWOPDMAREG);
    is_cmp   = (opcode == tmu_isa_pkg::OP_CMPDMAREG);
    is_flush = (opcode == tmu_isa_pkg::OP_FLUSHDMA);
    is_nop   = (opcode == tmu_isa_pkg::OP_DMANOP);
    is_alu   = is_add || is_sub || is_mul || is_shift || is_bitw || is_cmp;
    known_op = is_alu || is_set || is_flush || is_nop;

    reserved_mask = '0;
    unique case (1'b1)
      is_set:   reserved_mask = tmu_isa_pkg::SETDMAREG_RESERVED;
      is_add:   reserved_mask = tmu_isa_pkg::ADDDMAREG_RESERVED;
      is_sub:   reserved_mask = tmu_isa_pkg::SUBDMAREG_RESERVED;
      is_mul:   reserved_mask = tmu_isa_pkg::MULDMAREG_RESERVED;
      is_shift: reserved_mask = tmu_isa_pkg::SHIFTDMAREG_RESERVED;
      is_bitw:  reserved_mask = tmu_isa_pkg::BITWOPDMAREG_RESERVED;
      is_cmp:   reserved_mask = tmu_isa_pkg::CMPDMAREG_RESERVED;
      is_flush: reserved_mask = tmu_isa_pkg::FLUSHDMA_RESERVED;
      is_nop:   reserved_mask = tmu_isa_pkg::DMANOP_RESERVED;
      default:  reserved_mask = '0;
    endcase

    left_reg      = insn[tmu_isa_pkg::ADDDMAREG_LeftReg_LO +: tmu_isa_pkg::ADDDMAREG_LeftReg_W];
    right_reg     = insn[tmu_isa_pkg::ADDDMAREG_RightReg_LO +: tmu_isa_pkg::ADDDMAREG_RightReg_W];
    result_reg    = insn[tmu_isa_pkg::ADDDMAREG_ResultReg_LO +: tmu_isa_pkg::ADDDMAREG_ResultReg_W];
    op_b_is_const = insn[tmu_isa_pkg::ADDDMAREG_OpBisConst_LO];
    mode          = insn[tmu_isa_pkg::SHIFTDMAREG_Mode_LO +: tmu_isa_pkg::SHIFTDMAREG_Mode_W];
    result_half_reg  =
        insn[tmu_isa_pkg::SETDMAREG_ResultHalfReg_LO +: tmu_isa_pkg::SETDMAREG_ResultHalfReg_W];
    set_signals_mode = insn[tmu_isa_pkg::SETDMAREG_SetSignalsMode_LO];
    new_value        =
        insn[tmu_isa_pkg::SETDMAREG_NewValue_LO +: tmu_isa_pkg::SETDMAREG_NewValue_W];
    condition_mask   =
        insn[tmu_isa_pkg::FLUSHDMA_ConditionMask_LO +: tmu_isa_pkg::FLUSHDMA_ConditionMask_W];
  end

  // ---------------------------------------------------------------------------------------------
  // Status and cycle count
  // ---------------------------------------------------------------------------------------------
  tmu_pkg::insn_status_e status;
  logic [CountW-1:0]     cycles_needed;
  logic [3:0]            flush_selected;
  logic                  flush_waiting;
  logic                  last_cycle;

  always_comb begin
    status = tmu_pkg::INSN_OK;
    if (!known_op || ((insn[23:0] & reserved_mask) != '0)) begin
      status = tmu_pkg::INSN_DECODE_ERR;
    end else if (is_shift && op_b_is_const
                 && (right_reg >= tmu_pkg::GprIdxW'(1 << ShiftImmW))) begin
      status = tmu_pkg::INSN_DECODE_ERR;  // RightImm5 has five bits; bit 11 is reserved
    end else if (is_set && set_signals_mode) begin
      status = tmu_pkg::INSN_UNSUPPORTED;
    end else if ((is_shift && (mode > ShiftRight)) || (is_bitw && (mode > BitwXor))
                 || (is_cmp && (mode > CmpEq))) begin
      status = tmu_pkg::INSN_UNDEFINED;
    end

    // A mask of 0 selects all four conditions (FLUSHDMA.md).
    flush_selected = (condition_mask == '0) ? 4'hF : condition_mask;
    flush_waiting  = (flush_selected & flush_wait_i[thread*4 +: 4]) != '0;

    if (status != tmu_pkg::INSN_OK || is_set || is_nop) begin
      cycles_needed = CountW'(CyclesSingle);
    end else if (is_flush) begin
      cycles_needed = CountW'(CyclesFlushMin);
    end else if (op_b_is_const || (left_reg >> GprGroupShift) == (right_reg >> GprGroupShift)) begin
      cycles_needed = CountW'(CyclesSameGroup);
    end else begin
      cycles_needed = CountW'(CyclesCrossGroup);
    end

    last_cycle = active && (elapsed + CountW'(1) >= cycles_needed)
                 && !(is_flush && (status == tmu_pkg::INSN_OK) && flush_waiting);
  end

  // ---------------------------------------------------------------------------------------------
  // Register file and ALU
  //
  // A memory: one write port shared by the unit and the debug port (which must not write while
  // the unit does), asynchronous reads for LeftReg, RightReg-or-SETDMAREG's target and the debug
  // port. Its contents after reset are undefined, as ScalarUnit.md leaves them; a testbench
  // initialises the GPRs through the debug port.
  // ---------------------------------------------------------------------------------------------
  tmu_pkg::gpr_t gprs_q [NumRegs];

  function automatic logic [RegAddrW-1:0] reg_addr(input tmu_pkg::thread_t t,
                                                   input tmu_pkg::gpr_idx_t idx);
    reg_addr = {t, idx};  // thread * 64 + index
  endfunction

  logic [RegAddrW-1:0] left_addr, right_addr, dbg_addr;
  tmu_pkg::gpr_t       left_val, right_read, right_val, dbg_read;
  tmu_pkg::gpr_idx_t   write_idx;
  tmu_pkg::gpr_t       write_val;
  logic                write_en;
  logic [4:0]          shift_amount;
  logic [2*16-1:0]     product;

  always_comb begin
    // SETDMAREG has no RightReg: its read port fetches the GPR whose half is replaced.
    left_addr  = reg_addr(thread, left_reg);
    right_addr = reg_addr(thread, is_set ? result_half_reg[6:1] : right_reg);
    dbg_addr   = reg_addr(dbg_thread_i, dbg_idx_i);
    // Thread 3 does not exist (asserted below); its addresses read as zero.
    left_val   = (32'(left_addr) < NumRegs) ? gprs_q[left_addr] : '0;
    right_read = (32'(right_addr) < NumRegs) ? gprs_q[right_addr] : '0;
    dbg_read   = (32'(dbg_addr) < NumRegs) ? gprs_q[dbg_addr] : '0;
    right_val  = op_b_is_const ? RegW'(right_reg) : right_read;
    shift_amount = right_val[ShiftImmW-1:0];
    product      = left_val[15:0] * right_val[15:0];  // 16b x 16b -> 32b unsigned (MULDMAREG.md)

    write_idx = result_reg;
    write_val = '0;
    unique case (1'b1)
      is_set: begin
        write_idx = result_half_reg[6:1];
        write_val = result_half_reg[0] ? {new_value, right_read[15:0]}
                                       : {right_read[31:16], new_value};
      end
      is_add:   write_val = left_val + right_val;  // wraps at 32 bits
      is_sub:   write_val = left_val - right_val;
      is_mul:   write_val = product;
      is_shift: write_val = (mode == ShiftLeft) ? (left_val << shift_amount)
                                                : (left_val >> shift_amount);
      is_bitw: begin
        unique case (mode)
          BitwAnd: write_val = left_val & right_val;
          BitwOr:  write_val = left_val | right_val;
          default: write_val = left_val ^ right_val;  // BitwXor; others are INSN_UNDEFINED
        endcase
      end
      is_cmp: begin  // unsigned comparisons
        unique case (mode)
          CmpGt:   write_val = RegW'(left_val > right_val);
          CmpLt:   write_val = RegW'(left_val < right_val);
          default: write_val = RegW'(left_val == right_val);  // CmpEq
        endcase
      end
      default: write_val = '0;  // FLUSHDMA, DMANOP, unknown: no write
    endcase
    write_en = last_cycle && (status == tmu_pkg::INSN_OK) && (is_set || is_alu);
  end

  logic                wr_en;
  logic [RegAddrW-1:0] wr_addr;
  tmu_pkg::gpr_t       wr_data;

  always_comb begin
    wr_addr = write_en ? reg_addr(thread, write_idx) : dbg_addr;
    wr_data = write_en ? write_val : dbg_wdata_i;
    wr_en   = (write_en || dbg_we_i) && (32'(wr_addr) < NumRegs);
  end

  // A memory write port, not a register: no reset (see above).
  always_ff @(posedge clk_i) begin
    if (wr_en) gprs_q[wr_addr] <= wr_data;
  end

  assign dbg_rdata_o = dbg_read;

  // ---------------------------------------------------------------------------------------------
  // Sequencing and retirement
  // ---------------------------------------------------------------------------------------------
  logic                  retire_valid_q, retire_valid_d;
  tmu_pkg::thread_t      retire_thread_q, retire_thread_d;
  logic [31:0]           retire_insn_q, retire_insn_d;
  tmu_pkg::insn_status_e retire_status_q, retire_status_d;
  logic                  retire_gpr_we_q, retire_gpr_we_d;
  tmu_pkg::gpr_idx_t     retire_gpr_idx_q, retire_gpr_idx_d;
  tmu_pkg::gpr_t         retire_gpr_data_q, retire_gpr_data_d;
  logic [CountW-1:0]     retire_cycles_q, retire_cycles_d;

  always_comb begin
    busy_d    = busy_q;
    insn_d    = insn_q;
    thread_d  = thread_q;
    elapsed_d = elapsed_q;
    if (accept) begin
      insn_d   = issue_insn_i;
      thread_d = issue_thread_i;
    end
    if (active) begin
      busy_d    = !last_cycle;
      elapsed_d = last_cycle ? '0 : ((elapsed == '1) ? elapsed : elapsed + CountW'(1));
    end

    retire_valid_d    = last_cycle;
    retire_thread_d   = retire_thread_q;
    retire_insn_d     = retire_insn_q;
    retire_status_d   = retire_status_q;
    retire_gpr_we_d   = 1'b0;
    retire_gpr_idx_d  = retire_gpr_idx_q;
    retire_gpr_data_d = retire_gpr_data_q;
    retire_cycles_d   = retire_cycles_q;
    if (last_cycle) begin
      retire_thread_d   = thread;
      retire_insn_d     = insn;
      retire_status_d   = status;
      retire_gpr_we_d   = write_en;
      retire_gpr_idx_d  = write_en ? write_idx : '0;
      retire_gpr_data_d = write_en ? write_val : '0;
      retire_cycles_d   = (elapsed == '1) ? elapsed : elapsed + CountW'(1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q            <= 1'b0;
      insn_q            <= '0;
      thread_q          <= '0;
      elapsed_q         <= '0;
      retire_valid_q    <= 1'b0;
      retire_thread_q   <= '0;
      retire_insn_q     <= '0;
      retire_status_q   <= tmu_pkg::INSN_OK;
      retire_gpr_we_q   <= 1'b0;
      retire_gpr_idx_q  <= '0;
      retire_gpr_data_q <= '0;
      retire_cycles_q   <= '0;
    end else begin
      busy_q            <= busy_d;
      insn_q            <= insn_d;
      thread_q          <= thread_d;
      elapsed_q         <= elapsed_d;
      retire_valid_q    <= retire_valid_d;
      retire_thread_q   <= retire_thread_d;
      retire_insn_q     <= retire_insn_d;
      retire_status_q   <= retire_status_d;
      retire_gpr_we_q   <= retire_gpr_we_d;
      retire_gpr_idx_q  <= retire_gpr_idx_d;
      retire_gpr_data_q <= retire_gpr_data_d;
      retire_cycles_q   <= retire_cycles_d;
    end
  end

  for (genvar t = 0; t < tmu_pkg::NumThreads; t++) begin : g_blocked
    assign thread_blocked_o[t] = busy_q && (thread_q == tmu_pkg::ThreadW'(t));
  end

  assign retire_valid_o    = retire_valid_q;
  assign retire_thread_o   = retire_thread_q;
  assign retire_insn_o     = retire_insn_q;
  assign retire_status_o   = retire_status_q;
  assign retire_gpr_we_o   = retire_gpr_we_q;
  assign retire_gpr_idx_o  = retire_gpr_idx_q;
  assign retire_gpr_data_o = retire_gpr_data_q;
  assign retire_cycles_o   = retire_cycles_q;

  // ---------------------------------------------------------------------------------------------
  // Checks
  // ---------------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  // The shared field extraction above holds only while every reg-reg op encodes its fields alike.
  if (tmu_isa_pkg::SUBDMAREG_LeftReg_LO != tmu_isa_pkg::ADDDMAREG_LeftReg_LO
      || tmu_isa_pkg::MULDMAREG_LeftReg_LO != tmu_isa_pkg::ADDDMAREG_LeftReg_LO
      || tmu_isa_pkg::SHIFTDMAREG_LeftReg_LO != tmu_isa_pkg::ADDDMAREG_LeftReg_LO
      || tmu_isa_pkg::BITWOPDMAREG_LeftReg_LO != tmu_isa_pkg::ADDDMAREG_LeftReg_LO
      || tmu_isa_pkg::CMPDMAREG_LeftReg_LO != tmu_isa_pkg::ADDDMAREG_LeftReg_LO
      || tmu_isa_pkg::SUBDMAREG_RightReg_LO != tmu_isa_pkg::ADDDMAREG_RightReg_LO
      || tmu_isa_pkg::MULDMAREG_RightReg_LO != tmu_isa_pkg::ADDDMAREG_RightReg_LO
      || tmu_isa_pkg::SHIFTDMAREG_RightReg_LO != tmu_isa_pkg::ADDDMAREG_RightReg_LO
      || tmu_isa_pkg::BITWOPDMAREG_RightReg_LO != tmu_isa_pkg::ADDDMAREG_RightReg_LO
      || tmu_isa_pkg::CMPDMAREG_RightReg_LO != tmu_isa_pkg::ADDDMAREG_RightReg_LO
      || tmu_isa_pkg::SUBDMAREG_ResultReg_LO != tmu_isa_pkg::ADDDMAREG_ResultReg_LO
      || tmu_isa_pkg::MULDMAREG_ResultReg_LO != tmu_isa_pkg::ADDDMAREG_ResultReg_LO
      || tmu_isa_pkg::SHIFTDMAREG_ResultReg_LO != tmu_isa_pkg::ADDDMAREG_ResultReg_LO
      || tmu_isa_pkg::BITWOPDMAREG_ResultReg_LO != tmu_isa_pkg::ADDDMAREG_ResultReg_LO
      || tmu_isa_pkg::CMPDMAREG_ResultReg_LO != tmu_isa_pkg::ADDDMAREG_ResultReg_LO
      || tmu_isa_pkg::SUBDMAREG_OpBisConst_LO != tmu_isa_pkg::ADDDMAREG_OpBisConst_LO
      || tmu_isa_pkg::MULDMAREG_OpBisConst_LO != tmu_isa_pkg::ADDDMAREG_OpBisConst_LO
      || tmu_isa_pkg::SHIFTDMAREG_OpBisConst_LO != tmu_isa_pkg::ADDDMAREG_OpBisConst_LO
      || tmu_isa_pkg::BITWOPDMAREG_OpBisConst_LO != tmu_isa_pkg::ADDDMAREG_OpBisConst_LO
      || tmu_isa_pkg::CMPDMAREG_OpBisConst_LO != tmu_isa_pkg::ADDDMAREG_OpBisConst_LO
      || tmu_isa_pkg::BITWOPDMAREG_Mode_LO != tmu_isa_pkg::SHIFTDMAREG_Mode_LO
      || tmu_isa_pkg::CMPDMAREG_Mode_LO != tmu_isa_pkg::SHIFTDMAREG_Mode_LO
      || tmu_isa_pkg::ADDDMAREG_LeftReg_W != tmu_pkg::GprIdxW) begin : g_field_layout_check
    $error("tmu_gpr_unit: the GPR ops no longer share one field layout in tmu_isa_pkg");
  end

  // The issuing thread exists, and the issue port holds its request until it is taken.
  a_issue_thread: assert property (@(posedge clk_i) disable iff (!rst_ni)
      issue_valid_i |-> (32'(issue_thread_i) < tmu_pkg::NumThreads));
  a_dbg_thread: assert property (@(posedge clk_i) disable iff (!rst_ni)
      dbg_we_i |-> (32'(dbg_thread_i) < tmu_pkg::NumThreads));
  a_issue_stable: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (issue_valid_i && !issue_ready_o) |=> (issue_valid_i && $stable(issue_insn_i)
                                             && $stable(issue_thread_i)));
  // The debug port shares the write port: it must not write while an instruction does.
  a_dbg_no_collision: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !(dbg_we_i && write_en));
`endif

endmodule

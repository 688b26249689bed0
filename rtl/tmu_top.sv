// tmu_top: the Tensix Matrix Unit (FPU) with the Scalar Unit's GPR ops - the unit tmu verifies.
//
// Issue: one instruction per cycle (valid/ready, word, thread). A GPR instruction goes to
// tmu_gpr_unit (unpipelined, 3/4-cycle ops, it blocks its thread); everything else to the Matrix
// Unit pipeline:
//
//   cycle t     issue: tmu_mu_ctrl works out the instruction from the thread's RWCs and configuration;
//               the Src windows and the Dst window are read (asynchronously) and handed to the unit;
//               RWC, Src-bank and SHIFTXA-latch updates are made (visible from t+1).
//   t+1 .. t+4  the unit's pipeline (tmu_mvmul_block / tmu_elw_unit / tmu_gmpool_unit / tmu_mov_unit,
//               Latency = 4); the instruction's record travels in stage registers st1..st4.
//   t+4         retirement: Dst rows, Src rows and ZEROACC's validity change are written (visible
//               from t+5: MatrixUnit.md's 5-cycle latency) and reported on the observation port.
//
// Stalls (issue_ready_o low), MatrixUnit.md / the refmodel's wait rules:
//  - the instruction reads a SrcA/SrcB bank the Unpackers still hold (wait for the hand-over);
//  - it reads Dst rows (8-row groups) an instruction issued in the previous four cycles writes -
//    so dependent MVMULs of a fidelity loop see each other's results; a ZEROACC in flight counts as
//    writing all of Dst;
//  - it reads or writes Src while a Src-writing instruction (MOV*, SHIFTX*, TRNSPSRCB) is in flight;
//  - the cycle after SHIFTXB (0.5 instructions per cycle);
//  - its thread is blocked by a GPR instruction in flight.
// An instruction the refmodel refuses (decode error, undefined or unsupported combination) retires in
// order with its status and changes nothing.
//
// The unpacker ports stand in for the unpackers. unp_ready_o drops while a Src-writing instruction
// is in flight or issuing (they would race for the same rows), and a hand-over waits out a cycle in
// which a Matrix Unit instruction issues, so a bank-state report at retirement is that instruction's
// alone. The preload ports are a back door for the testbench, used before the first instruction.
// (Over 600 lines: the issue logic, the pipeline records, the units' wiring and the observation
// ports are the one top's; each function lives in its own module.)
module tmu_top (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  input  tmu_pkg::arch_e                         arch_i,

  // ---- instruction issue ----
  input  logic                                   issue_valid_i,
  output logic                                   issue_ready_o,
  input  logic [31:0]                            issue_word_i,
  input  tmu_pkg::thread_t                       issue_thread_i,

  // ---- configuration write (tmu_pkg::cfg_scope_e / cfg_field_e); ADDR_MOD: index = slot ----
  input  logic                                   cfg_we_i,
  input  tmu_pkg::cfg_scope_e                    cfg_scope_i,
  input  logic [2:0]                             cfg_index_i,
  input  tmu_pkg::thread_t                       cfg_thread_i,
  input  tmu_pkg::cfg_field_e                    cfg_field_i,
  input  logic [15:0]                            cfg_wdata_i,

  // ---- unpackers: operand 0 = SrcA, 1 = SrcB ----
  input  logic [1:0]                             unp_we_i,
  output logic [1:0]                             unp_ready_o,
  input  logic [2*tmu_pkg::SrcRowW-1:0]          unp_row_i,
  input  logic [2*RowBits-1:0]                   unp_data_i,
  input  logic [2*tmu_pkg::DataFormatW-1:0]      unp_format_i,
  input  logic [1:0]                             unp_dvalid_i,
  output logic [1:0]                             unp_dvalid_ready_o,

  // ---- packer: the 8-row Dst window from pack_row_i, a multiple of 8 (identity 0 for undefined rows) ----
  input  logic                                   pack_rd_i,
  input  logic [tmu_pkg::DstRowW-1:0]            pack_row_i,
  input  logic                                   pack_dst32_i,
  output logic [8*16*32-1:0]                     pack_data_o,

  // ---- back door (testbench preload, while no instruction is in flight) ----
  input  logic                                   pl_dst_we_i,      // one DstBits row and its validity
  input  logic [tmu_pkg::DstRowW-1:0]            pl_dst_row_i,
  input  logic [16*16-1:0]                       pl_dst_data_i,
  input  logic                                   pl_dst_valid_i,
  input  logic                                   pl_src_we_i,      // one Src row of any bank
  input  logic                                   pl_src_operand_i,
  input  logic                                   pl_src_bank_i,
  input  logic [tmu_pkg::SrcRowW-1:0]            pl_src_row_i,
  input  logic [RowBits-1:0]                     pl_src_data_i,
  input  logic                                   pl_bank_we_i,     // a bank's AllowedClient and format tag
  input  logic                                   pl_bank_operand_i,
  input  logic                                   pl_bank_i,
  input  logic                                   pl_bank_allowed_client_i,
  input  logic [tmu_pkg::DataFormatW-1:0]        pl_bank_format_i,
  input  logic                                   pl_ptr_we_i,      // both pointers of an operand
  input  logic                                   pl_ptr_operand_i,
  input  logic                                   pl_ptr_mu_bank_i,
  input  logic                                   pl_ptr_unp_bank_i,
  input  logic                                   pl_gpr_we_i,
  input  tmu_pkg::thread_t                       pl_gpr_thread_i,
  input  tmu_pkg::gpr_idx_t                      pl_gpr_idx_i,
  input  tmu_pkg::gpr_t                          pl_gpr_data_i,

  // ---- state reads for the testbench's end-of-test dump (the Src and Dst rows while dbg_rd_i) ----
  input  logic                                   dbg_rd_i,
  input  logic [tmu_pkg::DstRowW-1:0]            dbg_dst_row_i,
  output logic [16*16-1:0]                       dbg_dst_bits_o,
  output logic [tmu_pkg::DstRows-1:0]            dbg_dst_valid_o,
  input  logic                                   dbg_src_bank_i,
  input  logic [tmu_pkg::SrcRowW-1:0]            dbg_src_row_i,
  output logic [2*RowBits-1:0]                   dbg_src_data_o,   // SrcA row, then SrcB row
  output logic [tmu_pkg::NumThreads*tmu_pkg::RwcW-1:0] dbg_rwc_o,
  output logic [7:0]                             dbg_banks_o,      // see obs_banks_o
  output logic [7:0]                             dbg_banks_next_o, // dbg_banks_o after the coming edge
  output logic [tmu_pkg::SrcRowW-1:0]            dbg_last_srca_row_o,
  output logic [4*tmu_pkg::DataFormatW-1:0]      dbg_bank_formats_o, // SrcA bank 0, 1, SrcB bank 0, 1
  input  tmu_pkg::thread_t                       dbg_gpr_thread_i,
  input  tmu_pkg::gpr_idx_t                      dbg_gpr_idx_i,
  output tmu_pkg::gpr_t                          dbg_gpr_o,

  // ---- Matrix Unit observation: one retiring instruction per cycle ----
  output logic                                   obs_valid_o,
  output tmu_pkg::thread_t                       obs_thread_o,
  output logic [31:0]                            obs_word_o,
  output tmu_pkg::insn_status_e                  obs_status_o,
  output logic                                   obs_dst_we_o,     // rows obs_dst_mask_o of the window
  output logic [tmu_pkg::DstRowW-1:0]            obs_dst_row_o,
  output logic                                   obs_dst32_o,
  output logic [7:0]                             obs_dst_mask_o,
  output logic [8*16*32-1:0]                     obs_dst_data_o,
  output logic [tmu_pkg::DstRows-1:0]            obs_za_rows_o,    // ZEROACC: DstBits rows whose validity it set
  output logic                                   obs_za_valid_o,   // ... to this value
  output logic                                   obs_src_we_o,     // rows obs_src_mask_o from obs_src_row_o
  output logic                                   obs_src_srcb_o,
  output logic                                   obs_src_bank_o,
  output logic [tmu_pkg::SrcRowW-1:0]            obs_src_row_o,
  output logic [15:0]                            obs_src_mask_o,
  output logic [16*RowBits-1:0]                  obs_src_data_o,
  output logic [4:0]                             obs_zerosrc_o,    // ZEROSRC: {neg_inf, SrcB banks 1:0, SrcA banks 1:0}
  output tmu_pkg::rwc_t                          obs_rwc_o,        // the thread's RWCs after it
  output logic [7:0]                             obs_banks_o,      // {unp1, unp0, srcb AllowedClient 1:0, srca AllowedClient 1:0, srcb bank, srca bank}
  output logic [tmu_pkg::SrcRowW-1:0]            obs_last_srca_row_o,

  // ---- GPR observation ----
  output logic                                   gpr_obs_valid_o,
  output tmu_pkg::thread_t                       gpr_obs_thread_o,
  output logic [31:0]                            gpr_obs_word_o,
  output tmu_pkg::insn_status_e                  gpr_obs_status_o,
  output logic                                   gpr_obs_we_o,
  output tmu_pkg::gpr_idx_t                      gpr_obs_idx_o,
  output tmu_pkg::gpr_t                          gpr_obs_data_o,

  // ---- events (coverage) ----
  output logic                                   ev_src_wait_o,
  output logic                                   ev_dst_hazard_o,
  output logic                                   ev_src_hazard_o,
  output logic                                   ev_shiftxb_busy_o,
  output logic                                   ev_thread_blocked_o
);

  localparam int unsigned RowBits = tmu_pkg::SrcCols * tmu_pkg::SrcDatumW;  // one Src row: 304
  localparam int unsigned Latency = 4;  // issue to retirement: the stage registers st1..st4
  localparam int unsigned WinRows = 16;                                    // Src read window
  localparam int unsigned Lanes   = 8 * 16;                                // Dst window elements
  localparam int unsigned Groups  = tmu_pkg::DstRows / 8;                  // hazard granules

  // ---------------------------------------------------------------------------------------------
  // Shared state: configuration, RWCs, Src, Dst, the SHIFTXA latch
  // ---------------------------------------------------------------------------------------------
  tmu_pkg::thread_t thread;
  assign thread = issue_thread_i;

  tmu_pkg::mu_cfg_t cfg;  // the issuing thread's configuration

  tmu_config u_config (
    .clk_i, .rst_ni,
    .we_i (cfg_we_i && cfg_scope_i != tmu_pkg::CFG_SCOPE_ADDR_MOD && cfg_field_i != tmu_pkg::TCFG_ADDR_MOD_SET),
    .scope_i (cfg_scope_i), .index_i (cfg_index_i[1:0]), .field_i (cfg_field_i), .wdata_i (cfg_wdata_i),
    .thread_i (thread),
    .cfg_o (cfg)
  );

  // ---- the issue decision (below) drives these ----
  logic                        mu_fire;       // a Matrix Unit instruction issues this cycle
  logic                        mu_effects;    // ... and the model accepts it
  tmu_pkg::mu_ctrl_t           ctrl;          // what it does (tmu_mu_ctrl)
  tmu_pkg::mu_access_t         access;        // ... its status and Dst views, with the MOV unit's answer
  logic                        mov_rd32, mov_wr32, mov_undefined;
  logic                        zerosrc_a, zerosrc_b;  // a ZEROSRC command for SrcA's / SrcB's banks
  assign zerosrc_a = ctrl.bank.srca_cmd == tmu_pkg::SRC_CMD_ZEROSRC;
  assign zerosrc_b = ctrl.bank.srcb_cmd == tmu_pkg::SRC_CMD_ZEROSRC;

  // ---- RWCs and ADDR_MOD slots ----
  logic [tmu_pkg::NumThreads*tmu_pkg::RwcW-1:0] rwcs;
  tmu_pkg::rwc_t               rwc;   // the issuing thread's
  tmu_pkg::insn_status_e       rwc_status;
  logic                        rwc_cfg_we;
  tmu_pkg::rwc_cfg_sel_e       rwc_cfg_sel;

  // One thread's counters out of tmu_rwc's flat vector (thread 0 for a thread number past the
  // last), by comparison with each thread number: a plain multiplexer, where an index times RwcW
  // would synthesise to a shifter over the whole vector.
  function automatic logic [tmu_pkg::RwcW-1:0] thread_rwc(
      input logic [tmu_pkg::NumThreads*tmu_pkg::RwcW-1:0] flat, input logic [tmu_pkg::ThreadW-1:0] sel);
    thread_rwc = flat[0 +: tmu_pkg::RwcW];
    for (int unsigned t = 1; t < tmu_pkg::NumThreads; t++)
      if (sel == tmu_pkg::ThreadW'(t)) thread_rwc = flat[t*tmu_pkg::RwcW +: tmu_pkg::RwcW];
  endfunction

  always_comb begin
    rwc = thread_rwc(rwcs, thread);
    rwc_cfg_we  = cfg_we_i && (cfg_scope_i == tmu_pkg::CFG_SCOPE_ADDR_MOD || cfg_field_i == tmu_pkg::TCFG_ADDR_MOD_SET);
    rwc_cfg_sel = cfg_field_i == tmu_pkg::AM_AB_SEC  ? tmu_pkg::RWC_CFG_ADDR_MOD_AB
                : cfg_field_i == tmu_pkg::AM_DST_SEC ? tmu_pkg::RWC_CFG_ADDR_MOD_DST
                : cfg_field_i == tmu_pkg::AM_BIAS_SEC ? tmu_pkg::RWC_CFG_ADDR_MOD_BIAS
                : tmu_pkg::RWC_CFG_ADDR_MOD_SET;
  end

  tmu_rwc u_rwc (
    .clk_i, .rst_ni, .arch_i,
    .cfg_we_i (rwc_cfg_we),
    .cfg_thread_i (cfg_scope_i == tmu_pkg::CFG_SCOPE_ADDR_MOD ? cfg_thread_i : cfg_index_i[1:0]),
    .cfg_slot_i (cfg_index_i), .cfg_sel_i (rwc_cfg_sel), .cfg_wdata_i (cfg_wdata_i),
    .cmd_valid_i (mu_effects && ctrl.rwc.valid), .cmd_thread_i (thread), .cmd_i (ctrl.rwc.cmd),
    .cmd_insn_i (issue_word_i), .cmd_addr_mod_i (ctrl.rwc.addr_mod), .cmd_update_fidelity_i (1'b1),
    .cmd_status_o (rwc_status), .rwc_o (rwcs)
  );

  // ---- the pipeline's instruction records ----
  tmu_pkg::mu_stage_t st0, st1_q, st2_q, st3_q, st4_q, st1_d, st2_d, st3_d, st4_d;

  // ---- Src register files ----
  logic [1:0]                  mu_bank, unp_bank;
  logic [3:0]                  allowed_client;  // {SrcB, SrcA} banks 1:0, 1 = MatrixUnit
  logic [1:0]                  mu_bank_next, unp_bank_next;
  logic [3:0]                  allowed_client_next;
  logic [4*4-1:0]              bank_formats;  // SrcA bank 0, 1, SrcB bank 0, 1
  logic [2*4-1:0]              mu_formats;    // the Matrix Unit banks' tags, SrcA then SrcB
  logic [3:0]                  mu_format_a, mu_format_b;
  logic [3:0]                  zeroed;        // {SrcB banks, SrcA banks} this cycle's ZEROSRC clears
  logic [2*WinRows*RowBits-1:0] src_wins;     // SrcA window, then SrcB's
  logic [WinRows*RowBits-1:0]  srca_win, srcb_win;
  // Retirement-side writes (from stage 4).
  logic                        src_wr_en;
  logic [WinRows-1:0]          src_wr_mask;
  logic [WinRows*RowBits-1:0]  src_wr_data;
  logic                        any_src_writer;  // a Src-writing instruction in st1..st4

  for (genvar op = 0; op < 2; op++) begin : g_src
    logic                 op_is_srcb;
    tmu_pkg::src_cmd_e    cmd;
    assign op_is_srcb = op == 1;
    assign cmd = mu_effects ? (op_is_srcb ? ctrl.bank.srcb_cmd : ctrl.bank.srca_cmd) : tmu_pkg::SRC_CMD_NONE;
    tmu_src_regs #(.IsSrcA (op == 0), .ReadRows (WinRows)) u_src (
      .clk_i, .rst_ni,
      .unp_we_i (unp_we_i[op] && unp_ready_o[op]), .unp_row_i (unp_row_i[op*tmu_pkg::SrcRowW +: tmu_pkg::SrcRowW]),
      .unp_data_i (unp_data_i[op*RowBits +: RowBits]),
      .unp_format_i (unp_format_i[op*4 +: 4]),
      .unp_dvalid_i (unp_dvalid_i[op] && unp_dvalid_ready_o[op]),
      .cmd_i (cmd), .cmd_flip_i (op_is_srcb ? ctrl.bank.flip_srcb : ctrl.bank.flip_srca),
      .cmd_clr_dvalid_disable_i (op_is_srcb ? cfg.clr_dvalid_srcb_disable : cfg.clr_dvalid_srca_disable),
      .cmd_reset_i (ctrl.bank.cleardvalid_reset), .cmd_keep_reading_i (ctrl.bank.keep_reading),
      .cmd_clear_i (1'b1),
      .cmd_both_banks_i (ctrl.bank.zerosrc_both_banks), .cmd_single_bank_mu_i (ctrl.bank.zerosrc_single_bank_mu),
      .cmd_negative_inf_i (ctrl.bank.zerosrc_negative_inf),
      .rd_en_i (mu_effects), .rd_bank_i (mu_bank[op]),
      .rd_row_i (op_is_srcb ? ctrl.src.srcb_rd_row : ctrl.src.srca_rd_row),
      .rd_data_o (src_wins[op*WinRows*RowBits +: WinRows*RowBits]),
      .mu_we_i (src_wr_en && st4_q.src_wr_b == op_is_srcb), .mu_bank_i (st4_q.src_bank),
      .mu_row_i (st4_q.src_row), .mu_mask_i (src_wr_mask), .mu_data_i (src_wr_data),
      .pl_row_we_i (pl_src_we_i && pl_src_operand_i == op_is_srcb), .pl_bank_i (pl_src_bank_i),
      .pl_row_i (pl_src_row_i), .pl_data_i (pl_src_data_i),
      .pl_state_we_i (pl_bank_we_i && pl_bank_operand_i == op_is_srcb), .pl_state_bank_i (pl_bank_i),
      .pl_state_allowed_client_i (pl_bank_allowed_client_i), .pl_state_format_i (pl_bank_format_i),
      .pl_ptr_we_i (pl_ptr_we_i && pl_ptr_operand_i == op_is_srcb), .pl_mu_bank_i (pl_ptr_mu_bank_i),
      .pl_unp_bank_i (pl_ptr_unp_bank_i),
      .dbg_en_i (dbg_rd_i), .dbg_bank_i (dbg_src_bank_i), .dbg_row_i (dbg_src_row_i),
      .dbg_data_o (dbg_src_data_o[op*RowBits +: RowBits]),
      .mu_bank_o (mu_bank[op]), .unp_bank_o (unp_bank[op]),
      .allowed_client_o (allowed_client[op*2 +: 2]),
      .mu_bank_next_o (mu_bank_next[op]), .unp_bank_next_o (unp_bank_next[op]),
      .allowed_client_next_o (allowed_client_next[op*2 +: 2]),
      .format_o (bank_formats[op*8 +: 8]),
      .mu_format_o (mu_formats[op*4 +: 4]),
      .zeroed_banks_o (zeroed[op*2 +: 2])
    );
  end

  assign srca_win    = src_wins[0 +: WinRows*RowBits];
  assign srcb_win    = src_wins[WinRows*RowBits +: WinRows*RowBits];
  assign mu_format_a = mu_formats[3:0];
  assign mu_format_b = mu_formats[7:4];

  // ---- Dst ----
  logic [2*Lanes*32-1:0]       dst_rd;
  logic [Lanes*32-1:0]         dst_win;        // the instruction's window, 16-bit values in the low half
  logic                        dst_wr_en;
  logic [tmu_pkg::DstRowW-1:0] dst_wr_row;
  logic                        dst_wr32;
  logic [7:0]                  dst_wr_mask;
  logic [Lanes*32-1:0]         dst_wr_data;
  logic                        dst_wr_valid;
  logic [16*16*2-1:0]          pl_dst_lanes;   // the preload row as lanes of one window row

  always_comb begin
    pl_dst_lanes = '0;
    for (int unsigned c = 0; c < 16; c++) pl_dst_lanes[c*32 +: 16] = pl_dst_data_i[c*16 +: 16];
  end

  tmu_dst_regs #(.NumReadPorts (2)) u_dst (
    .clk_i, .rst_ni,
    .rd_en_i ({pack_rd_i, mu_effects}),
    .rd_row_i ({pack_row_i, ctrl.dst.row}),
    .rd_dst32_i ({pack_dst32_i, access.dst_rd32 || access.dst_rd_high16}),
    .rd_identity_i ({32'd0, access.dst_rd_high16 ? {ctrl.dst.identity[15:0], 16'd0} : ctrl.dst.identity}),
    .rd_data_o (dst_rd),
    .wr_en_i (pl_dst_we_i || dst_wr_en),
    .wr_row_i (pl_dst_we_i ? pl_dst_row_i : dst_wr_row),
    .wr_dst32_i (pl_dst_we_i ? 1'b0 : dst_wr32),
    .wr_row_mask_i (pl_dst_we_i ? 8'h01 : dst_wr_mask),
    .wr_data_i (pl_dst_we_i ? {{(Lanes*32-512){1'b0}}, pl_dst_lanes} : dst_wr_data),
    .wr_set_valid_i (pl_dst_we_i ? pl_dst_valid_i : dst_wr_valid),
    .za_valid_i (st4_q.valid && st4_q.ok && st4_q.za.valid), .za_mode_i (st4_q.za.mode),
    .za_row_i (st4_q.za.row), .za_dst32_i (st4_q.za.dst32), .za_block_i (st4_q.za.block),
    .za_revert_i (st4_q.za.revert), .za_upper_half_i (st4_q.za.upper_half),
    .za_rows_o (obs_za_rows_o),
    .dbg_en_i (dbg_rd_i), .dbg_row_i (dbg_dst_row_i), .dbg_bits_o (dbg_dst_bits_o), .row_valid_o (dbg_dst_valid_o)
  );
  assign pack_data_o = dst_rd[Lanes*32 +: Lanes*32];

  always_comb begin
    dst_win = dst_rd[0 +: Lanes*32];
    if (access.dst_rd_high16)  // DbgFeatureDisableBit11: a 16-bit read is the high half of the 32-bit view
      for (int unsigned e = 0; e < Lanes; e++) dst_win[e*32 +: 32] = {16'd0, dst_rd[e*32 + 16 +: 16]};
  end

  // ---- SHIFTXA's latch: the SrcA row the last SrcA-addressing instruction computed ----
  logic [tmu_pkg::SrcRowW-1:0] last_srca_q, last_srca_d;
  assign last_srca_d = (mu_effects && ctrl.rwc.latch_srca) ? ctrl.rwc.latch_srca_row : last_srca_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) last_srca_q <= '0;
    else         last_srca_q <= last_srca_d;
  end

  // ---------------------------------------------------------------------------------------------
  // The instruction at issue
  // ---------------------------------------------------------------------------------------------
  tmu_mu_ctrl u_ctrl (
    .word_i (issue_word_i), .arch_i, .rwc_i (rwc), .cfg_i (cfg),
    .srca_bank_format_i (mu_format_a), .srcb_bank_format_i (mu_format_b), .last_srca_row_i (last_srca_q),
    .mov_dst_read32_i (mov_rd32), .mov_dst_write32_i (mov_wr32), .mov_undefined_i (mov_undefined),
    .ctrl_o (ctrl), .access_o (access)
  );

  // ---------------------------------------------------------------------------------------------
  // Issue: stalls, and the instruction's record
  // ---------------------------------------------------------------------------------------------

  // The 8-row DstBits groups a window touches: a Dst16b row r is DstBits row r; a Dst32b row R is
  // DstBits rows Adj32(R) (high halves) and Adj32(R) + 8 (low halves).
  function automatic logic [Groups-1:0] window_groups(input logic [tmu_pkg::DstRowW-1:0] start,
                                                       input logic view32, input logic [7:0] rows);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [tmu_pkg::DstRowW-1:0] r;   // only its group, r / 8, matters
    /* verilator lint_on UNUSEDSIGNAL */
    logic [6:0]                  hi;  // Adj32(r) / 8, the high halves' group; the low halves' is hi + 1
    window_groups = '0;
    for (int unsigned k = 0; k < 8; k++) begin
      r  = start + tmu_pkg::DstRowW'(k);
      hi = {r[9] | r[8], r[7:3], 1'b0};
      if (rows[k]) begin
        if (view32) begin
          window_groups[hi]        = 1'b1;
          window_groups[hi | 7'd1] = 1'b1;
        end else begin
          window_groups[r[9:3]] = 1'b1;
        end
      end
    end
  endfunction

  logic                  gpr_ready, gpr_fire;
  logic [tmu_pkg::NumThreads-1:0] thread_blocked;
  logic                  busy_q, busy_d;           // SHIFTXB's second cycle
  logic [Groups-1:0]     inflight_groups, rd_groups;
  logic [7:0]            rows_mask;                // the rows of the window an instruction touches
  logic                  stall_src_wait, stall_dst, stall_src, mu_ok_to_issue, blocked;

  always_comb begin
    unique case (ctrl.mov.rows)
      4'd8:    rows_mask = 8'hff;
      4'd4:    rows_mask = 8'h0f;
      default: rows_mask = 8'h01;
    endcase
    if (ctrl.unit != tmu_pkg::MU_UNIT_MOV) rows_mask = ctrl.dst.wr_mask;
    if (ctrl.unit == tmu_pkg::MU_UNIT_ELW) rows_mask = 8'hff;

    inflight_groups = '0;
    if (st1_q.valid && st1_q.ok) inflight_groups |= st1_q.hz_groups;
    if (st2_q.valid && st2_q.ok) inflight_groups |= st2_q.hz_groups;
    if (st3_q.valid && st3_q.ok) inflight_groups |= st3_q.hz_groups;
    if (st4_q.valid && st4_q.ok) inflight_groups |= st4_q.hz_groups;
    any_src_writer = (st1_q.valid && st1_q.ok && st1_q.src_we) || (st2_q.valid && st2_q.ok && st2_q.src_we) ||
                     (st3_q.valid && st3_q.ok && st3_q.src_we) || (st4_q.valid && st4_q.ok && st4_q.src_we);

    rd_groups      = window_groups(ctrl.dst.row, access.dst_rd32 || access.dst_rd_high16, rows_mask);
    blocked        = thread_blocked[thread];
    stall_src_wait = (ctrl.src.wait_srca && !allowed_client[{1'b0, mu_bank[0]}]) ||
                     (ctrl.src.wait_srcb && !allowed_client[{1'b1, mu_bank[1]}]);
    stall_dst      = access.dst_rd && (rd_groups & inflight_groups) != '0;
    stall_src      = (ctrl.src.reads || ctrl.src.we || zerosrc_a || zerosrc_b) && any_src_writer;
    // A refused instruction waits for nothing: it only has to retire in order.
    mu_ok_to_issue = access.status != tmu_pkg::INSN_OK || (!stall_src_wait && !stall_dst && !stall_src);

    issue_ready_o  = !blocked && (ctrl.scalar ? gpr_ready : (!busy_q && mu_ok_to_issue));
    mu_fire        = issue_valid_i && issue_ready_o && !ctrl.scalar;
    gpr_fire       = issue_valid_i && issue_ready_o && ctrl.scalar;
    mu_effects     = mu_fire && access.status == tmu_pkg::INSN_OK;
    busy_d         = mu_effects && ctrl.two_cycle_issue;

    // Unpackers: no row write while Src results are on their way or a Src writer / ZEROSRC issues;
    // no hand-over in a cycle a Matrix Unit instruction issues.
    unp_ready_o        = {2{!any_src_writer && !(mu_effects && (ctrl.src.we || zerosrc_a || zerosrc_b))}};
    unp_dvalid_ready_o = {2{!mu_fire}};

    ev_src_wait_o       = issue_valid_i && !ctrl.scalar && access.status == tmu_pkg::INSN_OK && stall_src_wait;
    ev_dst_hazard_o     = issue_valid_i && !ctrl.scalar && access.status == tmu_pkg::INSN_OK && stall_dst;
    ev_src_hazard_o     = issue_valid_i && !ctrl.scalar && access.status == tmu_pkg::INSN_OK && stall_src;
    ev_shiftxb_busy_o   = issue_valid_i && !ctrl.scalar && busy_q;
    ev_thread_blocked_o = issue_valid_i && blocked;
  end

  // The record of the instruction issuing now (st0), and the banks its ZEROSRC clears.
  always_comb begin
    st0           = '0;
    st0.valid     = mu_fire;
    st0.ok        = mu_effects;
    st0.thread    = thread;
    st0.word      = issue_word_i;
    st0.status    = access.status;
    st0.unit      = ctrl.unit;
    st0.dst_we    = ctrl.dst.we;
    st0.dst_row   = ctrl.dst.row;
    st0.dst_wr32  = access.dst_wr32;
    st0.dst_mask  = ctrl.dst.wr_mask;
    st0.hz_groups = ctrl.za.valid ? '1
                  : ctrl.dst.we ? window_groups(ctrl.dst.row, access.dst_wr32, rows_mask) : '0;
    st0.src_we    = ctrl.src.we;
    st0.src_wr_b  = ctrl.src.wr_srcb;
    st0.src_bank  = ctrl.src.wr_srcb ? mu_bank[1] : mu_bank[0];
    st0.src_row   = ctrl.src.wr_row;
    st0.za        = ctrl.za;
    st0.zerosrc   = {ctrl.bank.zerosrc_negative_inf, zeroed & {zerosrc_b, zerosrc_b, zerosrc_a, zerosrc_a}};
  end

  // ---- stage registers; st1 -> st2 takes the snapshots of the state the instruction left ----
  tmu_pkg::rwc_t st1_rwc;
  always_comb begin
    st1_rwc = thread_rwc(rwcs, st1_q.thread);
    st1_d = st0;
    st2_d = st1_q;
    st2_d.rwc       = st1_rwc;
    st2_d.banks     = dbg_banks_o;
    st2_d.last_srca = last_srca_q;
    st3_d = st2_q;
    st4_d = st3_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st1_q  <= '0;
      st2_q  <= '0;
      st3_q  <= '0;
      st4_q  <= '0;
      busy_q <= 1'b0;
    end else begin
      st1_q  <= st1_d;
      st2_q  <= st2_d;
      st3_q  <= st3_d;
      st4_q  <= st4_d;
      busy_q <= busy_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Functional units (Latency cycles from issue)
  // ---------------------------------------------------------------------------------------------
  // The unit an issuing instruction goes to; the units' wide operands are put together only in
  // the cycles a unit takes them.
  logic mvmul_issue, elw_issue, gmp_issue, mov_issue;
  assign mvmul_issue = mu_effects && ctrl.unit == tmu_pkg::MU_UNIT_MVMUL;
  assign elw_issue = mu_effects && ctrl.unit == tmu_pkg::MU_UNIT_ELW;
  assign gmp_issue = mu_effects && ctrl.unit == tmu_pkg::MU_UNIT_GMPOOL;
  assign mov_issue = mu_effects && ctrl.unit == tmu_pkg::MU_UNIT_MOV;

  logic [8*16*tmu_pkg::SrcDatumW-1:0] mvmul_srcb;
  logic [WinRows*RowBits-1:0]         mov_src_win;
  always_comb begin
    mvmul_srcb    = 'x;
    mov_src_win = 'x;
    if (mvmul_issue) begin
      mvmul_srcb = srcb_win[0 +: 8*RowBits];
      if (ctrl.mode.bcast_row)
        for (int unsigned i = 1; i < 8; i++) mvmul_srcb[i*RowBits +: RowBits] = srcb_win[0 +: RowBits];
    end
    if (mov_issue) mov_src_win = ctrl.src.mov_is_srcb ? srcb_win : srca_win;
  end

  logic                  mvmul_valid, elw_valid, gmp_valid, mov_valid;
  logic [Lanes*32-1:0]   mvmul_dst, elw_dst, mov_dst;
  logic [4*16*32-1:0]    gmp_dst;
  logic                  mov_dst_we, mov_src_we;
  logic [7:0]            mov_dst_mask;
  logic [15:0]           mov_src_mask;
  logic [WinRows*RowBits-1:0] mov_src;

  tmu_mvmul_block #(.Rows (8), .Latency (Latency)) u_mvmul (
    .clk_i, .rst_ni,
    .valid_i (mvmul_issue),
    .srca_i (srca_win), .srcb_i (mvmul_srcb), .dst_i (dst_win),
    .srca_style_i (ctrl.mode.srca_style), .srcb_style_i (ctrl.mode.srcb_style), .dst32_i (ctrl.mode.dst32),
    .phase_i (ctrl.mode.phase),
    .arch_i, .int8_i (ctrl.mode.int8), .zero_flag_disabled_i (cfg.zero_flag_disabled_src),
    .valid_o (mvmul_valid), .dst_o (mvmul_dst)
  );

  tmu_elw_unit #(.Latency (Latency)) u_elw (
    .clk_i, .rst_ni,
    .valid_i (elw_issue),
    .op_i (ctrl.mode.elw_op), .add_dst_i (ctrl.mode.add_dst), .bcast_row_i (ctrl.mode.bcast_row),
    .bcast_col0_i (ctrl.mode.bcast_col0),
    .srca_i (srca_win[0 +: 8*RowBits]), .srcb_i (srcb_win[0 +: 8*RowBits]), .dst_i (dst_win),
    .srca_style_i (ctrl.mode.srca_style), .srcb_style_i (ctrl.mode.srcb_style), .dst32_i (ctrl.mode.dst32), .phase_i (ctrl.mode.phase),
    .arch_i, .zero_flag_disabled_i (cfg.zero_flag_disabled_src), .int8_i (ctrl.mode.int8),
    .valid_o (elw_valid), .dst_o (elw_dst)
  );

  tmu_gmpool_unit #(.Latency (Latency)) u_gmpool (
    .clk_i, .rst_ni,
    .valid_i (gmp_issue),
    .srca_i (srca_win), .srcb_i (srcb_win[0 +: RowBits]), .dst_i (dst_win[0 +: 4*16*32]),
    .srca_style_i (ctrl.mode.srca_style), .dst32_i (ctrl.mode.dst32), .argmax_i (ctrl.mode.argmax),
    .valid_o (gmp_valid), .dst_o (gmp_dst)
  );

  tmu_mov_unit #(.Latency (Latency)) u_mov (
    .clk_i, .rst_ni,
    .valid_i (mov_issue),
    .op_i (ctrl.mov.op), .rows_i (ctrl.mov.rows), .broadcast_row_i (ctrl.mov.bcast_row),
    .broadcast_col0_i (ctrl.mode.bcast_col0),
    .shift_left_i (ctrl.mov.shift_left), .shift_in_zero_i (ctrl.mov.shift_in_zero),
    .src_i (mov_src_win), .dst_i (dst_win),
    .srca_format_i (ctrl.mov.srca_format), .srcb_format_i (ctrl.mov.srcb_format), .fp16a_force_i (cfg.fp16a_force),
    .flush_denormals_i (!cfg.zero_flag_disabled_src), .use_dst32b_lo_i (ctrl.mov.use_dst32b_lo),
    .use_dst32b_i (ctrl.mov.use_dst32b),
    .dst_read32_o (mov_rd32), .dst_write32_o (mov_wr32), .undefined_o (mov_undefined),
    .valid_o (mov_valid), .dst_we_o (mov_dst_we), .dst_row_mask_o (mov_dst_mask), .dst_o (mov_dst),
    .src_we_o (mov_src_we), .src_row_mask_o (mov_src_mask), .src_o (mov_src)
  );

  // ---------------------------------------------------------------------------------------------
  // Retirement (st4): writes and the observation port
  // ---------------------------------------------------------------------------------------------
  logic retire_ok;
  assign retire_ok = st4_q.valid && st4_q.ok;

  always_comb begin
    unique case (st4_q.unit)
      tmu_pkg::MU_UNIT_ELW:    dst_wr_data = elw_dst;
      tmu_pkg::MU_UNIT_GMPOOL: dst_wr_data = {{(4*16*32){1'b0}}, gmp_dst};
      tmu_pkg::MU_UNIT_MOV:    dst_wr_data = mov_dst;
      default:                 dst_wr_data = mvmul_dst;
    endcase
    dst_wr_en    = retire_ok && st4_q.dst_we && (st4_q.unit != tmu_pkg::MU_UNIT_MOV || mov_dst_we);
    dst_wr_row   = st4_q.dst_row;
    dst_wr32     = st4_q.dst_wr32;
    dst_wr_mask  = st4_q.unit == tmu_pkg::MU_UNIT_MOV ? mov_dst_mask : st4_q.dst_mask;
    dst_wr_valid = 1'b1;
    src_wr_en    = retire_ok && st4_q.src_we && mov_src_we;
    src_wr_mask  = mov_src_mask;
    src_wr_data  = mov_src;
  end

  assign obs_valid_o         = st4_q.valid;
  assign obs_thread_o        = st4_q.thread;
  assign obs_word_o          = st4_q.word;
  assign obs_status_o        = st4_q.status;
  assign obs_dst_we_o        = dst_wr_en;
  assign obs_dst_row_o       = dst_wr_row;
  assign obs_dst32_o         = dst_wr32;
  assign obs_dst_mask_o      = dst_wr_mask;
  assign obs_dst_data_o      = dst_wr_data;
  assign obs_za_valid_o      = st4_q.za.mode == tmu_pkg::ZEROACC_SIXTEEN_ROWS && st4_q.za.revert;
  assign obs_src_we_o        = src_wr_en;
  assign obs_src_srcb_o      = st4_q.src_wr_b;
  assign obs_src_bank_o      = st4_q.src_bank;
  assign obs_src_row_o       = st4_q.src_row;
  assign obs_src_mask_o      = src_wr_mask;
  assign obs_src_data_o      = src_wr_data;
  assign obs_zerosrc_o       = st4_q.ok ? st4_q.zerosrc : '0;
  assign obs_rwc_o           = st4_q.rwc;
  assign obs_banks_o         = st4_q.banks;
  assign obs_last_srca_row_o = st4_q.last_srca;

  assign dbg_rwc_o           = rwcs;
  assign dbg_banks_o         = {unp_bank[1], unp_bank[0], allowed_client[3:2], allowed_client[1:0],
                                mu_bank[1], mu_bank[0]};
  assign dbg_banks_next_o    = {unp_bank_next[1], unp_bank_next[0], allowed_client_next[3:2],
                                allowed_client_next[1:0], mu_bank_next[1], mu_bank_next[0]};
  assign dbg_last_srca_row_o = last_srca_q;
  assign dbg_bank_formats_o  = bank_formats;

  // ---------------------------------------------------------------------------------------------
  // Scalar Unit GPR ops (the cycles an instruction took are for its own tests; the testbench counts)
  // ---------------------------------------------------------------------------------------------
  tmu_gpr_unit u_gpr (
    .clk_i, .rst_ni,
    .issue_valid_i (gpr_fire), .issue_ready_o (gpr_ready), .issue_insn_i (issue_word_i),
    .issue_thread_i (thread),
    .flush_wait_i ('0),  // no packer/unpacker requests outstanding in this unit's world
    .thread_blocked_o (thread_blocked),
    .dbg_thread_i (pl_gpr_we_i ? pl_gpr_thread_i : dbg_gpr_thread_i),
    .dbg_idx_i (pl_gpr_we_i ? pl_gpr_idx_i : dbg_gpr_idx_i), .dbg_rdata_o (dbg_gpr_o),
    .dbg_we_i (pl_gpr_we_i), .dbg_wdata_i (pl_gpr_data_i),
    .retire_valid_o (gpr_obs_valid_o), .retire_thread_o (gpr_obs_thread_o), .retire_insn_o (gpr_obs_word_o),
    .retire_status_o (gpr_obs_status_o), .retire_gpr_we_o (gpr_obs_we_o), .retire_gpr_idx_o (gpr_obs_idx_o),
    .retire_gpr_data_o (gpr_obs_data_o), .retire_cycles_o (gpr_retire_cycles)
  );

  // ---------------------------------------------------------------------------------------------
  // Rules the unit relies on
  // ---------------------------------------------------------------------------------------------
  logic [7:0] gpr_retire_cycles;
  logic unused_rwc_status;
  assign unused_rwc_status = ^{rwc_status, gpr_retire_cycles};  // mu_ctrl refuses what tmu_rwc would (Blackhole's extra bit)
`ifndef SYNTHESIS
  // The RWC unit must never refuse a command the control let through.
  a_rwc_accepts: assert property (@(posedge clk_i) disable iff (!rst_ni)
      mu_effects && ctrl.rwc.valid |-> rwc_status == tmu_pkg::INSN_OK);
  // Every unit returns its result exactly Latency cycles after issue, with the instruction in st4.
  a_unit_timing: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (mvmul_valid || elw_valid || gmp_valid || mov_valid) |-> retire_ok);
  a_unit_matches: assert property (@(posedge clk_i) disable iff (!rst_ni)
      retire_ok && st4_q.unit != tmu_pkg::MU_UNIT_NONE |->
      (st4_q.unit == tmu_pkg::MU_UNIT_MVMUL ? mvmul_valid : st4_q.unit == tmu_pkg::MU_UNIT_ELW ? elw_valid :
       st4_q.unit == tmu_pkg::MU_UNIT_GMPOOL ? gmp_valid : mov_valid));
  // The back door is for the time before the first instruction.
  a_preload_idle: assert property (@(posedge clk_i) disable iff (!rst_ni)
      (pl_dst_we_i || pl_src_we_i || pl_bank_we_i || pl_ptr_we_i) |->
      !(st1_q.valid || st2_q.valid || st3_q.valid || st4_q.valid || issue_valid_i));
  // Instructions retire in issue order, one per cycle, Latency cycles after issue.
  a_latency: assert property (@(posedge clk_i) disable iff (!rst_ni) obs_valid_o == $past(mu_fire, 4));
  // The packer reads whole 8-row windows: the read port's offset logic serves the Matrix Unit's port.
  a_pack_window: assert property (@(posedge clk_i) disable iff (!rst_ni) pack_rd_i |-> pack_row_i[2:0] == 3'd0);
`endif

endmodule

// tmu_blocks_tb: one Verilator model holding every block under block-level test, with flat ports a
// C++ harness can drive (tests/rtl/block_tests.cpp). Simulation only.
//
//  dp_*  one Dst element of MVMUL as the datapath computes it: 16 tmu_fidelity_slice instances,
//        two tmu_align_group_sum groups (products 0..7 and 8..15), the Dst value converted by
//        tmu_dst_to_acc, tmu_accum_normalize, and tmu_acc_to_dst. Every stage's output is a port,
//        so the harness compares each stage and the whole element.
//  al_*  a free-standing tmu_align_group_sum, for products no fidelity slice would make.
//  ac_*  a free-standing tmu_accum_normalize, for arbitrary terms and Dst words.
//  ia_*  a free-standing tmu_int8_sat_acc (INT32 sign-magnitude words: sign at bit 31).
//  gpr_* tmu_gpr_unit;  rwc_* tmu_rwc (both clocked by clk_i / rst_ni).
//  mvb_*  tmu_mvmul_block with MvmulRows output rows (a reduced array keeps the build lean), clocked.
//  sr_*  tmu_src_regs for SrcA (sra_*) and SrcB (srb_*), both with 16-row windows as the Matrix
//        Unit top has them: operand i's inputs at bit i (or field i) of each shared port;
//        dr_* tmu_dst_regs (2 read ports).
//  mv_*  tmu_mov_unit, clocked.
//  gm_*  tmu_gmpool_unit, clocked.
module tmu_blocks_tb (
  input  logic                                          clk_i,
  input  logic                                          rst_ni,

  // ---- datapath chain ----
  input  logic [16*tmu_pkg::SrcDatumW-1:0]              dp_srca_i,    // SrcA[k][j], k = 0..15
  input  logic [16*tmu_pkg::SrcDatumW-1:0]              dp_srcb_i,    // SrcB[i][k], k = 0..15
  input  logic [1:0]                                    dp_srca_style_i,
  input  logic [1:0]                                    dp_srcb_style_i,
  input  logic                                          dp_dst32_i,
  input  logic [1:0]                                    dp_phase_i,
  input  logic                                          dp_zero_flag_disabled_i,
  input  logic                                          dp_arch_i,
  input  logic [31:0]                                   dp_dst_stored_i,
  output logic [16*tmu_pkg::SliceProductW-1:0]          dp_products_o,
  output logic [2*tmu_pkg::AccTermW-1:0]                dp_groups_o,
  output logic [31:0]                                   dp_dst_word_o,
  output logic [31:0]                                   dp_acc_word_o,
  output logic [2:0]                                    dp_outcome_o,
  output logic [31:0]                                   dp_result_o,

  // ---- free-standing align_group_sum ----
  input  logic [8*tmu_pkg::SliceProductW-1:0]           al_products_i,
  output logic [tmu_pkg::AccTermW-1:0]                  al_term_o,

  // ---- free-standing accum_normalize ----
  input  logic [tmu_pkg::AccTermW-1:0]                  ac_group0_i,
  input  logic [tmu_pkg::AccTermW-1:0]                  ac_group1_i,
  input  logic [31:0]                                   ac_dst_i,
  input  logic                                          ac_dst32_i,
  input  logic                                          ac_exponent_8b_i,
  input  logic                                          ac_quirk_i,
  output logic [31:0]                                   ac_result_o,
  output logic [2:0]                                    ac_outcome_o,

  // ---- free-standing INT8 saturating accumulate ----
  input  logic [31:0]                                   ia_dst_i,
  input  logic [31:0]                                   ia_value_i,
  output logic [31:0]                                   ia_result_o,

  // ---- GPR unit ----
  input  logic                                          gpr_issue_valid_i,
  output logic                                          gpr_issue_ready_o,
  input  logic [31:0]                                   gpr_issue_insn_i,
  input  logic [1:0]                                    gpr_issue_thread_i,
  input  logic [11:0]                                   gpr_flush_wait_i,
  output logic [2:0]                                    gpr_thread_blocked_o,
  input  logic [1:0]                                    gpr_dbg_thread_i,
  input  logic [5:0]                                    gpr_dbg_idx_i,
  output logic [31:0]                                   gpr_dbg_rdata_o,
  input  logic                                          gpr_dbg_we_i,
  input  logic [31:0]                                   gpr_dbg_wdata_i,
  output logic                                          gpr_retire_valid_o,
  output logic [1:0]                                    gpr_retire_thread_o,
  output logic [31:0]                                   gpr_retire_insn_o,
  output logic [1:0]                                    gpr_retire_status_o,
  output logic                                          gpr_retire_gpr_we_o,
  output logic [5:0]                                    gpr_retire_gpr_idx_o,
  output logic [31:0]                                   gpr_retire_gpr_data_o,
  output logic [7:0]                                    gpr_retire_cycles_o,

  // ---- RWC unit ----
  input  logic                                          rwc_arch_i,
  input  logic                                          rwc_cfg_we_i,
  input  logic [1:0]                                    rwc_cfg_thread_i,
  input  logic [2:0]                                    rwc_cfg_slot_i,
  input  logic [1:0]                                    rwc_cfg_sel_i,
  input  logic [15:0]                                   rwc_cfg_wdata_i,
  input  logic                                          rwc_cmd_valid_i,
  input  logic [1:0]                                    rwc_cmd_thread_i,
  input  logic [1:0]                                    rwc_cmd_i,
  input  logic [31:0]                                   rwc_cmd_insn_i,
  input  logic [2:0]                                    rwc_cmd_addr_mod_i,
  input  logic                                          rwc_cmd_update_fidelity_i,
  output logic [1:0]                                    rwc_cmd_status_o,
  output logic [tmu_pkg::NumThreads*tmu_pkg::RwcW-1:0]  rwc_o,

  // ---- MVMUL block (MvmulRows rows; tests/rtl/test_mvmul_block.cpp kMvmulRows must match) ----
  input  logic                                          mvb_valid_i,
  input  logic [16*16*tmu_pkg::SrcDatumW-1:0]           mvb_srca_i,
  input  logic [2*16*tmu_pkg::SrcDatumW-1:0]            mvb_srcb_i,
  input  logic [2*16*32-1:0]                            mvb_dst_i,
  input  logic [1:0]                                    mvb_srca_style_i,
  input  logic [1:0]                                    mvb_srcb_style_i,
  input  logic                                          mvb_dst32_i,
  input  logic [1:0]                                    mvb_phase_i,
  input  logic                                          mvb_arch_i,
  input  logic                                          mvb_int8_i,
  input  logic                                          mvb_zero_flag_disabled_i,
  output logic                                          mvb_valid_o,
  output logic [2*16*32-1:0]                            mvb_dst_o,

  // ---- ELW unit (Latency 4; tests/rtl/test_elw_unit.cpp kLatency must match) ----
  input  logic                                          ew_valid_i,
  input  logic [1:0]                                    ew_op_i,
  input  logic                                          ew_add_dst_i,
  input  logic                                          ew_bcast_row_i,
  input  logic                                          ew_bcast_col0_i,
  input  logic [8*16*tmu_pkg::SrcDatumW-1:0]            ew_srca_i,
  input  logic [8*16*tmu_pkg::SrcDatumW-1:0]            ew_srcb_i,
  input  logic [8*16*32-1:0]                            ew_dst_i,
  input  logic [1:0]                                    ew_srca_style_i,
  input  logic [1:0]                                    ew_srcb_style_i,
  input  logic                                          ew_dst32_i,
  input  logic [1:0]                                    ew_phase_i,
  input  logic                                          ew_arch_i,
  input  logic                                          ew_zero_flag_disabled_i,
  input  logic                                          ew_int8_i,
  output logic                                          ew_valid_o,
  output logic [8*16*32-1:0]                            ew_dst_o,

  // ---- Src register files (SrcA = index 0, SrcB = index 1) ----
  input  logic [1:0]                                    sr_unp_we_i,
  input  logic [11:0]                                   sr_unp_row_i,
  input  logic [2*16*tmu_pkg::SrcDatumW-1:0]            sr_unp_data_i,
  input  logic [7:0]                                    sr_unp_format_i,
  input  logic [1:0]                                    sr_unp_dvalid_i,
  input  logic [1:0]                                    sr_cmd_i,
  input  logic [1:0]                                    sr_flip_i,
  input  logic [1:0]                                    sr_clr_dvalid_disable_i,
  input  logic                                          sr_reset_i,
  input  logic                                          sr_keep_reading_i,
  input  logic [1:0]                                    sr_clear_i,
  input  logic                                          sr_both_banks_i,
  input  logic                                          sr_single_bank_mu_i,
  input  logic                                          sr_negative_inf_i,
  input  logic                                          sr_rd_en_i,   // the read and debug ports of both
  input  logic [1:0]                                    sr_rd_bank_i,
  input  logic [11:0]                                   sr_rd_row_i,
  output logic [16*16*tmu_pkg::SrcDatumW-1:0]           sra_rd_data_o,
  output logic [16*16*tmu_pkg::SrcDatumW-1:0]           srb_rd_data_o,
  input  logic [1:0]                                    sr_mu_we_i,
  input  logic [1:0]                                    sr_mu_bank_i,
  input  logic [11:0]                                   sr_mu_row_i,
  input  logic [31:0]                                   sr_mu_mask_i,
  input  logic [2*16*16*tmu_pkg::SrcDatumW-1:0]         sr_mu_data_i,
  input  logic [1:0]                                    sr_dbg_bank_i,
  input  logic [11:0]                                   sr_dbg_row_i,
  output logic [2*16*tmu_pkg::SrcDatumW-1:0]            sr_dbg_data_o,
  output logic [1:0]                                    sr_mu_bank_o,
  output logic [1:0]                                    sr_unp_bank_o,
  output logic [3:0]                                    sr_allowed_client_o,
  output logic [1:0]                                    sr_mu_bank_next_o,
  output logic [1:0]                                    sr_unp_bank_next_o,
  output logic [3:0]                                    sr_allowed_client_next_o,
  output logic [15:0]                                   sr_format_o,
  output logic [7:0]                                    sr_mu_format_o,

  // ---- GMPOOL unit (Latency 4; tests/rtl/test_gmpool_unit.cpp kLatency must match) ----
  input  logic                                          gm_valid_i,
  input  logic [16*16*tmu_pkg::SrcDatumW-1:0]           gm_srca_i,
  input  logic [16*tmu_pkg::SrcDatumW-1:0]              gm_srcb_i,
  input  logic [4*16*32-1:0]                            gm_dst_i,
  input  logic [1:0]                                    gm_srca_style_i,
  input  logic                                          gm_dst32_i,
  input  logic                                          gm_argmax_i,
  output logic                                          gm_valid_o,
  output logic [4*16*32-1:0]                            gm_dst_o,

  // ---- Dst storage ----
  input  logic                                          dr_rd_en_i,   // both read ports and the debug port
  input  logic [19:0]                                   dr_rd_row_i,
  input  logic [1:0]                                    dr_rd_dst32_i,
  input  logic [63:0]                                   dr_rd_identity_i,
  output logic [2*tmu_pkg::DstBlockLanes*32-1:0]        dr_rd_data_o,
  input  logic                                          dr_wr_en_i,
  input  logic [9:0]                                    dr_wr_row_i,
  input  logic                                          dr_wr_dst32_i,
  input  logic [7:0]                                    dr_wr_row_mask_i,
  input  logic [tmu_pkg::DstBlockLanes*32-1:0]          dr_wr_data_i,
  input  logic                                          dr_wr_set_valid_i,
  input  logic                                          dr_za_valid_i,
  input  logic [1:0]                                    dr_za_mode_i,
  input  logic [9:0]                                    dr_za_row_i,
  input  logic                                          dr_za_dst32_i,
  input  logic [7:0]                                    dr_za_block_i,
  input  logic                                          dr_za_revert_i,
  input  logic                                          dr_za_upper_half_i,
  output logic [1023:0]                                 dr_za_rows_o,
  input  logic [9:0]                                    dr_dbg_row_i,
  output logic [255:0]                                  dr_dbg_bits_o,
  output logic [1023:0]                                 dr_row_valid_o,

  // ---- MOV unit (Latency 4; tests/rtl/test_mov_unit.cpp kLatency must match) ----
  input  logic                                          mv_valid_i,
  input  logic [2:0]                                    mv_op_i,
  input  logic [3:0]                                    mv_rows_i,
  input  logic                                          mv_broadcast_row_i,
  input  logic                                          mv_broadcast_col0_i,
  input  logic                                          mv_shift_left_i,
  input  logic                                          mv_shift_in_zero_i,
  input  logic [16*16*tmu_pkg::SrcDatumW-1:0]           mv_src_i,
  input  logic [8*16*32-1:0]                            mv_dst_i,
  input  logic [3:0]                                    mv_srca_format_i,
  input  logic [3:0]                                    mv_srcb_format_i,
  input  logic                                          mv_fp16a_force_i,
  input  logic                                          mv_flush_denormals_i,
  input  logic                                          mv_use_dst32b_lo_i,
  input  logic                                          mv_use_dst32b_i,
  output logic                                          mv_dst_read32_o,
  output logic                                          mv_dst_write32_o,
  output logic                                          mv_undefined_o,
  output logic                                          mv_valid_o,
  output logic                                          mv_dst_we_o,
  output logic [7:0]                                    mv_dst_row_mask_o,
  output logic [8*16*32-1:0]                            mv_dst_o,
  output logic                                          mv_src_we_o,
  output logic [15:0]                                   mv_src_row_mask_o,
  output logic [16*16*tmu_pkg::SrcDatumW-1:0]           mv_src_o
);

  localparam int unsigned DatumW   = tmu_pkg::SrcDatumW;
  localparam int unsigned ProductW = tmu_pkg::SliceProductW;
  localparam int unsigned TermW    = tmu_pkg::AccTermW;

  // ---- datapath chain ----
  tmu_pkg::dst_format_e dst_format;
  assign dst_format = tmu_pkg::dst_format(tmu_pkg::src_style_e'(dp_srca_style_i), dp_dst32_i);

  for (genvar k = 0; k < 16; k++) begin : g_slice
    tmu_fidelity_slice u_slice (
      .valid_i                  (1'b1),
      .srca_i                   (dp_srca_i[k*DatumW +: DatumW]),
      .srcb_i                   (dp_srcb_i[k*DatumW +: DatumW]),
      .srca_style_i             (tmu_pkg::src_style_e'(dp_srca_style_i)),
      .srcb_style_i             (tmu_pkg::src_style_e'(dp_srcb_style_i)),
      .dst32_i                  (dp_dst32_i),
      .phase_i                  (dp_phase_i),
      .srcb_zero_flag_disabled_i(dp_zero_flag_disabled_i),
      .product_o                (dp_products_o[k*ProductW +: ProductW])
    );
  end

  for (genvar g = 0; g < 2; g++) begin : g_group
    tmu_align_group_sum u_group (
      .valid_i   (1'b1),
      .products_i(dp_products_o[g*8*ProductW +: 8*ProductW]),
      .term_o    (dp_groups_o[g*TermW +: TermW])
    );
  end

  tmu_dst_to_acc u_dst_to_acc (
    .valid_i (1'b1),
    .stored_i(dp_dst_stored_i),
    .format_i(dst_format),
    .word_o  (dp_dst_word_o)
  );

  tmu_accum_normalize u_accum (
    .valid_i          (1'b1),
    .group0_i         (dp_groups_o[0 +: TermW]),
    .group1_i         (dp_groups_o[TermW +: TermW]),
    .dst_i            (dp_dst_word_o),
    .dst32_i          (dp_dst32_i),
    .exponent_8b_i    (tmu_pkg::has_8bit_exponent(tmu_pkg::src_style_e'(dp_srca_style_i))),
    .minus_one_quirk_i(tmu_pkg::has_minus_one_lsb_renormalisation_bug(
                           tmu_pkg::arch_e'(dp_arch_i))),
    .result_o         (dp_acc_word_o),
    .outcome_o        (dp_outcome_o)
  );

  tmu_acc_to_dst u_acc_to_dst (
    .valid_i (1'b1),
    .word_i  (dp_acc_word_o),
    .format_i(dst_format),
    .stored_o(dp_result_o)
  );

  // ---- free-standing stages ----
  tmu_align_group_sum u_align (
    .valid_i   (1'b1),
    .products_i(al_products_i),
    .term_o    (al_term_o)
  );

  tmu_accum_normalize u_accum_free (
    .valid_i          (1'b1),
    .group0_i         (ac_group0_i),
    .group1_i         (ac_group1_i),
    .dst_i            (ac_dst_i),
    .dst32_i          (ac_dst32_i),
    .exponent_8b_i    (ac_exponent_8b_i),
    .minus_one_quirk_i(ac_quirk_i),
    .result_o         (ac_result_o),
    .outcome_o        (ac_outcome_o)
  );

  tmu_int8_sat_acc u_int8_acc (
    .valid_i  (1'b1),
    .dst_i    (ia_dst_i),
    .value_i  (ia_value_i),
    .result_o (ia_result_o)
  );

  // ---- sequential units ----
  tmu_gpr_unit u_gpr (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .issue_valid_i    (gpr_issue_valid_i),
    .issue_ready_o    (gpr_issue_ready_o),
    .issue_insn_i     (gpr_issue_insn_i),
    .issue_thread_i   (gpr_issue_thread_i),
    .flush_wait_i     (gpr_flush_wait_i),
    .thread_blocked_o (gpr_thread_blocked_o),
    .dbg_thread_i     (gpr_dbg_thread_i),
    .dbg_idx_i        (gpr_dbg_idx_i),
    .dbg_rdata_o      (gpr_dbg_rdata_o),
    .dbg_we_i         (gpr_dbg_we_i),
    .dbg_wdata_i      (gpr_dbg_wdata_i),
    .retire_valid_o   (gpr_retire_valid_o),
    .retire_thread_o  (gpr_retire_thread_o),
    .retire_insn_o    (gpr_retire_insn_o),
    .retire_status_o  (gpr_retire_status_o),
    .retire_gpr_we_o  (gpr_retire_gpr_we_o),
    .retire_gpr_idx_o (gpr_retire_gpr_idx_o),
    .retire_gpr_data_o(gpr_retire_gpr_data_o),
    .retire_cycles_o  (gpr_retire_cycles_o)
  );

  tmu_rwc u_rwc (
    .clk_i                (clk_i),
    .rst_ni               (rst_ni),
    .arch_i               (tmu_pkg::arch_e'(rwc_arch_i)),
    .cfg_we_i             (rwc_cfg_we_i),
    .cfg_thread_i         (rwc_cfg_thread_i),
    .cfg_slot_i           (rwc_cfg_slot_i),
    .cfg_sel_i            (tmu_pkg::rwc_cfg_sel_e'(rwc_cfg_sel_i)),
    .cfg_wdata_i          (rwc_cfg_wdata_i),
    .cmd_valid_i          (rwc_cmd_valid_i),
    .cmd_thread_i         (rwc_cmd_thread_i),
    .cmd_i                (tmu_pkg::rwc_cmd_e'(rwc_cmd_i)),
    .cmd_insn_i           (rwc_cmd_insn_i),
    .cmd_addr_mod_i       (rwc_cmd_addr_mod_i),
    .cmd_update_fidelity_i(rwc_cmd_update_fidelity_i),
    .cmd_status_o         (rwc_cmd_status_o),
    .rwc_o                (rwc_o)
  );

  // ---- MVMUL block ----
  localparam int unsigned MvmulRows = 2;

  tmu_mvmul_block #(
    .Rows   (MvmulRows),
    .Latency(5)
  ) u_mvmul_block (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .valid_i     (mvb_valid_i),
    .srca_i      (mvb_srca_i),
    .srcb_i      (mvb_srcb_i),
    .dst_i       (mvb_dst_i),
    .srca_style_i(tmu_pkg::src_style_e'(mvb_srca_style_i)),
    .srcb_style_i(tmu_pkg::src_style_e'(mvb_srcb_style_i)),
    .dst32_i     (mvb_dst32_i),
    .phase_i     (mvb_phase_i),
    .arch_i      (tmu_pkg::arch_e'(mvb_arch_i)),
    .int8_i      (mvb_int8_i),
    .zero_flag_disabled_i(mvb_zero_flag_disabled_i),
    .valid_o     (mvb_valid_o),
    .dst_o       (mvb_dst_o)
  );

  // ---- ELW unit (default Latency: the Yosys netlist has no parameters) ----
  tmu_elw_unit u_elw_unit (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .valid_i             (ew_valid_i),
    .op_i                (tmu_pkg::elw_op_e'(ew_op_i)),
    .add_dst_i           (ew_add_dst_i),
    .bcast_row_i         (ew_bcast_row_i),
    .bcast_col0_i        (ew_bcast_col0_i),
    .srca_i              (ew_srca_i),
    .srcb_i              (ew_srcb_i),
    .dst_i               (ew_dst_i),
    .srca_style_i        (tmu_pkg::src_style_e'(ew_srca_style_i)),
    .srcb_style_i        (tmu_pkg::src_style_e'(ew_srcb_style_i)),
    .dst32_i             (ew_dst32_i),
    .phase_i             (ew_phase_i),
    .arch_i              (tmu_pkg::arch_e'(ew_arch_i)),
    .zero_flag_disabled_i(ew_zero_flag_disabled_i),
    .int8_i              (ew_int8_i),
    .valid_o             (ew_valid_o),
    .dst_o               (ew_dst_o)
  );

  // ---- Src register files ----
  localparam int unsigned SrcRowBits = 16 * tmu_pkg::SrcDatumW;

  for (genvar op = 0; op < 2; op++) begin : g_src
    localparam int unsigned ReadRows = 16;
    logic [ReadRows*SrcRowBits-1:0] rd_data;
    logic [1:0]                     zeroed_banks;
    logic                           unused_zeroed;
    assign unused_zeroed = ^zeroed_banks;

    tmu_src_regs #(
      .IsSrcA  (op == 0),
      .ReadRows(ReadRows)
    ) u_src_regs (
      .clk_i                   (clk_i),
      .rst_ni                  (rst_ni),
      .unp_we_i                (sr_unp_we_i[op]),
      .unp_row_i               (sr_unp_row_i[op*6 +: 6]),
      .unp_data_i              (sr_unp_data_i[op*SrcRowBits +: SrcRowBits]),
      .unp_format_i            (sr_unp_format_i[op*4 +: 4]),
      .unp_dvalid_i            (sr_unp_dvalid_i[op]),
      .cmd_i                   (tmu_pkg::src_cmd_e'(sr_cmd_i)),
      .cmd_flip_i              (sr_flip_i[op]),
      .cmd_clr_dvalid_disable_i(sr_clr_dvalid_disable_i[op]),
      .cmd_reset_i             (sr_reset_i),
      .cmd_keep_reading_i      (sr_keep_reading_i),
      .cmd_clear_i             (sr_clear_i[op]),
      .cmd_both_banks_i        (sr_both_banks_i),
      .cmd_single_bank_mu_i    (sr_single_bank_mu_i),
      .cmd_negative_inf_i      (sr_negative_inf_i),
      .rd_en_i                 (sr_rd_en_i),
      .rd_bank_i               (sr_rd_bank_i[op]),
      .rd_row_i                (sr_rd_row_i[op*6 +: 6]),
      .rd_data_o               (rd_data),
      .mu_we_i                 (sr_mu_we_i[op]),
      .mu_bank_i               (sr_mu_bank_i[op]),
      .mu_row_i                (sr_mu_row_i[op*6 +: 6]),
      .mu_mask_i               (sr_mu_mask_i[op*ReadRows +: ReadRows]),
      .mu_data_i               (sr_mu_data_i[op*ReadRows*SrcRowBits +: ReadRows*SrcRowBits]),
      // The back door and the ZEROSRC bank report serve tmu_top; the co-simulation exercises them.
      .pl_row_we_i             (1'b0),
      .pl_bank_i               (1'b0),
      .pl_row_i                ('0),
      .pl_data_i               ('0),
      .pl_state_we_i           (1'b0),
      .pl_state_bank_i         (1'b0),
      .pl_state_allowed_client_i (1'b0),
      .pl_state_format_i       ('0),
      .pl_ptr_we_i             (1'b0),
      .pl_mu_bank_i            (1'b0),
      .pl_unp_bank_i           (1'b0),
      .zeroed_banks_o          (zeroed_banks),
      .dbg_en_i                (sr_rd_en_i),
      .dbg_bank_i              (sr_dbg_bank_i[op]),
      .dbg_row_i               (sr_dbg_row_i[op*6 +: 6]),
      .dbg_data_o              (sr_dbg_data_o[op*SrcRowBits +: SrcRowBits]),
      .mu_bank_o               (sr_mu_bank_o[op]),
      .unp_bank_o              (sr_unp_bank_o[op]),
      .allowed_client_o        (sr_allowed_client_o[op*2 +: 2]),
      .mu_bank_next_o          (sr_mu_bank_next_o[op]),
      .unp_bank_next_o         (sr_unp_bank_next_o[op]),
      .allowed_client_next_o   (sr_allowed_client_next_o[op*2 +: 2]),
      .format_o                (sr_format_o[op*8 +: 8]),
      .mu_format_o             (sr_mu_format_o[op*4 +: 4])
    );
  end
  assign sra_rd_data_o = g_src[0].rd_data;
  assign srb_rd_data_o = g_src[1].rd_data;

  // ---- GMPOOL unit (default Latency: the Yosys netlist has no parameters) ----
  tmu_gmpool_unit u_gmpool_unit (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .valid_i     (gm_valid_i),
    .srca_i      (gm_srca_i),
    .srcb_i      (gm_srcb_i),
    .dst_i       (gm_dst_i),
    .srca_style_i(tmu_pkg::src_style_e'(gm_srca_style_i)),
    .dst32_i     (gm_dst32_i),
    .argmax_i    (gm_argmax_i),
    .valid_o     (gm_valid_o),
    .dst_o       (gm_dst_o)
  );

  // ---- Dst storage (default parameters: the Yosys netlist has none) ----
  tmu_dst_regs u_dst_regs (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .rd_en_i        ({2{dr_rd_en_i}}),
    .rd_row_i       (dr_rd_row_i),
    .rd_dst32_i     (dr_rd_dst32_i),
    .rd_identity_i  (dr_rd_identity_i),
    .rd_data_o      (dr_rd_data_o),
    .wr_en_i        (dr_wr_en_i),
    .wr_row_i       (dr_wr_row_i),
    .wr_dst32_i     (dr_wr_dst32_i),
    .wr_row_mask_i  (dr_wr_row_mask_i),
    .wr_data_i      (dr_wr_data_i),
    .wr_set_valid_i (dr_wr_set_valid_i),
    .za_valid_i     (dr_za_valid_i),
    .za_mode_i      (tmu_pkg::zeroacc_mode_e'(dr_za_mode_i)),
    .za_row_i       (dr_za_row_i),
    .za_dst32_i     (dr_za_dst32_i),
    .za_block_i     (dr_za_block_i),
    .za_revert_i    (dr_za_revert_i),
    .za_upper_half_i(dr_za_upper_half_i),
    .za_rows_o      (dr_za_rows_o),
    .dbg_en_i       (dr_rd_en_i),
    .dbg_row_i      (dr_dbg_row_i),
    .dbg_bits_o     (dr_dbg_bits_o),
    .row_valid_o    (dr_row_valid_o)
  );

  // ---- MOV unit (default Latency: the Yosys netlist has no parameters) ----
  tmu_mov_unit u_mov_unit (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .valid_i          (mv_valid_i),
    .op_i             (tmu_pkg::mov_op_e'(mv_op_i)),
    .rows_i           (mv_rows_i),
    .broadcast_row_i  (mv_broadcast_row_i),
    .broadcast_col0_i (mv_broadcast_col0_i),
    .shift_left_i     (mv_shift_left_i),
    .shift_in_zero_i  (mv_shift_in_zero_i),
    .src_i            (mv_src_i),
    .dst_i            (mv_dst_i),
    .srca_format_i    (mv_srca_format_i),
    .srcb_format_i    (mv_srcb_format_i),
    .fp16a_force_i    (mv_fp16a_force_i),
    .flush_denormals_i(mv_flush_denormals_i),
    .use_dst32b_lo_i  (mv_use_dst32b_lo_i),
    .use_dst32b_i     (mv_use_dst32b_i),
    .dst_read32_o     (mv_dst_read32_o),
    .dst_write32_o    (mv_dst_write32_o),
    .undefined_o      (mv_undefined_o),
    .valid_o          (mv_valid_o),
    .dst_we_o         (mv_dst_we_o),
    .dst_row_mask_o   (mv_dst_row_mask_o),
    .dst_o            (mv_dst_o),
    .src_we_o         (mv_src_we_o),
    .src_row_mask_o   (mv_src_row_mask_o),
    .src_o            (mv_src_o)
  );

endmodule

// tmu_blocks_tb: one Verilator model holding every block under block-level test, with flat ports a
// C++ harness can drive (tests/rtl/block_tests.cpp). Simulation only.
//
//  dp_*  one Dst element of MVMUL as the datapath computes it: 16 tmu_fidelity_slice instances,
//        two tmu_align_group_sum groups (products 0..7 and 8..15), the Dst value converted by
//        tmu_dst_to_acc, tmu_accum_normalize, and tmu_acc_to_dst. Every stage's output is a port,
//        so the harness compares each stage and the whole element.
//  al_*  a free-standing tmu_align_group_sum, for products no fidelity slice would make.
//  ac_*  a free-standing tmu_accum_normalize, for arbitrary terms and Dst words.
//  gpr_* tmu_gpr_unit;  rwc_* tmu_rwc (both clocked by clk_i / rst_ni).
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
  output logic [tmu_pkg::NumThreads*tmu_pkg::RwcW-1:0]  rwc_o
);

  localparam int unsigned DatumW   = tmu_pkg::SrcDatumW;
  localparam int unsigned ProductW = tmu_pkg::SliceProductW;
  localparam int unsigned TermW    = tmu_pkg::AccTermW;

  // ---- datapath chain ----
  tmu_pkg::dst_format_e dst_format;
  assign dst_format = tmu_pkg::dst_format(tmu_pkg::src_style_e'(dp_srca_style_i), dp_dst32_i);

  for (genvar k = 0; k < 16; k++) begin : g_slice
    tmu_fidelity_slice u_slice (
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
      .products_i(dp_products_o[g*8*ProductW +: 8*ProductW]),
      .term_o    (dp_groups_o[g*TermW +: TermW])
    );
  end

  tmu_dst_to_acc u_dst_to_acc (
    .stored_i(dp_dst_stored_i),
    .format_i(dst_format),
    .word_o  (dp_dst_word_o)
  );

  tmu_accum_normalize u_accum (
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
    .word_i  (dp_acc_word_o),
    .format_i(dst_format),
    .stored_o(dp_result_o)
  );

  // ---- free-standing stages ----
  tmu_align_group_sum u_align (
    .products_i(al_products_i),
    .term_o    (al_term_o)
  );

  tmu_accum_normalize u_accum_free (
    .group0_i         (ac_group0_i),
    .group1_i         (ac_group1_i),
    .dst_i            (ac_dst_i),
    .dst32_i          (ac_dst32_i),
    .exponent_8b_i    (ac_exponent_8b_i),
    .minus_one_quirk_i(ac_quirk_i),
    .result_o         (ac_result_o),
    .outcome_o        (ac_outcome_o)
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

endmodule

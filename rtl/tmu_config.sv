// tmu_config: the configuration the Matrix Unit reads - the two Config states, the three threads'
// ThreadConfig fields and the state-wide fields (refmodel state.h ConfigRegs, ThreadConfigRegs,
// TensixState) - written one field per cycle through the configuration port, and read for the
// thread an instruction issues on: that thread's ThreadConfig plus Config[its CFG_STATE_ID].
// ADDR_MOD slots and ADDR_MOD_SET_Base live in tmu_rwc, beside the counters they steer.
//
// Only the Matrix Unit's fields are held; fields the Matrix Unit never reads (the Dstacc format, SFPU
// and Zero_Flag_disabled_dst) have no storage and a write to them is not a configuration write here.
// Sums that address Dst (DEST_REGW_BASE_Base, DEST_TARGET_REG_CFG_MATH_Offset) keep their low 10 bits:
// Dst rows wrap at 1024, so the upper bits never change an address.
module tmu_config (
  input  logic                          clk_i,
  input  logic                          rst_ni,

  input  logic                          we_i,
  input  tmu_pkg::cfg_scope_e           scope_i,
  input  logic [1:0]                    index_i,   // config state (0/1) or thread (0..2)
  input  tmu_pkg::cfg_field_e           field_i,
  input  logic [15:0]                   wdata_i,

  // The issuing thread's view.
  input  tmu_pkg::thread_t              thread_i,
  output tmu_pkg::mu_cfg_t              cfg_o
);

  localparam int unsigned States  = 2;
  localparam int unsigned Threads = tmu_pkg::NumThreads;
  localparam int unsigned FmtW    = tmu_pkg::DataFormatW;
  localparam int unsigned RowW    = tmu_pkg::DstRowW;

  // Config, one entry per state (flat vectors: see tmu_pkg on Yosys and packed arrays).
  logic [States*FmtW-1:0] srca_val_q, srca_val_d, srcb_val_q, srcb_val_d;
  logic [States*FmtW-1:0] reg0_q, reg0_d, reg1_q, reg1_d;
  logic [States-1:0]      srca_ovr_q, srca_ovr_d, srcb_ovr_q, srcb_ovr_d;
  logic [States-1:0]      fp32_q, fp32_d, int8_q, int8_d, zf_q, zf_d;
  logic [States*RowW-1:0] regw_base_q, regw_base_d;
  // ThreadConfig, one entry per thread.
  logic [Threads-1:0]      state_id_q, state_id_d;
  logic [Threads*RowW-1:0] offset_q, offset_d;
  logic [Threads-1:0]      no_impl_a_q, no_impl_a_d, no_impl_b_q, no_impl_b_d;
  logic [Threads-1:0]      clr_a_q, clr_a_d, clr_b_q, clr_b_d;
  logic [Threads*2-1:0]    fid_base_q, fid_base_d;
  logic [Threads-1:0]      fp16a_q, fp16a_d;
  // Global.
  logic                    bit11_q, bit11_d, za_abs_q, za_abs_d;
  // The widest field stored is 10 bits; the port is 16 bits wide for every field.
  logic [15:RowW]          unused_wdata;
  assign unused_wdata = wdata_i[15:RowW];

  always_comb begin
    srca_val_d  = srca_val_q;  srcb_val_d = srcb_val_q;  reg0_d = reg0_q;  reg1_d = reg1_q;
    srca_ovr_d  = srca_ovr_q;  srcb_ovr_d = srcb_ovr_q;
    fp32_d      = fp32_q;      int8_d     = int8_q;      zf_d   = zf_q;
    regw_base_d = regw_base_q;
    state_id_d  = state_id_q;  offset_d   = offset_q;
    no_impl_a_d = no_impl_a_q; no_impl_b_d = no_impl_b_q;
    clr_a_d     = clr_a_q;     clr_b_d    = clr_b_q;
    fid_base_d  = fid_base_q;  fp16a_d    = fp16a_q;
    bit11_d     = bit11_q;     za_abs_d   = za_abs_q;
    if (we_i && scope_i == tmu_pkg::CFG_SCOPE_CONFIG) begin
      for (int unsigned s = 0; s < States; s++) begin
        if (index_i == 2'(s)) begin
          unique case (field_i)
            tmu_pkg::CFG_SRCA_VAL:      srca_val_d[s*FmtW +: FmtW] = wdata_i[FmtW-1:0];
            tmu_pkg::CFG_SRCA_OVERRIDE: srca_ovr_d[s] = wdata_i[0];
            tmu_pkg::CFG_SRCB_VAL:      srcb_val_d[s*FmtW +: FmtW] = wdata_i[FmtW-1:0];
            tmu_pkg::CFG_SRCB_OVERRIDE: srcb_ovr_d[s] = wdata_i[0];
            tmu_pkg::CFG_REG0_SRCA:     reg0_d[s*FmtW +: FmtW] = wdata_i[FmtW-1:0];
            tmu_pkg::CFG_REG1_SRCB:     reg1_d[s*FmtW +: FmtW] = wdata_i[FmtW-1:0];
            tmu_pkg::CFG_FP32_ENABLED:  fp32_d[s] = wdata_i[0];
            tmu_pkg::CFG_INT8_MATH:     int8_d[s] = wdata_i[0];
            tmu_pkg::CFG_ZERO_FLAG_SRC: zf_d[s] = wdata_i[0];
            tmu_pkg::CFG_REGW_BASE:     regw_base_d[s*RowW +: RowW] = wdata_i[RowW-1:0];
            default: ;
          endcase
        end
      end
    end
    if (we_i && scope_i == tmu_pkg::CFG_SCOPE_THREADCONFIG) begin
      for (int unsigned t = 0; t < Threads; t++) begin
        if (index_i == 2'(t)) begin
          unique case (field_i)
            tmu_pkg::TCFG_STATE_ID:      state_id_d[t] = wdata_i[0];
            tmu_pkg::TCFG_MATH_OFFSET:   offset_d[t*RowW +: RowW] = wdata_i[RowW-1:0];
            tmu_pkg::TCFG_NO_IMPLIED_A:  no_impl_a_d[t] = wdata_i[0];
            tmu_pkg::TCFG_NO_IMPLIED_B:  no_impl_b_d[t] = wdata_i[0];
            tmu_pkg::TCFG_CLR_DVALID_A:  clr_a_d[t] = wdata_i[0];
            tmu_pkg::TCFG_CLR_DVALID_B:  clr_b_d[t] = wdata_i[0];
            tmu_pkg::TCFG_FIDELITY_BASE: fid_base_d[t*2 +: 2] = wdata_i[1:0];
            tmu_pkg::TCFG_FP16A_FORCE:   fp16a_d[t] = wdata_i[0];
            default: ;
          endcase
        end
      end
    end
    if (we_i && scope_i == tmu_pkg::CFG_SCOPE_GLOBAL) begin
      unique case (field_i)
        tmu_pkg::GCFG_DBG_BIT11:   bit11_d = wdata_i[0];
        tmu_pkg::GCFG_ZEROACC_ABS: za_abs_d = wdata_i[0];
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      srca_val_q <= '0;  srcb_val_q <= '0;  reg0_q <= '0;  reg1_q <= '0;
      srca_ovr_q <= '0;  srcb_ovr_q <= '0;  fp32_q <= '0;  int8_q <= '0;  zf_q <= '0;
      regw_base_q <= '0; state_id_q <= '0;  offset_q <= '0;
      no_impl_a_q <= '0; no_impl_b_q <= '0; clr_a_q <= '0; clr_b_q <= '0;
      fid_base_q <= '0;  fp16a_q <= '0;     bit11_q <= 1'b0; za_abs_q <= 1'b0;
    end else begin
      srca_val_q <= srca_val_d;  srcb_val_q <= srcb_val_d;  reg0_q <= reg0_d;  reg1_q <= reg1_d;
      srca_ovr_q <= srca_ovr_d;  srcb_ovr_q <= srcb_ovr_d;  fp32_q <= fp32_d;  int8_q <= int8_d;
      zf_q <= zf_d;              regw_base_q <= regw_base_d; state_id_q <= state_id_d;
      offset_q <= offset_d;      no_impl_a_q <= no_impl_a_d; no_impl_b_q <= no_impl_b_d;
      clr_a_q <= clr_a_d;        clr_b_q <= clr_b_d;        fid_base_q <= fid_base_d;
      fp16a_q <= fp16a_d;        bit11_q <= bit11_d;        za_abs_q <= za_abs_d;
    end
  end

  // ---- the issuing thread's view ----
  logic                state;   // Config state of the thread
  logic [RowW-1:0]     offset;
  always_comb begin
    state  = 1'b0;
    offset = '0;
    cfg_o.no_implied_srca = 1'b0;  cfg_o.no_implied_srcb = 1'b0;
    cfg_o.clr_dvalid_srca_disable = 1'b0;  cfg_o.clr_dvalid_srcb_disable = 1'b0;
    cfg_o.fidelity_base = '0;  cfg_o.fp16a_force = 1'b0;
    for (int unsigned t = 0; t < Threads; t++) begin
      if (thread_i == tmu_pkg::ThreadW'(t)) begin
        state  = state_id_q[t];
        offset = offset_q[t*RowW +: RowW];
        cfg_o.no_implied_srca = no_impl_a_q[t];
        cfg_o.no_implied_srcb = no_impl_b_q[t];
        cfg_o.clr_dvalid_srca_disable = clr_a_q[t];
        cfg_o.clr_dvalid_srcb_disable = clr_b_q[t];
        cfg_o.fidelity_base = fid_base_q[t*2 +: 2];
        cfg_o.fp16a_force = fp16a_q[t];
      end
    end
    cfg_o.srca_val      = state ? srca_val_q[FmtW +: FmtW] : srca_val_q[0 +: FmtW];
    cfg_o.srcb_val      = state ? srcb_val_q[FmtW +: FmtW] : srcb_val_q[0 +: FmtW];
    cfg_o.reg0_srca     = state ? reg0_q[FmtW +: FmtW] : reg0_q[0 +: FmtW];
    cfg_o.reg1_srcb     = state ? reg1_q[FmtW +: FmtW] : reg1_q[0 +: FmtW];
    cfg_o.srca_override = srca_ovr_q[state];
    cfg_o.srcb_override = srcb_ovr_q[state];
    cfg_o.fp32_enabled  = fp32_q[state];
    cfg_o.int8_math     = int8_q[state];
    cfg_o.zero_flag_disabled_src = zf_q[state];
    cfg_o.dst_row_base  = offset + (state ? regw_base_q[RowW +: RowW] : regw_base_q[0 +: RowW]);
    cfg_o.math_offset   = offset;
    cfg_o.dbg_bit11        = bit11_q;
    cfg_o.zeroacc_absolute = za_abs_q;
  end

`ifndef SYNTHESIS
  // The testbench must not address a config state or thread that does not exist.
  a_cfg_index: assert property (@(posedge clk_i) disable iff (!rst_ni)
      we_i && scope_i == tmu_pkg::CFG_SCOPE_CONFIG |-> index_i < 2'(States));
  a_tcfg_index: assert property (@(posedge clk_i) disable iff (!rst_ni)
      we_i && scope_i == tmu_pkg::CFG_SCOPE_THREADCONFIG |-> index_i < 2'(Threads));
`endif

endmodule

// tmu_rwc: the register-write counters (RWCs) of every thread, the per-thread ADDR_MOD slots, and
// the three things that change the counters: SETRWC, INCRWC and ApplyAddrMod (RWCs.md, SETRWC.md,
// INCRWC.md; refmodel src/exec/addr_mod.cpp and src/insn/rwc.cpp).
//
// One command per cycle (the Matrix Unit accepts one instruction per cycle); its effect is visible
// on rwc_o from the next cycle. cmd_status_o judges the command in its own cycle: a command the
// refmodel refuses changes nothing -
//   INSN_DECODE_ERR   a SETRWC/INCRWC command whose word is not that instruction or sets a
//                     reserved bit;
//   INSN_UNSUPPORTED  ApplyAddrMod on Blackhole with RWC.ExtraAddrModBit set: Blackhole's AddrMod
//                     has three bits and what the extra bit then does is not documented.
// SETRWC's FlipSrcA/FlipSrcB (bank hand-over) are not RWC state and are left to the Src banks.
//
// Wormhole selects ADDR_MOD slot AddrMod[1:0] + 4 * (RWC.ExtraAddrModBit | ADDR_MOD_SET_Base);
// Blackhole slot AddrMod[2:0].
module tmu_rwc (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  input  tmu_pkg::arch_e                         arch_i,

  // ThreadConfig writes: ADDR_MOD_{AB,DST,BIAS}_SEC<slot> in their register layouts
  // (tmu_pkg::addr_mod_*_t, low bits of cfg_wdata_i), or ADDR_MOD_SET_Base (bit 0).
  input  logic                                   cfg_we_i,
  input  tmu_pkg::thread_t                       cfg_thread_i,
  input  logic [tmu_pkg::AddrModW-1:0]           cfg_slot_i,
  input  tmu_pkg::rwc_cfg_sel_e                  cfg_sel_i,
  input  logic [15:0]                            cfg_wdata_i,

  // Commands
  input  logic                                   cmd_valid_i,
  input  tmu_pkg::thread_t                       cmd_thread_i,
  input  tmu_pkg::rwc_cmd_e                      cmd_i,
  input  logic [31:0]                            cmd_insn_i,      // SETRWC / INCRWC word (raw)
  input  logic [tmu_pkg::AddrModW-1:0]           cmd_addr_mod_i,  // RWC_CMD_ADDR_MOD
  input  logic                                   cmd_update_fidelity_i,  // RWC_CMD_ADDR_MOD
  output tmu_pkg::insn_status_e                  cmd_status_o,

  // Thread t's counters in bits [t*RwcW +: RwcW] (a tmu_pkg::rwc_t each).
  output logic [tmu_pkg::NumThreads*tmu_pkg::RwcW-1:0] rwc_o
);

  localparam int unsigned RwcW      = tmu_pkg::RwcW;
  localparam int unsigned Threads   = tmu_pkg::NumThreads;
  localparam int unsigned Slots     = tmu_pkg::NumAddrMods;
  localparam int unsigned AbW       = 16;
  localparam int unsigned DstSecW   = 16;
  localparam int unsigned BiasW     = 5;
  localparam int unsigned SlotAddrW = tmu_pkg::ThreadW + tmu_pkg::AddrModW;
  localparam int unsigned SrcW      = tmu_pkg::SrcRowW;
  localparam int unsigned DstW      = tmu_pkg::DstRowW;
  // Wormhole's AddrMod has two bits; the extra bit and ADDR_MOD_SET_Base add this to the index.
  localparam logic [tmu_pkg::AddrModW-1:0] WormholeUpperSlots = 3'd4;

  // ---------------------------------------------------------------------------------------------
  // State: flat vectors indexed by thread (and slot); see tmu_pkg on Yosys and packed arrays.
  // Entries are selected by comparing the index with each constant position, which makes plain
  // multiplexers (an index multiplied by a width that is no power of two would synthesise to a
  // multiplier).
  // ---------------------------------------------------------------------------------------------
  logic [Threads*RwcW-1:0]          rwcs_q, rwcs_d;
  logic [Threads*Slots*AbW-1:0]     ab_q, ab_d;
  logic [Threads*Slots*DstSecW-1:0] dst_sec_q, dst_sec_d;
  logic [Threads*Slots*BiasW-1:0]   bias_q, bias_d;
  logic [Threads-1:0]               set_base_q, set_base_d;

  // ---------------------------------------------------------------------------------------------
  // Configuration writes
  // ---------------------------------------------------------------------------------------------
  logic [SlotAddrW-1:0] cfg_addr;

  always_comb begin
    ab_d       = ab_q;
    dst_sec_d  = dst_sec_q;
    bias_d     = bias_q;
    set_base_d = set_base_q;
    cfg_addr   = {cfg_thread_i, cfg_slot_i};
    for (int unsigned e = 0; e < Threads * Slots; e++) begin
      if (cfg_we_i && (cfg_addr == SlotAddrW'(e))) begin
        unique case (cfg_sel_i)
          tmu_pkg::RWC_CFG_ADDR_MOD_AB:   ab_d[e*AbW +: AbW] = cfg_wdata_i;
          tmu_pkg::RWC_CFG_ADDR_MOD_DST:  dst_sec_d[e*DstSecW +: DstSecW] = cfg_wdata_i;
          tmu_pkg::RWC_CFG_ADDR_MOD_BIAS: bias_d[e*BiasW +: BiasW] = cfg_wdata_i[BiasW-1:0];
          default:                        set_base_d[e/Slots] = cfg_wdata_i[0];
        endcase
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // The commanded thread's counters and, for ApplyAddrMod, its selected slot
  // ---------------------------------------------------------------------------------------------
  tmu_pkg::rwc_t           rwc, rwc_next;
  logic                    thread_ok;
  logic [tmu_pkg::AddrModW-1:0] slot;
  logic [SlotAddrW-1:0]    slot_addr;
  tmu_pkg::addr_mod_ab_t   ab;
  tmu_pkg::addr_mod_dst_t  dst_sec;
  tmu_pkg::addr_mod_bias_t bias;

  always_comb begin
    thread_ok = (32'(cmd_thread_i) < Threads);
    rwc       = '0;
    for (int unsigned t = 0; t < Threads; t++) begin
      if (cmd_thread_i == tmu_pkg::ThreadW'(t)) rwc = rwcs_q[t*RwcW +: RwcW];
    end
    if (arch_i == tmu_pkg::ARCH_WORMHOLE) begin
      slot = {1'b0, cmd_addr_mod_i[1:0]};
      if (rwc.extra_addr_mod_bit || (thread_ok && set_base_q[cmd_thread_i])) begin
        slot = slot + WormholeUpperSlots;
      end
    end else begin
      slot = cmd_addr_mod_i;
    end
    slot_addr = {cmd_thread_i, slot};
    ab        = '0;
    dst_sec   = '0;
    bias      = '0;
    for (int unsigned e = 0; e < Threads * Slots; e++) begin
      if (slot_addr == SlotAddrW'(e)) begin
        ab      = ab_q[e*AbW +: AbW];
        dst_sec = dst_sec_q[e*DstSecW +: DstSecW];
        bias    = bias_q[e*BiasW +: BiasW];
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // SETRWC / INCRWC fields (identical on both architectures)
  // ---------------------------------------------------------------------------------------------
  logic            set_srca, set_srcb, set_dst, set_fidelity;
  logic [3:0]      set_srca_val, set_srcb_val, set_dst_val;
  logic            set_srca_cr, set_srcb_cr, set_dst_cr, set_dst_c_to_cr;
  logic [3:0]      inc_srca, inc_srcb, inc_dst;
  logic            inc_srca_cr, inc_srcb_cr, inc_dst_cr;

  always_comb begin
    set_srca        = cmd_insn_i[tmu_isa_pkg::SETRWC_SrcA_LO];
    set_srcb        = cmd_insn_i[tmu_isa_pkg::SETRWC_SrcB_LO];
    set_dst         = cmd_insn_i[tmu_isa_pkg::SETRWC_Dst_LO];
    set_fidelity    = cmd_insn_i[tmu_isa_pkg::SETRWC_Fidelity_LO];
    set_srca_val    = cmd_insn_i[tmu_isa_pkg::SETRWC_SrcAVal_LO +: tmu_isa_pkg::SETRWC_SrcAVal_W];
    set_srcb_val    = cmd_insn_i[tmu_isa_pkg::SETRWC_SrcBVal_LO +: tmu_isa_pkg::SETRWC_SrcBVal_W];
    set_dst_val     = cmd_insn_i[tmu_isa_pkg::SETRWC_DstVal_LO +: tmu_isa_pkg::SETRWC_DstVal_W];
    set_srca_cr     = cmd_insn_i[tmu_isa_pkg::SETRWC_SrcACr_LO];
    set_srcb_cr     = cmd_insn_i[tmu_isa_pkg::SETRWC_SrcBCr_LO];
    set_dst_cr      = cmd_insn_i[tmu_isa_pkg::SETRWC_DstCr_LO];
    set_dst_c_to_cr = cmd_insn_i[tmu_isa_pkg::SETRWC_DstCtoCr_LO];
    inc_srca        = cmd_insn_i[tmu_isa_pkg::INCRWC_SrcAInc_LO +: tmu_isa_pkg::INCRWC_SrcAInc_W];
    inc_srcb        = cmd_insn_i[tmu_isa_pkg::INCRWC_SrcBInc_LO +: tmu_isa_pkg::INCRWC_SrcBInc_W];
    inc_dst         = cmd_insn_i[tmu_isa_pkg::INCRWC_DstInc_LO +: tmu_isa_pkg::INCRWC_DstInc_W];
    inc_srca_cr     = cmd_insn_i[tmu_isa_pkg::INCRWC_SrcACr_LO];
    inc_srcb_cr     = cmd_insn_i[tmu_isa_pkg::INCRWC_SrcBCr_LO];
    inc_dst_cr      = cmd_insn_i[tmu_isa_pkg::INCRWC_DstCr_LO];
  end

  // ---------------------------------------------------------------------------------------------
  // Status
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    cmd_status_o = tmu_pkg::INSN_OK;
    unique case (cmd_i)
      tmu_pkg::RWC_CMD_SETRWC: begin
        if (cmd_insn_i[31:24] != tmu_isa_pkg::OP_SETRWC
            || (cmd_insn_i[23:0] & tmu_isa_pkg::SETRWC_RESERVED) != '0) begin
          cmd_status_o = tmu_pkg::INSN_DECODE_ERR;
        end
      end
      tmu_pkg::RWC_CMD_INCRWC: begin
        if (cmd_insn_i[31:24] != tmu_isa_pkg::OP_INCRWC
            || (cmd_insn_i[23:0] & tmu_isa_pkg::INCRWC_RESERVED) != '0) begin
          cmd_status_o = tmu_pkg::INSN_DECODE_ERR;
        end
      end
      tmu_pkg::RWC_CMD_ADDR_MOD: begin
        if (arch_i == tmu_pkg::ARCH_BLACKHOLE && rwc.extra_addr_mod_bit) begin
          cmd_status_o = tmu_pkg::INSN_UNSUPPORTED;
        end
      end
      default: cmd_status_o = tmu_pkg::INSN_DECODE_ERR;  // no such command
    endcase
  end

  // ---------------------------------------------------------------------------------------------
  // Next counters
  // ---------------------------------------------------------------------------------------------

  // The next {counter, carry register} of SrcA or SrcB, which the three commands update alike,
  // each from its own fields for that counter:
  //   SETRWC       (set)   both take the value, plus the carry register with set_cr (SETRWC.md);
  //   INCRWC       (inc)   with inc_cr the carry register counts and the counter copies it, else
  //                        the counter counts (INCRWC.md);
  //   ApplyAddrMod (am)    Clear, else CR as INCRWC's, else a plain increment (RWCs.md).
  function automatic logic [2*SrcW-1:0] src_counter_next(
      input tmu_pkg::rwc_cmd_e cmd, input logic [SrcW-1:0] count, input logic [SrcW-1:0] count_cr,
      input logic set, input logic [3:0] set_val, input logic set_cr,
      input logic [3:0] inc, input logic inc_cr,
      input logic am_clear, input logic am_cr, input logic [SrcW-1:0] am_incr);
    logic [SrcW-1:0] new_count, new_cr;
    new_count = count;
    new_cr    = count_cr;
    case (cmd)
      tmu_pkg::RWC_CMD_SETRWC: begin
        if (set) begin
          new_count = SrcW'(set_val) + (set_cr ? count_cr : '0);
          new_cr    = new_count;
        end
      end
      tmu_pkg::RWC_CMD_INCRWC: begin
        if (inc_cr) begin
          new_cr    = count_cr + SrcW'(inc);
          new_count = new_cr;
        end else begin
          new_count = count + SrcW'(inc);
        end
      end
      tmu_pkg::RWC_CMD_ADDR_MOD: begin
        if (am_clear) begin
          new_count = '0;
          new_cr    = '0;
        end else if (am_cr) begin
          new_cr    = count_cr + am_incr;
          new_count = new_cr;
        end else begin
          new_count = count + am_incr;
        end
      end
      default: ;
    endcase
    src_counter_next = {new_count, new_cr};
  endfunction

  logic [2*SrcW-1:0] srca_next, srcb_next;

  always_comb begin
    srca_next = src_counter_next(cmd_i, rwc.srca, rwc.srca_cr, set_srca, set_srca_val, set_srca_cr,
                                 inc_srca, inc_srca_cr, ab.srca_clear, ab.srca_cr, ab.srca_incr);
    srcb_next = src_counter_next(cmd_i, rwc.srcb, rwc.srcb_cr, set_srcb, set_srcb_val, set_srcb_cr,
                                 inc_srcb, inc_srcb_cr, ab.srcb_clear, ab.srcb_cr, ab.srcb_incr);
    rwc_next = rwc;
    rwc_next.srca    = srca_next[SrcW +: SrcW];
    rwc_next.srca_cr = srca_next[0 +: SrcW];
    rwc_next.srcb    = srcb_next[SrcW +: SrcW];
    rwc_next.srcb_cr = srcb_next[0 +: SrcW];
    unique case (cmd_i)
      tmu_pkg::RWC_CMD_SETRWC: begin
        // DstCtoCr alone selects the Dst update and adds RWC.Dst, DstCr adds RWC.Dst_Cr; the
        // counter and its carry register take the value (SETRWC.md).
        if (set_dst || set_dst_c_to_cr) begin
          rwc_next.dst = DstW'(set_dst_val);
          if (set_dst_c_to_cr) rwc_next.dst = rwc_next.dst + rwc.dst;
          else if (set_dst_cr) rwc_next.dst = rwc_next.dst + rwc.dst_cr;
          rwc_next.dst_cr = rwc_next.dst;
        end
        if (set_fidelity) rwc_next.fidelity_phase = '0;
      end

      tmu_pkg::RWC_CMD_INCRWC: begin
        if (inc_dst_cr) begin
          rwc_next.dst_cr = rwc.dst_cr + DstW'(inc_dst);
          rwc_next.dst    = rwc_next.dst_cr;
        end else begin
          rwc_next.dst = rwc.dst + DstW'(inc_dst);
        end
      end

      tmu_pkg::RWC_CMD_ADDR_MOD: begin
        // ApplyAddrMod (RWCs.md). Dst: Clear, else CToCR, else CR, else a plain increment.
        if (dst_sec.dest_clear) begin
          rwc_next.dst    = '0;
          rwc_next.dst_cr = '0;
        end else if (dst_sec.dest_c_to_cr) begin
          rwc_next.dst    = rwc.dst + dst_sec.dest_incr;
          rwc_next.dst_cr = rwc_next.dst;
        end else if (dst_sec.dest_cr) begin
          rwc_next.dst_cr = rwc.dst_cr + dst_sec.dest_incr;
          rwc_next.dst    = rwc_next.dst_cr;
        end else begin
          rwc_next.dst = rwc.dst + dst_sec.dest_incr;
        end
        if (cmd_update_fidelity_i) begin
          if (dst_sec.fidelity_clear) rwc_next.fidelity_phase = '0;
          else rwc_next.fidelity_phase = rwc.fidelity_phase + dst_sec.fidelity_incr;
        end
        // ExtraAddrModBit is a one-bit counter: any increment flips it.
        if (bias.bias_clear) rwc_next.extra_addr_mod_bit = 1'b0;
        else if (bias.bias_incr[1:0] != '0) rwc_next.extra_addr_mod_bit = !rwc.extra_addr_mod_bit;
      end

      default: rwc_next = rwc;
    endcase
  end

  logic unused_bias_incr_high;  // BiasIncr & 3 counts: the counter it feeds has one bit
  assign unused_bias_incr_high = ^bias.bias_incr[3:2];

  always_comb begin
    rwcs_d = rwcs_q;
    if (cmd_valid_i && thread_ok && (cmd_status_o == tmu_pkg::INSN_OK)) begin
      for (int unsigned t = 0; t < Threads; t++) begin
        if (cmd_thread_i == tmu_pkg::ThreadW'(t)) rwcs_d[t*RwcW +: RwcW] = rwc_next;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rwcs_q     <= '0;
      ab_q       <= '0;
      dst_sec_q  <= '0;
      bias_q     <= '0;
      set_base_q <= '0;
    end else begin
      rwcs_q     <= rwcs_d;
      ab_q       <= ab_d;
      dst_sec_q  <= dst_sec_d;
      bias_q     <= bias_d;
      set_base_q <= set_base_d;
    end
  end

  assign rwc_o = rwcs_q;

`ifndef SYNTHESIS
  if ($bits(tmu_pkg::rwc_t) != RwcW || $bits(tmu_pkg::addr_mod_ab_t) != AbW
      || $bits(tmu_pkg::addr_mod_dst_t) != DstSecW || $bits(tmu_pkg::addr_mod_bias_t) != BiasW)
      begin : g_width_check
    $error("tmu_rwc: a local width no longer matches its tmu_pkg type");
  end

  a_cmd_thread: assert property (@(posedge clk_i) disable iff (!rst_ni)
      cmd_valid_i |-> (32'(cmd_thread_i) < tmu_pkg::NumThreads));
  a_cfg_thread: assert property (@(posedge clk_i) disable iff (!rst_ni)
      cfg_we_i |-> (32'(cfg_thread_i) < tmu_pkg::NumThreads));
`endif

endmodule

// tmu_tb_top: the co-simulation testbench. It instantiates the RTL (tmu_top), drives it from the
// stimulus the driver hands out through DPI-C (tb/dpi/tmu_dpi.svh), and reports every retired
// instruction and, at the end, the whole RTL state to the refmodel scoreboard on the same handle.
//
// Cycle protocol (the host toggles clk_i; the testbench works at the rising edge only):
//   1. see which requests the RTL accepted (valid && ready, the values before the edge) and tell
//      the driver; report the retiring instruction(s) and retire them on the scoreboard;
//   2. ask the driver what to drive next (a preload, or an instruction / configuration write /
//      unpacker action) from the state this edge leaves, and set the request registers
//      (nonblocking: the RTL sees them from this edge on, as if set half a cycle earlier).
// Phases: PRELOAD (back door) -> RUN -> DUMP (Dst rows, Src rows, GPRs, then the rest) -> DONE.
// The first mismatch ends the run (failed_o); the host prints the scoreboard's report.
module tmu_tb_top (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        arch_i,      // tmu_pkg::arch_e
`ifdef TMU_TB_MUTSEL_WIDTH
  input  logic [`TMU_TB_MUTSEL_WIDTH-1:0] mutsel_i,  // mutation testing: 0 = the RTL as written
`endif
  output logic        done_o,
  output logic        failed_o,    // a mismatch (or a testbench error: error_o)
  output logic        error_o,     // testbench error: bad DPI call, deadlock
  output logic [63:0] cycle_o
);
  `include "tmu_dpi.svh"

  localparam int unsigned RowBits = 304;

  chandle h;
  initial h = tmu_drv_current();

  typedef enum logic [2:0] { PRELOAD, RUN, DUMP_DST, DUMP_PACK, DUMP_SRC, DUMP_GPR, DUMP_END, DONE } phase_e;
  phase_e      phase;
  logic [63:0] cycle;
  int unsigned dump_idx;
  localparam int unsigned Pack16Windows = 1024 / 8;                  // Dst16b rows / 8
  localparam int unsigned PackWindows   = Pack16Windows + 512 / 8;   // then the 512 Dst32b rows
  logic        preload_done = 1'b0;

  // ---- requests (set at the rising edge, for the next one) ----
  logic                        issue_valid;
  logic [31:0]                 issue_word;
  tmu_pkg::thread_t            issue_thread;
  logic                        cfg_we;
  tmu_pkg::cfg_scope_e         cfg_scope;
  logic [2:0]                  cfg_index;
  tmu_pkg::thread_t            cfg_thread;
  tmu_pkg::cfg_field_e         cfg_field;
  logic [15:0]                 cfg_wdata;
  logic [1:0]                  unp_we, unp_dvalid;
  logic [11:0]                 unp_row;
  logic [2*RowBits-1:0]        unp_data;
  logic [7:0]                  unp_format;
  logic                        pl_dst_we, pl_dst_valid, pl_src_we, pl_src_op, pl_src_bank;
  logic [9:0]                  pl_dst_row;
  logic [255:0]                pl_dst_data;
  logic [5:0]                  pl_src_row;
  logic [RowBits-1:0]          pl_src_data;
  logic                        pl_bank_we, pl_bank_op, pl_bank, pl_bank_allowed_client, pl_ptr_we, pl_ptr_op, pl_ptr_mu, pl_ptr_unp;
  logic [3:0]                  pl_bank_format;
  logic                        pl_gpr_we;
  tmu_pkg::thread_t            pl_gpr_thread;
  logic [5:0]                  pl_gpr_idx;
  logic [31:0]                 pl_gpr_data;
  logic [9:0]                  dbg_dst_row;
  logic [9:0]                  pack_row = '0;      // the packer's read port: checked in the dump
  logic                        pack_dst32 = 1'b0;
  logic                        dbg_src_bank;
  logic [5:0]                  dbg_src_row, dbg_gpr_idx;
  tmu_pkg::thread_t            dbg_gpr_thread;

  // ---- RTL outputs ----
  logic                        issue_ready;
  logic [1:0]                  unp_ready, unp_dvalid_ready;
  logic [8*16*32-1:0]          pack_data;
  logic [255:0]                dbg_dst_bits;
  logic [1023:0]               dbg_dst_valid;
  logic [2*RowBits-1:0]        dbg_src_data;
  logic [3*47-1:0]             dbg_rwc;
  logic [7:0]                  dbg_banks, dbg_banks_next;
  logic [5:0]                  dbg_last_srca;
  logic [15:0]                 dbg_bank_formats;
  logic [31:0]                 dbg_gpr;
  logic                        obs_valid, obs_dst_we, obs_dst32, obs_za_valid, obs_src_we, obs_src_b, obs_src_bank;
  tmu_pkg::thread_t            obs_thread;
  logic [31:0]                 obs_word;
  logic [1:0]                  obs_status;
  logic [9:0]                  obs_dst_row;
  logic [7:0]                  obs_dst_mask, obs_banks;
  logic [8*16*32-1:0]          obs_dst_data;
  logic [1023:0]               obs_za_rows;
  logic [5:0]                  obs_src_row, obs_last_srca;
  logic [15:0]                 obs_src_mask;
  logic [16*RowBits-1:0]       obs_src_data;
  logic [4:0]                  obs_zerosrc;
  logic [46:0]                 obs_rwc;
  logic                        gobs_valid, gobs_we;
  tmu_pkg::thread_t            gobs_thread;
  logic [31:0]                 gobs_word, gobs_data;
  logic [1:0]                  gobs_status;
  logic [5:0]                  gobs_idx;
  logic [4:0]                  events;

  // The architecture (and the mutant) are set by the host before reset and read through
  // registers loaded during reset. Logic fed straight from a top-level input is re-evaluated at
  // every eval() call (Verilator's input-combinational region), which for the whole unit cost as
  // much as the clocked evaluation itself; from a register it is evaluated only when its clock
  // domain has work (docs/cosim.md, "Writing RTL that simulates fast").
  logic arch_q;
  always_ff @(posedge clk_i) if (!rst_ni) arch_q <= arch_i;
`ifdef TMU_TB_MUTSEL_WIDTH
  logic [`TMU_TB_MUTSEL_WIDTH-1:0] mutsel_q;
  always_ff @(posedge clk_i) if (!rst_ni) mutsel_q <= mutsel_i;
`endif

  tmu_top dut (
    .clk_i, .rst_ni, .arch_i (tmu_pkg::arch_e'(arch_q)),
`ifdef TMU_TB_MUTSEL_WIDTH
    .mutsel (mutsel_q),
`endif
    .issue_valid_i (issue_valid), .issue_ready_o (issue_ready), .issue_word_i (issue_word),
    .issue_thread_i (issue_thread),
    .cfg_we_i (cfg_we), .cfg_scope_i (cfg_scope), .cfg_index_i (cfg_index), .cfg_thread_i (cfg_thread),
    .cfg_field_i (cfg_field), .cfg_wdata_i (cfg_wdata),
    .unp_we_i (unp_we), .unp_ready_o (unp_ready), .unp_row_i (unp_row), .unp_data_i (unp_data),
    .unp_format_i (unp_format), .unp_dvalid_i (unp_dvalid), .unp_dvalid_ready_o (unp_dvalid_ready),
    .pack_rd_i (phase == DUMP_PACK), .pack_row_i (pack_row), .pack_dst32_i (pack_dst32), .pack_data_o (pack_data),
    .pl_dst_we_i (pl_dst_we), .pl_dst_row_i (pl_dst_row), .pl_dst_data_i (pl_dst_data),
    .pl_dst_valid_i (pl_dst_valid), .pl_src_we_i (pl_src_we), .pl_src_operand_i (pl_src_op),
    .pl_src_bank_i (pl_src_bank), .pl_src_row_i (pl_src_row), .pl_src_data_i (pl_src_data),
    .pl_bank_we_i (pl_bank_we), .pl_bank_operand_i (pl_bank_op), .pl_bank_i (pl_bank),
    .pl_bank_allowed_client_i (pl_bank_allowed_client), .pl_bank_format_i (pl_bank_format), .pl_ptr_we_i (pl_ptr_we),
    .pl_ptr_operand_i (pl_ptr_op), .pl_ptr_mu_bank_i (pl_ptr_mu), .pl_ptr_unp_bank_i (pl_ptr_unp),
    .pl_gpr_we_i (pl_gpr_we), .pl_gpr_thread_i (pl_gpr_thread), .pl_gpr_idx_i (pl_gpr_idx),
    .pl_gpr_data_i (pl_gpr_data),
    .dbg_rd_i (phase == DUMP_DST || phase == DUMP_SRC), .dbg_dst_row_i (dbg_dst_row), .dbg_dst_bits_o (dbg_dst_bits), .dbg_dst_valid_o (dbg_dst_valid),
    .dbg_src_bank_i (dbg_src_bank), .dbg_src_row_i (dbg_src_row), .dbg_src_data_o (dbg_src_data),
    .dbg_rwc_o (dbg_rwc), .dbg_banks_o (dbg_banks), .dbg_banks_next_o (dbg_banks_next), .dbg_last_srca_row_o (dbg_last_srca),
    .dbg_bank_formats_o (dbg_bank_formats), .dbg_gpr_thread_i (dbg_gpr_thread), .dbg_gpr_idx_i (dbg_gpr_idx),
    .dbg_gpr_o (dbg_gpr),
    .obs_valid_o (obs_valid), .obs_thread_o (obs_thread), .obs_word_o (obs_word), .obs_status_o (obs_status),
    .obs_dst_we_o (obs_dst_we), .obs_dst_row_o (obs_dst_row), .obs_dst32_o (obs_dst32),
    .obs_dst_mask_o (obs_dst_mask), .obs_dst_data_o (obs_dst_data), .obs_za_rows_o (obs_za_rows),
    .obs_za_valid_o (obs_za_valid), .obs_src_we_o (obs_src_we), .obs_src_srcb_o (obs_src_b),
    .obs_src_bank_o (obs_src_bank), .obs_src_row_o (obs_src_row), .obs_src_mask_o (obs_src_mask),
    .obs_src_data_o (obs_src_data), .obs_zerosrc_o (obs_zerosrc), .obs_rwc_o (obs_rwc),
    .obs_banks_o (obs_banks), .obs_last_srca_row_o (obs_last_srca),
    .gpr_obs_valid_o (gobs_valid), .gpr_obs_thread_o (gobs_thread), .gpr_obs_word_o (gobs_word),
    .gpr_obs_status_o (gobs_status), .gpr_obs_we_o (gobs_we), .gpr_obs_idx_o (gobs_idx),
    .gpr_obs_data_o (gobs_data),
    .ev_src_wait_o (events[0]), .ev_dst_hazard_o (events[1]), .ev_src_hazard_o (events[2]),
    .ev_shiftxb_busy_o (events[3]), .ev_thread_blocked_o (events[4])
  );

  assign cycle_o = cycle;

  // ---- helpers ----
  function automatic void check(input int rc, input string what);
    if (rc < 0) begin
      $display("tmu_tb: %s failed: %s", what, tmu_sb_last_error(h));
      error_o  = 1'b1;
      failed_o = 1'b1;
      phase    = DONE;
    end
  endfunction

  // The RWC record (tmu_pkg::rwc_t, MSB first: dst, dst_cr, srca, srca_cr, srcb, srcb_cr, phase, extra).
  function automatic int report_rwcs(input logic [46:0] r, input bit dump, input int unsigned thread);
    if (dump)
      report_rwcs = tmu_sb_dump_rwcs(h, thread, 32'(r[46:37]), 32'(r[36:27]), 32'(r[26:21]), 32'(r[20:15]),
                                     32'(r[14:9]), 32'(r[8:3]), 32'(r[2:1]), 32'(r[0]));
    else
      report_rwcs = tmu_sb_obs_rwcs(h, 32'(r[46:37]), 32'(r[36:27]), 32'(r[26:21]), 32'(r[20:15]),
                                    32'(r[14:9]), 32'(r[8:3]), 32'(r[2:1]), 32'(r[0]));
  endfunction

  // One retiring Matrix Unit instruction: every write, the RWCs, banks and the SHIFTXA latch.
  task automatic report_mu_retirement();
    logic [9:0]   row, hi;
    logic [255:0] bits_hi, bits_lo;
    logic [RowBits-1:0] fill;
    int n;
    check(tmu_sb_obs_begin(h, 32'(obs_thread), obs_word, cycle), "tmu_sb_obs_begin");
    check(tmu_sb_obs_verdict(h, 32'(obs_status)), "tmu_sb_obs_verdict");
    if (obs_dst_we) begin
      for (int k = 0; k < 8; k++) begin
        if (!obs_dst_mask[k]) continue;
        row = obs_dst_row + 10'(k);
        for (int c = 0; c < 16; c++) begin
          bits_hi[c*16 +: 16] = obs_dst_data[(k*16 + c)*32 + 16 +: 16];
          bits_lo[c*16 +: 16] = obs_dst_data[(k*16 + c)*32 +: 16];
        end
        if (obs_dst32) begin
          // Only the high half's row becomes valid; the low half's row keeps its validity.
          hi = tmu_pkg::adj32_row(row);
          check(tmu_sb_obs_dst_row(h, 32'(hi), bits_hi, 1'b1), "tmu_sb_obs_dst_row");
          check(tmu_sb_obs_dst_row(h, 32'(hi) + 8, bits_lo, dbg_dst_valid[hi + 10'd8]), "tmu_sb_obs_dst_row");
        end else begin
          check(tmu_sb_obs_dst_row(h, 32'(row), bits_lo, 1'b1), "tmu_sb_obs_dst_row");
        end
      end
    end
    for (int r = 0; r < 1024; r++)
      if (obs_za_rows[r]) check(tmu_sb_obs_dst_valid(h, r, obs_za_valid), "tmu_sb_obs_dst_valid");
    if (obs_src_we)
      for (int k = 0; k < 16; k++)
        if (obs_src_mask[k])
          check(tmu_sb_obs_src_row(h, 32'(obs_src_b), 32'(obs_src_bank), 32'(obs_src_row + 6'(k)),
                                   obs_src_data[k*RowBits +: RowBits]), "tmu_sb_obs_src_row");
    for (int op = 0; op < 2; op++)
      for (int b = 0; b < 2; b++)
        if (obs_zerosrc[op*2 + b]) begin
          fill = (op == 0 && obs_zerosrc[4]) ? '1 : '0;  // NegativeInfSrcA: all ones, SrcA only
          for (int r = 0; r < 64; r++) check(tmu_sb_obs_src_row(h, op, b, r, fill), "tmu_sb_obs_src_row");
        end
    check(report_rwcs(obs_rwc, 1'b0, 0), "tmu_sb_obs_rwcs");
    check(tmu_sb_obs_banks(h, 32'(obs_banks[0]), 32'(obs_banks[1]), obs_banks[3:2], obs_banks[5:4],
                           32'(obs_banks[6]), 32'(obs_banks[7])), "tmu_sb_obs_banks");
    check(tmu_sb_obs_last_srca_row(h, 32'(obs_last_srca)), "tmu_sb_obs_last_srca_row");
    n = tmu_drv_retire(h, 1'b0);
    check(n, "tmu_drv_retire");
    if (n > 0) begin failed_o = 1'b1; phase = DONE; end
  endtask

  task automatic report_gpr_retirement();
    int n;
    check(tmu_sb_obs_begin(h, 32'(gobs_thread), gobs_word, cycle), "tmu_sb_obs_begin");
    check(tmu_sb_obs_verdict(h, 32'(gobs_status)), "tmu_sb_obs_verdict");
    if (gobs_we) check(tmu_sb_obs_gpr(h, 32'(gobs_thread), 32'(gobs_idx), gobs_data), "tmu_sb_obs_gpr");
    n = tmu_drv_retire(h, 1'b1);
    check(n, "tmu_drv_retire");
    if (n > 0) begin failed_o = 1'b1; phase = DONE; end
  endtask

  // ---- one process, at the rising edge only ----
  // Everything the RTL reads from the testbench changes at the rising edge, when the RTL's own
  // registers do, so Verilator evaluates the unit's logic once per cycle; a falling-edge process
  // would make it evaluate all of it a second time (docs/cosim.md, rule 8).
  always @(posedge clk_i) begin
    on_posedge();
    drive_next();
  end

  // Handshakes, retirements, dump reads, with the values before the edge. Only testbench state
  // changes here; drive_next() sets the requests.
  task automatic on_posedge();
    int mismatches;
    if (!rst_ni) begin
      phase    = PRELOAD;
      cycle    = '0;
      dump_idx = 0;
      done_o   = 1'b0;
      failed_o = 1'b0;
      error_o  = 1'b0;
      return;
    end
    // A failed check in drive_next() ends the run after this task has looked at the phase: done_o
    // follows it here, at the next edge.
    if (phase == DONE) begin
      done_o = 1'b1;
      return;
    end
    cycle = cycle + 1;
    if (phase == PRELOAD && preload_done) phase = RUN;
    else if (phase == RUN) begin
      if (events != '0 && issue_valid) check(tmu_drv_event(h, 32'(events), cycle), "tmu_drv_event");
      check(tmu_drv_handshake(h, issue_valid && issue_ready, cfg_we, unp_we & unp_ready,
                              unp_dvalid & unp_dvalid_ready), "tmu_drv_handshake");
      if (obs_valid && phase == RUN) report_mu_retirement();
      if (gobs_valid && phase == RUN) report_gpr_retirement();
      if (phase == RUN) begin
        unique case (tmu_drv_status(h))
          0: ;
          1: begin
            check(tmu_sb_dump_begin(h), "tmu_sb_dump_begin");
            phase    = DUMP_DST;
            dump_idx = 0;
          end
          2: begin
            $display("tmu_tb: no progress for too long at cycle %0d: stimulus deadlock", cycle);
            error_o  = 1'b1;
            failed_o = 1'b1;
            phase    = DONE;
          end
          default: check(-1, "tmu_drv_status");
        endcase
      end
    end else if (phase == DUMP_DST) begin
      check(tmu_sb_dump_dst_row(h, dump_idx, dbg_dst_bits, dbg_dst_valid[dump_idx]), "tmu_sb_dump_dst_row");
      dump_idx = (dump_idx == 1023) ? 0 : dump_idx + 1;
      if (dump_idx == 0) phase = DUMP_PACK;
    end else if (phase == DUMP_PACK) begin
      // The packer's port: every 8-row window of the 16-bit view, then of the 32-bit view.
      mismatches = tmu_sb_dump_dst_read(h, 32'(pack_row), pack_dst32, pack_data);
      check(mismatches, "tmu_sb_dump_dst_read");
      if (mismatches > 0) failed_o = 1'b1;
      dump_idx = (dump_idx == PackWindows - 1) ? 0 : dump_idx + 1;
      if (dump_idx == 0) phase = DUMP_SRC;
    end else if (phase == DUMP_SRC) begin
      for (int op = 0; op < 2; op++)
        check(tmu_sb_dump_src_row(h, op, dump_idx / 64, dump_idx % 64, dbg_src_data[op*RowBits +: RowBits]),
              "tmu_sb_dump_src_row");
      dump_idx = (dump_idx == 127) ? 0 : dump_idx + 1;
      if (dump_idx == 0) phase = DUMP_GPR;
    end else if (phase == DUMP_GPR) begin
      check(tmu_sb_dump_gpr(h, dump_idx / 64, dump_idx % 64, dbg_gpr), "tmu_sb_dump_gpr");
      dump_idx = dump_idx + 1;
      if (dump_idx == 192) phase = DUMP_END;
    end else if (phase == DUMP_END) begin
      for (int t = 0; t < 3; t++) check(report_rwcs(dbg_rwc[t*47 +: 47], 1'b1, t), "tmu_sb_dump_rwcs");
      for (int op = 0; op < 2; op++)
        for (int b = 0; b < 2; b++)
          check(tmu_sb_dump_src_bank(h, op, b, dbg_banks[2 + op*2 + b], 32'(dbg_bank_formats[(op*2 + b)*4 +: 4])),
                "tmu_sb_dump_src_bank");
      check(tmu_sb_dump_banks(h, 32'(dbg_banks[0]), 32'(dbg_banks[1]), 32'(dbg_banks[6]), 32'(dbg_banks[7]),
                              32'(dbg_last_srca)), "tmu_sb_dump_banks");
      if (tmu_sb_final_compare(h) != 0) failed_o = 1'b1;
      phase = DONE;
    end
    if (phase == DONE) done_o = 1'b1;
  endtask

  // The next cycle's requests, decided at the edge from the state it leaves: the bank state through
  // tmu_top's dbg_banks_next_o (what this edge loads), the testbench's own state as on_posedge left
  // it. Requests are nonblocking, so the RTL samples this cycle's at this edge and this process's
  // at the next.
  task automatic drive_next();
    int unsigned kind, a, b, c, d, e, fmt0, fmt1, row0, row1, th, wd, sc, ix, ct, fd, vl;
    bit [303:0] data, data1;
    bit iv, cw;
    bit [1:0] we, dv;
    logic dst32;
    issue_valid <= 1'b0;  cfg_we <= 1'b0;  unp_we <= '0;  unp_dvalid <= '0;
    pl_dst_we <= 1'b0;  pl_src_we <= 1'b0;  pl_bank_we <= 1'b0;  pl_ptr_we <= 1'b0;  pl_gpr_we <= 1'b0;
    if (!rst_ni) return;
    if (phase == PRELOAD && !preload_done) begin
      check(tmu_drv_preload(h, kind, a, b, c, d, e, data), "tmu_drv_preload");
      unique case (kind)
        0: preload_done = 1'b1;
        1: begin pl_dst_we <= 1'b1; pl_dst_row <= 10'(a); pl_dst_valid <= b[0]; pl_dst_data <= data[255:0]; end
        2: begin pl_src_we <= 1'b1; pl_src_op <= a[0]; pl_src_bank <= b[0]; pl_src_row <= 6'(c); pl_src_data <= data; end
        3: begin pl_bank_we <= 1'b1; pl_bank_op <= a[0]; pl_bank <= b[0]; pl_bank_allowed_client <= c[0]; pl_bank_format <= 4'(d); end
        4: begin pl_ptr_we <= 1'b1; pl_ptr_op <= a[0]; pl_ptr_mu <= b[0]; pl_ptr_unp <= c[0]; end
        5: begin pl_gpr_we <= 1'b1; pl_gpr_thread <= 2'(a); pl_gpr_idx <= 6'(b); pl_gpr_data <= d; end
        6: begin
          cfg_we <= 1'b1; cfg_scope <= tmu_pkg::cfg_scope_e'(a[1:0]); cfg_index <= 3'(b); cfg_thread <= 2'(c);
          cfg_field <= tmu_pkg::cfg_field_e'(d[4:0]); cfg_wdata <= 16'(e);
        end
        default: check(-1, "tmu_drv_preload kind");
      endcase
    end
    if (phase == RUN) begin
      // Is the bank each unpacker points at held by the Matrix Unit? (see obs_banks_o's layout)
      check(tmu_drv_drive(h, {dbg_banks_next[4 + 32'(dbg_banks_next[7])], dbg_banks_next[2 + 32'(dbg_banks_next[6])]},
                          iv, th, wd, cw, sc, ix, ct, fd, vl, we, row0, row1, data, data1, fmt0, fmt1, dv),
            "tmu_drv_drive");
      issue_valid <= iv;  issue_thread <= 2'(th);  issue_word <= wd;
      cfg_we <= cw;  cfg_scope <= tmu_pkg::cfg_scope_e'(sc[1:0]);  cfg_index <= 3'(ix);  cfg_thread <= 2'(ct);
      cfg_field <= tmu_pkg::cfg_field_e'(fd[4:0]);  cfg_wdata <= 16'(vl);
      unp_we <= we;  unp_dvalid <= dv;
      unp_row <= {6'(row1), 6'(row0)};
      unp_data <= {data1, data};
      unp_format <= {4'(fmt1), 4'(fmt0)};
    end
    if (phase == DUMP_DST) dbg_dst_row <= 10'(dump_idx);
    if (phase == DUMP_PACK) begin
      dst32 = dump_idx >= Pack16Windows;
      pack_dst32 <= dst32;
      pack_row   <= 10'(8 * (dst32 ? dump_idx - Pack16Windows : dump_idx));
    end
    if (phase == DUMP_SRC) begin dbg_src_bank <= dump_idx[6]; dbg_src_row <= dump_idx[5:0]; end
    if (phase == DUMP_GPR) begin dbg_gpr_thread <= 2'(dump_idx / 64); dbg_gpr_idx <= dump_idx[5:0]; end
  endtask

endmodule

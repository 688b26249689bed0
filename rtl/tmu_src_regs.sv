// tmu_src_regs: one Src operand register file (SrcA or SrcB) - two banks of 64 rows x 16 datums of
// 19 bits, each bank with its AllowedClient and the data format the unpacker tagged it with, plus
// the Matrix Unit's and the unpacker's bank pointers (SrcASrcB.md; refmodel state.h SrcBank,
// src/insn/src_banks.cpp, src/exec/context.cpp clear_dvalid, scoreboard.cpp unpack_src_row /
// hand_over_src_bank).
//
// Storage: ReadRows row-interleaved memories of 2 * 64 / ReadRows rows each; memory m holds the
// rows r with r % ReadRows == m, at address {bank, r / ReadRows}. Any ReadRows consecutive rows
// (wrapping from row 63 to row 0) lie in ReadRows different memories, so the Matrix Unit's read
// window and its write window each give every memory its own address and take one cycle, wherever
// they start. Reads are asynchronous (the datapath registers them).
//
// ZEROSRC clears whole banks. A memory cannot be cleared in one cycle, so each row carries a
// "cleared" flag (flip-flops) and each bank the value it was cleared to (0, or all ones for SrcA
// with NegativeInfSrcA): a read of a cleared row returns that fill, a write of a row clears its
// flag. Architecturally this is exactly the refmodel's eager clear; a reset marks every row cleared
// to 0, the refmodel's initial state.
//
// One Matrix Unit command per cycle, its effect visible from the next cycle. When the unpacker's
// hand-over (unp_dvalid_i) comes in the same cycle, the command is applied first and the hand-over
// second; rows written in the cycle of a ZEROSRC of their bank are cleared too (the clear wins).
// Each memory has one write port: should the unpacker's row and a Matrix Unit row fall into the
// same memory in one cycle (the caller must prevent it; an assertion checks), the Matrix Unit's
// write is the one made, because its pipeline cannot stall and the unpacker's can.
module tmu_src_regs #(
  parameter bit          IsSrcA   = 1'b1,  // SrcA: ZEROSRC may fill with all ones (NegativeInfSrcA)
  parameter int unsigned ReadRows = 16     // rows per Matrix Unit read (a power of two, <= 64)
) (
  input  logic                                      clk_i,
  input  logic                                      rst_ni,

  // Unpacker: writes a row of the bank its pointer selects, tagging the bank with the format.
  input  logic                                      unp_we_i,
  input  logic [tmu_pkg::SrcRowW-1:0]               unp_row_i,
  input  logic [tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] unp_data_i,  // column c at [c*19 +: 19]
  input  logic [tmu_pkg::DataFormatW-1:0]           unp_format_i,
  input  logic                                      unp_dvalid_i,  // hand the bank to the Matrix Unit

  // Matrix Unit command (decoded from MVMUL/ELW*/SETRWC/..., CLEARDVALID or ZEROSRC for this operand)
  input  tmu_pkg::src_cmd_e                         cmd_i,
  input  logic                                      cmd_flip_i,           // FlipSrcA / FlipSrcB
  input  logic                                      cmd_clr_dvalid_disable_i,  // CLR_DVALID_*_Disable
  input  logic                                      cmd_reset_i,          // CLEARDVALID Reset
  input  logic                                      cmd_keep_reading_i,   // KeepReadingSameSrc
  input  logic                                      cmd_clear_i,          // ZEROSRC ClearSrcA / B
  input  logic                                      cmd_both_banks_i,     // ZEROSRC BothBanks
  input  logic                                      cmd_single_bank_mu_i, // SingleBankMatrixUnit
  input  logic                                      cmd_negative_inf_i,   // NegativeInfSrcA

  // Matrix Unit read: rows (rd_row_i + k) % 64, k = 0..ReadRows-1, of bank rd_bank_i, in the
  // cycles of rd_en_i (an instruction issues); in other cycles rd_data_o is undefined.
  input  logic                                      rd_en_i,
  input  logic                                      rd_bank_i,
  input  logic [tmu_pkg::SrcRowW-1:0]               rd_row_i,
  output logic [ReadRows*tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] rd_data_o,  // row k at [k*304 +: 304]

  // Matrix Unit write (MOV*, SHIFTX*, TRNSPSRCB results): rows (mu_row_i + k) % 64 of bank
  // mu_bank_i for each k with mu_mask_i[k], row k of the window at mu_data_i[k*304 +: 304].
  input  logic                                      mu_we_i,
  input  logic                                      mu_bank_i,
  input  logic [tmu_pkg::SrcRowW-1:0]               mu_row_i,
  input  logic [ReadRows-1:0]                       mu_mask_i,
  input  logic [ReadRows*tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] mu_data_i,

  // Back door for a testbench's initial state (no instruction or unpacker write in flight): a row of
  // any bank, a bank's AllowedClient and format tag, the two bank pointers.
  input  logic                                      pl_row_we_i,
  input  logic                                      pl_bank_i,
  input  logic [tmu_pkg::SrcRowW-1:0]               pl_row_i,
  input  logic [tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] pl_data_i,
  input  logic                                      pl_state_we_i,
  input  logic                                      pl_state_bank_i,
  input  logic                                      pl_state_allowed_client_i,
  input  logic [tmu_pkg::DataFormatW-1:0]           pl_state_format_i,
  input  logic                                      pl_ptr_we_i,
  input  logic                                      pl_mu_bank_i,
  input  logic                                      pl_unp_bank_i,

  // Any row of any bank, for the testbench, in the cycles of dbg_en_i (undefined in others).
  input  logic                                      dbg_en_i,
  input  logic                                      dbg_bank_i,
  input  logic [tmu_pkg::SrcRowW-1:0]               dbg_row_i,
  output logic [tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] dbg_data_o,

  // Bank state
  output logic                                      mu_bank_o,       // MatrixUnit.SrcABank / SrcBBank
  output logic                                      unp_bank_o,      // Unpackers[i].SrcBank
  output logic [1:0]                                allowed_client_o,  // bank b: 1 = MatrixUnit
  // The three above as the coming clock edge loads them: for a client that decides its next
  // request at the edge (the co-simulation's unpacker stand-in) rather than half a cycle later.
  output logic                                      mu_bank_next_o,
  output logic                                      unp_bank_next_o,
  output logic [1:0]                                allowed_client_next_o,
  output logic [2*tmu_pkg::DataFormatW-1:0]         format_o,        // bank b at [b*4 +: 4]
  output logic [tmu_pkg::DataFormatW-1:0]           mu_format_o,     // the Matrix Unit bank's format
  output logic [1:0]                                zeroed_banks_o   // the banks this cycle's ZEROSRC clears
);

  localparam int unsigned RowW      = tmu_pkg::SrcCols * tmu_pkg::SrcDatumW;
  localparam int unsigned Rows      = tmu_pkg::SrcRows;
  localparam int unsigned Blocks    = Rows / ReadRows;             // rows per bank in one memory
  localparam int unsigned BlockW    = $clog2(Blocks);
  localparam int unsigned SubW      = $clog2(ReadRows);            // row bits that pick the memory
  localparam int unsigned FormatW   = tmu_pkg::DataFormatW;
  localparam int unsigned RowIdxW   = tmu_pkg::SrcRowW;
  // BlockW is 0 when one memory holds the whole bank; the address keeps the bank bit.
  localparam int unsigned AddrW     = BlockW + 1;
  localparam logic [RowIdxW-1:0] SubMask = RowIdxW'(ReadRows - 1);  // row -> its memory

  // ---------------------------------------------------------------------------------------------
  // Bank state
  // ---------------------------------------------------------------------------------------------
  logic                 mu_bank_q, mu_bank_d, unp_bank_q, unp_bank_d;
  logic [1:0]           allowed_client_q, allowed_client_d;
  logic [2*FormatW-1:0] format_q, format_d;
  logic [2*Rows-1:0]    cleared_q, cleared_d;   // bank b row r at [b*64 + r]
  logic [1:0]           fill_ones_q, fill_ones_d;

  logic [1:0] zero_bank;  // banks this cycle's ZEROSRC clears

  always_comb begin
    mu_bank_d        = mu_bank_q;
    unp_bank_d       = unp_bank_q;
    allowed_client_d = allowed_client_q;
    format_d         = format_q;
    cleared_d        = cleared_q;
    fill_ones_d      = fill_ones_q;
    zero_bank        = 2'b00;

    unique case (cmd_i)
      tmu_pkg::SRC_CMD_CLEAR_DVALID: begin
        // The flip of MVMUL/ELW*/SETRWC...: CLR_DVALID_*_Disable keeps the bank with the Matrix Unit.
        if (cmd_flip_i) begin
          if (!cmd_clr_dvalid_disable_i) allowed_client_d[mu_bank_q] = 1'b0;
          mu_bank_d = ~mu_bank_q;
        end
      end
      tmu_pkg::SRC_CMD_CLEARDVALID: begin
        // CLEARDVALID ignores CLR_DVALID_*_Disable.
        if (cmd_reset_i) begin
          mu_bank_d        = 1'b0;
          unp_bank_d       = 1'b0;
          allowed_client_d = 2'b00;
        end else if (cmd_flip_i) begin
          allowed_client_d[mu_bank_q] = 1'b0;
          if (!cmd_keep_reading_i) mu_bank_d = ~mu_bank_q;
        end
      end
      tmu_pkg::SRC_CMD_ZEROSRC: begin
        if (cmd_clear_i) begin
          if (cmd_both_banks_i) zero_bank = 2'b11;
          else if (cmd_single_bank_mu_i) zero_bank[mu_bank_q] = 1'b1;
          else zero_bank[unp_bank_q] = 1'b1;
        end
      end
      default: ;
    endcase

    // The unpacker's hand-over, after the command.
    if (unp_dvalid_i) begin
      allowed_client_d[unp_bank_d] = 1'b1;
      unp_bank_d                   = ~unp_bank_d;
    end
    if (unp_we_i) format_d[unp_bank_q*FormatW +: FormatW] = unp_format_i;
    if (pl_state_we_i) begin
      allowed_client_d[pl_state_bank_i]            = pl_state_allowed_client_i;
      format_d[pl_state_bank_i*FormatW +: FormatW] = pl_state_format_i;
    end
    if (pl_ptr_we_i) begin
      mu_bank_d  = pl_mu_bank_i;
      unp_bank_d = pl_unp_bank_i;
    end

    // Written rows hold data again; a ZEROSRC of the bank in the same cycle wins.
    if (unp_we_i) cleared_d[{unp_bank_q, unp_row_i}] = 1'b0;
    if (pl_row_we_i) cleared_d[{pl_bank_i, pl_row_i}] = 1'b0;
    for (int unsigned k = 0; k < ReadRows; k++) begin
      if (mu_we_i && mu_mask_i[k]) cleared_d[{mu_bank_i, mu_row_i + RowIdxW'(k)}] = 1'b0;
    end
    for (int unsigned b = 0; b < 2; b++) begin
      if (zero_bank[b]) begin
        cleared_d[b*Rows +: Rows] = '1;
        fill_ones_d[b]            = IsSrcA && cmd_negative_inf_i;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mu_bank_q        <= 1'b0;
      unp_bank_q       <= 1'b0;
      allowed_client_q <= 2'b00;
      format_q         <= '0;  // FP32, the refmodel's initial tag
      cleared_q        <= '1;
      fill_ones_q      <= 2'b00;
    end else begin
      mu_bank_q        <= mu_bank_d;
      unp_bank_q       <= unp_bank_d;
      allowed_client_q <= allowed_client_d;
      format_q         <= format_d;
      cleared_q   <= cleared_d;
      fill_ones_q <= fill_ones_d;
    end
  end

  // Row idx of a vector of ReadRows rows, as a multiplexer on the narrow index. Not the part select
  // rows[idx*RowW +: RowW]: its offset is 32 bits wide, and Yosys 0.23 maps such a shift over a
  // 4,864-bit vector through 32 stages (45 s and 0.4 GB each; this module has 33 of them).
  function automatic logic [RowW-1:0] row_of(input logic [ReadRows*RowW-1:0] rows,
                                             input logic [RowIdxW-1:0]       idx);
    row_of = '0;
    for (int unsigned k = 0; k < ReadRows; k++) begin
      if (idx == RowIdxW'(k)) row_of = rows[k*RowW +: RowW];
    end
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Row storage: ReadRows memories, memory m holding the rows with row % ReadRows == m at address
  // {bank, row / ReadRows}. Each memory finds the one row of each window that lives in it.
  // ---------------------------------------------------------------------------------------------
  logic [AddrW-1:0]         dbg_addr;
  logic [ReadRows*RowW-1:0] rd_mems, dbg_mems;
  logic [Rows-1:0]          mu_mask_wide;  // indexable by a whole row offset

  assign dbg_addr     = AddrW'({dbg_bank_i, dbg_row_i} >> SubW);
  assign mu_mask_wide = Rows'(mu_mask_i);

  for (genvar m = 0; m < ReadRows; m++) begin : g_mem
    logic [RowW-1:0]    mem_q [2*Blocks];
    logic [RowIdxW-1:0] rd_off, mu_off;  // offset in its window of the row this memory holds
    logic [AddrW-1:0]   rd_addr, wr_addr;
    logic               unp_hit, mu_hit, pl_hit;
    logic [RowW-1:0]    wr_data;

    // The write multiplexer and the two reads evaluate only in the cycles that use them (see
    // docs/cosim.md, "Writing RTL that simulates fast"): the memory loads only on a hit, and the
    // readers take rd_data_o and dbg_data_o only with their enables.
    always_comb begin
      rd_off  = (RowIdxW'(m) - rd_row_i) & SubMask;
      mu_off  = (RowIdxW'(m) - mu_row_i) & SubMask;
      rd_addr = AddrW'({rd_bank_i, rd_row_i + rd_off} >> SubW);
      unp_hit = unp_we_i && ((unp_row_i & SubMask) == RowIdxW'(m));
      mu_hit  = mu_we_i && mu_mask_wide[mu_off];
      pl_hit  = pl_row_we_i && ((pl_row_i & SubMask) == RowIdxW'(m));
      // One write port: the Matrix Unit's row wins (see the header); the back door is used alone.
      wr_addr = 'x;
      wr_data = 'x;
      if (unp_hit || mu_hit || pl_hit) begin
        wr_addr = mu_hit ? AddrW'({mu_bank_i, mu_row_i + mu_off} >> SubW)
                : pl_hit ? AddrW'({pl_bank_i, pl_row_i} >> SubW)
                         : AddrW'({unp_bank_q, unp_row_i} >> SubW);
        wr_data = mu_hit ? row_of(mu_data_i, mu_off) : pl_hit ? pl_data_i : unp_data_i;
      end
    end

    always_ff @(posedge clk_i) begin
      if (unp_hit || mu_hit || pl_hit) mem_q[wr_addr] <= wr_data;
    end

    always_comb begin
      rd_mems[m*RowW +: RowW]  = 'x;
      dbg_mems[m*RowW +: RowW] = 'x;
      if (rd_en_i)  rd_mems[m*RowW +: RowW]  = mem_q[rd_addr];
      if (dbg_en_i) dbg_mems[m*RowW +: RowW] = mem_q[dbg_addr];
    end

`ifndef SYNTHESIS
    assert property (@(posedge clk_i) disable iff (!rst_ni) !(unp_hit && mu_hit))
      else $error("tmu_src_regs: unpacker and Matrix Unit write memory %0d in one cycle", m);
`endif
  end

  assign zeroed_banks_o = zero_bank;

  // A cleared row reads as its bank's fill.
  function automatic logic [RowW-1:0] fill_row(input logic ones);
    fill_row = ones ? '1 : '0;
  endfunction

  // Window row k is row rd_row_i + k, in memory (rd_row_i + k) % ReadRows.
  logic [RowIdxW-1:0] rd_k_row, rd_k_mem, dbg_mem;

  always_comb begin
    rd_k_row  = 'x;
    rd_k_mem  = 'x;
    rd_data_o = 'x;
    // The enable inside the loop: around it, Yosys 0.23 takes far longer over this module.
    for (int unsigned k = 0; k < ReadRows; k++) begin
      if (rd_en_i) begin
        rd_k_row = rd_row_i + RowIdxW'(k);
        rd_k_mem = rd_k_row & SubMask;
        rd_data_o[k*RowW +: RowW] = cleared_q[{rd_bank_i, rd_k_row}] ? fill_row(fill_ones_q[rd_bank_i])
                                                                      : row_of(rd_mems, rd_k_mem);
      end
    end
  end

  always_comb begin
    dbg_mem    = 'x;
    dbg_data_o = 'x;
    if (dbg_en_i) begin
      dbg_mem    = dbg_row_i & SubMask;
      dbg_data_o = row_of(dbg_mems, dbg_mem);
      if (cleared_q[{dbg_bank_i, dbg_row_i}]) dbg_data_o = fill_row(fill_ones_q[dbg_bank_i]);
    end
  end

  assign mu_bank_o             = mu_bank_q;
  assign unp_bank_o            = unp_bank_q;
  assign allowed_client_o      = allowed_client_q;
  assign mu_bank_next_o        = mu_bank_d;
  assign unp_bank_next_o       = unp_bank_d;
  assign allowed_client_next_o = allowed_client_d;
  assign format_o    = format_q;
  assign mu_format_o = format_q[mu_bank_q*FormatW +: FormatW];

`ifndef SYNTHESIS
  initial begin
    assert (ReadRows >= 1 && ReadRows <= Rows && (ReadRows & (ReadRows - 1)) == 0)
      else $fatal(1, "tmu_src_regs: ReadRows must be a power of two in 1..64");
  end
  // The unpacker writes only a bank the unpackers hold (the Wait Gate makes it wait otherwise). The
  // Matrix Unit's writes have no such rule: MOVD2A/MOVD2B write the bank it points at whoever holds
  // it (mov.cpp), and in a pipelined unit a later instruction may hand that bank back before the
  // write retires.
  assert property (@(posedge clk_i) disable iff (!rst_ni) unp_we_i |-> !allowed_client_q[unp_bank_q])
    else $error("tmu_src_regs: unpacker write to a bank the Matrix Unit holds");
`endif

endmodule

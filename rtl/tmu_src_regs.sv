// tmu_src_regs: one Src operand register file (SrcA or SrcB) - two banks of 64 rows x 16 datums of
// 19 bits, each bank with its AllowedClient and the data format the unpacker tagged it with, plus
// the Matrix Unit's and the unpacker's bank pointers (SrcASrcB.md; refmodel state.h SrcBank,
// src/insn/src_banks.cpp, src/exec/context.cpp clear_dvalid, scoreboard.cpp unpack_src_row /
// hand_over_src_bank).
//
// Storage: ReadRows memories of 2 * 64 / ReadRows rows each; memory k holds the rows whose number
// is k modulo ReadRows, at address {bank, row / ReadRows}. A row write goes to one memory; the
// Matrix Unit read port reads all of them at one address and so returns the aligned block of
// ReadRows rows of its bank in one cycle (16 rows for SrcA, 8 for SrcB). Reads are asynchronous
// (the datapath registers them).
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

  // Matrix Unit read: the aligned block of ReadRows rows holding rd_row_i, of the Matrix Unit's bank.
  input  logic [tmu_pkg::SrcRowW-1:0]               rd_row_i,
  output logic [ReadRows*tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] rd_data_o,  // row r at [r*304 +: 304]

  // Matrix Unit row write (MOV*, SHIFTX*, TRNSPSRCB results), into the Matrix Unit's bank.
  input  logic                                      mu_we_i,
  input  logic [tmu_pkg::SrcRowW-1:0]               mu_row_i,
  input  logic [tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] mu_data_i,

  // Any row of any bank, for the testbench and the observation port.
  input  logic                                      dbg_bank_i,
  input  logic [tmu_pkg::SrcRowW-1:0]               dbg_row_i,
  output logic [tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] dbg_data_o,

  // Bank state
  output logic                                      mu_bank_o,       // MatrixUnit.SrcABank / SrcBBank
  output logic                                      unp_bank_o,      // Unpackers[i].SrcBank
  output logic [1:0]                                mu_owns_o,       // bank b: AllowedClient == MatrixUnit
  output logic [2*tmu_pkg::DataFormatW-1:0]         format_o,        // bank b at [b*4 +: 4]
  output logic [tmu_pkg::DataFormatW-1:0]           mu_format_o      // the Matrix Unit bank's format
);

  localparam int unsigned RowW      = tmu_pkg::SrcCols * tmu_pkg::SrcDatumW;
  localparam int unsigned Rows      = tmu_pkg::SrcRows;
  localparam int unsigned Blocks    = Rows / ReadRows;             // words per bank
  localparam int unsigned BlockW    = $clog2(Blocks);
  localparam int unsigned SubW      = $clog2(ReadRows);            // row within a word
  localparam int unsigned FormatW   = tmu_pkg::DataFormatW;
  // BlockW is 0 when one word holds the whole bank; address widths below stay at least one bit.
  localparam int unsigned AddrW     = BlockW + 1;
  localparam int unsigned SubW1     = SubW + 1;  // row-in-word index with a spare bit (never 0 wide)

  // ---------------------------------------------------------------------------------------------
  // Bank state
  // ---------------------------------------------------------------------------------------------
  logic                 mu_bank_q, mu_bank_d, unp_bank_q, unp_bank_d;
  logic [1:0]           mu_owns_q, mu_owns_d;
  logic [2*FormatW-1:0] format_q, format_d;
  logic [2*Rows-1:0]    cleared_q, cleared_d;   // bank b row r at [b*64 + r]
  logic [1:0]           fill_ones_q, fill_ones_d;

  logic [1:0] zero_bank;  // banks this cycle's ZEROSRC clears

  always_comb begin
    mu_bank_d   = mu_bank_q;
    unp_bank_d  = unp_bank_q;
    mu_owns_d   = mu_owns_q;
    format_d    = format_q;
    cleared_d   = cleared_q;
    fill_ones_d = fill_ones_q;
    zero_bank   = 2'b00;

    unique case (cmd_i)
      tmu_pkg::SRC_CMD_CLEAR_DVALID: begin
        // The flip of MVMUL/ELW*/SETRWC...: CLR_DVALID_*_Disable keeps the bank with the Matrix Unit.
        if (cmd_flip_i) begin
          if (!cmd_clr_dvalid_disable_i) mu_owns_d[mu_bank_q] = 1'b0;
          mu_bank_d = ~mu_bank_q;
        end
      end
      tmu_pkg::SRC_CMD_CLEARDVALID: begin
        // CLEARDVALID ignores CLR_DVALID_*_Disable.
        if (cmd_reset_i) begin
          mu_bank_d  = 1'b0;
          unp_bank_d = 1'b0;
          mu_owns_d  = 2'b00;
        end else if (cmd_flip_i) begin
          mu_owns_d[mu_bank_q] = 1'b0;
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
      mu_owns_d[unp_bank_d] = 1'b1;
      unp_bank_d            = ~unp_bank_d;
    end
    if (unp_we_i) format_d[unp_bank_q*FormatW +: FormatW] = unp_format_i;

    // Written rows hold data again; a ZEROSRC of the bank in the same cycle wins.
    if (unp_we_i) cleared_d[{unp_bank_q, unp_row_i}] = 1'b0;
    if (mu_we_i) cleared_d[{mu_bank_q, mu_row_i}] = 1'b0;
    for (int unsigned b = 0; b < 2; b++) begin
      if (zero_bank[b]) begin
        cleared_d[b*Rows +: Rows] = '1;
        fill_ones_d[b]            = IsSrcA && cmd_negative_inf_i;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mu_bank_q   <= 1'b0;
      unp_bank_q  <= 1'b0;
      mu_owns_q   <= 2'b00;
      format_q    <= '0;  // FP32, the refmodel's initial tag
      cleared_q   <= '1;
      fill_ones_q <= 2'b00;
    end else begin
      mu_bank_q   <= mu_bank_d;
      unp_bank_q  <= unp_bank_d;
      mu_owns_q   <= mu_owns_d;
      format_q    <= format_d;
      cleared_q   <= cleared_d;
      fill_ones_q <= fill_ones_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Row storage: ReadRows memories ("lanes"), lane k holding the rows with row % ReadRows == k at
  // address {bank, row / ReadRows}; a block read reads every lane at one address.
  // ---------------------------------------------------------------------------------------------
  logic [AddrW-1:0] unp_addr, mu_addr, rd_addr, dbg_addr;
  logic [SubW1-1:0] unp_sub, mu_sub, dbg_sub;  // one spare bit keeps the width non-zero
  logic [tmu_pkg::SrcRowW-1:0] rd_base;

  always_comb begin
    unp_addr = AddrW'({unp_bank_q, unp_row_i} >> SubW);
    mu_addr  = AddrW'({mu_bank_q, mu_row_i} >> SubW);
    rd_addr  = AddrW'({mu_bank_q, rd_row_i} >> SubW);
    dbg_addr = AddrW'({dbg_bank_i, dbg_row_i} >> SubW);
    unp_sub  = SubW1'(unp_row_i & tmu_pkg::SrcRowW'(ReadRows - 1));
    mu_sub   = SubW1'(mu_row_i & tmu_pkg::SrcRowW'(ReadRows - 1));
    dbg_sub  = SubW1'(dbg_row_i & tmu_pkg::SrcRowW'(ReadRows - 1));
    rd_base  = rd_row_i & ~tmu_pkg::SrcRowW'(ReadRows - 1);
  end

  // A cleared row reads as its bank's fill.
  function automatic logic [RowW-1:0] fill_row(input logic ones);
    fill_row = ones ? '1 : '0;
  endfunction

  logic [ReadRows*RowW-1:0] dbg_lanes;

  for (genvar k = 0; k < ReadRows; k++) begin : g_lane
    logic [RowW-1:0] mem_q [2*Blocks];

    // The Matrix Unit's port is written last, so it would win a collision - which the ownership
    // assertions below rule out (the two writers never share a bank).
    always_ff @(posedge clk_i) begin
      if (unp_we_i && (unp_sub == SubW1'(k))) mem_q[unp_addr] <= unp_data_i;
      if (mu_we_i && (mu_sub == SubW1'(k))) mem_q[mu_addr] <= mu_data_i;
    end

    assign rd_data_o[k*RowW +: RowW] = cleared_q[{mu_bank_q, rd_base | tmu_pkg::SrcRowW'(k)}]
                                       ? fill_row(fill_ones_q[mu_bank_q]) : mem_q[rd_addr];
    assign dbg_lanes[k*RowW +: RowW] = mem_q[dbg_addr];
  end

  always_comb begin
    dbg_data_o = '0;
    for (int unsigned r = 0; r < ReadRows; r++) begin
      if (dbg_sub == SubW1'(r)) dbg_data_o = dbg_lanes[r*RowW +: RowW];
    end
    if (cleared_q[{dbg_bank_i, dbg_row_i}]) dbg_data_o = fill_row(fill_ones_q[dbg_bank_i]);
  end

  assign mu_bank_o   = mu_bank_q;
  assign unp_bank_o  = unp_bank_q;
  assign mu_owns_o   = mu_owns_q;
  assign format_o    = format_q;
  assign mu_format_o = format_q[mu_bank_q*FormatW +: FormatW];

`ifndef SYNTHESIS
  initial begin
    assert (ReadRows >= 1 && ReadRows <= Rows && (ReadRows & (ReadRows - 1)) == 0)
      else $fatal(1, "tmu_src_regs: ReadRows must be a power of two in 1..64");
  end
  // The unpacker writes only a bank the unpackers hold (the Wait Gate makes it wait otherwise);
  // the Matrix Unit writes only a bank it holds.
  assert property (@(posedge clk_i) disable iff (!rst_ni) unp_we_i |-> !mu_owns_q[unp_bank_q])
    else $error("tmu_src_regs: unpacker write to a bank the Matrix Unit holds");
  assert property (@(posedge clk_i) disable iff (!rst_ni) mu_we_i |-> mu_owns_q[mu_bank_q])
    else $error("tmu_src_regs: Matrix Unit write to a bank the unpackers hold");
`endif

endmodule

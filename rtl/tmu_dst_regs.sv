// tmu_dst_regs: the Dst register storage - DstBits, 1024 rows x 16 columns x 16 bits, with a
// validity bit per row - and its two views, Dst16b and Dst32b (Dst.md; refmodel state.h DstRegs,
// formats.h adj32_row, src/insn/zeroacc.cpp).
//
// Access is by blocks of 8 rows x 16 columns (the MVMUL output block). A Dst16b block of 8 rows is
// 8 consecutive DstBits rows; a Dst32b block of 8 rows (aligned to 8) has its high halves in the
// DstBits rows Adj32(row) .. +7 and its low halves in the 8 rows after them, and Adj32 of an
// aligned row always has bit 3 clear. So the storage is two memories, `hi` holding the DstBits
// rows with bit 3 clear and `lo` those with bit 3 set, each 64 blocks of 8 rows at DstBits row
// [9:4] - and each split by row-in-block into 8 memories of 64 x 256 bits, so that a row mask is
// a write enable and no memory needs a partial-word write. A Dst16b block is one address of the 8
// memories of one half, a Dst32b block the same address in all 16. Validity (1024 flip-flops) is beside them, because ZEROACC
// changes up to every row of it in one cycle.
//
// Reads are asynchronous and return the identity the caller supplies for every invalid row (in
// the 32-bit view the high-half row's validity counts). Bits are written with or without marking
// the rows valid (wr_set_valid_i), so an instruction whose write takes several cycles commits the
// validity with its last one. A ZEROACC in the cycle of a write is applied after it (the write
// belongs to an older instruction). Reads see the state before the clock edge.
module tmu_dst_regs #(
  parameter int unsigned NumReadPorts = 2  // e.g. the datapath's Dst operand and the packer
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,

  // Read ports p = 0..NumReadPorts-1: the 8-row block rd_block_i (Dst16b or Dst32b rows
  // 8*rd_block_i ..+7). Element (r, c) at [((p*8 + r)*16 + c)*32 +: 32]; Dst16b values in its low
  // 16 bits (high bits 0). Invalid rows read as rd_identity_i (its low 16 bits for Dst16b).
  input  logic [NumReadPorts*tmu_pkg::DstBlockW-1:0] rd_block_i,
  input  logic [NumReadPorts-1:0]                rd_dst32_i,
  input  logic [NumReadPorts*32-1:0]             rd_identity_i,
  output logic [NumReadPorts*tmu_pkg::DstBlockLanes*32-1:0]  rd_data_o,

  // Write port: rows wr_row_mask_i of the 8-row block wr_block_i, same element layout.
  input  logic                                   wr_en_i,
  input  logic [tmu_pkg::DstBlockW-1:0]          wr_block_i,
  input  logic                                   wr_dst32_i,
  input  logic [tmu_pkg::DstBlockRows-1:0]       wr_row_mask_i,
  input  logic [tmu_pkg::DstBlockLanes*32-1:0]  wr_data_i,
  input  logic                                   wr_set_valid_i,

  // ZEROACC (decoded; the caller adds the row offsets and Blackhole's relative block).
  input  logic                                   za_valid_i,
  input  tmu_pkg::zeroacc_mode_e                 za_mode_i,
  input  logic [tmu_pkg::DstRowW-1:0]            za_row_i,        // ONE_ROW: the Dst row
  input  logic                                   za_dst32_i,      // ONE_ROW: 32-bit mode; SIXTEEN_ROWS: UseDst32b
  input  logic [7:0]                             za_block_i,      // SIXTEEN_ROWS: the 16-row block
  input  logic                                   za_revert_i,     // SIXTEEN_ROWS: mark valid instead
  input  logic                                   za_upper_half_i, // HALF_OF_DST: Imm10 bit 0

  // Raw storage, for the testbench and the observation port.
  input  logic [tmu_pkg::DstRowW-1:0]            dbg_row_i,
  output logic [tmu_pkg::DstCols*16-1:0]         dbg_bits_o,      // column c at [c*16 +: 16]
  output logic [tmu_pkg::DstRows-1:0]            row_valid_o
);

  localparam int unsigned BlockRows = tmu_pkg::DstBlockRows;
  localparam int unsigned Cols      = tmu_pkg::DstCols;
  localparam int unsigned RowW      = tmu_pkg::DstRowW;
  localparam int unsigned Rows      = tmu_pkg::DstRows;
  localparam int unsigned BitsW     = Cols * 16;              // one DstBits row
  localparam int unsigned WordW     = BlockRows * BitsW;      // one memory word: an 8-row block
  localparam int unsigned Words     = Rows / (2 * BlockRows); // per memory
  localparam int unsigned BlockLanes = tmu_pkg::DstBlockLanes;
  localparam int unsigned IdxW      = 6;                      // memory address: DstBits row [9:4]
  localparam int unsigned BlocksOf16 = Rows / 16;             // ZEROACC blocks, Dst16b view
  localparam int unsigned BlocksOf32 = Rows / 32;             // ZEROACC blocks, Dst32b view

  // ---------------------------------------------------------------------------------------------
  // Storage
  // ---------------------------------------------------------------------------------------------
  logic [Rows-1:0]  valid_q, valid_d;

  // The DstBits block (row / 8) of element row 0 of a block; for Dst32b the high halves' block.
  // tmu_pkg::adj32_row on a row aligned to 8, in units of blocks.
  function automatic logic [RowW-1:3] block_base(input logic [RowW-1:3] block, input logic dst32);
    block_base = dst32 ? ({block[RowW-2:3], 1'b0} | {block[RowW-1], 6'd0}) : block;
  endfunction

  // ---- write ----
  logic [RowW-1:3] wr_base;
  logic            wr_hi, wr_lo;
  logic [WordW-1:0] wr_hi_word, wr_lo_word;

  always_comb begin
    wr_base    = block_base(wr_block_i, wr_dst32_i);
    // Dst16b writes one memory (by row bit 3), Dst32b both.
    wr_hi      = wr_en_i && (wr_dst32_i || !wr_base[3]);
    wr_lo      = wr_en_i && (wr_dst32_i || wr_base[3]);
    wr_hi_word = '0;
    wr_lo_word = '0;
    for (int unsigned e = 0; e < BlockLanes; e++) begin
      wr_hi_word[e*16 +: 16] = wr_dst32_i ? wr_data_i[e*32+16 +: 16] : wr_data_i[e*32 +: 16];
      wr_lo_word[e*16 +: 16] = wr_data_i[e*32 +: 16];
    end
  end

  // The memories: for each row r of a block, `hi` (DstBits rows with bit 3 clear) and `lo` (bit 3
  // set), 64 rows of 256 bits each at DstBits row [9:4]. A block is row r of all eight.
  logic [NumReadPorts*IdxW-1:0]  rd_idx;
  logic [NumReadPorts*WordW-1:0] rd_hi_words, rd_lo_words;
  logic [WordW-1:0]              dbg_hi_word, dbg_lo_word;

  for (genvar r = 0; r < BlockRows; r++) begin : g_row
    logic [BitsW-1:0] hi_q [Words];
    logic [BitsW-1:0] lo_q [Words];

    always_ff @(posedge clk_i) begin
      if (wr_hi && wr_row_mask_i[r]) hi_q[wr_base[9:4]] <= wr_hi_word[r*BitsW +: BitsW];
      if (wr_lo && wr_row_mask_i[r]) lo_q[wr_base[9:4]] <= wr_lo_word[r*BitsW +: BitsW];
    end

    for (genvar p = 0; p < NumReadPorts; p++) begin : g_port
      assign rd_hi_words[p*WordW + r*BitsW +: BitsW] = hi_q[rd_idx[p*IdxW +: IdxW]];
      assign rd_lo_words[p*WordW + r*BitsW +: BitsW] = lo_q[rd_idx[p*IdxW +: IdxW]];
    end
    assign dbg_hi_word[r*BitsW +: BitsW] = hi_q[dbg_row_i[9:4]];
    assign dbg_lo_word[r*BitsW +: BitsW] = lo_q[dbg_row_i[9:4]];
  end

  // ---- validity: the write's commit, then ZEROACC ----
  logic [RowW-1:0] za_one_row;
  logic [RowW-1:3] jrow;  // row j without its row-in-block bits

  always_comb begin
    valid_d    = valid_q;
    za_one_row = za_dst32_i ? tmu_pkg::adj32_row(za_row_i) : za_row_i;
    jrow       = '0;
    // Validity in groups of 8 rows (a block), so the commit is one group compare, not 8 decoders.
    for (int unsigned g = 0; g < Rows / BlockRows; g++) begin
      if (wr_en_i && wr_set_valid_i && wr_base == (RowW-3)'(g)) begin
        valid_d[g*BlockRows +: BlockRows] = valid_q[g*BlockRows +: BlockRows] | wr_row_mask_i;
      end
    end
    if (za_valid_i) begin
      unique case (za_mode_i)
        tmu_pkg::ZEROACC_ONE_ROW: valid_d[za_one_row] = 1'b0;
        tmu_pkg::ZEROACC_SIXTEEN_ROWS: begin
          // An out-of-range block clears nothing (software uses that to apply only the AddrMod).
          for (int unsigned j = 0; j < Rows; j++) begin
            jrow = (RowW-3)'(j >> 3);
            if (za_dst32_i) begin
              // Dst32b rows 16b..16b+15 have their high halves in DstBits rows 32b + {0..7, 16..23}.
              if (32'(za_block_i) < BlocksOf32 && jrow[9:5] == za_block_i[4:0] && !jrow[3]) begin
                valid_d[j] = za_revert_i;
              end
            end else if (32'(za_block_i) < BlocksOf16 && jrow[9:4] == za_block_i[5:0]) begin
              valid_d[j] = za_revert_i;
            end
          end
        end
        tmu_pkg::ZEROACC_HALF_OF_DST: begin
          if (za_upper_half_i) valid_d[Rows/2 +: Rows/2] = '0;
          else valid_d[0 +: Rows/2] = '0;
        end
        default: valid_d = '0;  // ZEROACC_ALL_OF_DST
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_q <= '0;
    else valid_q <= valid_d;
  end

  // ---------------------------------------------------------------------------------------------
  // Reads
  // ---------------------------------------------------------------------------------------------
  for (genvar p = 0; p < NumReadPorts; p++) begin : g_read
    logic [RowW-1:3]  base;
    logic             dst32;
    logic [31:0]      identity;
    logic [WordW-1:0] hi_word, lo_word, first_word;
    logic [BlockLanes*32-1:0] data;
    logic [BlockRows-1:0]     row_valid;

    assign dst32    = rd_dst32_i[p];
    assign identity = rd_identity_i[p*32 +: 32];
    assign base     = block_base(rd_block_i[p*(RowW-3) +: RowW-3], dst32);
    assign row_valid = valid_q[base*BlockRows +: BlockRows];

    always_comb begin
      hi_word    = rd_hi_words[p*WordW +: WordW];
      lo_word    = rd_lo_words[p*WordW +: WordW];
      // Dst16b: the memory the block lives in; Dst32b: the high halves.
      first_word = (!dst32 && base[3]) ? lo_word : hi_word;
      data       = '0;
      for (int unsigned r = 0; r < BlockRows; r++) begin
        for (int unsigned c = 0; c < Cols; c++) begin
          if (!row_valid[r]) begin
            data[(r*Cols + c)*32 +: 32] = dst32 ? identity : {16'd0, identity[15:0]};
          end else if (dst32) begin
            data[(r*Cols + c)*32 +: 32] =
                {first_word[(r*Cols + c)*16 +: 16], lo_word[(r*Cols + c)*16 +: 16]};
          end else begin
            data[(r*Cols + c)*32 +: 32] = {16'd0, first_word[(r*Cols + c)*16 +: 16]};
          end
        end
      end
    end
    assign rd_idx[p*IdxW +: IdxW] = base[9:4];
    assign rd_data_o[p*BlockLanes*32 +: BlockLanes*32] = data;
  end

  // ---- raw row ----
  logic [WordW-1:0] dbg_word;

  always_comb begin
    dbg_word   = dbg_row_i[3] ? dbg_lo_word : dbg_hi_word;
    dbg_bits_o = '0;
    for (int unsigned r = 0; r < BlockRows; r++) begin
      if (dbg_row_i[2:0] == 3'(r)) dbg_bits_o = dbg_word[r*BitsW +: BitsW];
    end
  end

  assign row_valid_o = valid_q;

`ifndef SYNTHESIS
  // Revert exists only for the 16-row mode (zeroacc.cpp refuses it otherwise).
  assert property (@(posedge clk_i) disable iff (!rst_ni)
                   za_valid_i && za_revert_i |-> za_mode_i == tmu_pkg::ZEROACC_SIXTEEN_ROWS)
    else $error("tmu_dst_regs: ZEROACC Revert with a mode other than 16 rows");
  initial begin
    assert (Words == 64 && RowW == 10 && IdxW == 6) else $fatal(1, "tmu_dst_regs: storage shape");
  end
`endif

endmodule

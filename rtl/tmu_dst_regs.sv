// tmu_dst_regs: the Dst register storage - DstBits, 1024 rows x 16 columns x 16 bits, with a
// validity bit per row - and its two views, Dst16b and Dst32b (Dst.md; refmodel state.h DstRegs,
// formats.h adj32_row, src/insn/zeroacc.cpp).
//
// Access is by windows of 8 consecutive rows of a view, starting at any row. Dst16b row r is
// DstBits row r; Dst32b row R has its high half in DstBits row adj32_row(R) (the refmodel's
// DstRegs::hi_row: bits [9:4] = {R[9] | R[8], R[7:3]}, bit 3 clear, [2:0] = R[2:0]) and its low
// half 8 rows on. The storage is 16 memories of 64 x 256 bits (one DstBits row per word): DstBits
// row d lives in memory d[3:0] at address d[9:4]. Eight consecutive Dst16b rows have eight
// different d[3:0]; eight consecutive Dst32b rows have eight different R[2:0], their high halves
// in memories 0..7 and their low halves in 8..15. So no window puts two rows in one memory: each
// memory gets its own address and a window takes one cycle wherever it starts, and a row mask is a
// write enable (no memory needs a partial-word write). Windows wrap at the end of the view's row
// numbers (1024 in both views: Dst32b rows 512..1023 alias DstBits rows as adj32_row makes them).
// Validity (1024 flip-flops) is beside the memories, because ZEROACC changes up to every row of it
// in one cycle.
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

  // Read ports p = 0..NumReadPorts-1: rows rd_row_i + k (mod 1024), k = 0..7, of Dst16b or (with
  // rd_dst32_i) Dst32b. Element (k, c) at [((p*8 + k)*16 + c)*32 +: 32]; Dst16b values in its low
  // 16 bits (high bits 0). Invalid rows read as rd_identity_i (its low 16 bits for Dst16b). A
  // port reads in the cycles of its rd_en_i bit; in others its rd_data_o is undefined.
  input  logic [NumReadPorts-1:0]                rd_en_i,
  input  logic [NumReadPorts*tmu_pkg::DstRowW-1:0] rd_row_i,
  input  logic [NumReadPorts-1:0]                rd_dst32_i,
  input  logic [NumReadPorts*32-1:0]             rd_identity_i,
  output logic [NumReadPorts*tmu_pkg::DstBlockLanes*32-1:0]  rd_data_o,

  // Write port: rows k with wr_row_mask_i[k] of the window at wr_row_i, same element layout.
  input  logic                                   wr_en_i,
  input  logic [tmu_pkg::DstRowW-1:0]            wr_row_i,
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
  // The DstBits rows whose validity this ZEROACC sets or clears (zeroacc.cpp's set_row_valid
  // calls, the rows its WriteSet notes); 0 without za_valid_i.
  output logic [tmu_pkg::DstRows-1:0]            za_rows_o,

  // Raw storage, for the testbench: dbg_bits_o in the cycles of dbg_en_i (undefined in others).
  input  logic                                   dbg_en_i,
  input  logic [tmu_pkg::DstRowW-1:0]            dbg_row_i,
  output logic [tmu_pkg::DstCols*16-1:0]         dbg_bits_o,      // column c at [c*16 +: 16]
  output logic [tmu_pkg::DstRows-1:0]            row_valid_o
);

  localparam int unsigned WinRows    = tmu_pkg::DstBlockRows;   // rows of a window
  localparam int unsigned Cols       = tmu_pkg::DstCols;
  localparam int unsigned RowW       = tmu_pkg::DstRowW;
  localparam int unsigned Rows       = tmu_pkg::DstRows;
  localparam int unsigned BitsW      = Cols * 16;              // one DstBits row, one memory word
  localparam int unsigned Mems       = 16;                     // by DstBits row [3:0]
  localparam int unsigned Words      = Rows / Mems;            // per memory
  localparam int unsigned IdxW       = 6;                      // memory address: DstBits row [9:4]
  localparam int unsigned WinLanes   = tmu_pkg::DstBlockLanes; // elements of a window
  localparam int unsigned BlocksOf16 = Rows / 16;              // ZEROACC blocks, Dst16b view
  localparam int unsigned BlocksOf32 = Rows / 32;              // ZEROACC blocks, Dst32b view

  // Where a window puts memory m: the window row (offset) it holds - Dst16b rows are in memory
  // row[3:0], Dst32b rows in memories row[2:0] (high half) and 8 + row[2:0] (low half) - and, as
  // bit 3, whether it holds none (only Dst16b leaves half of the memories idle).
  function automatic logic [3:0] window_offset(input logic [3:0] start_lo, input logic dst32,
                                               input logic [3:0] m);
    window_offset = dst32 ? {1'b0, m[2:0] - start_lo[2:0]} : m - start_lo;
  endfunction

  // The address in memory m of the window's row there: DstBits row [9:4].
  function automatic logic [IdxW-1:0] window_addr(input logic [RowW-1:0] start, input logic dst32,
                                                  input logic [3:0] m);
    logic [RowW-1:3] row;  // the view's row, whose low bits are m (Dst16b) or m[2:0] (Dst32b)
    row = (RowW-3)'((start + RowW'(window_offset(start[3:0], dst32, m))) >> 3);
    // Dst32b: bits [9:4] of tmu_pkg::adj32_row (the low half, 8 rows on, has the same ones).
    window_addr = dst32 ? {row[9] | row[8], row[7:3]} : row[9:4];
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Storage: memory m holds DstBits rows d with d[3:0] == m, at address d[9:4].
  // ---------------------------------------------------------------------------------------------
  logic [Rows-1:0]                    valid_q, valid_d;
  logic [NumReadPorts*Mems*BitsW-1:0] rd_words;
  logic [NumReadPorts*Mems-1:0]       rd_valids;     // validity of the row each memory reads
  logic [Mems*BitsW-1:0]              dbg_words;
  logic [Mems-1:0]                    wr_commit;     // memory m's written row becomes valid
  logic [Mems*IdxW-1:0]               wr_idx;

  // Word idx of the Mems memories' words, as a multiplexer on the narrow index. Not the part select
  // words[idx*BitsW +: BitsW]: its offset is 32 bits wide, and Yosys 0.23 maps such a shift over a
  // wide vector through 32 stages, which ran this module out of memory.
  function automatic logic [BitsW-1:0] word_of(input logic [Mems*BitsW-1:0] words_in,
                                               input logic [3:0]            idx);
    word_of = '0;
    for (int unsigned k = 0; k < Mems; k++) begin
      if (idx == 4'(k)) word_of = words_in[k*BitsW +: BitsW];
    end
  endfunction

  for (genvar m = 0; m < Mems; m++) begin : g_mem
    logic [BitsW-1:0] mem_q [Words];
    logic [3:0]       wr_off;
    logic [IdxW-1:0]  wr_addr;
    logic             we;
    logic [BitsW-1:0] wr_word;
    logic [Cols*32-1:0] wr_lanes;  // window row wr_off of wr_data_i

    // The write evaluates only in the cycles of wr_en_i, the reads only with their enables (see
    // docs/cosim.md, "Writing RTL that simulates fast"); nothing loads or reads the X otherwise.
    always_comb begin
      wr_off   = window_offset(wr_row_i[3:0], wr_dst32_i, 4'(m));
      wr_addr  = window_addr(wr_row_i, wr_dst32_i, 4'(m));
      we       = wr_en_i && !wr_off[3] && wr_row_mask_i[wr_off[2:0]];
      wr_lanes = 'x;
      wr_word  = 'x;
      if (we) begin
        // Window row wr_off: Dst16b low halves; Dst32b high halves to memories 0..7, low to 8..15.
        wr_lanes = '0;  // a multiplexer on the narrow offset, for the reason given at word_of
        for (int unsigned k = 0; k < WinRows; k++) begin
          if (wr_off[2:0] == 3'(k)) wr_lanes = wr_data_i[k*Cols*32 +: Cols*32];
        end
        wr_word = '0;
        for (int unsigned c = 0; c < Cols; c++) begin
          wr_word[c*16 +: 16] = (wr_dst32_i && m < Mems / 2) ? wr_lanes[c*32 + 16 +: 16] : wr_lanes[c*32 +: 16];
        end
      end
    end

    always_ff @(posedge clk_i) begin
      if (we) mem_q[wr_addr] <= wr_word;
    end

    // Only the high-half rows of Dst32b carry validity.
    assign wr_commit[m]             = we && wr_set_valid_i && !(wr_dst32_i && m >= Mems / 2);
    assign wr_idx[m*IdxW +: IdxW]   = wr_addr;
    assign dbg_words[m*BitsW +: BitsW] = dbg_en_i ? mem_q[dbg_row_i[9:4]] : 'x;

    for (genvar p = 0; p < NumReadPorts; p++) begin : g_port
      logic [IdxW-1:0] rd_addr;
      assign rd_addr = window_addr(rd_row_i[p*RowW +: RowW], rd_dst32_i[p], 4'(m));
      assign rd_words[(p*Mems + m)*BitsW +: BitsW] = rd_en_i[p] ? mem_q[rd_addr] : 'x;
      assign rd_valids[p*Mems + m]                 = valid_q[{rd_addr, 4'(m)}];
    end
  end

  // ---------------------------------------------------------------------------------------------
  // ZEROACC's rows, and validity: the write's commit, then ZEROACC
  // ---------------------------------------------------------------------------------------------
  logic [RowW-1:0] za_one_row;
  logic [RowW-1:3] jrow;  // row j without its low bits
  logic            za_set;  // the rows become valid (Revert) rather than invalid

  always_comb begin
    za_rows_o  = '0;
    za_one_row = za_dst32_i ? tmu_pkg::adj32_row(za_row_i) : za_row_i;
    jrow       = '0;
    za_set     = za_revert_i && za_mode_i == tmu_pkg::ZEROACC_SIXTEEN_ROWS;
    if (za_valid_i) begin
      unique case (za_mode_i)
        tmu_pkg::ZEROACC_ONE_ROW: za_rows_o[za_one_row] = 1'b1;
        tmu_pkg::ZEROACC_SIXTEEN_ROWS: begin
          // An out-of-range block touches nothing (software uses that to apply only the AddrMod).
          for (int unsigned j = 0; j < Rows; j++) begin
            jrow = (RowW-3)'(j >> 3);
            if (za_dst32_i) begin
              // Dst32b rows 16b..16b+15 have their high halves in DstBits rows 32b + {0..7, 16..23}.
              za_rows_o[j] = 32'(za_block_i) < BlocksOf32 && jrow[9:5] == za_block_i[4:0] && !jrow[3];
            end else begin
              za_rows_o[j] = 32'(za_block_i) < BlocksOf16 && jrow[9:4] == za_block_i[5:0];
            end
          end
        end
        tmu_pkg::ZEROACC_HALF_OF_DST: begin
          if (za_upper_half_i) za_rows_o[Rows/2 +: Rows/2] = '1;
          else za_rows_o[0 +: Rows/2] = '1;
        end
        default: za_rows_o = '1;  // ZEROACC_ALL_OF_DST
      endcase
    end
  end

  always_comb begin
    valid_d = valid_q;
    for (int unsigned m = 0; m < Mems; m++) begin
      if (wr_commit[m]) valid_d[{wr_idx[m*IdxW +: IdxW], 4'(m)}] = 1'b1;
    end
    valid_d = (valid_d & ~za_rows_o) | (za_rows_o & {Rows{za_set}});
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_q <= '0;
    else valid_q <= valid_d;
  end

  // ---------------------------------------------------------------------------------------------
  // Reads: window row k is in memory (start + k)[3:0] (Dst16b), or in memories (start + k)[2:0]
  // and 8 + (start + k)[2:0] (Dst32b).
  // ---------------------------------------------------------------------------------------------
  for (genvar p = 0; p < NumReadPorts; p++) begin : g_read
    logic [3:0]                start;  // the low bits pick the memories
    logic                      dst32;
    logic [31:0]               identity;
    logic [Mems*BitsW-1:0]     words;
    logic [Mems-1:0]           valids;
    logic [3:0]                first_mem, lo_mem;  // Dst16b: the row; Dst32b: high and low halves
    logic [BitsW-1:0]          first_bits, lo_bits;
    logic [WinLanes*32-1:0]    data;

    assign start    = rd_row_i[p*RowW +: 4];
    assign dst32    = rd_dst32_i[p];
    assign identity = rd_identity_i[p*32 +: 32];
    assign words    = rd_words[p*Mems*BitsW +: Mems*BitsW];
    assign valids   = rd_valids[p*Mems +: Mems];

    always_comb begin
      data       = 'x;
      first_mem  = 'x;
      lo_mem     = 'x;
      first_bits = 'x;
      lo_bits    = 'x;
      // The enable inside the loop: around it, Yosys 0.23 takes far longer over this module.
      for (int unsigned k = 0; k < WinRows; k++) if (rd_en_i[p]) begin
        first_mem  = dst32 ? {1'b0, start[2:0] + 3'(k)} : start[3:0] + 4'(k);
        lo_mem     = {1'b1, start[2:0] + 3'(k)};
        first_bits = word_of(words, first_mem);
        lo_bits    = word_of(words, lo_mem);
        for (int unsigned c = 0; c < Cols; c++) begin
          if (!valids[first_mem]) begin
            data[(k*Cols + c)*32 +: 32] = dst32 ? identity : {16'd0, identity[15:0]};
          end else if (dst32) begin
            data[(k*Cols + c)*32 +: 32] = {first_bits[c*16 +: 16], lo_bits[c*16 +: 16]};
          end else begin
            data[(k*Cols + c)*32 +: 32] = {16'd0, first_bits[c*16 +: 16]};
          end
        end
      end
    end
    assign rd_data_o[p*WinLanes*32 +: WinLanes*32] = data;
  end

  // ---- raw row ----
  assign dbg_bits_o  = dbg_en_i ? word_of(dbg_words, dbg_row_i[3:0]) : 'x;
  assign row_valid_o = valid_q;

`ifndef SYNTHESIS
  // Revert exists only for the 16-row mode (zeroacc.cpp refuses it otherwise).
  assert property (@(posedge clk_i) disable iff (!rst_ni)
                   za_valid_i && za_revert_i |-> za_mode_i == tmu_pkg::ZEROACC_SIXTEEN_ROWS)
    else $error("tmu_dst_regs: ZEROACC Revert with a mode other than 16 rows");
  initial begin
    assert (Words == 64 && RowW == 10 && IdxW == 6 && WinRows == 8)
      else $fatal(1, "tmu_dst_regs: storage shape");
  end
`endif

endmodule

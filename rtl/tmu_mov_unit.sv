// tmu_mov_unit: the datapath of the Matrix Unit's data-movement instructions MOVA2D, MOVB2D (Src ->
// Dst), MOVD2A, MOVD2B (Dst -> Src), MOVB2A (SrcB -> SrcA), SHIFTXA, SHIFTXB and TRNSPSRCB,
// bit-exact with refmodel/engines/tensix/src/insn/mov.cpp, shift.cpp and src_banks.cpp (exec_trnspsrcb) and the
// per-datum conversions of refmodel/engines/tensix/include/tmu/tensix/movconv.h. The top computes the addresses and row
// counts and reads the operand windows; this unit converts and arranges the data.
//
// Pipeline (valid_i in cycle t -> valid_o in cycle t + Latency, one operation per cycle): the
// whole conversion is wiring and 2:1 muxes, so it is done in the issue cycle and its result
// registered; Latency - 1 further stages delay it. The mode needs no pipeline of its own: nothing
// after the first register depends on it except the write enables and row masks, which travel
// with the data. Reset clears only the valid bits.
//
// A result writes Dst or Src, never both, so dst_o and src_o share one register chain: dst_o is
// meaningful only with dst_we_o, src_o only with src_we_o. An operation the refmodel refuses
// (undefined_o) writes nothing.
module tmu_mov_unit #(
  parameter int unsigned Latency = 4  // cycles from valid_i to valid_o, at least 2
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,

  input  logic                                valid_i,
  input  tmu_pkg::mov_op_e                    op_i,
  input  logic [3:0]                          rows_i,            // 1, 4 or 8 (see the op)
  input  logic                                broadcast_row_i,   // MOVB2D Broadcast1RowTo8
  input  logic                                broadcast_col0_i,  // MOVB2D BroadcastCol0
  input  logic                                shift_left_i,      // SHIFTXA Direction LEFT (3)
  input  logic                                shift_in_zero_i,   // SHIFTXB ShiftInZero
  // Src[i][j] in bits [(i*16 + j)*SrcDatumW +: SrcDatumW]: 16 rows from the first Src row read.
  input  logic [16*16*tmu_pkg::SrcDatumW-1:0] src_i,
  // Dst[i][j] in bits [(i*16 + j)*32 +: 32]: 8 rows from the first Dst row, in the dst_read32_o
  // view (a 16-bit value in the low half).
  input  logic [8*16*32-1:0]                  dst_i,
  input  logic [3:0]                          srca_format_i,     // mov.cpp mov_srca_format
  input  logic [3:0]                          srcb_format_i,     // mov.cpp movb2d_srcb_format
  input  logic                                fp16a_force_i,
  input  logic                                flush_denormals_i,  // !Zero_Flag_disabled_src
  input  logic                                use_dst32b_lo_i,    // field UseDst32bLo
  input  logic                                use_dst32b_i,       // Fp32_enabled || INT8_math_enabled

  // Issue-cycle decode (combinational from op and configuration).
  output logic                                dst_read32_o,
  output logic                                dst_write32_o,
  output logic                                undefined_o,

  output logic                                valid_o,
  output logic                                dst_we_o,
  output logic [7:0]                          dst_row_mask_o,    // rows of the Dst window
  output logic [8*16*32-1:0]                  dst_o,
  output logic                                src_we_o,
  output logic [15:0]                         src_row_mask_o,    // rows from the target's first
  output logic [16*16*tmu_pkg::SrcDatumW-1:0] src_o
);

  localparam int unsigned Cols     = tmu_pkg::SrcCols;
  localparam int unsigned SrcRowsW = 16;  // rows of the Src window
  localparam int unsigned DstRowsW = 8;   // rows of the Dst window
  localparam int unsigned DatumW   = tmu_pkg::SrcDatumW;
  localparam int unsigned DstW     = DstRowsW * Cols * 32;
  localparam int unsigned SrcW     = SrcRowsW * Cols * DatumW;
  localparam int unsigned FromDstRows = 4;  // MOVD2A/MOVD2B move at most four rows
  // Payload of a stage: {dst_we, dst_row_mask, src_we, src_row_mask, result}.
  localparam int unsigned CtlW     = 1 + DstRowsW + 1 + SrcRowsW;
  localparam int unsigned PayloadW = CtlW + SrcW;

  // ---- format codes (formats.h) ----
  // is_valid_data_format_code: 12 and 13 are no hardware format.
  function automatic logic is_hardware_format(input logic [3:0] code);
    unique case (code)
      4'd12, 4'd13: is_hardware_format = 1'b0;
      default:      is_hardware_format = 1'b1;
    endcase
  endfunction

  // src_style_of_format_code (12 and 13 fall into MVMUL.md's final branch: TF32). Written as
  // comparisons: as a case Yosys makes each use a small ROM.
  function automatic tmu_pkg::src_style_e style_of_format(input logic [3:0] code);
    if ((code == 4'd0) || (code == 4'd5) || (code == 4'd6) || (code == 4'd7) || (code == 4'd8) ||
        (code == 4'd9) || (code == 4'd15)) begin
      style_of_format = tmu_pkg::SRC_STYLE_BF16;  // FP32 BF16 BFP8 BFP4 INT32 INT16 BFP2
    end else if ((code == 4'd1) || (code == 4'd2) || (code == 4'd3) || (code == 4'd10) ||
                 (code == 4'd11) || (code == 4'd14)) begin
      style_of_format = tmu_pkg::SRC_STYLE_FP16;  // FP16 BFP8a BFP4a FP8 BFP2a INT8
    end else begin
      style_of_format = tmu_pkg::SRC_STYLE_TF32;
    end
  endfunction

  localparam logic [3:0] FormatTf32 = 4'd4;

  // ---- issue-cycle decode ----
  logic                to_dst, from_dst;
  logic                srca_tf32, exp8, clear_exp_hi3, clear_mant_lo3;
  tmu_pkg::src_style_e srcb_style, plan_style;
  logic                plan_read32, plan_undefined;
  logic                bcast_row, bcast_col;

  always_comb begin
    to_dst   = (op_i == tmu_pkg::MOV_A2D) || (op_i == tmu_pkg::MOV_B2D);
    from_dst = (op_i == tmu_pkg::MOV_D2A) || (op_i == tmu_pkg::MOV_D2B);

    // Src -> Dst (MovToDstConfig). 12 and 13 are TF32 style but not TF32: 16-bit exponent-5 writes.
    srca_tf32 = (srca_format_i == FormatTf32);
    exp8      = !fp16a_force_i && ((style_of_format(srca_format_i) == tmu_pkg::SRC_STYLE_BF16) || srca_tf32);
    // MOVB2D reads SrcB in the SrcB format's style; ttsim does not model FP16A_FORCE, the ISA skips it.
    srcb_style     = style_of_format(srcb_format_i);
    clear_exp_hi3  = (op_i == tmu_pkg::MOV_B2D) && !fp16a_force_i && (srcb_style == tmu_pkg::SRC_STYLE_FP16);
    clear_mant_lo3 = (op_i == tmu_pkg::MOV_B2D) && !fp16a_force_i && (srcb_style == tmu_pkg::SRC_STYLE_BF16);
    bcast_row      = (op_i == tmu_pkg::MOV_B2D) && broadcast_row_i;
    bcast_col      = (op_i == tmu_pkg::MOV_B2D) && broadcast_col0_i;

    // Dst -> Src (plan_mov_from_dst): under FP16A_FORCE the SrcA format is never read.
    plan_style     = fp16a_force_i ? tmu_pkg::SRC_STYLE_FP16 : style_of_format(srca_format_i);
    plan_read32    = !fp16a_force_i && use_dst32b_i;
    plan_undefined = !plan_read32 && (use_dst32b_lo_i || (plan_style == tmu_pkg::SRC_STYLE_TF32));

    dst_read32_o  = 1'b0;
    dst_write32_o = 1'b0;
    undefined_o   = 1'b0;
    if (to_dst) begin
      // Dst32bLow16 is a read-modify-write of the 32-bit value.
      dst_read32_o  = !srca_tf32 && use_dst32b_lo_i;
      dst_write32_o = srca_tf32 || use_dst32b_lo_i;
      undefined_o   = !is_hardware_format(srca_format_i) ||
                      ((op_i == tmu_pkg::MOV_B2D) && !is_hardware_format(srcb_format_i));
    end else if (from_dst) begin
      dst_read32_o = plan_read32;
      undefined_o  = (!fp16a_force_i && !is_hardware_format(srca_format_i)) || plan_undefined;
    end
  end

  // ---- Src -> Dst: every element of the 8-row Dst window ----
  logic [DstW-1:0] dst_result;

  for (genvar i = 0; i < DstRowsW; i++) begin : g_to_dst_row
    for (genvar j = 0; j < Cols; j++) begin : g_to_dst_col
      // MOVB2D broadcasts: Broadcast1RowTo8 reads Src row 0 for every row, BroadcastCol0 column 0.
      logic [DatumW-1:0] datum_row_i, datum_row_0, datum;
      assign datum_row_i = bcast_col ? src_i[(i*Cols)*DatumW +: DatumW] : src_i[(i*Cols + j)*DatumW +: DatumW];
      assign datum_row_0 = bcast_col ? src_i[0 +: DatumW] : src_i[j*DatumW +: DatumW];
      assign datum       = bcast_row ? datum_row_0 : datum_row_i;

      tmu_mov_to_dst u_to_dst (
        .datum_i         (datum),
        .dst_old_hi_i    (dst_i[(i*Cols + j)*32 + 16 +: 16]),
        .flush_i         (flush_denormals_i),
        .clear_exp_hi3_i (clear_exp_hi3),
        .clear_mant_lo3_i(clear_mant_lo3),
        .exp8_i          (exp8),
        .tf32_i          (srca_tf32),
        .use_dst32b_lo_i (use_dst32b_lo_i),
        .value_o         (dst_result[(i*Cols + j)*32 +: 32])
      );

      if (i >= FromDstRows) begin : g_unused_low
        logic unused_dst_low;  // below row 4 MOVD2A/B read the low halves; here only the high ones merge
        assign unused_dst_low = ^dst_i[(i*Cols + j)*32 +: 16];
      end
    end
  end

  // ---- Src results: every element of the 16-row Src window ----
  logic [SrcW-1:0] src_result;

  for (genvar i = 0; i < SrcRowsW; i++) begin : g_src_row
    for (genvar j = 0; j < Cols; j++) begin : g_src_col
      logic [DatumW-1:0] in, from_dst_datum, left, right, rotated, transposed, result;

      assign in         = src_i[(i*Cols + j)*DatumW +: DatumW];
      assign transposed = src_i[(j*Cols + i)*DatumW +: DatumW];
      // SHIFTXA: LEFT takes the lane to the right, RIGHT the lane to the left; zero shifts in.
      if (j + 1 < Cols) begin : g_left
        assign left    = src_i[(i*Cols + j + 1)*DatumW +: DatumW];
        assign rotated = left;  // SHIFTXB: every lane takes its right neighbour...
      end else begin : g_left_edge
        assign left    = '0;
        // ...and lane 15 takes lane 0, or zero.
        assign rotated = shift_in_zero_i ? '0 : src_i[(i*Cols)*DatumW +: DatumW];
      end
      if (j > 0) begin : g_right
        assign right = src_i[(i*Cols + j - 1)*DatumW +: DatumW];
      end else begin : g_right_edge
        assign right = '0;
      end

      if (i < FromDstRows) begin : g_from_dst
        tmu_mov_from_dst u_from_dst (
          .dst_i          (dst_i[(i*Cols + j)*32 +: 32]),
          .read32_i       (plan_read32),
          .use_dst32b_lo_i(use_dst32b_lo_i),
          .style_i        (plan_style),
          .datum_o        (from_dst_datum)
        );
      end else begin : g_no_from_dst
        assign from_dst_datum = '0;
      end

      always_comb begin
        unique case (op_i)
          tmu_pkg::MOV_D2A, tmu_pkg::MOV_D2B: result = from_dst_datum;
          // MOVB2A: copied unchanged but for the denormal flush (ttsim).
          tmu_pkg::MOV_B2A:       result = (flush_denormals_i && (in[7:0] == 8'd0)) ? '0 : in;
          tmu_pkg::MOV_SHIFTXA:   result = shift_left_i ? left : right;
          tmu_pkg::MOV_SHIFTXB:   result = rotated;
          tmu_pkg::MOV_TRNSPSRCB: result = transposed;
          default:                result = '0;  // MOVA2D, MOVB2D write Dst
        endcase
      end
      assign src_result[(i*Cols + j)*DatumW +: DatumW] = result;
    end
  end

  // ---- write enables and row masks ----
  logic                 dst_we, src_we;
  logic [DstRowsW-1:0]  dst_row_mask, rows_mask8;
  logic [SrcRowsW-1:0]  src_row_mask;

  for (genvar k = 0; k < DstRowsW; k++) begin : g_rows_mask
    assign rows_mask8[k] = (4'(k) < rows_i);
  end

  always_comb begin
    dst_we       = 1'b0;
    src_we       = !undefined_o;
    dst_row_mask = '0;
    src_row_mask = '0;
    unique case (op_i)
      tmu_pkg::MOV_A2D, tmu_pkg::MOV_B2D: begin
        dst_we       = !undefined_o;
        src_we       = 1'b0;
        dst_row_mask = rows_mask8;
      end
      tmu_pkg::MOV_D2A, tmu_pkg::MOV_D2B: begin
        src_row_mask = {{(SrcRowsW - FromDstRows){1'b0}}, rows_mask8[FromDstRows-1:0]};
      end
      tmu_pkg::MOV_B2A:                   src_row_mask = 16'h000f;
      tmu_pkg::MOV_SHIFTXB:               src_row_mask = 16'h0001;
      default:                            src_row_mask = 16'hffff;  // SHIFTXA, TRNSPSRCB
    endcase
  end

  // ---- pipeline ----
  logic [PayloadW-1:0] payload;
  assign payload = {dst_we, dst_row_mask, src_we, src_row_mask,
                    to_dst ? {{(SrcW - DstW){1'b0}}, dst_result} : src_result};

  logic [Latency-1:0] valid_d, valid_q;
  assign valid_d = {valid_q[Latency-2:0], valid_i};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      valid_q <= valid_d;
    end
  end

  // Stage s holds the payload of the operation valid_q[s] marks; data registers have no reset.
  logic [Latency*PayloadW-1:0] stages;

  for (genvar s = 0; s < Latency; s++) begin : g_stage
    logic [PayloadW-1:0] stage_d, stage_q;

    if (s == 0) begin : g_first
      assign stage_d = valid_i ? payload : stage_q;
    end else begin : g_next
      assign stage_d = valid_q[s-1] ? stages[(s-1)*PayloadW +: PayloadW] : stage_q;
    end

    always_ff @(posedge clk_i) begin
      stage_q <= stage_d;
    end

    assign stages[s*PayloadW +: PayloadW] = stage_q;
  end

  logic [PayloadW-1:0] out;
  assign out = stages[(Latency-1)*PayloadW +: PayloadW];

  assign valid_o        = valid_q[Latency-1];
  assign dst_we_o       = valid_o && out[PayloadW-1];
  assign dst_row_mask_o = out[PayloadW-2 -: DstRowsW];
  assign src_we_o       = valid_o && out[SrcW + SrcRowsW];
  assign src_row_mask_o = out[SrcW +: SrcRowsW];
  assign src_o          = out[0 +: SrcW];
  assign dst_o          = out[0 +: DstW];

`ifndef SYNTHESIS
  if (Latency < 2) begin : g_latency_check
    $error("tmu_mov_unit: Latency must be at least 2");
  end
  // The row counts the instructions define (mov.cpp); SHIFTX*, TRNSPSRCB ignore rows_i.
  a_rows: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i && (op_i == tmu_pkg::MOV_A2D) |-> (rows_i == 4'd1) || (rows_i == 4'd8));
  a_rows_b2d: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i && (op_i == tmu_pkg::MOV_B2D) |-> (broadcast_row_i ? (rows_i == 4'd8)
                                                                 : (rows_i == 4'd1) || (rows_i == 4'd4)));
  a_rows_d2x: assert property (@(posedge clk_i) disable iff (!rst_ni)
      valid_i && ((op_i == tmu_pkg::MOV_D2A) || (op_i == tmu_pkg::MOV_D2B)) |->
      (rows_i == 4'd1) || (rows_i == 4'd4));
`endif

endmodule

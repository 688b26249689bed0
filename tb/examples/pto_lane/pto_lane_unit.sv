// Eight 32-bit lanes of PTO's TADD, TMAX and TCMP on i32 or f32 tiles (one 32-byte row), registered.
// TADD and TMAX write r_o (lane k at bits [32*k +: 32]); TCMP writes mask_o, bit k = lane k's
// comparison, the predicate byte pto-isa's TCMP packs. i32 adds wrap; f32 adds round to nearest
// even (pto_f32_add, normal operands only: range_err_o); f32 TMAX and TCMP order normal values by
// sign and magnitude (no zeros, infinities or NaNs are sent). swap_lt_le_i is the injected bug: LT
// and LE trade places in the compare decoder.
module pto_lane_unit (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         swap_lt_le_i,
  input  logic         valid_i,
  input  logic [1:0]   op_i,       // pto_lane_unit's op codes: OpAdd, OpMax, OpCmp
  input  logic         float_i,    // 1: f32 lanes, 0: i32
  input  logic [2:0]   cmp_i,      // CmpMode numbering of pto-isa: EQ 0, NE 1, LT 2, LE 3, GT 4, GE 5
  input  logic [255:0] a_i,
  input  logic [255:0] b_i,
  output logic         valid_o,
  output logic [255:0] r_o,
  output logic [7:0]   mask_o,
  output logic         range_err_o
);
  localparam logic [1:0] OpAdd = 2'd0, OpMax = 2'd1, OpCmp = 2'd2;
  localparam logic [2:0] CmpEq = 3'd0, CmpNe = 3'd1, CmpLt = 3'd2, CmpLe = 3'd3, CmpGt = 3'd4, CmpGe = 3'd5;

  logic [255:0] fadd, r_d, r_q;
  logic [7:0]   lt, eq, mask_d, mask_q, add_err;
  logic [2:0]   cmp;
  logic         valid_q, err_q;

  for (genvar k = 0; k < 8; k++) begin : g_lane
    logic [31:0] a, b;
    assign a = a_i[32*k +: 32];
    assign b = b_i[32*k +: 32];

    pto_f32_add u_add (
      .a_i        (a),
      .b_i        (b),
      .r_o        (fadd[32*k +: 32]),
      .range_err_o(add_err[k])
    );

    always_comb begin
      eq[k] = a == b;
      if (!float_i) begin
        lt[k] = $signed(a) < $signed(b);
      end else if (a[31] != b[31]) begin
        lt[k] = a[31];
      end else begin
        lt[k] = a[31] ? a[30:0] > b[30:0] : a[30:0] < b[30:0];
      end
    end
  end

  always_comb begin
    cmp = cmp_i;
    if (swap_lt_le_i && cmp_i == CmpLt) cmp = CmpLe;
    if (swap_lt_le_i && cmp_i == CmpLe) cmp = CmpLt;
    unique case (cmp)
      CmpEq:   mask_d = eq;
      CmpNe:   mask_d = ~eq;
      CmpLt:   mask_d = lt;
      CmpLe:   mask_d = lt | eq;
      CmpGt:   mask_d = ~(lt | eq);
      CmpGe:   mask_d = ~lt;
      default: mask_d = '0;
    endcase

    r_d = '0;
    for (int k = 0; k < 8; k++) begin
      unique case (op_i)
        OpAdd:   r_d[32*k +: 32] = float_i ? fadd[32*k +: 32] : a_i[32*k +: 32] + b_i[32*k +: 32];
        OpMax:   r_d[32*k +: 32] = lt[k] ? b_i[32*k +: 32] : a_i[32*k +: 32];
        default: r_d[32*k +: 32] = '0;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      err_q   <= 1'b0;
      r_q     <= '0;
      mask_q  <= '0;
    end else begin
      valid_q <= valid_i;
      err_q   <= valid_i && float_i && op_i == OpAdd && |add_err;
      if (valid_i) begin
        r_q    <= op_i == OpCmp ? '0 : r_d;
        mask_q <= op_i == OpCmp ? mask_d : '0;
      end
    end
  end

  assign valid_o     = valid_q;
  assign r_o         = r_q;
  assign mask_o      = mask_q;
  assign range_err_o = err_q;
endmodule

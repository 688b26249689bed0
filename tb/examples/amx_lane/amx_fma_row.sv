// The lane slice of AMX matfp f32 z += x*y for one Z row: Lanes fused multiply-adds of X lane i
// with one Y lane (the row's j), registered. A row of f32 matfp is z[4j + zrow][i] += x[i] * y[j];
// the bench selects j with a Y enable of "lane j only" so the model writes exactly this row.
module amx_fma_row #(
  parameter int unsigned Lanes = 16
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  trunc_i,      // the injected bug: truncate instead of rounding
  input  logic                  valid_i,
  input  logic [Lanes*32-1:0]   x_i,          // lane i at bits [32*i +: 32]
  input  logic [31:0]           y_i,
  input  logic [Lanes*32-1:0]   z_i,
  output logic                  valid_o,
  output logic [Lanes*32-1:0]   z_o,
  output logic                  range_err_o   // some lane's operands are outside amx_fma_f32's range
);
  logic [Lanes*32-1:0] z_d, z_q;
  logic [Lanes-1:0]    lane_err;
  logic                valid_q, err_q;

  for (genvar i = 0; i < Lanes; i++) begin : g_lane
    amx_fma_f32 u_fma (
      .trunc_i    (trunc_i),
      .x_i        (x_i[32*i +: 32]),
      .y_i        (y_i),
      .z_i        (z_i[32*i +: 32]),
      .r_o        (z_d[32*i +: 32]),
      .range_err_o(lane_err[i])
    );
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      err_q   <= 1'b0;
      z_q     <= '0;
    end else begin
      valid_q <= valid_i;
      err_q   <= valid_i && |lane_err;
      if (valid_i) z_q <= z_d;
    end
  end

  assign valid_o     = valid_q;
  assign z_o         = z_q;
  assign range_err_o = err_q;
endmodule

// tmu_delay_line: Depth register stages on a result, the slots a pipelined unit spends after its
// datapath (tmu_mac_array, tmu_elw_unit, tmu_gmpool_unit: Latency - 2 stages). Depth = 0 is a
// plain wire.
//
// valid_i[m] marks the data at stage m's input as valid this cycle (valid_i[0]: data_i's,
// valid_i[Depth]: data_o's); a stage loads only then and holds otherwise, so an idle line does not
// toggle. The units pass the valid bits their operations already carry, valid_q[Latency-1:1].
module tmu_delay_line #(
  parameter int unsigned Width = 32,
  parameter int unsigned Depth = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [Depth:0]   valid_i,
  input  logic [Width-1:0] data_i,
  output logic [Width-1:0] data_o
);

  // One register per stage (a single vector over all stages would be one very wide reset
  // constant at the units' widths, 8k bits per stage for a full MAC array).
  logic [(Depth + 1)*Width-1:0] delayed;  // [0]: data_i; [m + 1]: stage m
  assign delayed[0 +: Width] = data_i;

  for (genvar m = 0; m < Depth; m++) begin : g_delay
    logic [Width-1:0] stage_d, stage_q;

    assign stage_d = valid_i[m] ? delayed[m*Width +: Width] : stage_q;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        stage_q <= '0;
      end else begin
        stage_q <= stage_d;
      end
    end

    assign delayed[(m + 1)*Width +: Width] = stage_q;
  end

  assign data_o = delayed[Depth*Width +: Width];

  // The output's valid bit only completes the picture for the caller; no stage needs it.
  logic unused_valid;
  assign unused_valid = valid_i[Depth];

  if (Depth == 0) begin : g_wire
    // Without stages the clock and reset drive nothing.
    logic unused_clk;
    assign unused_clk = clk_i ^ rst_ni;
  end

endmodule

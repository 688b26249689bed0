// tmu_unit_pipe: the timing of a pipelined functional unit (tmu_mvmul_block, tmu_elw_unit,
// tmu_gmpool_unit). An operation taken with valid_i passes the unit's two datapath register stages
// (in its elements or columns: term and accum, or compare and write), then Latency - 2 result
// stages here - the slots a full unit spends reading Src/Dst and writing Dst back - and leaves with
// valid_o exactly Latency cycles after valid_i, one operation per cycle.
//
// A result stage loads only while it receives a valid result and holds otherwise, so an idle unit
// does not toggle. Latency = 2 makes the result stages a wire.
module tmu_unit_pipe #(
  parameter int unsigned Width   = 32,
  parameter int unsigned Latency = 4
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             valid_i,        // an operation enters the first datapath stage
  output logic             second_valid_o, // ... the one that entered a cycle ago is in the second
  input  logic [Width-1:0] result_i,       // the second stage's registered result
  output logic             valid_o,
  output logic [Width-1:0] result_o
);

  localparam int unsigned Depth = (Latency > 2) ? Latency - 2 : 0;

  // valid_q[0]: an operation is in the second stage; valid_q[1]: its result is registered
  // (result_i); valid_q[1 + m]: it is in result stage m.
  logic [Latency-1:0] valid_d, valid_q;
  assign valid_d = {valid_q[Latency-2:0], valid_i};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_q <= '0;
    else         valid_q <= valid_d;
  end

  // One register per stage (a single vector over all stages would be one very wide reset
  // constant at the units' widths, 8k bits per stage for a full MVMUL block).
  logic [(Depth + 1)*Width-1:0] delayed;  // [0]: result_i; [m + 1]: stage m
  assign delayed[0 +: Width] = result_i;

  for (genvar m = 0; m < Depth; m++) begin : g_delay
    logic [Width-1:0] stage_d, stage_q;

    assign stage_d = valid_q[m + 1] ? delayed[m*Width +: Width] : stage_q;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        stage_q <= '0;
      end else begin
        stage_q <= stage_d;
      end
    end

    assign delayed[(m + 1)*Width +: Width] = stage_q;
  end

  assign second_valid_o = valid_q[0];
  assign valid_o        = valid_q[Latency-1];
  assign result_o       = delayed[Depth*Width +: Width];

`ifndef SYNTHESIS
  if (Latency < 2) begin : g_latency_check
    $error("tmu_unit_pipe: Latency must be at least 2 (two datapath register stages)");
  end
`endif

endmodule

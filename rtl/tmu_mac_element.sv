// tmu_mac_element: one output element of MVMUL / DOTPV / GAPOOL, pipelined in two register stages
// (refmodel src/fpu/elementwise.cpp mvmul_element):
//
//   stage 1 "multiply": 16 tmu_fidelity_slice products of SrcA[k][j] x SrcB[i][k], products 0..7
//            and 8..15 each aligned and summed by a tmu_align_group_sum, and the stored Dst value
//            read as an accumulator word (tmu_dst_to_acc)          -> groups_q, dst_word_q
//   stage 2 "accumulate": tmu_accum_normalize of the two group terms with the Dst word, packed
//            back into the Dst layout (tmu_acc_to_dst)             -> result_o (registered)
//
// The split balances the two halves: a 5x7 multiply, an eight-way exponent maximum, the product
// alignment and an eight-input add on one side; the three-way alignment, add, leading-zero count
// and rounding on the other. The mode comes from tmu_mac_array, which holds one copy for all
// elements and delays it alongside the data: the *_s1 inputs belong to the operation entering
// stage 1, the *_s2 inputs to the one entering stage 2. Registers load only with their stage's
// valid, so an idle array does not toggle. Float styles only; INT8 math needs the integer
// accumulator (int8_math.cpp), which this element does not have.
module tmu_mac_element (
  input  logic                                           clk_i,
  input  logic                                           rst_ni,

  // ---- stage 1 ----
  input  logic                                           s1_valid_i,
  // Datum k in bits [k*SrcDatumW +: SrcDatumW]: SrcA[k][j] (the element's column), SrcB[i][k].
  input  logic [tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] srca_col_i,
  input  logic [tmu_pkg::SrcCols*tmu_pkg::SrcDatumW-1:0] srcb_row_i,
  input  logic [31:0]                                    dst_stored_i,  // 16-bit formats: 15:0
  input  tmu_pkg::src_style_e                            srca_style_s1_i,
  input  tmu_pkg::src_style_e                            srcb_style_s1_i,
  input  logic                                           dst32_s1_i,
  input  tmu_pkg::fidelity_phase_t                       phase_s1_i,
  input  tmu_pkg::dst_format_e                           dst_format_s1_i,

  // ---- stage 2 ----
  input  logic                                           s2_valid_i,
  input  logic                                           dst32_s2_i,
  input  logic                                           exponent_8b_s2_i,
  input  logic                                           minus_one_quirk_s2_i,
  input  tmu_pkg::dst_format_e                           dst_format_s2_i,

  output logic [31:0]                                    result_o  // the new stored Dst value
);

  localparam int unsigned NumProducts = tmu_pkg::SrcCols;
  localparam int unsigned DatumW      = tmu_pkg::SrcDatumW;
  localparam int unsigned ProductW    = tmu_pkg::SliceProductW;
  localparam int unsigned GroupW      = tmu_pkg::ProductsPerGroup * ProductW;
  localparam int unsigned TermW       = tmu_pkg::AccTermW;

  // ---- stage 1: multiply, align, group sums ----
  logic [NumProducts*ProductW-1:0] products;
  logic [2*TermW-1:0]              groups_d, groups_q;
  tmu_pkg::acc_word_t              dst_word_d, dst_word_q;

  for (genvar k = 0; k < NumProducts; k++) begin : g_slice
    tmu_fidelity_slice u_slice (
      .srca_i                   (srca_col_i[k*DatumW +: DatumW]),
      .srcb_i                   (srcb_row_i[k*DatumW +: DatumW]),
      .srca_style_i             (srca_style_s1_i),
      .srcb_style_i             (srcb_style_s1_i),
      .dst32_i                  (dst32_s1_i),
      .phase_i                  (phase_s1_i),
      .srcb_zero_flag_disabled_i(1'b0),  // MVMUL always flushes zero-exponent SrcB datums
      .product_o                (products[k*ProductW +: ProductW])
    );
  end

  logic [2*TermW-1:0] group_terms;

  for (genvar g = 0; g < 2; g++) begin : g_group
    tmu_align_group_sum u_group (
      .products_i(products[g*GroupW +: GroupW]),
      .term_o    (group_terms[g*TermW +: TermW])
    );
  end

  tmu_pkg::acc_word_t dst_word;

  tmu_dst_to_acc u_dst_to_acc (
    .stored_i(dst_stored_i),
    .format_i(dst_format_s1_i),
    .word_o  (dst_word)
  );

  assign groups_d   = s1_valid_i ? group_terms : groups_q;
  assign dst_word_d = s1_valid_i ? dst_word : dst_word_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      groups_q   <= '0;
      dst_word_q <= '0;
    end else begin
      groups_q   <= groups_d;
      dst_word_q <= dst_word_d;
    end
  end

  // ---- stage 2: accumulate with Dst, normalise, round, pack ----
  tmu_pkg::acc_word_t      acc_word;
  tmu_pkg::accum_outcome_e unused_outcome;  // for a testbench's trace; the array only stores
  logic [31:0]             stored;
  logic [31:0]             result_d, result_q;

  tmu_accum_normalize u_accum (
    .group0_i         (groups_q[0 +: TermW]),
    .group1_i         (groups_q[TermW +: TermW]),
    .dst_i            (dst_word_q),
    .dst32_i          (dst32_s2_i),
    .exponent_8b_i    (exponent_8b_s2_i),
    .minus_one_quirk_i(minus_one_quirk_s2_i),
    .result_o         (acc_word),
    .outcome_o        (unused_outcome)
  );

  tmu_acc_to_dst u_acc_to_dst (
    .word_i  (acc_word),
    .format_i(dst_format_s2_i),
    .stored_o(stored)
  );

  assign result_d = s2_valid_i ? stored : result_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      result_q <= '0;
    end else begin
      result_q <= result_d;
    end
  end

  assign result_o = result_q;

`ifndef SYNTHESIS
  if (NumProducts != 2 * tmu_pkg::ProductsPerGroup) begin : g_width_check
    $error("tmu_mac_element: a dot product is two groups of ProductsPerGroup products");
  end
`endif

endmodule

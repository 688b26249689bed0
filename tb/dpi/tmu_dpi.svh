// tmu scoreboard, SystemVerilog side of the DPI-C boundary: the `import "DPI-C"` declarations of
// libtmu_dpi (Tensix, tmu_sb_*; AMX and PTO, tmu_eng_*, at the end). `include this file inside the
// testbench's package or module. Values only: no hierarchical references, no VPI. The record these
// calls build is documented in scoreboard.md (installed as <prefix>/share/doc/tmu/scoreboard.md).
//
// Conventions
//  - Every call takes the handle from tmu_sb_create. Calls returning int give >= 0 on success and
//    -1 on an error (bad handle, value out of range, unknown field name, call out of order); the
//    reason is then in tmu_sb_last_error(h). A checker should $fatal on -1.
//  - operand: 0 = SrcA (unpacker 0), 1 = SrcB (unpacker 1).
//  - A Src row is packed as bit [15:0][18:0]: column c is bits [19*c+18 : 19*c].
//  - A Dst row (one DstBits storage row, 0..1023) is packed as bit [15:0][15:0]: column c is bits
//    [16*c+15 : 16*c]. A Dst32b value occupies two storage rows (high half at Adj32(row), low half
//    8 rows on); report both.
//  - format: the 4-bit data format code (0 FP32, 1 FP16, 5 BF16, 4 TF32, 14 INT8, ...).
//  - owner bits: 1 = the Matrix Unit holds the bank (AllowedClient = MatrixUnit), 0 = the Unpackers.

// ---- Session ----
// arch: "blackhole" or "wormhole". replay_command: the command that replays a failing run, with
// placeholders {test} {seed} {cycle} {thread} {replay}. replay_dir: where failing instructions are
// saved as `tmu run` programs ("" = only in the report). Returns null on a bad arch.
import "DPI-C" function chandle tmu_sb_create(input string arch, input string test_name,
                                              input longint unsigned seed, input string replay_command,
                                              input string replay_dir);
import "DPI-C" function void tmu_sb_destroy(input chandle h);

// ---- Stimulus (mirror what the testbench drives into the RTL) ----
// scope: "config" (index = config state 0/1), "threadconfig", "addrmod" (index = slot 0..7), "rwc",
// "global". name: the ISA's field name, e.g. ALU_ACC_CTRL_Fp32_enabled, FIDELITY_BASE_Phase, SrcAIncr.
import "DPI-C" function int tmu_sb_set_field(input chandle h, input string scope, input string name,
                                             input int unsigned thread, input int unsigned index,
                                             input int unsigned value);
import "DPI-C" function int tmu_sb_set_addr_mod(input chandle h, input int unsigned thread,
                                                input int unsigned slot,
                                                input int unsigned srca_incr, input bit srca_cr,
                                                input bit srca_clear, input int unsigned srcb_incr,
                                                input bit srcb_cr, input bit srcb_clear,
                                                input int unsigned dest_incr, input bit dest_cr,
                                                input bit dest_clear, input bit dest_c_to_cr,
                                                input int unsigned fidelity_incr, input bit fidelity_clear,
                                                input int unsigned bias_incr, input bit bias_clear);
// The unpacker writes one row of the bank it points at (tagging the bank with the format); the
// Matrix Unit must not hold that bank.
import "DPI-C" function int tmu_sb_unpack_src_row(input chandle h, input int unsigned operand,
                                                  input int unsigned row, input bit [303:0] values,
                                                  input int unsigned format);
// The unpacker sets dvalid: its bank goes to the Matrix Unit, it moves to the other bank.
import "DPI-C" function int tmu_sb_hand_over_src_bank(input chandle h, input int unsigned operand);
// Back-door initial state.
import "DPI-C" function int tmu_sb_preload_src_row(input chandle h, input int unsigned operand,
                                                   input int unsigned bank, input int unsigned row,
                                                   input bit [303:0] values);
import "DPI-C" function int tmu_sb_set_src_bank(input chandle h, input int unsigned operand,
                                                input int unsigned bank, input bit matrix_unit_owns,
                                                input int unsigned format);
import "DPI-C" function int tmu_sb_set_unpacker_bank(input chandle h, input int unsigned operand,
                                                     input int unsigned bank);
import "DPI-C" function int tmu_sb_preload_dst_row(input chandle h, input int unsigned row,
                                                   input bit [255:0] values, input bit valid);
import "DPI-C" function int tmu_sb_preload_gpr(input chandle h, input int unsigned thread,
                                               input int unsigned index, input int unsigned value);

// ---- One retired instruction: begin, report every write, retire ----
import "DPI-C" function int tmu_sb_obs_begin(input chandle h, input int unsigned thread,
                                             input int unsigned word, input longint unsigned cycle);
// What the RTL did with it: 0 executed, 1 refused as a decode error, 2 as undefined, 3 as
// unsupported (a refused instruction must change nothing; the model must refuse it for that reason).
import "DPI-C" function int tmu_sb_obs_verdict(input chandle h, input int unsigned verdict);
import "DPI-C" function int tmu_sb_obs_dst_row(input chandle h, input int unsigned row,
                                               input bit [255:0] values, input bit valid);
// A row whose validity changed and whose bits did not (ZEROACC).
import "DPI-C" function int tmu_sb_obs_dst_valid(input chandle h, input int unsigned row, input bit valid);
import "DPI-C" function int tmu_sb_obs_src_row(input chandle h, input int unsigned operand,
                                               input int unsigned bank, input int unsigned row,
                                               input bit [303:0] values);
import "DPI-C" function int tmu_sb_obs_gpr(input chandle h, input int unsigned thread,
                                           input int unsigned index, input int unsigned value);
// The issuing thread's RWCs after the instruction.
import "DPI-C" function int tmu_sb_obs_rwcs(input chandle h, input int unsigned dst, input int unsigned dst_cr,
                                            input int unsigned srca, input int unsigned srca_cr,
                                            input int unsigned srcb, input int unsigned srcb_cr,
                                            input int unsigned fidelity_phase,
                                            input int unsigned extra_addr_mod_bit);
// Bank state after the instruction: bit b of srca_owners/srcb_owners = bank b held by the Matrix Unit.
import "DPI-C" function int tmu_sb_obs_banks(input chandle h, input int unsigned srca_bank,
                                             input int unsigned srcb_bank, input bit [1:0] srca_owners,
                                             input bit [1:0] srcb_owners, input int unsigned unpacker0_bank,
                                             input int unsigned unpacker1_bank);
import "DPI-C" function int tmu_sb_obs_last_srca_row(input chandle h, input int unsigned row);
// Optional per-stage values of one element (row = storage row, the high half for Dst32b).
import "DPI-C" function int tmu_sb_obs_probe_groups(input chandle h, input int unsigned row,
                                                    input int unsigned col,
                                                    input bit g0_sign, input int g0_exponent,
                                                    input int unsigned g0_mantissa,
                                                    input bit g1_sign, input int g1_exponent,
                                                    input int unsigned g1_mantissa);
import "DPI-C" function int tmu_sb_obs_probe_accum(input chandle h, input int unsigned row,
                                                   input int unsigned col,
                                                   input int unsigned magnitude,
                                                   input int unsigned result_word);
// Executes the word on the model and compares. Returns the number of mismatches it produced.
import "DPI-C" function int tmu_sb_retire(input chandle h);

// ---- End of test: dump the RTL's whole state, then compare ----
// dump_begin starts from the model's configuration with all data (Dst, Src, GPRs, RWCs, bank
// ownership and pointers) cleared, so anything not dumped compares as zero.
import "DPI-C" function int tmu_sb_dump_begin(input chandle h);
import "DPI-C" function int tmu_sb_dump_dst_row(input chandle h, input int unsigned row,
                                                input bit [255:0] values, input bit valid);
// The packer's Dst read port: the 8-row window at `row` (a multiple of 8) of the 16-bit view (DstBits
// rows) or the 32-bit view (Dst32b rows 0..511), lane 16*k+c = bits [32*(16*k+c) +: 32], compared
// with the model's Dst now (Scoreboard::compare_dst_read). Returns the number of mismatches.
import "DPI-C" function int tmu_sb_dump_dst_read(input chandle h, input int unsigned row, input bit dst32,
                                                 input bit [4095:0] lanes);
import "DPI-C" function int tmu_sb_dump_src_row(input chandle h, input int unsigned operand,
                                                input int unsigned bank, input int unsigned row,
                                                input bit [303:0] values);
import "DPI-C" function int tmu_sb_dump_src_bank(input chandle h, input int unsigned operand,
                                                 input int unsigned bank, input bit matrix_unit_owns,
                                                 input int unsigned format);
import "DPI-C" function int tmu_sb_dump_gpr(input chandle h, input int unsigned thread,
                                            input int unsigned index, input int unsigned value);
import "DPI-C" function int tmu_sb_dump_rwcs(input chandle h, input int unsigned thread,
                                             input int unsigned dst, input int unsigned dst_cr,
                                             input int unsigned srca, input int unsigned srca_cr,
                                             input int unsigned srcb, input int unsigned srcb_cr,
                                             input int unsigned fidelity_phase,
                                             input int unsigned extra_addr_mod_bit);
import "DPI-C" function int tmu_sb_dump_banks(input chandle h, input int unsigned srca_bank,
                                              input int unsigned srcb_bank, input int unsigned unpacker0_bank,
                                              input int unsigned unpacker1_bank,
                                              input int unsigned last_srca_row);
// Returns the number of final-state mismatches.
import "DPI-C" function int tmu_sb_final_compare(input chandle h);

// ---- Queries ----
import "DPI-C" function longint unsigned tmu_sb_mismatch_count(input chandle h);
import "DPI-C" function longint unsigned tmu_sb_retired_count(input chandle h);
// Every kept mismatch report (valid until the next call on this handle).
import "DPI-C" function string tmu_sb_report(input chandle h);
import "DPI-C" function string tmu_sb_last_error(input chandle h);

// ---- Co-simulation driver (tmu's own testbench, tmu_tb) ----
// The session the host program opened (tmu_tb_open); the handle serves the tmu_sb_* calls too.
import "DPI-C" function chandle tmu_drv_current();
// The next back-door preload. kind: 0 none left; 1 Dst row (a = DstBits row, b = valid, data = 16 x 16
// bits); 2 Src row (a = operand, b = bank, c = row, data = 16 x 19 bits); 3 bank state (a = operand,
// b = bank, c = Matrix Unit owns it, d = format); 4 bank pointers (a = operand, b = Matrix Unit bank,
// c = unpacker bank); 5 GPR (a = thread, b = index, d = value); 6 configuration write (a = scope,
// b = index, c = thread, d = field, e = value: tmu_top's cfg port).
import "DPI-C" function int tmu_drv_preload(input chandle h, output int unsigned kind, output int unsigned a,
                                            output int unsigned b, output int unsigned c, output int unsigned d,
                                            output int unsigned e, output bit [303:0] data);
// What to drive this cycle; unp_bank_mu_owned[op]: the bank unpacker op points at is held by the
// Matrix Unit.
import "DPI-C" function int tmu_drv_drive(input chandle h, input bit [1:0] unp_bank_mu_owned,
                                          output bit issue_valid, output int unsigned issue_thread,
                                          output int unsigned issue_word, output bit cfg_we,
                                          output int unsigned cfg_scope, output int unsigned cfg_index,
                                          output int unsigned cfg_thread, output int unsigned cfg_field,
                                          output int unsigned cfg_value, output bit [1:0] unp_we,
                                          output int unsigned unp_row0, output int unsigned unp_row1,
                                          output bit [303:0] unp_data0, output bit [303:0] unp_data1,
                                          output int unsigned unp_format0, output int unsigned unp_format1,
                                          output bit [1:0] unp_dvalid);
// Which requests completed at this clock edge.
import "DPI-C" function int tmu_drv_handshake(input chandle h, input bit issue, input bit cfg,
                                              input bit [1:0] unp_we, input bit [1:0] unp_dvalid);
// Retires the observation built since tmu_sb_obs_begin (coverage, scoreboard, ordering); returns the
// number of mismatches. gpr_unit: the GPR unit retired it (else the Matrix Unit).
import "DPI-C" function int tmu_drv_retire(input chandle h, input bit gpr_unit);
// RTL events of this cycle, bit i: src_wait_stall, dst_hazard_stall, src_hazard_stall,
// shiftxb_second_cycle, gpr_thread_blocked (coverage; a Dst hazard stall in a test that has no Dst
// hazards is a failure, reported with its cycle).
import "DPI-C" function int tmu_drv_event(input chandle h, input int unsigned mask, input longint unsigned cycle);
// 0 running, 1 finished (stream done, all retired), 2 stuck (deadlock watchdog).
import "DPI-C" function int tmu_drv_status(input chandle h);

// ---- Engine scoreboards: any engine of the registry with a generic
// scoreboard, AMX and PTO today (scoreboard.md, "Engine scoreboards"). The engine defines the
// text of locations, declarations and operations; data travels as 32-bit words, lane 0 in the low
// bits of word 0. Calls returning int give >= 0 on success and -1 on an error, whose reason is then
// in tmu_eng_last_error(h).
// engine: "amx" or "pto"; variant: "" for the engine's default, else "M1".."M4" (amx) or "cpusim",
// "a2a3" (pto). Returns null for an unknown engine or variant; tmu_eng_last_error(null) says why.
import "DPI-C" function chandle tmu_eng_create(input string engine, input string variant, input string test_name,
                                               input longint unsigned seed);
import "DPI-C" function void tmu_eng_destroy(input chandle h);
// State the engine cannot know by itself: a PTO tile "NAME TYPE ROWSxCOLS [layout] [valid=VRxVC]".
import "DPI-C" function int tmu_eng_declare(input chandle h, input string text);
// The design's state at `location` now holds `words` (exactly as many as the location has).
import "DPI-C" function int tmu_eng_load(input chandle h, input string location, input int unsigned words[]);
// Runs one operation on the model: an AMX matfp operand "0x..." or text, a PTO operation line.
import "DPI-C" function int tmu_eng_execute(input chandle h, input string operation);
// The design produced `words` at `location`: returns the number of mismatching lanes (each kept
// as one line of tmu_eng_report).
import "DPI-C" function int tmu_eng_compare(input chandle h, input string location, input int unsigned words[]);
// One lane without an array: `location` names one lane (AMX "z 5 lane 3", PTO "c 0 5"), `lane_bits`
// its width (8, 16, 32 or 64), `bits` its value in the low bits. Return as tmu_eng_load and
// tmu_eng_compare.
import "DPI-C" function int tmu_eng_load_lane(input chandle h, input string location, input int lane_bits,
                                              input longint unsigned bits);
import "DPI-C" function int tmu_eng_compare_lane(input chandle h, input string location, input int lane_bits,
                                                 input longint unsigned bits);
// Each step that fails from now on is written to `dir` (made if missing) as <test>_step<N>.tmu, a
// program for `tmu --engine E run` that runs the step on the model alone, named on the step's first
// mismatch line with its command; "" turns it off (the line then says how to turn it on).
import "DPI-C" function int tmu_eng_replay_dir(input chandle h, input string dir);
// The model's words at `location` (the array must have exactly as many); returns their number.
import "DPI-C" function int tmu_eng_read(input chandle h, input string location, output int unsigned words[]);
import "DPI-C" function longint unsigned tmu_eng_mismatch_count(input chandle h);
// A header line and every kept mismatch line (valid until the next call on this handle).
import "DPI-C" function string tmu_eng_report(input chandle h);
import "DPI-C" function string tmu_eng_last_error(input chandle h);

// Typed helpers over tmu_eng_*: a 64-byte AMX row as bit [511:0] (byte i at bits [8*i +: 8]), a
// 64-bit matfp operand, and a 32-byte PTO row (8 f32/i32, 16 f16/i16 or 32 i8 lanes; lane k of
// width W at bits [W*k +: W]) as bit [255:0].
// With Verilator 5.006, make each call a statement of its own: a ?: between two calls, or an
// if/else whose arms each only assign one variable from a call, makes the calls of every arm, and
// each compare records its lanes (scoreboard.md, "Engine scoreboards").
function automatic int tmu_amx_load(chandle h, string location, bit [511:0] row);
  int unsigned w[16];
  for (int i = 0; i < 16; i++) w[i] = row[32*i +: 32];
  tmu_amx_load = tmu_eng_load(h, location, w);
endfunction
function automatic int tmu_amx_load_x_reg(chandle h, int unsigned r, bit [511:0] row);
  tmu_amx_load_x_reg = tmu_amx_load(h, $sformatf("x %0d", r), row);
endfunction
function automatic int tmu_amx_load_y_reg(chandle h, int unsigned r, bit [511:0] row);
  tmu_amx_load_y_reg = tmu_amx_load(h, $sformatf("y %0d", r), row);
endfunction
function automatic int tmu_amx_load_z_row(chandle h, int unsigned r, bit [511:0] row);
  tmu_amx_load_z_row = tmu_amx_load(h, $sformatf("z %0d", r), row);
endfunction
function automatic int tmu_amx_execute(chandle h, bit [63:0] operand);
  tmu_amx_execute = tmu_eng_execute(h, $sformatf("0x%016h", operand));
endfunction
// Returns the number of mismatching lanes of Z row r.
function automatic int tmu_amx_compare_z_row(chandle h, int unsigned r, bit [511:0] row);
  int unsigned w[16];
  for (int i = 0; i < 16; i++) w[i] = row[32*i +: 32];
  tmu_amx_compare_z_row = tmu_eng_compare(h, $sformatf("z %0d", r), w);
endfunction
// One lane of Z row r, X register r or Y register r (file "z", "x", "y") in the last operand's lane
// type: f32 lanes 0..15, f16/bf16 0..31 (the value in bits [15:0]), f64 0..7.
function automatic int tmu_amx_compare_lane32(chandle h, string file, int unsigned r, int unsigned lane, bit [31:0] v);
  tmu_amx_compare_lane32 = tmu_eng_compare_lane(h, $sformatf("%s %0d lane %0d", file, r, lane), 32, 64'(v));
endfunction
function automatic int tmu_amx_compare_lane16(chandle h, string file, int unsigned r, int unsigned lane, bit [15:0] v);
  tmu_amx_compare_lane16 = tmu_eng_compare_lane(h, $sformatf("%s %0d lane %0d", file, r, lane), 16, 64'(v));
endfunction
function automatic int tmu_amx_compare_lane64(chandle h, string file, int unsigned r, int unsigned lane, bit [63:0] v);
  tmu_amx_compare_lane64 = tmu_eng_compare_lane(h, $sformatf("%s %0d lane %0d", file, r, lane), 64, v);
endfunction
function automatic int tmu_amx_load_lane32(chandle h, string file, int unsigned r, int unsigned lane, bit [31:0] v);
  tmu_amx_load_lane32 = tmu_eng_load_lane(h, $sformatf("%s %0d lane %0d", file, r, lane), 32, 64'(v));
endfunction
// Element (r, c) of a PTO tile of `lane_bits`-bit elements (8, 16, 32, 64), the value in the low bits.
function automatic int tmu_pto_load_elem(chandle h, string tile, int unsigned r, int unsigned c, int lane_bits,
                                         bit [63:0] v);
  tmu_pto_load_elem = tmu_eng_load_lane(h, $sformatf("%s %0d %0d", tile, r, c), lane_bits, v);
endfunction
function automatic int tmu_pto_compare_elem(chandle h, string tile, int unsigned r, int unsigned c, int lane_bits,
                                            bit [63:0] v);
  tmu_pto_compare_elem = tmu_eng_compare_lane(h, $sformatf("%s %0d %0d", tile, r, c), lane_bits, v);
endfunction
function automatic int tmu_pto_load_row256(chandle h, string tile, int unsigned r, bit [255:0] row);
  int unsigned w[8];
  for (int i = 0; i < 8; i++) w[i] = row[32*i +: 32];
  tmu_pto_load_row256 = tmu_eng_load(h, $sformatf("%s %0d", tile, r), w);
endfunction
// Returns the number of mismatching lanes of row r of the tile.
function automatic int tmu_pto_compare_row256(chandle h, string tile, int unsigned r, bit [255:0] row);
  int unsigned w[8];
  for (int i = 0; i < 8; i++) w[i] = row[32*i +: 32];
  tmu_pto_compare_row256 = tmu_eng_compare(h, $sformatf("%s %0d", tile, r), w);
endfunction

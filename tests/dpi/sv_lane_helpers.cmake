# ctest dpi.sv_lane_helpers: tmu_dpi.svh's typed lane helpers called from SystemVerilog through
# Verilator (tb/dpi/sv_lanes/): tmu_amx_load_lane32, the AMX row loads, tmu_amx_execute,
# tmu_amx_compare_lane32/16/64, tmu_pto_load_elem and tmu_pto_compare_elem. Clean, every lane agrees
# with the model; with +plant one lane of each compare is one more than the hand-worked result, and
# each is reported alone (count 1), named by its lane, with both values.
# Usage: cmake -DBENCH=<tmu_dpi_lanes_sv> -P sv_lane_helpers.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../cli/lib/expect.cmake)
set(TMU ${BENCH})

tmu_expect(0)
expect_contains("clean: every lane agrees" "${out}" "tmu_dpi_lanes: PASS amx_mismatches=0 pto_mismatches=0")

tmu_expect(1 +plant)
foreach(call "amx f32 z 0 lane 5" "amx f16 z 0 lane 17" "amx f64 z 0 lane 3" "pto f32 c 0 6" "pto i16 c 0 9")
  expect_contains("the planted lane's compare returns 1" "${out}" "tmu_dpi_lanes: ${call}: 1 mismatch\n")
endforeach()
expect_contains("one mismatch per planted lane, none other" "${out}"
  "tmu_dpi_lanes: FAIL amx_mismatches=3 pto_mismatches=2")
expect_contains("the AMX report counts three lanes" "${out}"
  "tmu amx scoreboard (M1), test 'sv_lanes', seed 1: 3 mismatching lanes\n")
expect_contains("the PTO report counts two lanes" "${out}"
  "tmu pto scoreboard (cpusim), test 'sv_lanes', seed 1: 2 mismatching lanes\n")
# 0.25 + 1.5 * 2 = 3.25 in each width (f32 0x40500000, f16 0x4280, f64 0x400a000000000000); the
# planted value is one more.
expect_contains("f32 lane named" "${out}" "z row 0 lane 5 (f32): design 0x40500001 (0x1.a00002p+1) model 0x40500000 (3.25)")
expect_contains("f16 lane named" "${out}" "z row 0 lane 17 (f16): design 0x4281 (3.251953125) model 0x4280 (3.25)")
expect_contains("f64 lane named" "${out}"
  "z row 0 lane 3 (f64): design 0x400a000000000001 (0x1.a000000000001p+1) model 0x400a000000000000 (3.25)")
# 1.5 + 0.25 = 1.75 (0x3fe00000); 100 * 9 - 7 = 893 (0x037d).
expect_contains("PTO f32 element named" "${out}" "f32c (0, 6) f32: design 0x3fe00001 (0x1.c00002p+0) model 0x3fe00000 (1.75)")
expect_contains("PTO i16 element named" "${out}" "i16c (0, 9) i16: design 0x037e (894) model 0x037d (893)")
foreach(other "lane 0 (f32)" "lane 4 (f32)" "lane 16 (f16)" "(0, 5) f32" "(0, 8) i16")
  string(FIND "${out}" "${other}" pos)
  if(NOT pos EQUAL -1)
    message(FATAL_ERROR "an unplanted lane is reported (${other}):\n${out}")
  endif()
endforeach()

# The a5 example programs under vectors/programs/pto/ against the values worked out by hand in their
# comments: bits_and_wraps_a5 (TAND on f32 bits, i8 wrapping; refused by a2a3 and cpusim),
# tcvt_a5 (TCVT rounding and saturation per pair) and profiles_differ (u32 TPOW: a2a3 and a5 both
# run it and differ); `.assume none` refuses the first float lane of each with the reason.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(MAKE_DIRECTORY ${WORK})

# Runs vectors/programs/pto/NAME.tmu under PROFILE, showing SHOW; the JSON in `out`, the text in `text`.
macro(run_program name profile show)
  set(prog ${SRC}/vectors/programs/pto/${name}.tmu)
  file(READ ${prog} text)
  tmu_expect(0 --engine pto run ${prog} --profile ${profile} --show ${show} --indent -1)
  string(JSON got GET "${out}" profile)
  expect_equal("${name} profile" "${got}" "${profile}")
endmacro()

# Row 0 of TILE in `out`, from column 0: the values given.
function(expect_row tile)
  set(c 0)
  foreach(want ${ARGN})
    string(JSON got GET "${out}" tiles ${tile} values 0 ${c})
    expect_equal("${tile}[0][${c}]" "${got}" "${want}")
    math(EXPR c "${c} + 1")
  endforeach()
endfunction()

# Whether the JSON names the assumption a5-ieee (expected: TRUE or FALSE).
function(expect_assumption name expected)
  string(JSON got ERROR_VARIABLE missing GET "${out}" assumption)
  if(expected AND NOT got MATCHES "a5-ieee")
    message(FATAL_ERROR "${name}: no assumption a5-ieee in the JSON")
  elseif(NOT expected AND NOT missing)
    message(FATAL_ERROR "${name}: an assumption in the JSON of integer lanes: ${got}")
  endif()
endfunction()

# `.assume none` prepended: the run stops at LINE (now one further down) with the reason.
function(expect_assume_none_refusal name line op pair)
  file(WRITE ${WORK}/${name}_none.tmu ".assume none\n${text}")
  tmu_expect(2 --engine pto run ${WORK}/${name}_none.tmu --profile a5)
  expect_contains("${name} .assume none" "${err}"
                  "${name}_none.tmu:${line}: Unsupported: ${op} (a5): ${pair} lanes on a5 are computed only under the assumption a5-ieee, which is switched off")
endfunction()

run_program(bits_and_wraps_a5 a5 ax,s,w)
expect_assumption(bits_and_wraps_a5 TRUE)
expect_row(ax 1.5 2 0.25 3 65536 0.5 8 1)
expect_row(s 0 4 0 6 0 1 0 2)
expect_row(w -128 -127 101 -99 2 3 4 0)
string(JSON got GET "${out}" tiles s bits 0 0)
expect_equal("s[0][0] is +0" "${got}" "0x00000000")
foreach(c 8 31)
  string(JSON got GET "${out}" tiles w values 0 ${c})
  expect_equal("w[0][${c}], outside the valid region" "${got}" "0")
endforeach()
# TAND still runs under `.assume none` (raw bits); the f32 TADD is refused.
expect_assume_none_refusal(bits_and_wraps_a5 34 TADD f32)
foreach(profile a2a3 cpusim)
  tmu_expect(2 --engine pto run ${prog} --profile ${profile})
  expect_contains("${profile}" "${err}" "bits_and_wraps_a5.tmu:32: Unsupported: TAND (${profile}): element type f32 is not accepted")
endforeach()

run_program(tcvt_a5 a5 y,z,h)
expect_assumption(tcvt_a5 TRUE)
expect_row(y 2 2 -2 2147483647 -2 0 40000 -40000)
expect_row(z 2 2 -2 -1 -2 0 -25536 25536)
expect_row(h 1.5 2.5 -2.5 65504 -1.5 0.5 40000 -40000)
expect_assume_none_refusal(tcvt_a5 20 TCVT "f32 to i32")
# An f32 source read into an i32 tile is still a float lane: the JSON names the assumption.
file(WRITE ${WORK}/to_int.tmu ".tile x f32 1x8\n.tile y i32 1x8\n.set x 0 0 1.5\nTCVT y x round=RINT\n")
tmu_expect(0 --engine pto run ${WORK}/to_int.tmu --profile a5 --indent -1)
expect_assumption("f32 -> i32" TRUE)
expect_row(y 2)

# f8 tiles: TAND's raw bits need no assumption (0x7f & 0xb8 = 0x38, printed as its OCP value 1);
# TCVT f32 -> f8e5m2 does (1.1875 rounds to nearest even, 1.25 = 0x3d).
file(WRITE ${WORK}/f8.tmu ".tile a f8e4m3 1x32\n.tile c f8e4m3 1x32\n.bits a fill 0x7f\n.bits c fill 0xb8\nTAND c a c\n")
tmu_expect(0 --engine pto run ${WORK}/f8.tmu --profile a5 --indent -1)
expect_assumption("f8 TAND" FALSE)
expect_row(c 1 1)
file(APPEND ${WORK}/f8.tmu ".tile x f32 1x32\n.tile g f8e5m2 1x32\n.set x 0 0 1.1875\nTCVT g x\n")
tmu_expect(0 --engine pto run ${WORK}/f8.tmu --profile a5 --indent -1)
expect_assumption("f8 TCVT" TRUE)
expect_row(g 1.25 0)
string(JSON got GET "${out}" tiles g bits 0 0)
expect_equal("g[0][0] bits" "${got}" "0x3d")
tmu_expect(2 --engine pto run ${WORK}/f8.tmu --profile a2a3)
expect_contains("f8 on a2a3" "${err}" "f8.tmu:5: Unsupported: TAND (a2a3): the 8-bit float types are A5-only")

run_program(profiles_differ a5 p)
expect_assumption(profiles_differ FALSE)
expect_row(p 243 1 3 8 49)
run_program(profiles_differ a2a3 p)
expect_row(p 243 0 0 8 0)

# The A5 formula cost model estimates TCVT (docs/pto-cycles.md, "A5"): f32 -> f16 4x256 valid 4x200
# is 2D with 128 lanes a repeat, inner 2, outer 4: (2.2580054 x 2 + 1.0422433) x 4 + 55.18408 =
# 77.417 -> 77; f32 -> i32 has no row in formula_params.csv and carries the reason instead.
file(WRITE ${WORK}/tcvt_cycles.tmu ".tile x f32 4x256 valid=4x200\n.tile h f16 4x256 valid=4x200\n"
                                   ".tile i i32 4x256 valid=4x200\nTCVT h x round=RINT\nTCVT i x round=RINT\n")
tmu_expect(0 --engine pto run ${WORK}/tcvt_cycles.tmu --profile a5 --indent -1)
string(JSON got GET "${out}" a5_cycles operations 0 cycles)
expect_equal("a5_cycles TCVT f32->f16" "${got}" "77")
string(JSON got GET "${out}" a5_cycles total)
expect_equal("a5_cycles total" "${got}" "77")
string(JSON got GET "${out}" a5_cycles operations 1 reason)
expect_contains("a5_cycles TCVT f32->i32" "${got}" "no TCVT curve from f32 to i32")

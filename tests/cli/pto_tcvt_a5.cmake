# vectors/programs/pto/tcvt_a5.tmu against the values worked out by hand in its comments: TCVT under
# --profile a5 (f32 -> i32 saturating by default, i32 -> i16 keeping the low bits by default,
# f32 -> f16 toward zero with sat=off), the assumption named in the JSON; `.assume none` refuses the
# first TCVT (an f32 side) with the reason.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
set(prog ${SRC}/vectors/programs/pto/tcvt_a5.tmu)

tmu_expect(0 --engine pto run ${prog} --profile a5 --show y,z,h --indent -1)
string(JSON got GET "${out}" assumption)
expect_contains("assumption" "${got}" "a5-ieee")
set(y 2 2 -2 2147483647 -2 0 40000 -40000)
set(z 2 2 -2 -1 -2 0 -25536 25536)
set(h 1.5 2.5 -2.5 65504 -1.5 0.5 40000 -40000)
foreach(c RANGE 7)
  foreach(tile y z h)
    list(GET ${tile} ${c} want)
    string(JSON got GET "${out}" tiles ${tile} values 0 ${c})
    expect_equal("${tile}[0][${c}]" "${got}" "${want}")
  endforeach()
endforeach()

file(READ ${prog} text)
file(MAKE_DIRECTORY ${WORK})
# An f32 source read into an i32 tile is still a float lane: the JSON names the assumption.
file(WRITE ${WORK}/to_int.tmu ".tile x f32 1x8\n.tile y i32 1x8\n.set x 0 0 1.5\nTCVT y x round=RINT\n")
tmu_expect(0 --engine pto run ${WORK}/to_int.tmu --profile a5 --indent -1)
string(JSON got GET "${out}" assumption)
expect_contains("f32 -> i32 assumption" "${got}" "a5-ieee")
string(JSON got GET "${out}" tiles y values 0 0)
expect_equal("y[0][0]" "${got}" "2")
file(WRITE ${WORK}/assume_none.tmu ".assume none\n${text}")
tmu_expect(2 --engine pto run ${WORK}/assume_none.tmu --profile a5)
expect_contains(".assume none" "${err}" "assume_none.tmu:20: Unsupported: TCVT (a5): f32 to i32 lanes on a5 are computed only under the assumption a5-ieee, which is switched off")

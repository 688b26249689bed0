# The PTO example programs against the values worked out by hand in their comments, and the
# program features the examples do not use.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
file(MAKE_DIRECTORY ${WORK})

# TCMP (LT, u8 predicate) then TSEL.
tmu_expect(0 --engine pto run ${SRC}/vectors/programs/pto/cmp_select.tmu --show p,m --indent -1)
string(JSON n GET "${out}" operations)
expect_equal("operations" "${n}" "2")
string(JSON shown LENGTH "${out}" tiles)
expect_equal("--show p,m prints two tiles" "${shown}" "2")
set(p_row0 0xa1 0x22)
foreach(c RANGE 31)
  set(want 0x00)
  if(c LESS 2)
    list(GET p_row0 ${c} want)
  endif()
  string(JSON got GET "${out}" tiles p bits 0 ${c})
  expect_equal("p[0][${c}]" "${got}" "${want}")
  set(want 0x00)
  if(c LESS 2)
    set(want 0xff)
  endif()
  string(JSON got GET "${out}" tiles p bits 1 ${c})
  expect_equal("p[1][${c}]" "${got}" "${want}")
endforeach()
set(m_row0 1 -3 3.5 0 1 -inf 0 7 7 9 -10 nan -1 -1 0.25 -100)
foreach(c RANGE 15)
  list(GET m_row0 ${c} want)
  string(JSON got GET "${out}" tiles m values 0 ${c})
  expect_equal("m[0][${c}]" "${got}" "${want}")
  string(JSON got GET "${out}" tiles m values 1 ${c})
  expect_equal("m[1][${c}]" "${got}" "1")
endforeach()
string(JSON got GET "${out}" tiles m bits 0 11)
expect_equal("m[0][11] is b's NaN, copied" "${got}" "0x7fc00000")

# The two-way softmax: TEXP, TADD, TRECIP, TMUL on f16, every step worked out in the program.
tmu_expect(0 --engine pto run ${SRC}/vectors/programs/pto/softmax_row.tmu --show e0,e1,s,r,p0 --indent -1)
string(JSON n GET "${out}" operations)
expect_equal("operations" "${n}" "5")
set(e0 1 2.71875 0.367919921875 7.390625 1.6484375)
set(e1 1 1 2.71875 0.1353759765625 0.6064453125)
set(s 2 3.71875 3.0859375 7.52734375 2.25390625)
set(r 0.5 0.268798828125 0.323974609375 0.1328125 0.443603515625)
set(p0 0.5 0.73095703125 0.11920166015625 0.9814453125 0.7314453125)
foreach(row RANGE 4)
  foreach(tile e0 e1 s r p0)
    list(GET ${tile} ${row} want)
    foreach(col 0 17 39)
      string(JSON got GET "${out}" tiles ${tile} values ${row} ${col})
      expect_equal("${tile}[${row}][${col}]" "${got}" "${want}")
    endforeach()
    string(JSON got GET "${out}" tiles ${tile} values ${row} 40)
    expect_equal("${tile}[${row}][40], outside the valid region" "${got}" "0")
  endforeach()
endforeach()
foreach(col 0 39 63)
  string(JSON got GET "${out}" tiles p0 values 5 ${col})
  expect_equal("p0[5][${col}], outside the valid region" "${got}" "0")
endforeach()

# In place, a dynamic valid region, column-major storage, integer text and .bits; the lanes
# outside the valid region keep their values.
file(WRITE ${WORK}/inplace.tmu
  ".tile a i8 32x4 col_major valid=2x3\n"
  ".tile b i8 32x4 col_major valid=2x3\n"
  ".set a fill 100\n.set b fill 0x7f\n"
  ".set b 1 0 -128 -1 0xfe\n"
  "TADD a a b  # 100 + 127 = 227 = -29 (mod 256); 100 - 128 = -28; 100 - 1 = 99; 100 - 2 = 98\n"
  ".valid a 1x1\n.valid b 1x1\n"
  "TNEG a a    # -(-29) = 29\n"
  ".tile w u16 1x16\n.bits w 0 0 0xffff 0x8000\n")
tmu_expect(0 --engine pto run ${WORK}/inplace.tmu --indent -1 --trace)
foreach(cell "0;0;29" "0;1;-29" "0;2;-29" "0;3;100" "1;0;-28" "1;1;99" "1;2;98" "2;0;100")
  list(GET cell 0 r)
  list(GET cell 1 c)
  list(GET cell 2 want)
  string(JSON got GET "${out}" tiles a values ${r} ${c})
  expect_equal("a[${r}][${c}]" "${got}" "${want}")
endforeach()
string(JSON got GET "${out}" tiles a bits 0 1)
expect_equal("a[0][1] as bits" "${got}" "0xe3")
string(JSON got GET "${out}" tiles a valid)
expect_equal("a's valid region" "${got}" "[ 1, 1 ]")
string(JSON got GET "${out}" tiles w values 0 0)
expect_equal("u16 0xffff" "${got}" "65535")
expect_contains("--trace" "${err}" "inplace.tmu:6: TADD a a b")
expect_contains("--trace" "${err}" "inplace.tmu:9: TNEG a a")

# TCVT in two rounding modes. Ties: RINT to even (-0.5 gives 0), ROUND away from zero (-0.5 gives -1).
# 1e9 is an f32 (1953125 * 2^9), so it converts exactly.
file(WRITE ${WORK}/cvt.tmu
  ".profile cpusim\n"
  ".tile f f32 1x8 valid=1x5\n.tile i i32 1x8 valid=1x5\n.tile j i32 1x8 valid=1x5\n"
  ".set f 0 0 2.5 -2.5 3.5 -0.5 1e9 0x1p31 -0x1p31 0.75\n"
  "TCVT i f round=RINT\n"
  "TCVT j f round=ROUND sat=off\n")
tmu_expect(0 --engine pto run ${WORK}/cvt.tmu --show i,j --indent -1)
string(JSON got GET "${out}" tiles i values 0)
expect_equal("TCVT RINT" "${got}" "[ \"2\", \"-2\", \"4\", \"0\", \"1000000000\", \"0\", \"0\", \"0\" ]")
string(JSON got GET "${out}" tiles j values 0)
expect_equal("TCVT ROUND" "${got}" "[ \"3\", \"-3\", \"4\", \"-1\", \"1000000000\", \"0\", \"0\", \"0\" ]")

# The A2/A3 cost model's estimate of each operation (docs/pto-cycles.md). TADD f32 2x16: the row
# (16 lanes) is shorter than a 64-lane repeat, so a lane mask, one vadd of a repeat per row (head 10
# + 2 x 2) and the full mask again: 1 + 14 + 1 = 16. TMUL f16 4x128 with 3x128 valid: whole rows,
# 3 repeats of 128 lanes in one vmul: 10 + 2 x 3 = 16. TCVT f32 -> i32 2x16: 64 lanes per repeat, so no
# whole repeat; set_ctrl, the 16-lane mask, vconv_f322s32r with a repeat per row (head 14 + 2 x 2), the
# full mask, set_ctrl: 1 + 1 + 18 + 1 + 1 = 22. The cost model cannot run TPOW: null and the reason.
file(WRITE ${WORK}/cycles.tmu
  ".tile a f32 2x16\n.tile b f32 2x16\nTADD a a b\n"
  ".tile h f16 4x128 valid=3x128\nTMUL h h h\n"
  ".tile i i32 2x16\nTCVT i a round=RINT\n"
  ".tile p f32 2x16\nTPOW p a b\n")
tmu_expect(0 --engine pto run ${WORK}/cycles.tmu --show a --indent -1)
string(JSON got GET "${out}" a2a3_cycles operations 0 cycles)
expect_equal("TADD f32 2x16 cycles" "${got}" "16")
string(JSON got GET "${out}" a2a3_cycles operations 0 calls 1 call)
expect_equal("TADD's vector call" "${got}" "vadd")
string(JSON got GET "${out}" a2a3_cycles operations 1 cycles)
expect_equal("TMUL f16 3x128 cycles" "${got}" "16")
string(JSON got GET "${out}" a2a3_cycles operations 2 cycles)
expect_equal("TCVT f32 -> i32 2x16 cycles" "${got}" "22")
string(JSON got GET "${out}" a2a3_cycles operations 2 calls 2 call)
expect_equal("TCVT's vconv" "${got}" "vconv_f322s32r")
string(JSON got TYPE "${out}" a2a3_cycles operations 3 cycles)
expect_equal("TPOW: no estimate" "${got}" "NULL")
string(JSON got GET "${out}" a2a3_cycles operations 3 reason)
expect_contains("TPOW: the reason" "${got}" "TPOW")
string(JSON got GET "${out}" a2a3_cycles total)
expect_equal("total over the estimated operations" "${got}" "54")

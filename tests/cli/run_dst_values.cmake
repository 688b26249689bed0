# tmu run --show dst/dst32 lists rows in numeric order, and --values adds each datum decoded in the
# named format. Bit patterns and values worked out by hand from the Dst layouts (formats.h):
#   bf16:64.5   = 1.0000001b * 2^6: Dst16 BF16 mantissa(14:8) 0x01, exponent(7:0) 133 = 0x85 -> 0x0185
#   fp16:-1.5   = -1.1b * 2^0: sign 1, mantissa(14:5) 0x200, exponent(4:0) 15 -> 0x8000|0x4000|0x0f = 0xc00f
#   int8:-7     : sign 1, magnitude(14:5) 7, marker(4:0) 16 -> 0x8000|0x00e0|0x0010 = 0x80f0
#   fp32:-0.1875 = -1.1b * 2^-3, IEEE 0xbe400000: Dst32 mantissa high 7 bits(30:24) 0x40, exponent(23:16)
#                 124 = 0x7c, low 16 bits 0 -> 0xc07c0000
#   fp32:2      = IEEE 0x40000000: exponent 128 = 0x80 in 23:16 -> 0x00800000
#   int32:-100000: magnitude 0x186a0: bits 22:16 (0x01) in 30:24, bits 15:0 (0x86a0) in 15:0 -> 0x810086a0
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/dst16.tmu ".dst16 100 fill int8:-7\n.dst16 2 fill bf16:64.5\n.dst16 10 fill fp16:-1.5\n")
file(WRITE ${WORK}/dst32.tmu ".dst32 20 fill fp32:2\n.dst32 3 fill fp32:-0.1875\n.dst32 1 fill int32:-100000\n")

include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)

# tmu run with JSON on one line.
function(tmu_run status)
  tmu_expect(${status} run ${ARGN} --indent -1)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

# The rows in the order printed (CMake's string(JSON) sorts members, so this reads the text).
function(row_order json result)
  string(REGEX MATCHALL "\"[0-9]+\":{" keys "${json}")
  string(REGEX REPLACE "\"([0-9]+)\":{" "\\1" keys "${keys}")
  set(${result} "${keys}" PARENT_SCOPE)
endfunction()

tmu_run(0 ${WORK}/dst16.tmu --show dst)
row_order("${out}" rows)
expect_equal("Dst16 row order" "${rows}" "2;10;100")
foreach(check "2;0x0185" "10;0xc00f" "100;0x80f0")
  list(GET check 0 row)
  list(GET check 1 bits)
  string(JSON got GET "${out}" dst ${row} bits 15)
  expect_equal("Dst row ${row} bits" "${got}" "${bits}")
endforeach()
string(JSON has_values ERROR_VARIABLE none GET "${out}" dst 2 values)
if(NOT none)
  message(FATAL_ERROR "values printed without --values")
endif()

foreach(check "bf16;2;64.5" "fp16;10;-1.5" "INT8;100;-7")
  list(GET check 0 format)
  list(GET check 1 row)
  list(GET check 2 value)
  tmu_run(0 ${WORK}/dst16.tmu --show dst --values ${format})
  string(JSON got GET "${out}" dst ${row} values 0)
  expect_equal("--values ${format}: Dst row ${row}" "${got}" "${value}")
  string(JSON got GET "${out}" dst ${row} values 15)
  expect_equal("--values ${format}: Dst row ${row} column 15" "${got}" "${value}")
endforeach()

tmu_run(0 ${WORK}/dst32.tmu --show dst32)
row_order("${out}" rows)
expect_equal("Dst32 row order" "${rows}" "1;3;20")
foreach(check "1;0x810086a0" "3;0xc07c0000" "20;0x00800000")
  list(GET check 0 row)
  list(GET check 1 bits)
  string(JSON got GET "${out}" dst32 ${row} bits 0)
  expect_equal("Dst32 row ${row} bits" "${got}" "${bits}")
endforeach()
foreach(check "fp32;3;-0.1875" "fp32;20;2" "bf16;20;2" "int32;1;-100000")
  list(GET check 0 format)
  list(GET check 1 row)
  list(GET check 2 value)
  tmu_run(0 ${WORK}/dst32.tmu --show dst32 --values ${format})
  string(JSON got GET "${out}" dst32 ${row} values 7)
  expect_equal("--values ${format}: Dst32 row ${row}" "${got}" "${value}")
endforeach()

# A 32-bit format has no reading in the 16-bit rows; an unknown format is refused.
tmu_run(2 ${WORK}/dst32.tmu --values fp32)
string(FIND "${err}" "--values fp32: Dst16b rows hold bf16, fp16 or int8" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "--values fp32 with the 16-bit rows: unexpected message:\n${err}")
endif()
tmu_run(2 ${WORK}/dst16.tmu --values fp8)
string(FIND "${err}" "--values fp8: Tensix Dst reads as bf16 fp16 int8 tf32 fp32 int32" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "--values fp8: unexpected message:\n${err}")
endif()

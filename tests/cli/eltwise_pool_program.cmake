# vectors/programs/eltwise_pool.tmu: Dst32b values worked out by hand in the program's comments, as
# FP32 in the Dst32b layout (sign | mantissa 22:16 | exponent | mantissa 15:0).
execute_process(COMMAND ${TMU} run ${SRC}/vectors/programs/eltwise_pool.tmu --show dst32 --indent -1
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tmu run failed (${rc}): ${err}")
endif()
# row col expected: 3.5 = 0x40600000 -> 0x60800000; 1.75 = 0x3fe00000 -> 0x607f0000;
# -0.5 = 0xbf000000 -> 0x807e0000; 1.25 = 0x3fa00000 -> 0x207f0000; 6.5 = 0x40d00000 -> 0x50810000;
# 4.75 = 0x40980000 -> 0x18810000; 8.625 = 0x410a0000 -> 0x0a820000; 6 = 0x40c00000 -> 0x40810000;
# 3 = 0x40400000 -> 0x40800000.
set(cases "0 0 0x60800000" "0 1 0x607f0000" "7 15 0x607f0000" "8 0 0x807e0000" "9 3 0x207f0000"
          "16 0 0x50810000" "16 1 0x18810000" "24 5 0x0a820000" "25 5 0x40810000" "27 15 0x40810000"
          "32 0 0x40800000" "32 9 0x40800000" "33 0 0x00000000" "35 15 0x00000000" "40 2 0x0a820000"
          "47 2 0x40810000" "48 0 0x0a820000" "54 11 0x0a820000")
foreach(case ${cases})
  separate_arguments(f UNIX_COMMAND "${case}")
  list(GET f 0 row)
  list(GET f 1 col)
  list(GET f 2 want)
  string(JSON got GET "${out}" dst32 ${row} bits ${col})
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "Dst32b[${row}][${col}] = ${got}, expected ${want}")
  endif()
endforeach()
foreach(row 28 49 51 53 55)
  string(JSON missing ERROR_VARIABLE absent GET "${out}" dst32 ${row})
  if(NOT absent)
    message(FATAL_ERROR "Dst32b row ${row} should not have been written")
  endif()
endforeach()

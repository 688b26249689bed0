# vectors/programs/matmul_32x32_hifi4.tmu: the matmul LLK sequence from words as embedded in the
# kernel binary. Every output of the 32x32 tile is 32 * 1.0078125 * 2 = 64.5 = FP32 0x42810000, whose
# Dst32b layout (sign | mantissa 22:16 | exponent | mantissa 15:0, Dst.md) is 0x01850000 - worked out
# by hand: mantissa 0x010000 -> high seven bits 0000001, exponent 133 = 0x85, low sixteen bits 0.
execute_process(COMMAND ${TMU} run ${SRC}/vectors/programs/matmul_32x32_hifi4.tmu --show dst32,rwcs,banks --indent -1
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tmu run failed (${rc}): ${err}")
endif()
foreach(row RANGE 0 63)
  foreach(col 0 7 15)
    string(JSON got GET "${out}" dst32 ${row} bits ${col})
    if(NOT got STREQUAL "0x01850000")
      message(FATAL_ERROR "Dst32b[${row}][${col}] = ${got}, expected 0x01850000")
    endif()
  endforeach()
endforeach()
string(JSON has64 ERROR_VARIABLE no64 GET "${out}" dst32 64)
if(NOT no64)
  message(FATAL_ERROR "Dst32b row 64 was written; the tile is rows 0..63")
endif()
string(JSON phase GET "${out}" rwcs 0 FidelityPhase)
string(JSON srcb_owner GET "${out}" banks SrcB 0 AllowedClient)
string(JSON srcb_bank GET "${out}" banks SrcBBank)
if(NOT phase EQUAL 0 OR NOT srcb_owner STREQUAL "Unpackers" OR NOT srcb_bank EQUAL 1)
  message(FATAL_ERROR "end of tile: FidelityPhase ${phase} (want 0), SrcB[0] ${srcb_owner} (want Unpackers), SrcBBank ${srcb_bank} (want 1)")
endif()

# vectors/programs/l1_matmul.tmu: L1 -> UNPACR -> MVMUL -> PACR -> L1, the bytes worked out by hand in
# the program's comments; then the CLI's refusals of L1 programs (exit status 2 with the reason).
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
tmu_expect(0 run ${SRC}/vectors/programs/l1_matmul.tmu --show dst,l1:0x2000:256,l1:0x20f0:32 --indent -1)
expect_json("dst;0;bits;0" "0x4084")
expect_json("dst;7;bits;15" "0x4084")
expect_json("l1;0x002000;0" "0x40")
expect_json("l1;0x002000;1" "0x42")
expect_json("l1;0x0020f0;14" "0x40")
expect_json("l1;0x0020f0;15" "0x42")
expect_json("l1;0x002100;0" "0x00")  # past the 256 bytes PACR wrote
string(JSON none ERROR_VARIABLE absent GET "${out}" dst 8)
if(NOT absent)
  message(FATAL_ERROR "Dst row 8 should not have been written")
endif()

# The same region as lines (--format lines), made from the JSON by the same code.
execute_process(COMMAND ${TMU} run ${SRC}/vectors/programs/l1_matmul.tmu --show l1:0x20f8:8 --format lines
                OUTPUT_VARIABLE lines RESULT_VARIABLE rc)
string(FIND "${lines}" "l1.0x0020f8: 0x40 0x42 0x40 0x42 0x40 0x42 0x40 0x42\n" pos)
if(NOT rc EQUAL 0 OR pos EQUAL -1)
  message(FATAL_ERROR "tmu run --format lines: ${rc}\n${lines}")
endif()

# Refusals: each exits 2 and names the reason.
function(refused program_text show want)
  file(WRITE ${WORK}/bad.tmu "${program_text}")
  tmu_expect(2 run ${WORK}/bad.tmu ${show})
  expect_contains("${program_text}" "${err}" "${want}")
endfunction()
file(MAKE_DIRECTORY ${WORK})
refused(".arch wormhole\n.l1 0x16e000 u8 1\n" "" "L1 address")                       # 1464 KiB is past Wormhole's L1
refused(".arch blackhole\n.l1 0x17fffe u32 1\n" "" "leave L1")                        # overflow
refused(".arch blackhole\nDMANOP\n" "--show=l1:0x17fff0:32" "leave L1")               # --show past L1
refused(".arch blackhole\n.config THCON_SEC0_REG0_TileDescriptor_IsUncompressed=1\nUNPACR RowSearch=1\n" ""
        "RowSearch: row search")                                                      # an unmodelled mode
refused(".arch blackhole\n.config THCON_SEC0_REG1_L1_Dest_addr=0x17fff PCK_DEST_RD_CTRL_Read_32b_data=1\n.adc packer 1 X=15\nPACR Last=1\n" ""
        "leave L1")                                                                   # PACR past L1's end

# Bad input must give a clear error naming the place and the reason, and exit status 2.
file(MAKE_DIRECTORY ${WORK})

function(expect_failure description expected_text)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "${description}: exit status ${rc}, expected 2\nstdout: ${out}\nstderr: ${err}")
  endif()
  string(FIND "${err}" "${expected_text}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "${description}: stderr lacks '${expected_text}':\n${err}")
  endif()
endfunction()

file(WRITE ${WORK}/unknown_directive.tmu ".thread 0\n\n.frobnicate 1\n")
expect_failure("unknown directive" "unknown_directive.tmu:3: unknown directive '.frobnicate'"
               ${TMU} run ${WORK}/unknown_directive.tmu)

expect_failure("a mnemonic one edit away" "unknown mnemonic \"MVMULL\" (did you mean 'MVMUL'?)" ${TMU} asm "MVMULL DstRow=0")
expect_failure("a field one edit away" "MVMUL has no field \"DstRw\" (did you mean 'DstRow'?)" ${TMU} asm "MVMUL DstRw=0")

file(WRITE ${WORK}/bad_field.tmu "SETRWC SrcA=1\nMVMUL DstRow=5000\n")
expect_failure("field out of range" "bad_field.tmu:2:" ${TMU} run ${WORK}/bad_field.tmu)

file(WRITE ${WORK}/stall.tmu "# the Unpackers still own SrcA\nTRNSPSRCB\n")
expect_failure("stall with no one to release the bank" "stall.tmu:2: TRNSPSRCB stalls" ${TMU} run ${WORK}/stall.tmu)

file(WRITE ${WORK}/bad_value.tmu ".srca 0 0 fill bf16:1.3\n")
expect_failure("value not representable" "bad_value.tmu:1:" ${TMU} run ${WORK}/bad_value.tmu)

file(WRITE ${WORK}/short_row.tmu ".srcb 0 3 0x1 0x2\n")
expect_failure("short row" "short_row.tmu:1: expected 16 column values" ${TMU} run ${WORK}/short_row.tmu)

file(WRITE ${WORK}/unclosed.tmu ".repeat 2\nDMANOP\n")
expect_failure("unclosed repeat" "unclosed.tmu:1:" ${TMU} run ${WORK}/unclosed.tmu)

file(WRITE ${WORK}/late_arch.tmu "DMANOP\n.arch wormhole\n")
expect_failure("arch after instructions" "late_arch.tmu:2:" ${TMU} run ${WORK}/late_arch.tmu)

expect_failure("missing program file" "cannot open file" ${TMU} run ${WORK}/does_not_exist.tmu)
expect_failure("reserved opcode" "0xff000000" ${TMU} dis 0xff000000)
expect_failure("not a hex word" "is not a 32-bit hex word" ${TMU} dis 0x1234567890)
expect_failure("unknown mnemonic" "FOO" ${TMU} asm "FOO Bar=1")
expect_failure("unknown architecture" "arch" ${TMU} --arch grayskull dis 0x26000000)

# A directive or field one edit away is named.
file(WRITE ${WORK}/near_directive.tmu ".thred 0\n")
expect_failure("a directive one edit away" "near_directive.tmu:1: unknown directive '.thred' (did you mean '.thread'?)"
               ${TMU} run ${WORK}/near_directive.tmu)
file(WRITE ${WORK}/near_field.tmu ".config ALU_ACC_CTRL_Fp32_enable=1\n")
expect_failure("a field one edit away" "has no field 'ALU_ACC_CTRL_Fp32_enable' (did you mean 'ALU_ACC_CTRL_Fp32_enabled'?)"
               ${TMU} run ${WORK}/near_field.tmu)

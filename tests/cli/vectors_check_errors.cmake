# tmu check: malformed input is "file:line: reason" with exit status 2; a wrong expected value is a
# diff naming the location with exit status 1; a manifest that disagrees with its directory is 1.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(expect_status description status stream expected_text)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL ${status})
    message(FATAL_ERROR "${description}: exit status ${rc}, expected ${status}\nstdout: ${out}\nstderr: ${err}")
  endif()
  if(stream STREQUAL "stderr")
    set(text "${err}")
  else()
    set(text "${out}")
  endif()
  string(FIND "${text}" "${expected_text}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "${description}: ${stream} lacks '${expected_text}':\nstdout: ${out}\nstderr: ${err}")
  endif()
endfunction()

set(good "tmu-vectors 1\narch blackhole\nvector add\nthread 1\ninit gpr 1 4 00000005\ninit gpr 1 5 fffffffe\ninsn 58006144\nexpect gpr 1 6 00000003\nend\neof 1\n")
file(WRITE ${WORK}/good.tmv "${good}")
expect_status("a good hand-written vector" 0 stdout "1 files, 1 vectors, 1 element-cases, 1 locations: all match"
              ${TMU} check ${WORK}/good.tmv)

string(REPLACE "00000003" "00000004" wrong "${good}")
file(WRITE ${WORK}/wrong.tmv "${wrong}")
expect_status("a wrong expected GPR" 1 stdout "wrong.tmv:8: vector add: GPR 6 of thread 1: expected 4, got 3"
              ${TMU} check ${WORK}/wrong.tmv)

string(REPLACE "insn 58006144" "insn ff006144" bad_insn "${good}")
file(WRITE ${WORK}/bad_insn.tmv "${bad_insn}")
expect_status("an unknown instruction" 2 stderr "bad_insn.tmv:7: unknown instruction ff006144" ${TMU} check ${WORK}/bad_insn.tmv)

string(REPLACE "init gpr 1 4 00000005" "init rwc 1 SrcA 40" bad_field "${good}")
file(WRITE ${WORK}/bad_field.tmv "${bad_field}")
expect_status("a field out of range" 2 stderr "bad_field.tmv:5: rwc field SrcA (6 bits) 0x40 is out of range" ${TMU} check ${WORK}/bad_field.tmv)

string(REPLACE "init gpr 1 4 00000005" "init gpr 1 4 5 6" bad_line "${good}")
file(WRITE ${WORK}/bad_line.tmv "${bad_line}")
expect_status("a malformed line" 2 stderr "bad_line.tmv:5: expected 'gpr THREAD INDEX HEX'" ${TMU} check ${WORK}/bad_line.tmv)

string(REPLACE "end\neof 1\n" "" truncated "${good}")
file(WRITE ${WORK}/truncated.tmv "${truncated}")
expect_status("a truncated file" 2 stderr "truncated.tmv:9: truncated file: vector 'add' (line 3) has no 'end'" ${TMU} check ${WORK}/truncated.tmv)

expect_status("a missing file" 2 stderr "does_not_exist.tmv: cannot open file" ${TMU} check ${WORK}/does_not_exist.tmv)

# Bad input wins over a mismatch, and every file is still checked.
expect_status("a mismatch and bad input together" 2 stdout "GPR 6 of thread 1: expected 4, got 3"
              ${TMU} check ${WORK}/wrong.tmv ${WORK}/bad_insn.tmv)

# A directory with a MANIFEST: a file edited after the manifest was written is caught.
execute_process(COMMAND ${TMU} vectors --family gpr -o ${WORK}/set RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tmu vectors --family gpr failed")
endif()
expect_status("a generated directory" 0 stdout "all match" ${TMU} check ${WORK}/set)
file(READ ${WORK}/set/gpr/gpr-dmanop.tmv text)
file(WRITE ${WORK}/set/gpr/gpr-dmanop.tmv "${text}# edited\n")
expect_status("an edited file" 1 stdout "gpr/gpr-dmanop.tmv: SHA-256" ${TMU} check ${WORK}/set)
file(WRITE ${WORK}/set/gpr/stray.tmv "${good}")
expect_status("an unlisted file" 1 stdout "gpr/stray.tmv is not listed in the manifest" ${TMU} check ${WORK}/set)

expect_status("an unknown family" 2 stderr "unknown family 'sfpu'" ${TMU} vectors --family sfpu -o ${WORK}/x)
expect_status("--corpus with a selection" 2 stderr "--corpus fixes the selection" ${TMU} vectors --corpus --family gpr -o ${WORK}/x)

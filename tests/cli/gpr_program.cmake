# Runs vectors/programs/gpr_ops.tmu and checks thread 1's GPRs against the values worked out by hand
# in that file's comments.
execute_process(COMMAND ${TMU} run ${SRC}/vectors/programs/gpr_ops.tmu --show gprs --indent -1
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tmu run failed (${rc}): ${err}")
endif()
set(expected
  "1=0x12345678" "2=0x0000ffff" "3=0x12355677" "4=0x12355680" "5=0xedcca987" "6=0xffffffff"
  "7=0x5677a988" "8=0x003effc1" "9=0xfff00000" "10=0xfff00000" "11=0x0000000f" "12=0x00040000"
  "13=0xfffcffff" "14=0x12345647" "15=0x00000001" "16=0x00000000" "17=0x00000001")
string(JSON thread1 GET "${out}" gprs 1)
foreach(pair ${expected})
  string(REPLACE "=" ";" kv ${pair})
  list(GET kv 0 index)
  list(GET kv 1 want)
  string(JSON got GET "${thread1}" ${index})
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "GPR${index} of thread 1 is ${got}, expected ${want}")
  endif()
endforeach()
string(JSON instructions GET "${out}" instructions)
if(NOT instructions EQUAL 20)
  message(FATAL_ERROR "expected 20 retired instructions, got ${instructions}")
endif()

# --format lines: the same state, a line per value or list of values named by its JSON path (a
# thread's GPRs are one list: GPR0, GPR1, ... as worked out above).
execute_process(COMMAND ${TMU} run ${SRC}/vectors/programs/gpr_ops.tmu --show gprs --format lines
                OUTPUT_VARIABLE lines ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tmu run --format lines failed (${rc}): ${err}")
endif()
foreach(want "gprs.1: 0x00000000 0x12345678 0x0000ffff 0x12355677 0x12355680 0xedcca987 0xffffffff 0x5677a988 0x003effc1 "
             "\ninstructions: 20\n")
  string(FIND "${lines}" "${want}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "tmu run --format lines lacks '${want}':\n${lines}")
  endif()
endforeach()

# ctest gen_isa.timing_refusals: refmodel/engines/tensix/isa/gen_isa.py refuses an ISA table whose timing is missing or out
# of range, with a message that names the instruction and the key. Each case is the real table with
# one change; the unchanged table must pass, so a refusal is the change's doing.
# Usage: cmake -DPYTHON=<python3> -DSRC=<source dir> -DWORK=<scratch dir> -P timing_refusals.cmake
file(MAKE_DIRECTORY ${WORK})
set(schema ${SRC}/refmodel/engines/tensix/isa/tensix_isa.schema.json)
file(READ ${SRC}/refmodel/engines/tensix/isa/tensix_isa.json table)

# Runs the generator on `text`; stderr in `err`, the exit status in `rc`.
function(generate name text)
  file(WRITE ${WORK}/${name}.json "${text}")
  execute_process(COMMAND ${PYTHON} ${SRC}/refmodel/engines/tensix/isa/gen_isa.py --table ${WORK}/${name}.json --schema ${schema}
                          --cpp ${WORK}/${name}.inc --sv ${WORK}/${name}.sv
                  OUTPUT_VARIABLE out ERROR_VARIABLE e RESULT_VARIABLE status)
  set(err "${e}" PARENT_SCOPE)
  set(rc "${status}" PARENT_SCOPE)
endfunction()

function(expect_refused name text expected)
  generate(${name} "${text}")
  if(rc EQUAL 0)
    message(FATAL_ERROR "${name}: gen_isa.py accepted the table")
  endif()
  string(FIND "${err}" "${expected}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "${name}: the message lacks '${expected}':\n${err}")
  endif()
endfunction()

generate(unchanged "${table}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_isa.py refused the unchanged table:\n${err}")
endif()

# Instruction 0 is MVMUL.
string(JSON mvmul GET "${table}" instructions 0 mnemonic)
if(NOT mvmul STREQUAL "MVMUL")
  message(FATAL_ERROR "expected MVMUL first in the table, found ${mvmul}")
endif()

foreach(key issue_cycles latency)
  string(JSON t REMOVE "${table}" instructions 0 ${key})
  expect_refused(no_${key} "${t}" "MVMUL: '${key}' is a required property")
endforeach()

string(JSON t SET "${table}" instructions 0 issue_cycles 0)
expect_refused(zero_issue "${t}" "MVMUL.issue_cycles: 0 is less than the minimum of 1")
string(JSON t SET "${table}" instructions 0 issue_cycles 16)
expect_refused(huge_issue "${t}" "MVMUL.issue_cycles: 16 is greater than the maximum of 15")
string(JSON t SET "${table}" instructions 0 latency 0)
expect_refused(zero_latency "${t}" "MVMUL.latency: 0 is less than the minimum of 1")
string(JSON t SET "${table}" instructions 0 latency 64)
expect_refused(huge_latency "${t}" "MVMUL.latency: 64 is greater than the maximum of 63")
string(JSON t SET "${table}" instructions 0 latency 2.5)
expect_refused(fractional_latency "${t}" "MVMUL.latency: 2.5 is not of type 'integer'")
string(JSON t SET "${table}" instructions 0 issue_cycles "\"2\"")
expect_refused(string_issue "${t}" "MVMUL.issue_cycles: '2' is not of type 'integer'")

string(JSON t REMOVE "${table}" timing_source)
expect_refused(no_source "${t}" "top level: 'timing_source' is a required property")

message("gen_isa.py refuses missing and out-of-range timing, naming the instruction and the key")

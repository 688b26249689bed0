# ctest cosim.break_demo.<break>: scripts/break-demo.sh builds a deliberately broken copy of the RTL
# (a full co-simulation build the first time, then only the RTL model when the copy changed), runs
# each test that must catch a break, and each report's diagnosis must name what was broken
# (docs/scoreboard.md, "Datapath diagnosis").
# Usage: cmake -DSRC=<repo> -DBREAK=<name> -DCHECKS=<run>=<diagnosis>|... -DWORK=<dir> -P break_demo.cmake
execute_process(COMMAND bash ${SRC}/scripts/break-demo.sh ${BREAK} --work ${WORK} --jobs 2
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "break-demo.sh ${BREAK}: exit ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
string(REPLACE "|" ";" checks "${CHECKS}")
set(failed "")
foreach(check IN LISTS checks)
  string(FIND "${check}" "=" eq)
  string(SUBSTRING "${check}" 0 ${eq} run)
  math(EXPR from "${eq} + 1")
  string(SUBSTRING "${check}" ${from} -1 diagnosis)
  file(READ ${WORK}/out-${run}/tmu_tb.log log)
  string(FIND "${log}" "${diagnosis}" pos)
  if(pos EQUAL -1)
    string(REGEX MATCH "  diagnosis [^\n]*" got "${log}")
    string(APPEND failed "\n${run}: the diagnosis does not name the break\n  want: ${diagnosis}\n   got: ${got}")
  else()
    message(STATUS "${run}: ${diagnosis}")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "break-demo.sh ${BREAK}:${failed}")
endif()

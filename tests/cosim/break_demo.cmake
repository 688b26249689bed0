# ctest cosim.break_demo.<break>: scripts/break-demo.sh builds a deliberately broken copy of the RTL
# (a full co-simulation build the first time, then only the RTL model), runs the test that must catch
# it, and the report's diagnosis must name what was broken (docs/scoreboard.md, "Datapath diagnosis").
# Usage: cmake -DSRC=<repo> -DBREAK=<name> -DDIAGNOSIS=<text> -DWORK=<dir> -P break_demo.cmake
execute_process(COMMAND bash ${SRC}/scripts/break-demo.sh ${BREAK} --work ${WORK} --jobs 2
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "break-demo.sh ${BREAK}: exit ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
string(FIND "${out}" "${DIAGNOSIS}" pos)
if(pos EQUAL -1)
  string(REGEX MATCH "  diagnosis [^\n]*" got "${out}")
  message(FATAL_ERROR "break-demo.sh ${BREAK}: the diagnosis does not name the break\nwant: ${DIAGNOSIS}\n got: ${got}")
endif()

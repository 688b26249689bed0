# Helpers of the CLI test scripts (tests/cli/*.cmake, run with -DTMU=<tmu> -DWORK=<dir>). This file
# is in a subfolder because every script directly in tests/cli/ is registered as a test.

# Runs tmu with the arguments; stdout in `out`, stderr in `err`; fails unless the exit status is
# `status`.
function(tmu_expect status)
  execute_process(COMMAND ${TMU} ${ARGN} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(NOT rc EQUAL ${status})
    message(FATAL_ERROR "tmu ${ARGN}: exit status ${rc}, expected ${status}\nstdout: ${o}\nstderr: ${e}")
  endif()
  set(out "${o}" PARENT_SCOPE)
  set(err "${e}" PARENT_SCOPE)
endfunction()

# Runs a command that must succeed (an install, a configure, a build); its stdout in `out`.
function(run what)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: exit status ${rc}\n${o}\n${e}")
  endif()
  set(out "${o}" PARENT_SCOPE)
endfunction()

function(expect_equal what got want)
  if(NOT "${got}" STREQUAL "${want}")
    message(FATAL_ERROR "${what}:\n got: '${got}'\nwant: '${want}'")
  endif()
endfunction()

function(expect_contains what text part)
  string(FIND "${text}" "${part}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "${what}: '${part}' not in:\n${text}")
  endif()
endfunction()

# The value at `json_path` (keys and indices as a ;-list) of the JSON in the caller's `out` is `want`.
function(expect_json json_path want)
  string(JSON got GET "${out}" ${json_path})
  if(NOT got STREQUAL want)
    string(REPLACE ";" "." where "${json_path}")
    message(FATAL_ERROR "${where} = ${got}, expected ${want}")
  endif()
endfunction()

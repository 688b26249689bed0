# `tmu vectors` without -o writes into ./vectors-out: it says so before writing, and the summary
# gives the size. The AMX vectors (a few small files) keep the run short.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
execute_process(COMMAND ${TMU} vectors --engine amx WORKING_DIRECTORY ${WORK}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
expect_equal("tmu vectors without -o: exit status" "${rc}" "0")
expect_contains("the directory is named" "${err}" "tmu vectors: no -o given: writing into ${WORK}/vectors-out")
if(NOT out MATCHES "tmu vectors: [0-9]+ files \\([0-9]+\\.[0-9] MB\\)")
  message(FATAL_ERROR "the summary gives no size: ${out}")
endif()

# The checked-in corpus (vectors/corpus): (a) it replays against the model, from reset state and
# from random state, and its MANIFEST matches; (b) regenerated into the build directory it is byte
# for byte the checked-in corpus, so the corpus cannot drift from the model unnoticed.
set(corpus ${SRC}/vectors/corpus)

execute_process(COMMAND ${TMU} check ${corpus} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "all match")
  message(FATAL_ERROR "tmu check ${corpus}: exit status ${rc}\n${out}\n${err}")
endif()
message(STATUS "${out}")

execute_process(COMMAND ${TMU} check --poison 20240601 ${corpus} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tmu check --poison: exit status ${rc}: init does not list everything an instruction reads\n${out}\n${err}")
endif()

file(REMOVE_RECURSE ${WORK}/corpus)
execute_process(COMMAND ${TMU} vectors --corpus -o ${WORK}/corpus OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tmu vectors --corpus: exit status ${rc}\n${out}\n${err}")
endif()

file(GLOB_RECURSE checked_in RELATIVE ${corpus} ${corpus}/*.tmv)
file(GLOB_RECURSE regenerated RELATIVE ${WORK}/corpus ${WORK}/corpus/*.tmv)
list(APPEND checked_in MANIFEST)
list(APPEND regenerated MANIFEST)
list(SORT checked_in)
list(SORT regenerated)
if(NOT checked_in STREQUAL regenerated)
  set(missing ${regenerated})
  list(REMOVE_ITEM missing ${checked_in})
  set(extra ${checked_in})
  list(REMOVE_ITEM extra ${regenerated})
  message(FATAL_ERROR "the corpus's files differ from a regeneration: not checked in: ${missing}; no longer generated: ${extra}\n"
                      "regenerate with: rm -rf vectors/corpus/blackhole vectors/corpus/wormhole && build/tmu vectors --corpus -o vectors/corpus")
endif()
set(drifted "")
foreach(f ${checked_in})
  file(SHA256 ${corpus}/${f} a)
  file(SHA256 ${WORK}/corpus/${f} b)
  if(NOT a STREQUAL b)
    list(APPEND drifted ${f})
  endif()
endforeach()
if(drifted)
  message(FATAL_ERROR "the model's results drifted from the checked-in corpus in: ${drifted}\n"
                      "diff them against ${WORK}/corpus; if the change is intended, regenerate with: "
                      "rm -rf vectors/corpus/blackhole vectors/corpus/wormhole && build/tmu vectors --corpus -o vectors/corpus")
endif()
list(LENGTH checked_in n)
message(STATUS "corpus: ${n} files regenerate byte for byte")

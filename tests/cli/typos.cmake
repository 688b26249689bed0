# Misspelt words on tmu's command line are named, with the nearest spelling: a subcommand, an option
# of the subcommand given, and an option another subcommand has (saying which). CLI11 alone says "A
# subcommand is required", or that the argument after an unknown option "was not expected".
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)

tmu_expect(2 chek vectors/corpus)
expect_contains("tmu chek" "${err}" "tmu: unknown command 'chek' (did you mean 'check'?)")
tmu_expect(2 vectros)
expect_contains("tmu vectros" "${err}" "tmu: unknown command 'vectros' (did you mean 'vectors'?)")
tmu_expect(2 frobnicate)
expect_contains("tmu frobnicate" "${err}" "tmu: unknown command 'frobnicate' (tmu --help lists them: ")

# `tmu run` has no --fidelity (the program's configuration sets the fidelity); tmu vectors has.
file(WRITE ${WORK}/prog.tmu "")
tmu_expect(2 run --fidelty HiFi4 ${WORK}/prog.tmu)
expect_contains("tmu run --fidelty" "${err}"
                "tmu run: unknown option --fidelty (did you mean '--fidelity'? It is an option of tmu vectors, not of tmu run)")
string(FIND "${err}" "not expected" pos)
if(NOT pos EQUAL -1)
  message(FATAL_ERROR "the misleading CLI11 message is still there:\n${err}")
endif()
# An option of the subcommand itself.
tmu_expect(2 run --fromat lines ${WORK}/prog.tmu)
expect_contains("tmu run --fromat" "${err}" "tmu run: unknown option --fromat (did you mean '--format'?)")
tmu_expect(2 vectors --famly=mvmul --list)
expect_contains("tmu vectors --famly=" "${err}" "tmu vectors: unknown option --famly (did you mean '--family'?)")
tmu_expect(2 run --zzzzzz ${WORK}/prog.tmu)
expect_contains("tmu run --zzzzzz" "${err}" "tmu run: unknown option --zzzzzz (tmu run --help lists the options)")

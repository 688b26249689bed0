# ctest toy.plugin_cli: this build's tmu, unchanged, with the toy engine loaded as a plugin
# (TMU_ENGINE_PLUGINS) runs its programs, writes and checks its vectors and writes its audit table;
# a plugin that cannot be loaded is refused by name. Expected values are worked by hand from the
# toy's definition (toy_engine.cpp): four u8 lanes, a + b saturating at 255.
# Usage: cmake -DTMU=<tmu> -DPLUGIN=<plugin> -DNOT_A_PLUGIN=<library> -DSRC=<source> -DWORK=<dir> -P ...
include(${SRC}/tests/cli/lib/expect.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

set(ENV{TMU_ENGINE_PLUGINS} "${PLUGIN}")
tmu_expect(0 --help)
expect_contains("tmu --help names the plugin's engine" "${out}" "tensix, amx, pto or toy")
tmu_expect(0 engines)
expect_contains("tmu engines lists it last" "${out}" "\npto  cpusim,a2a3,a5  PTO elementwise tile operations\ntoy  sat,wrap  ")

file(WRITE ${WORK}/p.toy "a 200 1 255 0\nb 100 2 1 0\nadd\n")
tmu_expect(0 --engine toy run ${WORK}/p.toy)
# 200 + 100 = 300 -> 255; 1 + 2 = 3; 255 + 1 -> 255; 0 + 0 = 0.
expect_contains("tmu run --engine toy" "${out}" "\"c\": \"255 3 255 0\"")

tmu_expect(0 --engine toy vectors -o ${WORK}/v -n 3 --seed 7)
tmu_expect(0 check ${WORK}/v)
# Level 1: the 4 x 4 pairs of the edges 0, 1, 128, 255; level 2: 3 random vectors; 4 lanes each.
expect_contains("tmu check of the plugin's files" "${out}" "1 files, 19 vectors, 76 toy lanes: all match")

tmu_expect(0 audit --engines toy -o ${WORK}/audit --seed 1 --quiet)
file(READ ${WORK}/audit/toy.csv csv)
# 256 x 256 operand pairs; x + y > 255 for 1 + 2 + ... + 255 = 32640 of them.
expect_equal("the audit's toy table" "${csv}" "variant,cases,saturated,wrong\nsat,65536,32640,0\n")

set(ENV{TMU_ENGINE_PLUGINS} "${WORK}/missing.so")
tmu_expect(2 --help)
expect_contains("a missing plugin" "${err}" "tmu: TMU_ENGINE_PLUGINS: engine plugin '${WORK}/missing.so': ")
set(ENV{TMU_ENGINE_PLUGINS} "${NOT_A_PLUGIN}")
tmu_expect(2 --help)
expect_contains("a library that is not a plugin" "${err}" "it does not define tmu_engine_plugin_v1")

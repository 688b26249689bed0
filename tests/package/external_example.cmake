# ctest package.external_example: `cmake --install` into a fresh prefix, then tb/examples/external,
# a testbench that knows tmu only through find_package(tmu), configured, built with Verilator and
# run: its design passes, and with --bug (the design writes the wrong half of each GPR) the installed
# scoreboard reports every word. Usage: cmake -DBUILD=<tmu build> -DSRC=<source> -DWORK=<dir> -P ...
include(${CMAKE_CURRENT_LIST_DIR}/../cli/lib/expect.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

run("install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix)
foreach(f bin/tmu lib/libtmu_dpi.so lib/libtmu_tensix.a lib/cmake/tmu/tmuConfig.cmake lib/pkgconfig/tmu.pc
          lib/pkgconfig/tmu-dpi.pc share/tmu/sv/tmu_dpi.svh share/tmu/sv/tmu_dpi_pkg.sv include/tmu/tensix/scoreboard.h
          include/tmu/tensix/isa_table.inc include/tmu/pto/ops.h include/tmu/amx/matfp.h)
  if(NOT EXISTS ${WORK}/prefix/${f})
    message(FATAL_ERROR "the install has no ${f}")
  endif()
endforeach()
run("the installed tmu" ${WORK}/prefix/bin/tmu --version)

# The model's CMake targets: tmu::tensix and its earlier name tmu::refmodel give the same program.
run("configure against the model's targets" ${CMAKE_COMMAND} -S ${SRC}/tests/package/find_package -B ${WORK}/fp -G Ninja
    -DCMAKE_PREFIX_PATH=${WORK}/prefix -DCMAKE_BUILD_TYPE=Release)
run("build against the model's targets" ${CMAKE_COMMAND} --build ${WORK}/fp)
foreach(program tensix_target refmodel_alias)
  execute_process(COMMAND ${WORK}/fp/${program} OUTPUT_VARIABLE o RESULT_VARIABLE rc)
  expect_equal("${program} disassembles the README's word" "${rc}:${o}"
               "0:ZEROACC Imm10=0 AddrMod=1 Revert=0 UseDst32b=0 Mode=3\n")
endforeach()

# The example as installed (PREFIX/share/tmu/examples), not the source tree's.
run("configure the external example" ${CMAKE_COMMAND} -S ${WORK}/prefix/share/tmu/examples/external -B ${WORK}/ext -G Ninja
    -DCMAKE_PREFIX_PATH=${WORK}/prefix -DCMAKE_BUILD_TYPE=Release)
run("build the external example" ${CMAKE_COMMAND} --build ${WORK}/ext)

set(TMU ${WORK}/ext/gpr_bench)
tmu_expect(0)
expect_contains("the design passes" "${out}" "gpr_bench: PASS words=300 mismatches=0")
tmu_expect(1 --bug)
expect_contains("the installed scoreboard catches the fault" "${out}" "gpr_bench: FAIL words=300 mismatches=300")
expect_contains("its report names the GPR" "${out}" "SETDMAREG")

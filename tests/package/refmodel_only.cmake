# ctest package.refmodel_only: a build of the reference models and the CLI alone configures on a
# machine without Verilator, Yosys, GoogleTest or Google Benchmark (hidden here from CMake), and
# offers `tmu` and the libraries but no testbench, tests or benchmarks. (The build itself is the
# README's "Reference models only"; it is the same sources as every build.)
# Usage: cmake -DSRC=<source> -DWORK=<dir> -P refmodel_only.cmake
file(REMOVE_RECURSE ${WORK})
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SRC} -B ${WORK} -G Ninja -DTMU_BUILD_TB=OFF -DTMU_BUILD_RTL_TESTS=OFF
          -DTMU_BUILD_TESTS=OFF -DTMU_BUILD_BENCH=OFF -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON
          -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON -DCMAKE_DISABLE_FIND_PACKAGE_verilator=ON
  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "refmodel-only configure failed (${rc}):\n${o}\n${e}")
endif()
# `ninja -t query` knows a target or fails.
find_program(NINJA ninja REQUIRED)
foreach(t tmu tmu_tensix tmu_engine_amx tmu_engine_pto)
  execute_process(COMMAND ${NINJA} -C ${WORK} -t query ${t} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the refmodel-only build has no target ${t}")
  endif()
endforeach()
foreach(t tmu_tb tmu_unit_tests tmu_bench tmu_dpi_shared)
  execute_process(COMMAND ${NINJA} -C ${WORK} -t query ${t} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(rc EQUAL 0)
    message(FATAL_ERROR "the refmodel-only build still has ${t}")
  endif()
endforeach()

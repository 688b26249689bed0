# Shared by the engine example tests (amx_example.cmake, pto_example.cmake): install tmu into a fresh
# prefix under WORK, then configure and build the installed copy of the example
# (PREFIX/share/tmu/examples/<example>) against the install alone, as a user with no source tree
# would. Sets BENCH to the built bench's directory.
include(${CMAKE_CURRENT_LIST_DIR}/../../cli/lib/expect.cmake)

macro(build_example_bench example)
  file(REMOVE_RECURSE ${WORK})
  file(MAKE_DIRECTORY ${WORK})
  run("install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix)
  foreach(f lib/libtmu_dpi.so share/tmu/sv/tmu_dpi.svh share/tmu/sv/tmu_dpi_pkg.sv lib/cmake/tmu/tmuConfig.cmake)
    if(NOT EXISTS ${WORK}/prefix/${f})
      message(FATAL_ERROR "the install has no ${f}")
    endif()
  endforeach()
  run("configure ${example}" ${CMAKE_COMMAND} -S ${WORK}/prefix/share/tmu/examples/${example} -B ${WORK}/bench -G Ninja
      -DCMAKE_PREFIX_PATH=${WORK}/prefix -DCMAKE_BUILD_TYPE=Release)
  run("build ${example}" ${CMAKE_COMMAND} --build ${WORK}/bench)
  set(BENCH ${WORK}/bench)
endmacro()

# ctest package.stands_alone: the install needs no source tree. `cmake --install` (the default
# component: no Python) into a fresh prefix; the user documentation is there, the example benches,
# the SystemVerilog declarations and the pkg-config files point into the install and never at a
# source-tree path, and tmu-dpi.pc gives Cflags and the SystemVerilog directory.
# Usage: cmake -DBUILD=<tmu build> -DWORK=<dir> -P stands_alone.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../cli/lib/expect.cmake)
file(REMOVE_RECURSE ${WORK})
set(P ${WORK}/prefix)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${P} --component Unspecified
                OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install: exit status ${rc}\n${o}\n${e}")
endif()

foreach(doc README.md scoreboard.md program-format.md vector-format.md python.md cosim.md)
  if(NOT EXISTS ${P}/share/doc/tmu/${doc})
    message(FATAL_ERROR "the install has no share/doc/tmu/${doc}")
  endif()
endforeach()

# Source-tree paths a reader of the install cannot open: the documents (docs/NAME.md), the testbench
# and model sources. The installed documents themselves are the source's, so only what is meant to
# be read next to the install is checked: examples, SystemVerilog, scripts, pkg-config files.
file(GLOB_RECURSE installed ${P}/share/tmu/* ${P}/lib/pkgconfig/*)
set(found "")
foreach(f ${installed})
  file(STRINGS ${f} lines REGEX "docs/[A-Za-z0-9_.-]+\\.md|tb/(dpi|examples|driver|run|stim|cov|sv)/|refmodel/|[^_a-z]rtl/")
  foreach(l ${lines})
    file(RELATIVE_PATH rel ${P} ${f})
    string(APPEND found "  ${rel}: ${l}\n")
  endforeach()
endforeach()
if(found)
  message(FATAL_ERROR "the install points into the source tree:\n${found}")
endif()

if(EXISTS ${P}/lib/pkgconfig/tmu-dpi.pc)
  file(READ ${P}/lib/pkgconfig/tmu-dpi.pc pc)
  expect_contains("tmu-dpi.pc Cflags" "${pc}" "Cflags: -I\${svdir}")
  expect_contains("tmu-dpi.pc says how the program finds the library" "${pc}" "-Wl,-rpath,\${libdir}")
  file(READ ${P}/share/tmu/sv/tmu_dpi.svh svh)
  expect_contains("tmu_dpi.svh names the installed documentation" "${svh}" "share/doc/tmu/scoreboard.md")
endif()

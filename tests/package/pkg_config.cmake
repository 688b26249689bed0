# ctest package.pkg_config: `cmake --install` into a prefix that is not the configured one, then a
# C++ program built against the models and one against the DPI-C library with nothing but what
# `pkg-config` (PKG_CONFIG_PATH=<prefix>/lib/pkgconfig) says, run from that prefix.
# Usage: cmake -DBUILD=<tmu build> -DSRC=<source> -DWORK=<dir> -DCXX=<c++ compiler> -P ...
include(${CMAKE_CURRENT_LIST_DIR}/../cli/lib/expect.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

set(P ${WORK}/elsewhere/prefix)
run("install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${P})
set(ENV{PKG_CONFIG_PATH} ${P}/lib/pkgconfig)
run("pkg-config tmu" pkg-config --cflags --libs tmu)
string(STRIP "${out}" tmu_flags)
expect_contains("pkg-config tmu names the install prefix" "${tmu_flags}" "-I${P}/lib/pkgconfig/../../include")
separate_arguments(tmu_flags UNIX_COMMAND "${tmu_flags}")
run("build against tmu" ${CXX} -O1 ${SRC}/tests/package/pkg_config/engines.cpp -o ${WORK}/engines ${tmu_flags})
run("run it" ${WORK}/engines)
expect_equal("the installed engines" "${out}" "tensix, amx or pto\n10184000  ZEROACC Imm10=0 AddrMod=1 Revert=0 UseDst32b=0 Mode=3\n")

# The installed tmu finds what it runs under the prefix: the plot script beside bin/tmu.
foreach(f share/tmu/scripts/plot_audit.py share/tmu/examples/external/CMakeLists.txt)
  if(NOT EXISTS ${P}/${f})
    message(FATAL_ERROR "the install has no ${f}")
  endif()
endforeach()
if(PYTHON)
  run("tmu audit --plots from the install" ${P}/bin/tmu audit -o ${WORK}/audit --seed 3 --samples 1 --k 1 --dists uniform
      --formats bf16 --ops mvmul --fidelity lofi --dst 32 --engines tensix --quiet --plots --python ${PYTHON})
  file(GLOB pngs ${WORK}/audit/*.png)
  if(NOT pngs)
    message(FATAL_ERROR "tmu audit --plots from the install drew no PNG:\n${out}")
  endif()
endif()

if(EXISTS ${P}/lib/pkgconfig/tmu-dpi.pc)
  run("pkg-config tmu-dpi" pkg-config --libs tmu-dpi)
  string(STRIP "${out}" dpi_flags)
  separate_arguments(dpi_flags UNIX_COMMAND "${dpi_flags}")
  run("pkg-config tmu-dpi svdir" pkg-config --variable=svdir tmu-dpi)
  string(STRIP "${out}" svdir)
  if(NOT EXISTS ${svdir}/tmu_dpi.svh)
    message(FATAL_ERROR "tmu-dpi's svdir (${svdir}) has no tmu_dpi.svh")
  endif()
  run("build against tmu-dpi" ${CXX} -O1 ${SRC}/tests/package/pkg_config/dpi.cpp -o ${WORK}/dpi ${dpi_flags}
      -Wl,-rpath,${P}/lib)
  run("run it" ${WORK}/dpi)
  expect_contains("the DPI library works" "${out}" "declare 0")
  expect_contains("and refuses an unknown engine" "${out}" "bad engine 1: tmu_eng_create: ")
  expect_contains("naming the engines" "${out}" "tensix, amx or pto")
endif()

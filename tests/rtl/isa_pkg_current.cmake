# ctest rtl.isa_pkg_current: rtl/tmu_isa_pkg.sv is generated from refmodel/isa/tensix_isa.json and
# checked in (so rtl/tmu.f is usable without a build); this fails when it is out of date.
# Usage: cmake -DPYTHON=<python3> -DSRC=<source dir> -DWORK=<scratch dir> -P isa_pkg_current.cmake
set(fresh ${WORK}/tmu_isa_pkg.sv)
execute_process(
  COMMAND ${PYTHON} ${SRC}/scripts/gen_isa.py --table ${SRC}/refmodel/isa/tensix_isa.json --sv ${fresh}
  RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "gen_isa.py --sv failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${fresh} ${SRC}/rtl/tmu_isa_pkg.sv RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "rtl/tmu_isa_pkg.sv is out of date; regenerate it with\n"
          "  scripts/gen_isa.py --table refmodel/isa/tensix_isa.json --sv rtl/tmu_isa_pkg.sv")
endif()
message("rtl/tmu_isa_pkg.sv matches refmodel/isa/tensix_isa.json")

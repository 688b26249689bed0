# ctest rtl.isa_pkg_current: rtl/tmu_isa_pkg.sv and rtl/tmu_decode.sv are generated from
# refmodel/engines/tensix/isa/tensix_isa.json and checked in (so rtl/tmu.f is usable without a build); this fails
# when either is out of date.
# Usage: cmake -DPYTHON=<python3> -DSRC=<source dir> -DWORK=<scratch dir> -P isa_pkg_current.cmake
execute_process(
  COMMAND ${PYTHON} ${SRC}/refmodel/engines/tensix/isa/gen_isa.py --table ${SRC}/refmodel/engines/tensix/isa/tensix_isa.json
          --sv ${WORK}/tmu_isa_pkg.sv --sv-decode ${WORK}/tmu_decode.sv
  RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "gen_isa.py --sv --sv-decode failed")
endif()
foreach(f tmu_isa_pkg.sv tmu_decode.sv)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/${f} ${SRC}/rtl/${f} RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "rtl/${f} is out of date; regenerate it with\n"
            "  refmodel/engines/tensix/isa/gen_isa.py --table refmodel/engines/tensix/isa/tensix_isa.json --sv rtl/tmu_isa_pkg.sv --sv-decode rtl/tmu_decode.sv")
  endif()
endforeach()
message("rtl/tmu_isa_pkg.sv and rtl/tmu_decode.sv match refmodel/engines/tensix/isa/tensix_isa.json")

# ctest rtl.lint: `verilator --lint-only -Wall --assert` (waivers: rtl/tmu.vlt) on every module of
# rtl/tmu.f as its own top (so that each module's default parameters are checked and no module
# hides behind another), plus the block testbench; with -DTOPS=<module;...> only those.
# Usage: cmake -DVERILATOR=<verilator> -DSRC=<source dir> [-DTOPS=<modules>] -P lint.cmake
include(${SRC}/rtl/tmu_files.cmake)
tmu_rtl_files(${SRC}/rtl sources packages)
list(REMOVE_ITEM sources ${packages})
set(modules "")
foreach(file ${sources})
  get_filename_component(name ${file} NAME_WE)
  list(APPEND modules ${name})
endforeach()

set(failed "")
list(APPEND modules tmu_blocks_tb)
if(DEFINED TOPS)
  set(modules ${TOPS})
endif()
foreach(top ${modules})
  execute_process(
    COMMAND ${VERILATOR} --lint-only -Wall --assert rtl/tmu.vlt -f rtl/tmu.f tests/rtl/tmu_blocks_tb.sv
            --top-module ${top}
    WORKING_DIRECTORY ${SRC}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc)
    message("---- ${top}:\n${out}")
    list(APPEND failed ${top})
  else()
    message("${top}: clean")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "verilator -Wall lint failed for: ${failed}")
endif()

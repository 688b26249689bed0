# What every example bench's CMakeLists.txt does: find the installed tmu with its DPI scoreboard and
# Verilator, then verilate the bench's SystemVerilog (after tmu's DPI package) into one executable
# built from main.cpp and linked with tmu::dpi.
#   tmu_example_bench(<target> TOP <top module> SOURCES <file.sv>...)
set(CMAKE_CXX_STANDARD 20)
find_package(tmu 0.1 REQUIRED)
if(NOT tmu_HAVE_DPI)
  message(FATAL_ERROR "this tmu was installed without the DPI scoreboard (it was built without Verilator)")
endif()
find_package(verilator REQUIRED HINTS $ENV{VERILATOR_ROOT} /usr/share/verilator)

function(tmu_example_bench target)
  cmake_parse_arguments(arg "" "TOP" "SOURCES" ${ARGN})
  add_executable(${target} main.cpp)
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  verilate(${target}
    SOURCES ${tmu_SV_DIR}/tmu_dpi_pkg.sv ${arg_SOURCES}
    INCLUDE_DIRS ${tmu_SV_DIR}
    TOP_MODULE ${arg_TOP}
    PREFIX V${arg_TOP}
    VERILATOR_ARGS -Wall -Wno-DECLFILENAME)
  target_link_libraries(${target} PRIVATE tmu::dpi)
endfunction()

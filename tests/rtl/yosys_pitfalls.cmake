# ctest rtl.yosys_pitfalls: SystemVerilog that Verilator reads right and Yosys 0.23 reads wrong
# without an error (rtl/tmu_pkg.sv lists the limits). Verilator-based tests cannot see these; the
# synthesised netlist would differ from the simulated RTL.
# Usage: cmake -DDIR=<folder of .sv files> -P yosys_pitfalls.cmake   (exit 1 on a finding)
file(GLOB _files ${DIR}/*.sv)
if(NOT _files)
  message(FATAL_ERROR "yosys_pitfalls: no .sv files in ${DIR}")
endif()
set(_found 0)
# check(PATTERN REASON): report every line (comments stripped) of every file that matches.
function(check pattern reason)
  foreach(_file ${_files})
    file(STRINGS ${_file} _lines)
    set(_lineno 0)
    foreach(_line IN LISTS _lines)
      math(EXPR _lineno "${_lineno} + 1")
      string(REGEX REPLACE "//.*$" "" _code "${_line}")
      if(_code MATCHES "${pattern}")
        get_filename_component(_name ${_file} NAME)
        message("${_name}:${_lineno}: ${reason}\n    ${_line}")
        math(EXPR _found "${_found} + 1")
      endif()
    endforeach()
  endforeach()
  set(_found ${_found} PARENT_SCOPE)
endfunction()
check("~[ \t]*[A-Za-z0-9_]+'[ \t]*\\("
      "~W'(x): Yosys 0.23 drops the '~', write the constant as a concatenation")
check("[A-Za-z0-9_]+_t[ \t]+\\[[^]]*\\][ \t]*[A-Za-z_]"
      "packed array of a typedef: Yosys 0.23 drops the array dimension, use a flat vector")
check("(^|[^A-Za-z0-9_])return([^A-Za-z0-9_]|$)"
      "return in a function: Yosys 0.23 does not read it, assign to the function name")
check("import[ \t]+tmu_pkg::\\*"
      "import tmu_pkg::*: Yosys 0.23 does not read it, write tmu_pkg::name")
check("param[^=]*=[ \t]*'[01xXzZ]"
      "(local)param = '1: Yosys 0.23 reads the fill as one bit ('1 becomes 1), write the width")
if(_found)
  message(FATAL_ERROR "yosys_pitfalls: ${_found} finding(s)")
endif()
message("yosys_pitfalls: none in ${DIR}")

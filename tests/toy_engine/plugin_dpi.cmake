# ctest toy.plugin_dpi: libtmu_dpi.so of this build, unchanged, gives the plugin's toy engine to a
# testbench's tmu_eng_* calls (dpi_toy.cpp). Hand-worked: a = 200 128 255 1, b = 100 0 1 2, so the
# saturating sum is 255 128 255 3; the design's word has lane 0 wrapped to 44, one mismatching lane.
# Usage: cmake -DDPI=<tmu_toy_dpi> -DPLUGIN=<plugin> -DSRC=<source> -P plugin_dpi.cmake
include(${SRC}/tests/cli/lib/expect.cmake)
set(ENV{TMU_ENGINE_PLUGINS} "${PLUGIN}")
execute_process(COMMAND ${DPI} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
expect_equal("tmu_toy_dpi's exit status" "${rc}" "0")
expect_contains("the calls succeed" "${out}" "load 00\nexecute 0\ncompare 1\nmismatches 1\n")
expect_contains("the report names the lane" "${out}" "c lane 0: design 44, model 255 (add)")

# The Tensix benchmarks, in tmu_bench (bench/CMakeLists.txt). bench_stimulus.cpp measures the
# co-simulation's stimulus library (tb/stim, tmu_tb_stim): without tb/ it is left out.
file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
if(TARGET tmu_tb_stim)
  list(APPEND TMU_BENCH_LIBRARIES tmu_tb_stim)
else()
  list(FILTER sources EXCLUDE REGEX "/bench_stimulus\\.cpp$")
endif()
list(APPEND TMU_BENCH_SOURCES ${sources})
list(APPEND TMU_BENCH_LIBRARIES tmu_tensix_llk)  # bench_audit_sequence.cpp runs the LLK sequences

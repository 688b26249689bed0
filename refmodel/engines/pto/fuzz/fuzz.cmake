# The PTO harnesses (docs/reliability.md), included by fuzz/CMakeLists.txt: tmu_fuzz_harness is
# explained there; sources, the dictionary and corpus/NAME are this directory's.
tmu_fuzz_harness(pto_program SOURCES pto_program.cpp LINK tmu_engine_pto RUNS 25000 MAX_LEN 8192
                 DICT pto.dict SEEDS ${programs}/pto
                 TARGET refmodel/engines/pto/src/program.cpp refmodel/engines/pto/src/text.cpp)
tmu_fuzz_harness(pto_vectors SOURCES pto_vectors.cpp LINK tmu_engines RUNS 30000 MAX_LEN 16384
                 DICT pto.dict
                 TARGET refmodel/engines/pto/src/vector_io.cpp refmodel/common/src/vector_file.cpp)
# Differential: the fast lane loops against the per-lane operations.
tmu_fuzz_harness(diff_pto_lanes SOURCES diff_pto_lanes.cpp LINK tmu_engine_pto RUNS 300000 MAX_LEN 4096
                 DICT ${dict}/binary.dict
                 TARGET refmodel/engines/pto/src/fast_lanes.cpp refmodel/engines/pto/src/float_ops.cpp
                        refmodel/engines/pto/src/int_ops.cpp refmodel/engines/pto/src/bit_ops.cpp
                        refmodel/engines/pto/src/convert.cpp)
target_include_directories(fuzz_diff_pto_lanes PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../src)

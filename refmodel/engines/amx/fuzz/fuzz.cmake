# The AMX harnesses (docs/reliability.md), included by fuzz/CMakeLists.txt: tmu_fuzz_harness is
# explained there; sources, the dictionary and corpus/NAME are this directory's.
tmu_fuzz_harness(amx_program SOURCES amx_program.cpp LINK tmu_engine_amx RUNS 30000 MAX_LEN 8192
                 DICT amx.dict SEEDS ${programs}/amx
                 TARGET refmodel/engines/amx/src/program.cpp)
tmu_fuzz_harness(amx_vectors SOURCES amx_vectors.cpp LINK tmu_engines RUNS 30000 MAX_LEN 16384
                 DICT amx.dict
                 TARGET refmodel/engines/amx/src/vector_io.cpp refmodel/common/src/vector_file.cpp)
tmu_fuzz_harness(amx_dis SOURCES amx_dis.cpp LINK tmu_engines RUNS 100000 MAX_LEN 64 DICT amx.dict
                 TARGET refmodel/engines/amx/src/matfp_decode.cpp refmodel/engines/amx/src/matfp_asm.cpp)
tmu_fuzz_harness(amx_asm SOURCES amx_asm.cpp LINK tmu_engine_amx RUNS 100000 MAX_LEN 512 DICT amx.dict
                 TARGET refmodel/engines/amx/src/matfp_asm.cpp refmodel/engines/amx/src/matfp_decode.cpp)
# Differential: the lanes' fast path against tmu/ieee.h's fused multiply-add.
tmu_fuzz_harness(diff_amx_fma SOURCES diff_amx_fma.cpp LINK tmu_engine_amx RUNS 40000 MAX_LEN 4096
                 DICT ${dict}/binary.dict
                 TARGET refmodel/engines/amx/src/matfp_exec.cpp refmodel/common/src/ieee)

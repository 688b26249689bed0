# The Tensix harnesses (docs/reliability.md), included by fuzz/CMakeLists.txt: tmu_fuzz_harness is
# explained there; sources, the dictionary and corpus/NAME are this directory's.
tmu_fuzz_harness(tensix_program SOURCES tensix_program.cpp LINK tmu_tensix RUNS 30000 MAX_LEN 8192
                 DICT tensix.dict
                 SEEDS ${programs}/eltwise_pool.tmu ${programs}/gpr_ops.tmu ${programs}/housekeeping.tmu
                       ${programs}/matmul_32x32_hifi4.tmu ${programs}/mov.tmu ${programs}/l1_matmul.tmu
                 TARGET refmodel/engines/tensix/src/program refmodel/engines/tensix/src/insn/unpacr.cpp
                        refmodel/engines/tensix/src/insn/pacr.cpp)
tmu_fuzz_harness(tensix_vectors SOURCES tensix_vectors.cpp LINK tmu_engines RUNS 30000 MAX_LEN 16384
                 DICT tensix.dict
                 SEEDS ${vector_corpus}/blackhole/gpr ${vector_corpus}/wormhole/rwc ${vector_corpus}/blackhole/mov
                       ${vector_corpus}/blackhole/pacr ${vector_corpus}/wormhole/unpacr
                 TARGET refmodel/engines/tensix/src/vectors/parser.cpp refmodel/engines/tensix/src/vectors/records.cpp
                        refmodel/engines/tensix/src/vectors/conversion.cpp
                        refmodel/engines/tensix/src/vectors/replay.cpp refmodel/common/src/vector_file.cpp
                        refmodel/common/src/text_lines.cpp)
tmu_fuzz_harness(tensix_dis SOURCES tensix_dis.cpp LINK tmu_engines tmu_tensix RUNS 100000 MAX_LEN 64
                 DICT tensix.dict
                 TARGET refmodel/engines/tensix/src/isa)
tmu_fuzz_harness(tensix_asm SOURCES tensix_asm.cpp LINK tmu_tensix RUNS 100000 MAX_LEN 512
                 DICT tensix.dict
                 TARGET refmodel/engines/tensix/src/isa)
# Differential: the MVMUL block kernel against the per-element datapath.
tmu_fuzz_harness(diff_mvmul SOURCES diff_mvmul.cpp LINK tmu_tensix RUNS 50000 MAX_LEN 4096
                 DICT ${dict}/binary.dict
                 TARGET refmodel/engines/tensix/src/fpu/mvmul_block.cpp refmodel/engines/tensix/src/fpu/fidelity_slice.cpp
                        refmodel/engines/tensix/src/fpu/align_group_sum.cpp refmodel/engines/tensix/src/fpu/accum_normalize.cpp
                        refmodel/engines/tensix/src/fpu/int8_math.cpp)
# Differential: the matmul golden's tile route against the LLK's instructions on the model.
tmu_fuzz_harness(diff_matmul_tiles SOURCES diff_matmul_tiles.cpp LINK tmu_tensix_llk RUNS 3000 MAX_LEN 16384
                 DICT ${dict}/binary.dict
                 TARGET refmodel/engines/tensix/src/llk/matmul_tiles.cpp)

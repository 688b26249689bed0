# ctest cosim.inject_fault: `tmu_tb --inject-fault CYCLE` makes the scoreboard fire on the built RTL,
# with no rebuild: the real mismatch report, a diagnosis naming the flipped storage bit, the replay
# command (which keeps the option), the replay program and the waveform of the failing window.
# Usage: cmake -DTB=<tmu_tb> -DWORK=<dir> -P inject_fault.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../cli/lib/expect.cmake)
set(TMU ${TB})
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
tmu_expect(1 --test random --arch blackhole --seed 3 --instrs 2000 --inject-fault 1000 --quiet --replay-dir ${WORK})
expect_contains("a mismatch report" "${out}" "==== tmu scoreboard MISMATCH #1")
expect_contains("the replay keeps the fault" "${out}" "--seed 3 --instrs 2000 --inject-fault 1000 --fst-window")
# The fault flips bit 0 of the first datum of the row write: the high half of Dst32b row 336 lives in
# DstBits row 672 (docs/cosim.md), so the FP32 value differs in bit 16 only.
expect_contains("a storage diagnosis" "${out}"
                "diagnosis   [storage] only bit 16 of the value differs and no datapath stage explains it")
expect_contains("the stored bit" "${out}" "DstBits row 672 col 0 bit 0, the high half of Dst32b row 336")
# The verdict tells what was asked (2000) apart from how far the run got before its first mismatch.
expect_contains("the verdict" "${out}" "tmu_tb: FAIL test=random arch=blackhole seed=3 instrs=2000 issued=2 retired=1 ")
expect_contains("the waveform" "${out}" "tmu_tb: waveform of cycles")
# The replay program is saved, not printed, and named with the tmu of this build (not on PATH).
get_filename_component(build_dir ${TB} DIRECTORY)
get_filename_component(build_dir ${build_dir} DIRECTORY)
expect_contains("the replay program line" "${out}"
                "  no simulator: ${build_dir}/tmu run ${WORK}/random_seed3_cycle1462_t0.tmu --show dst")
file(GLOB fst ${WORK}/*.fst)
file(GLOB programs ${WORK}/*.tmu)
if(NOT fst OR NOT programs)
  message(FATAL_ERROR "no waveform or replay program in ${WORK}:\n${out}")
endif()
# Without the option the same run passes: the fault is the option's, not the design's.
tmu_expect(0 --test random --arch blackhole --seed 3 --instrs 2000 --quiet)

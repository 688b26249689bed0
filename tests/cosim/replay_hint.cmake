# ctest cosim.replay_hint: the seed line tmu_tb prints is the whole command that replays the run
# (test, architecture, seed and length), not the seed alone.
# Usage: cmake -DTB=<tmu_tb> -P replay_hint.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../cli/lib/expect.cmake)
set(TMU ${TB})
tmu_expect(0 --test random --arch wormhole --seed 5 --instrs 100 --quiet)
expect_contains("the replay hint" "${out}" "tmu_tb: seed 5 (replay: ${TB} --test random --arch wormhole --seed 5 --instrs 100)")

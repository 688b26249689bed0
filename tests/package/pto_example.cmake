# ctest package.pto_example: `cmake --install` into a fresh prefix, then tb/examples/pto_lane (eight
# i32/f32 lanes of TADD, TMAX and TCMP) configured against it alone, built with Verilator and run:
# with seed 7 the design agrees with tmu's PTO scoreboard on every lane, and with --bug (the design
# swaps TCMP's LT and LE) the scoreboard reports the predicate bytes whose lanes had equal operands.
# Usage: cmake -DBUILD=<tmu build> -DSRC=<source> -DWORK=<dir> -P ...
include(${CMAKE_CURRENT_LIST_DIR}/lib/example_bench.cmake)
build_example_bench(pto_lane)

set(TMU ${BENCH}/pto_lane)
tmu_expect(0 --seed 7)
expect_contains("the seed is printed" "${out}" "pto_lane: seed 7 (replay: --seed 7)")
expect_contains("the design passes" "${out}" "pto_lane: PASS operations=300 mismatches=0 seed=7")
tmu_expect(1 --seed 7 --bug)
expect_contains("the scoreboard catches the swap" "${out}" "pto_lane: FAIL operations=300 mismatches=37 seed=7")
expect_contains("the report's header" "${out}" "tmu pto scoreboard (cpusim), test 'pto_lane', seed 7: 37 mismatching lanes")
# Bit k of the predicate byte is lane k: 0x26 against 0x24 is lane 1, whose operands were equal, so
# LE holds and the design, computing LT, cleared it.
expect_contains("the first line names the element, both values and the operation" "${out}"
  "p (0, 0) u8: design 0x24 (36) model 0x26 (38); after TCMP p fa fb cmp=LE")
# With LE asked and LT computed, the predicate byte is LT's: the step diagnosis says so, and names
# the CPU simulator's packing rule; the step is written where +tmu_replay_dir says.
tmu_expect(1 --seed 7 --bug +tmu_replay_dir=${WORK}/replay)
set(replay ${WORK}/replay/pto_lane_step3.tmu)
expect_contains("the line names the swap, the rule and the replay" "${out}"
  "p (0, 0) u8: design 0x24 (36) model 0x26 (38); after TCMP p fa fb cmp=LE; step 3; no other lane of p 0 mismatches; diagnosis [cmp-mode] the design's predicates are cmp=LT's where the operation asks cmp=LE; cpusim rule: TCMP compares lane by lane; bit k of predicate byte j is source lane 8j + k of the row; replay: tmu --engine pto run ${replay} --show p\n")
# The replay runs the step on the installed model alone: predicate byte 0 is the model's 0x26.
run("the replay program" ${WORK}/prefix/bin/tmu --engine pto run ${replay} --show p)
string(REGEX MATCH "\"bits\": \\[[^\"]*\"[^\"]*\"" byte0 "${out}")
expect_contains("predicate byte 0 of the replay is the model's" "${byte0}" "\"0x26\"")
tmu_expect(2 --operations 1x)

# ctest package.amx_example: `cmake --install` into a fresh prefix, then tb/examples/amx_lane (sixteen
# f32 lanes of matfp z += x*y) configured against it alone, built with Verilator and run: with seed 7
# the design agrees with tmu's AMX scoreboard on every lane, and with --bug (the design truncates
# where it must round to nearest even) the scoreboard reports the lanes that round up, naming the Z
# row, the lane, both values and the operand. Usage: cmake -DBUILD=<tmu build> -DSRC=<source>
# -DWORK=<dir> -P ...
include(${CMAKE_CURRENT_LIST_DIR}/lib/example_bench.cmake)
build_example_bench(amx_lane)

set(TMU ${BENCH}/amx_lane)
tmu_expect(0 --seed 7)
expect_contains("the seed is printed" "${out}" "amx_lane: seed 7 (replay: --seed 7)")
expect_contains("the design passes" "${out}" "amx_lane: PASS steps=200 lanes=3200 mismatches=0 seed=7")
tmu_expect(1 --seed 7 --bug)
expect_contains("the scoreboard catches the truncation" "${out}" "amx_lane: FAIL steps=200 lanes=3200 mismatches=1582 seed=7")
expect_contains("the report's header" "${out}" "tmu amx scoreboard (M1), test 'amx_lane', seed 7: 1582 mismatching lanes")
# --bug truncates the fused result (amx_fma_f32.sv): the summary must name that cause.
expect_contains("the summary names the bug" "${out}"
  "all 1582 mismatching lanes are 1 ulp nearer zero than the model: the design rounds toward zero (truncates)")
# The exact result lies more than half an ulp above 0xc0392720 in magnitude: truncation is one ulp short.
# yen=1:14 enables Y lane 14 alone and zrow=2: Z row 4 x 14 + 2 = 58 lane 0 is X lane 0 times Y lane 14.
expect_contains("the first line names the row, lane, both values and the operand" "${out}"
  "z row 58 lane 0 (f32): design 0xc0392720 (-0x1.724e4p+1) model 0xc0392721 (-0x1.724e42p+1); after 0x3800100000a70080: matfp f32 z+=x*y x=0x1c0 y=0x080 zrow=2 xen=0:0(all) yen=1:14(lane 14) xshuf=S0 yshuf=S0; step 1; z before 0xc05afe7b (-0x1.b5fcf6p+1); x lane 0 0xc20ea181 (-0x1.1d4302p+5) * y lane 14 0xbc72f56d (-0x1.e5eadap-7)")
# The line also says which departure from matfp's arithmetic gives the design's value: a negative
# value rounded toward zero is rounded toward +inf too, so both fit; how many other lanes of the row
# the operand got wrong; and the replay of the step, written where +tmu_replay_dir says.
tmu_expect(1 --seed 7 --bug +tmu_replay_dir=${WORK}/replay)
expect_contains("the line names the FMA's rounding" "${out}"
  "(-0x1.e5eadap-7); diagnosis [truncation] the FMA rounds toward zero (truncates) where matfp rounds to nearest even or [rounding] the FMA rounds toward +inf where matfp rounds to nearest even; ")
expect_contains("the line counts the row's other mismatching lanes" "${out}" " other lanes of z row 58 mismatch after this operand: lanes ")
set(replay ${WORK}/replay/amx_lane_step1.tmu)
expect_contains("the line gives the replay" "${out}" "; design 1 ulp nearer zero than the model; replay: tmu --engine amx run ${replay} --show z --values f32\n")
# The replay runs the step on the installed model alone and gives the model's lane again.
run("the replay program" ${WORK}/prefix/bin/tmu --engine amx run ${replay} --show z --values f32)
string(REGEX MATCH "\"58\": {[^}]*" row58 "${out}")
string(REGEX MATCH "\"bits\": \\[[^\"]*\"[^\"]*\"" lane0 "${row58}")
expect_contains("Z row 58 lane 0 of the replay is the model's" "${lane0}" "\"0xc0392721\"")
tmu_expect(2 --seed x)

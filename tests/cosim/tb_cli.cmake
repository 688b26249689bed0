# ctest cosim.tb_cli: tmu_tb's command line refuses what it cannot run (exit 2, naming the option and
# the reason), suggests the test meant by a misspelt name, and tells one verdict on the console and in
# the JSON report, with a replay command that keeps every option changing the run.
# Usage: cmake -DTB=<tmu_tb> -DWORK=<dir> -P tb_cli.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../cli/lib/expect.cmake)
set(TMU ${TB})
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# A negative count would wrap to 2^64 - 5 instructions: refused before the run starts.
tmu_expect(2 --instrs -5 --test random)
expect_contains("--instrs -5" "${err}" "--instrs: '-5' is negative")
if(out MATCHES "seed")
  message(FATAL_ERROR "--instrs -5 started a run:\n${out}")
endif()
tmu_expect(2 --test random +INSTRS=-5)
expect_contains("+INSTRS=-5" "${err}" "+INSTRS: '-5' is negative")
foreach(option --seed --max-cycles --inject-fault --fst-window --wave-before --wave-after --mutant)
  tmu_expect(2 --test random ${option} -1)
  expect_contains("${option} -1" "${err}" "${option}: '-1' is negative")
endforeach()
tmu_expect(2 --test random --seed 18446744073709551616)
expect_contains("--seed 2^64" "${err}" "--seed: '18446744073709551616' is too large (at most 18446744073709551615)")
tmu_expect(2 --test random --mutant 4294967296)
expect_contains("--mutant 2^32" "${err}" "--mutant: '4294967296' is too large (at most 4294967295)")
tmu_expect(2 --test random --instrs 1e3)
expect_contains("--instrs 1e3" "${err}" "--instrs: '1e3' is not a whole decimal number")

# Typos: the test and the plusarg meant.
tmu_expect(2 +UVM_TESTNAME=matmul_hfi4)
expect_contains("a misspelt test" "${err}" "--test matmul_hfi4: no such test (did you mean 'matmul_hifi4'?)")
tmu_expect(2 +UVM_TESTNAM=random)
expect_contains("a misspelt plusarg" "${err}" "(did you mean '+UVM_TESTNAME='?)")

# Stopped by --max-cycles: ERROR on the console and in the JSON, with the same reason; the replay
# command keeps --max-cycles (without it the replay would pass).
tmu_expect(2 --test random --arch wormhole --seed 5 --instrs 100 --max-cycles 50 --quiet --no-wave
           --report ${WORK}/r.json)
set(reason "the run did not finish within 50 cycles (--max-cycles; 50 simulated)")
expect_contains("the replay" "${out}" "--seed 5 --instrs 100 --max-cycles 50)")
expect_contains("the console verdict" "${out}" "tmu_tb: ERROR test=random arch=wormhole seed=5 instrs=100 ")
expect_contains("the console reason" "${out}" ": ${reason}")
file(READ ${WORK}/r.json json)
string(JSON verdict GET "${json}" verdict)
string(JSON why GET "${json}" reason)
string(JSON replay GET "${json}" replay)
string(JSON instrs GET "${json}" instrs)
expect_equal("the JSON verdict" "${verdict}" "ERROR")
expect_equal("the JSON reason" "${why}" "${reason}")
expect_equal("the JSON instrs (as asked)" "${instrs}" "100")
expect_contains("the JSON replay" "${replay}" "--instrs 100 --max-cycles 50")

# --rtl-plusarg hands +NAME to the RTL's own $test$plusargs (rtl/ reads none; a break-demo.sh copy
# does) and stays in the replay command; a leading '+' is refused.
tmu_expect(2 --test random --rtl-plusarg=+tmu_break_sign)
expect_contains("--rtl-plusarg +NAME" "${err}" "--rtl-plusarg '+tmu_break_sign': give NAME or NAME=VALUE, without the '+'")
tmu_expect(2 --test random --arch wormhole --seed 5 --instrs 100 --max-cycles 50 --quiet --no-wave
           --rtl-plusarg tmu_nothing --rtl-plusarg depth=3)
expect_contains("the replay keeps the plusargs" "${out}"
                "--seed 5 --instrs 100 --max-cycles 50 --rtl-plusarg tmu_nothing --rtl-plusarg depth=3)")

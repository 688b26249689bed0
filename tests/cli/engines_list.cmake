# tmu engines: one line per registered engine in registration order (the default first), its
# variants with the default first, and its summary; no engine plugin is loaded here.
include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)
unset(ENV{TMU_ENGINE_PLUGINS})
tmu_expect(0 engines)
string(REGEX MATCHALL "[^\n]+" lines "${out}")
list(LENGTH lines n)
expect_equal("three engines" "${n}" "3")
list(GET lines 0 tensix)
list(GET lines 1 amx)
list(GET lines 2 pto)
expect_contains("Tensix first, Blackhole its default" "${tensix}" "tensix  blackhole,wormhole  ")
expect_contains("AMX, M1 its default" "${amx}" "amx  M1,M2,M3,M4  ")
expect_contains("PTO, cpusim its default" "${pto}" "pto  cpusim,a2a3,a5  ")

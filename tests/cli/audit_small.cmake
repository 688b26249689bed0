# tmu audit on a small configuration: the seed is printed, the CSV files have the documented header
# and one row per configuration, the same seed writes identical files, a simulated golden mistake
# makes the phase check fail (exit status 3), and bad options exit with status 2.
#
# Row counts, worked out from the options: 2 source formats x 4 fidelities x 2 Dst modes x 1
# distribution = 16 configurations per operation and K; the FP32 Dst half of MVMUL's is packed to
# three L1 formats (MVMUL-L1-BF16, -FP16, -BFP8; IEEE-once only for the two IEEE formats); the AMX
# rows (MATFP, after the others) are 3 modes x 1 distribution per K.
#   audit.csv:     MVMUL at K = 1 and K = 2 (32 rows) + ELWMUL (16 rows)           = 48
#                  + MVMUL-L1, K = 1..2 x 2 formats x 3 L1 formats x 4 levels (48)  = 96
#                  + MATFP at K = 1 and 2 (6 rows)                                  = 102
#   phases.csv:    2 ops x 2 formats x 2 Dst modes x (1 + 2 + 3 + 4) passes       = 80
#   bits_vs_k.csv: MVMUL, K = 1..2 x 2 formats x 2 Dst modes x (4 levels + 2 IEEE) = 48
#                  + MVMUL-L1, K = 1..2 x 2 formats x (3 x 4 levels + 2 IEEE-once)  = 104
#                  + MATFP, K = 1..2 x 3 modes x (AMX + 2 IEEE)                     = 122
file(REMOVE_RECURSE ${WORK})
set(args audit --samples 1 --k 2 --formats bf16,tf32 --dists uniform --elw-tiles 1 --quiet --seed 7)

set(audit_header "op,k,src,dst_mode,out_format,fidelity,dist,count,exact_zero,max_abs,mean_abs,p50_abs,p99_abs,max_rel,mean_rel,p50_rel,p99_rel,max_ulp,mean_ulp,p50_ulp,p99_ulp,bits,bits_p99,bits_mean,bits_min,ieee_once_max_ulp,ieee_once_mean_ulp,ieee_once_bits,ieee_once_bits_p99,ieee_once_bits_min,ieee_seq_max_ulp,ieee_seq_mean_ulp,ieee_seq_bits,ieee_seq_bits_p99,ieee_seq_bits_min,phase_check")
set(bits_header "op,src,dst_mode,out_format,dist,method,k,count,bits,bits_p99,bits_mean,bits_min,mean_ulp,max_ulp")

function(run_audit dir expected_rc)
  execute_process(COMMAND ${TMU} ${args} --out ${dir} ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL ${expected_rc})
    message(FATAL_ERROR "tmu audit ${ARGN}: exit status ${rc}, expected ${expected_rc}\nstdout: ${out}\nstderr: ${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

function(expect_rows file expected_header expected_rows)
  file(STRINGS ${file} lines)
  list(LENGTH lines n)
  list(GET lines 0 header)
  if(NOT header STREQUAL expected_header)
    message(FATAL_ERROR "${file}: header\n  ${header}\nexpected\n  ${expected_header}")
  endif()
  math(EXPR rows "${n} - 1")
  if(NOT rows EQUAL ${expected_rows})
    message(FATAL_ERROR "${file}: ${rows} rows, expected ${expected_rows}")
  endif()
endfunction()

# expect_line(FILE REGEX WHY): FILE has a line matching REGEX, or the test fails saying WHY.
function(expect_line file regex why)
  file(STRINGS ${file} hit REGEX "${regex}")
  if(NOT hit)
    message(FATAL_ERROR "${why}")
  endif()
endfunction()

run_audit(${WORK}/a 0)
string(FIND "${out}" "seed 7" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "the seed is not printed:\n${out}")
endif()
expect_rows(${WORK}/a/audit.csv
  "${audit_header}"
  102)
expect_rows(${WORK}/a/phases.csv
  "op,src,dst_mode,fidelity,dist,pass,expected_phase,elements,failures,sensitive,max_error_over_budget,added_share_log2,expected_share_log2,steps,steps_wrong_pass_count,verdict"
  80)
expect_rows(${WORK}/a/bits_vs_k.csv "${bits_header}" 122)
foreach(f error_hist.csv audit.md)
  if(NOT EXISTS ${WORK}/a/${f})
    message(FATAL_ERROR "${f} was not written")
  endif()
endforeach()
# One MVMUL tile of 32x32 outputs per configuration at K = 1; every check passed.
file(STRINGS ${WORK}/a/audit.csv k1 REGEX "^MVMUL,1,BF16,dst32,FP32,HiFi4,uniform,1024,")
list(LENGTH k1 n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one MVMUL K=1 BF16 FP32 HiFi4 row with 1024 results")
endif()
# The AMX rows: every mode, 1024 results at K = 1, no phase check; and no Tensix row after them.
foreach(row "MATFP,1,BF16,dst32,FP32,AMX bf16->f32" "MATFP,1,FP16,dst32,FP32,AMX f16->f32" "MATFP,2,FP32,dst32,FP32,AMX f32")
  file(STRINGS ${WORK}/a/audit.csv amx REGEX "^${row},uniform,1024,.*,$")
  list(LENGTH amx n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "expected one audit.csv row ${row},uniform,1024,... ending in an empty phase check")
  endif()
endforeach()
file(STRINGS ${WORK}/a/audit.csv lines)
list(SUBLIST lines 97 6 last)
list(FILTER last EXCLUDE REGEX "^MATFP,")
if(last)
  message(FATAL_ERROR "audit.csv: the last six rows are not the MATFP rows:\n${last}")
endif()
file(STRINGS ${WORK}/a/phases.csv failed REGEX "FAIL")
if(failed)
  message(FATAL_ERROR "phase checks failed on the real sequence:\n${failed}")
endif()

# The same seed replays bit-identically.
run_audit(${WORK}/b 0 --threads 1)
foreach(f audit.csv phases.csv bits_vs_k.csv error_hist.csv)
  file(READ ${WORK}/a/${f} a)
  file(READ ${WORK}/b/${f} b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${f} differs between two runs with seed 7")
  endif()
endforeach()

# --engines tensix writes the Matrix Unit rows alone, exactly as the full run wrote them; --engines amx
# the AMX rows alone (no phase checks).
run_audit(${WORK}/t 0 --engines tensix)
expect_rows(${WORK}/t/audit.csv "${audit_header}" 96)
expect_rows(${WORK}/t/bits_vs_k.csv "${bits_header}" 104)
file(STRINGS ${WORK}/t/audit.csv tensix_lines)
file(STRINGS ${WORK}/a/audit.csv full_lines)
list(SUBLIST full_lines 0 97 full_tensix)
if(NOT tensix_lines STREQUAL full_tensix)
  message(FATAL_ERROR "--engines tensix changed the Matrix Unit rows of audit.csv")
endif()
run_audit(${WORK}/x 0 --engines AMX --amx-modes f32,F16F32)
expect_rows(${WORK}/x/audit.csv "${audit_header}" 4)
expect_rows(${WORK}/x/phases.csv
  "op,src,dst_mode,fidelity,dist,pass,expected_phase,elements,failures,sensitive,max_error_over_budget,added_share_log2,expected_share_log2,steps,steps_wrong_pass_count,verdict"
  0)

# --engines tensix,pto adds pto.csv (every float PTO operation x 3 types x 3 random operand sets:
# 20 x 9 = 180 rows, and every pattern of the 8 one-source operations on f16 and bf16: 16) and
# cross_engines.csv (per format and distribution: the 8 ELWMUL rows and the 8 ELWADD rows, 4
# fidelities x 2 Dst modes, then PTO TMUL and TADD: 2 formats x 18 = 36 rows); the Tensix files are
# unchanged.
run_audit(${WORK}/p 0 --engines tensix,pto --pto-tiles 1)
expect_rows(${WORK}/p/pto.csv
  "op,type,inputs,status,lanes,correctly_rounded,max_ulp,mean_ulp,ulp_0,ulp_1,ulp_2,ulp_3-4,ulp_5-16,ulp_17-256,ulp_>256,nan_both,nan_mismatch,refused_lanes,reason"
  196)
expect_rows(${WORK}/p/cross_engines.csv
  "engine,operation,method,result_format,src,dist,count,bits,bits_p99,max_ulp,mean_ulp,row"
  36)
file(STRINGS ${WORK}/p/cross_engines.csv elwadd REGEX "^Tensix,ELWADD,")
list(LENGTH elwadd n_elwadd)
if(NOT n_elwadd EQUAL 16)
  message(FATAL_ERROR "cross_engines.csv: ${n_elwadd} ELWADD rows, expected 16 (4 fidelities x 2 Dst modes x 2 formats)")
endif()
expect_line(${WORK}/p/pto.csv "^TADD,f32,moderate,measured,1024,yes,0,"
            "pto.csv: TADD f32 is not one correctly rounded row of 1024 lanes")
file(READ ${WORK}/t/audit.csv a)
file(READ ${WORK}/p/audit.csv b)
if(NOT a STREQUAL b)
  message(FATAL_ERROR "--engines tensix,pto changed audit.csv")
endif()

# --pto-profile a5: the same rows under a5. Moderate operands (exponents -4..4) meet none of the
# lanes a5's float assumption leaves out, so TADD f32 is again 1024 correctly rounded lanes, none
# refused; a product of two numbers near 2^-126 (the tiny set) is refused in every lane, so the row
# is refused with a5's reason; audit.md names the assumption.
run_audit(${WORK}/a5 0 --engines pto --pto-tiles 1 --pto-profile a5)
expect_line(${WORK}/a5/pto.csv "^TADD,f32,moderate,measured,1024,yes,0,0,1024,0,0,0,0,0,0,0,0,0,"
            "pto.csv under a5: TADD f32 moderate is not 1024 correctly rounded lanes, none refused")
expect_line(${WORK}/a5/pto.csv "^TMUL,f32,tiny,refused,.*a5-ieee"
            "pto.csv under a5: TMUL f32 on tiny operands is not refused with the a5-ieee assumption")
file(READ ${WORK}/a5/audit.md md)
if(NOT md MATCHES "tmu::pto \\(a5 profile\\)" OR NOT md MATCHES "assumption a5-ieee")
  message(FATAL_ERROR "audit.md under --pto-profile a5 does not name the profile and its assumption")
endif()

# A phase run twice (tt-llk #837) is caught: exit status 3 and FAIL rows.
run_audit(${WORK}/c 3 --perturb repeat1 --fidelity hifi4 --ops mvmul)
file(STRINGS ${WORK}/c/phases.csv failed REGEX ",FAIL$")
if(NOT failed)
  message(FATAL_ERROR "--perturb repeat1 produced no failing phase check")
endif()

foreach(bad "--formats;bf17" "--perturb;skip9" "--dst;24" "--k;0" "--engines;gpu" "--amx-modes;tf32"
            "--engines;pto;--pto-profile;a6")
  execute_process(COMMAND ${TMU} ${args} --out ${WORK}/d ${bad} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "tmu audit ${bad}: exit status ${rc}, expected 2\n${err}")
  endif()
endforeach()

# --plots: scripts/plot_audit.py and the engines' audit/plots.py draw every plot of a three-engine run.
run_audit(${WORK}/plots 0 --engines tensix,amx,pto --pto-tiles 1 --plots)
foreach(png errors_mvmul_uniform errors_elwmul_uniform errors_mvmul-l1-bfp8_uniform bits_vs_k_uniform packed
            errors_matfp_uniform bits_vs_k_engines cross_engines)
  if(NOT EXISTS ${WORK}/plots/${png}.png)
    message(FATAL_ERROR "tmu audit --plots drew no ${png}.png:\n${out}")
  endif()
endforeach()

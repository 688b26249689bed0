#!/usr/bin/env bash
# Proves the gated datapath equivalent to an ungated reference commit (scripts/equiv.sh), by cases:
# every stage module with valid_i = 1 (with valid_i = 0 its outputs are X, which no register loads),
# and every element of the MAC, element-wise and GMPOOL arrays for each value of the inputs its
# gating depends on - the stage valids and, where a path is chosen per operation, the operation
# and INT8. Stage 1 and stage 2 of an element read disjoint inputs, so one run proves a stage-1
# case and a stage-2 case together; the runs below cover every case of each stage.
#
#   scripts/equiv-datapath.sh REV      e.g. 0b6180a, the last commit before the datapath gating
set -euo pipefail
cd "$(dirname "$0")/.."
rev="${1:?usage: scripts/equiv-datapath.sh REV}"
T="1'b1"; F="1'b0"
status=0
run() { scripts/equiv.sh --rev "$rev" "$@" || status=1; }
run --tie "valid_i=$T" tmu_shift_round tmu_align_group_sum tmu_fidelity_slice tmu_dst_to_acc \
    tmu_acc_to_dst tmu_accum_normalize tmu_elw_adder
run --tie "s1_valid_i=$F" --tie "s2_valid_i=$F" tmu_mac_element tmu_elw_element tmu_gmpool_column
run --tie "s1_valid_i=$T" --tie "s2_valid_i=$T" --tie "int8_s2_i=$F" tmu_mac_element
run --tie "s1_valid_i=$T" --tie "s2_valid_i=$T" --tie "int8_s2_i=$T" tmu_mac_element
run --tie "s1_valid_i=$T" --tie "s2_valid_i=$T" tmu_gmpool_column
n=0
for op in ELW_MUL ELW_ADD ELW_SUB; do
  for int8 in "$F" "$T"; do
    # stage 2 alternates between its float and INT8 cases
    if [ $((n % 2)) -eq 0 ]; then s2=$F; else s2=$T; fi
    run --tie "s1_valid_i=$T" --tie "op_s1_i=tmu_pkg::$op" --tie "int8_s1_i=$int8" \
        --tie "s2_valid_i=$T" --tie "int8_s2_i=$s2" tmu_elw_element
    n=$((n + 1))
  done
done
exit "$status"

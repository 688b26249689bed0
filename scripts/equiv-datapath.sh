#!/usr/bin/env bash
# Proves the gated datapath equivalent to an ungated reference commit (scripts/equiv.sh), by cases:
# every stage module with valid_i = 1 (with valid_i = 0 its outputs are X, which no register loads),
# and every element of the MVMUL, element-wise and GMPOOL arrays for each value of the inputs its
# gating depends on - the stage valids and, where a path is chosen per operation, the operation
# and INT8. The two stages of an element read disjoint inputs, so one run proves a case of the
# first stage (term; GMPOOL: compare) and one of the second (accum; GMPOOL: write) together; the
# runs below cover every case of each stage.
#
# A REV before the stage names of rtl/README.md ("One vocabulary") has the elements as
# tmu_mac_element / tmu_mac_array with _s1 / _s2 stage suffixes: the reference files are renamed
# to today's names first (equiv.sh --gold-rename), which renames and nothing else.
#
#   scripts/equiv-datapath.sh REV      e.g. 0b6180a, the last commit before the datapath gating
set -euo pipefail
cd "$(dirname "$0")/.."
rev="${1:?usage: scripts/equiv-datapath.sh REV}"
T="1'b1"; F="1'b0"
status=0
renames=(
  --gold-rename 's/\btmu_mac_element\b/tmu_mvmul_element/g; s/\btmu_mac_array\b/tmu_mvmul_block/g'
  --gold-rename 'if ($ARGV =~ /gmpool/) { s/\bs1_valid/compare_valid/g; s/\bs2_valid/write_valid/g;
                   s/_s1(?=_|\b)/_compare/g; s/_s2(?=_|\b)/_write/g }
                 else { s/\bs1_valid/term_valid/g; s/\bs2_valid/accum_valid/g;
                   s/_s1(?=_|\b)/_term/g; s/_s2(?=_|\b)/_accum/g }')
run() { scripts/equiv.sh --rev "$rev" "${renames[@]}" "$@" || status=1; }
run --tie "valid_i=$T" tmu_shift_round tmu_align_group_sum tmu_fidelity_slice tmu_dst_to_acc \
    tmu_acc_to_dst tmu_accum_normalize tmu_elw_adder
run --tie "term_valid_i=$F" --tie "accum_valid_i=$F" tmu_mvmul_element tmu_elw_element
run --tie "compare_valid_i=$F" --tie "write_valid_i=$F" tmu_gmpool_column
run --tie "term_valid_i=$T" --tie "accum_valid_i=$T" --tie "int8_accum_i=$F" tmu_mvmul_element
run --tie "term_valid_i=$T" --tie "accum_valid_i=$T" --tie "int8_accum_i=$T" tmu_mvmul_element
run --tie "compare_valid_i=$T" --tie "write_valid_i=$T" tmu_gmpool_column
n=0
for op in ELW_MUL ELW_ADD ELW_SUB; do
  for int8 in "$F" "$T"; do
    # the accum stage alternates between its float and INT8 cases
    if [ $((n % 2)) -eq 0 ]; then s2=$F; else s2=$T; fi
    run --tie "term_valid_i=$T" --tie "op_term_i=tmu_pkg::$op" --tie "int8_term_i=$int8" \
        --tie "accum_valid_i=$T" --tie "int8_accum_i=$s2" tmu_elw_element
    n=$((n + 1))
  done
done
exit "$status"

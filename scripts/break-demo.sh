#!/usr/bin/env bash
# Breaks a copy of the RTL on purpose and shows that the co-simulation catches it: the mismatch
# report with the diagnosis that names the break, the replay command, the FST of the failing window
# and the saved replay program.
#
#   scripts/break-demo.sh BREAK [--work DIR] [--build-dir DIR] [--seed N] [--jobs N]
#                         [--build-only] [--find-only]
#
# The breaks a plusarg turns on, all in one copy of the RTL, so one build of the simulator serves
# them all (tmu_tb --rtl-plusarg tmu_break_<name>; without a plusarg the copy is the RTL as written):
#   rounding-bit    tmu_shift_round drops the half-LSB it adds before truncating: every alignment
#                   and normalisation truncates instead of rounding to nearest ([shift_round])
#   sign            tmu_accum_normalize inverts the sign of every sum ([accum_normalize] "differs only
#                   in the sign")
#   norm-shift      tmu_accum_normalize shifts one place too far left when it normalises
#                   ([accum_normalize] "the normalisation shift is one too large")
#   exponent-bias   tmu_fidelity_slice's rebias of an 8-bit-exponent product is one too large
#                   ([fidelity_slice] "every product's exponent is one too large"), run on MVMUL
#   exponent-bias-elwmul
#                   the same break run on ELWMUL (eltwise_mul_none), whose one product comes from
#                   the same tmu_fidelity_slice ([fidelity_slice], the same words)
#   fidelity-phase  tmu_mu_ctrl hands the multipliers the wrong fidelity phase (bit 0 flipped), so
#                   a phase multiplies another phase's slices ([fidelity_slice] "the RTL multiplied
#                   fidelity phase 1's slices instead of phase 0's")
#   int8-sat-acc    tmu_int8_sat_acc without its clamp: an INT8 sum past +/-(2^31 - 1) keeps its
#                   magnitude's low 31 bits (run on int8_saturation; [int8_sat_acc] "was not saturated")
#   stages          each of the above in turn, one run each with its diagnosis (ctest
#                   cosim.break_demo.stages checks that each names its class)
# A break that needs a copy of its own (a constant a plusarg cannot reach):
#   argmax-order    tmu_gmpool_column visits the 16 rows of a column in plain order 0..15 instead of the
#                   hardware's 4..7, 0..3, 8..15, so GMPOOL's argmax picks another row on ties (and,
#                   the index being decoded from the step, records row r ^ 4's index); the report's
#                   diagnosis names it ([gmpool_compare]; ctest cosim.break_demo.argmax-order)
#
# The broken copy lives in WORK/rtl (default WORK: build/break-demo) and is rewritten only when its
# text changes, so the plusarg breaks share one build; the simulator is built in WORK/build with
# -DTMU_TB_RTL_DIR=WORK/rtl (the first time a full build of the co-simulation, then only the RTL
# model again, when the copy changed), each run's output goes to WORK/out-<break>. Exit 0 when every
# run was caught (tmu_tb exit 1 with a report and an FST), 1 when one was not, 2 on bad input.
# --build-dir reuses a configured build directory (its compiled refmodel saves most of a build); it is
# reconfigured to simulate the broken copy, so reconfigure it with -DTMU_TB_RTL_DIR=<repo>/rtl after.
# --find-only breaks the copy and stops: that the lines are still there to break (ctest
# cosim.break_demo_lines runs it for both copies; a whole demonstration rebuilds the simulator).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

name="${1:-}"
[ $# -gt 0 ] && shift
work=""
build=""
seed=1
jobs="$(nproc)"
build_only=0
find_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work="$2"; shift ;;
    --build-dir) build="$2"; shift ;;
    --seed) seed="$2"; shift ;;
    --jobs) jobs="$2"; shift ;;
    --build-only) build_only=1 ;;
    --find-only) find_only=1 ;;
    *) echo "break-demo.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

# Each break of a copy, one entry a break: file|line as written|broken line. Each run: the break's
# name|the tmu_tb arguments that catch it.
plus() { echo "(\$test\$plusargs(\"tmu_break_$1\") != 0)"; }
stage_breaks=(
  "tmu_shift_round.sv|rounded   = (one_short >> 1) + Width'(one_short[0]);|rounded   = (one_short >> 1) + Width'(one_short[0] && !$(plus rounding_bit));  // BROKEN ON PURPOSE (break-demo.sh)"
  "tmu_accum_normalize.sv|sign      = dst_i.sign ^ sum[SumW-1];|sign      = dst_i.sign ^ sum[SumW-1] ^ $(plus sign);  // BROKEN ON PURPOSE (break-demo.sh)"
  "tmu_accum_normalize.sv|norm_shift = \$signed({2'b0, leading_zeros}) - NormW'(MagW - 1 - FracBits);|norm_shift = \$signed({2'b0, leading_zeros}) - NormW'(MagW - 1 - FracBits) + \$signed(NormW'($(plus norm_shift)));  // BROKEN ON PURPOSE (break-demo.sh)"
  "tmu_fidelity_slice.sv|adjust = ExpW'(Exp8Adjust);|adjust = ExpW'(Exp8Adjust) + ExpW'($(plus exponent_bias));  // BROKEN ON PURPOSE (break-demo.sh)"
  "tmu_mu_ctrl.sv|ctrl_o.mode.phase        = rwc_i.fidelity_phase + cfg_i.fidelity_base;|ctrl_o.mode.phase        = (rwc_i.fidelity_phase + cfg_i.fidelity_base) ^ tmu_pkg::fidelity_phase_t'($(plus fidelity_phase));  // BROKEN ON PURPOSE (break-demo.sh)"
  "tmu_int8_sat_acc.sv|magnitude = '1;|magnitude = $(plus int8_sat_acc) ? magnitude_sum[MagW-1:0] : '1;  // BROKEN ON PURPOSE (break-demo.sh)"
)
stage_names=(rounding-bit sign norm-shift exponent-bias exponent-bias-elwmul fidelity-phase int8-sat-acc)
# A stage break's run: the test that reaches the broken stage and the plusarg that breaks it.
stage_run() {
  case "$1" in
    exponent-bias-elwmul) echo "--test eltwise_mul_none --arch blackhole --rtl-plusarg tmu_break_exponent_bias" ;;
    int8-sat-acc) echo "--test int8_saturation --arch blackhole --rtl-plusarg tmu_break_int8_sat_acc" ;;
    *) echo "--test matmul_hifi4 --arch blackhole --rtl-plusarg tmu_break_${1//-/_}" ;;
  esac
}
case "$name" in
  argmax-order)
    breaks=("tmu_gmpool_column.sv|localparam int unsigned Step = (r < HalfW) ? (r ^ 4) : r;|localparam int unsigned Step = r;  // BROKEN ON PURPOSE (break-demo.sh): plain visit order")
    runs=("argmax-order|--test maxpool_gmpool_argmax --arch blackhole") ;;
  rounding-bit|sign|norm-shift|exponent-bias|exponent-bias-elwmul|fidelity-phase|int8-sat-acc)
    breaks=("${stage_breaks[@]}")
    runs=("$name|$(stage_run "$name")") ;;
  stages)
    breaks=("${stage_breaks[@]}")
    runs=()
    for b in "${stage_names[@]}"; do runs+=("$b|$(stage_run "$b")"); done ;;
  *) echo "break-demo.sh: give ${stage_names[*]}, stages or argmax-order (see the header of $0)" >&2
     exit 2 ;;
esac

work="${work:-$root/build/break-demo}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
build="${build:-$work/build}"
rm -rf "$work/rtl.new"
cp -r "$root/rtl" "$work/rtl.new"

# Each line must be there exactly once, so the demonstration breaks what it says it breaks. It is
# found by its words, whatever the spacing between them (an alignment change must not lose it).
printf '%s\n' "${breaks[@]}" | "${TMU_PYTHON:-/usr/bin/python3}" -c '
import re, sys
root = sys.argv[1]
for entry in sys.stdin.read().splitlines():
    name, good, bad = entry.split("|", 2)
    path = f"{root}/{name}"
    pattern = r"\s*".join(re.escape(word) for word in good.split())
    text = open(path).read()
    found = len(re.findall(pattern, text))
    if found != 1:
        print(f"break-demo.sh: rtl/{name} holds the line to break {found} times, expected once: {good!r}", file=sys.stderr)
        sys.exit(1)
    open(path, "w").write(re.sub(pattern, lambda m: bad, text))
    print(f"break-demo.sh: rtl/{name}, the line\n    {good}\n  is now\n    {bad}")
' "$work/rtl.new" || exit 1
# Replaced only when its text changes: a second run of the same copy rebuilds nothing.
if [ -d "$work/rtl" ] && diff -rq "$work/rtl" "$work/rtl.new" > /dev/null; then
  rm -rf "$work/rtl.new"
else
  rm -rf "$work/rtl"
  mv "$work/rtl.new" "$work/rtl"
fi
[ "$find_only" = 1 ] && exit 0

echo "break-demo.sh: building the co-simulation of the broken copy in $build"
# -O1: one short run of a throw-away model does not repay -O2's longer compile.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTMU_TB_RTL_DIR="$work/rtl" \
  -DTMU_TB_CXX_OPT=-O1 \
  > "$work/configure.log"
ninja -C "$build" -j "$jobs" tmu_tb > "$work/build.log" || {
  echo "break-demo.sh: the build failed (log $work/build.log)" >&2; exit 1; }

if [ "$build_only" = 1 ]; then
  echo "break-demo.sh: built $build/tb/tmu_tb (the broken copy)"
  exit 0
fi
status=0
for entry in "${runs[@]}"; do
  run_name="${entry%%|*}"
  read -r -a run <<< "${entry#*|}"
  out="$work/out-$run_name"
  rm -rf "$out"
  mkdir -p "$out"
  echo "break-demo.sh: $run_name: running ${run[*]} --seed $seed"
  set +e
  (cd "$out" && "$build/tb/tmu_tb" "${run[@]}" --seed "$seed" --quiet --replay-dir "$out") \
    | tee "$out/tmu_tb.log"
  rc=${PIPESTATUS[0]}
  set -e
  fst="$(ls "$out"/*.fst 2>/dev/null | head -1 || true)"
  if [ "$rc" -eq 1 ] && [ -n "$fst" ]; then
    echo "break-demo.sh: $run_name: CAUGHT - tmu_tb exit 1; report above and in $out/tmu_tb.log; waveform $fst;"
    echo "  replay programs in $out"
  else
    echo "break-demo.sh: $run_name: NOT CAUGHT (tmu_tb exit $rc, waveform '${fst}')" >&2
    status=1
  fi
done
exit "$status"

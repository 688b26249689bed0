#!/usr/bin/env bash
# Breaks one line of a copy of the RTL on purpose and shows that the co-simulation catches it: the
# mismatch report, the replay command, the FST of the failing window and the saved replay program.
#
#   scripts/break-demo.sh argmax-order|rounding-bit [--work DIR] [--build-dir DIR] [--seed N] [--jobs N]
#                         [--build-only] [--find-only]
#
#   argmax-order  tmu_gmpool_column visits the 16 rows of a column in plain order 0..15 instead of the
#                 hardware's 4..7, 0..3, 8..15, so GMPOOL's argmax picks another row on ties (and,
#                 the index being decoded from the step, records row r ^ 4's index); the report's
#                 diagnosis names it ([gmpool_compare]; ctest cosim.break_demo.argmax-order)
#   rounding-bit  tmu_shift_round drops the half-LSB it adds before truncating: every alignment
#                 and normalisation of the datapath truncates instead of rounding to nearest; the
#                 report's diagnosis names it ([shift_round]; ctest cosim.break_demo.rounding-bit)
#
# The broken copy lives in WORK/rtl (default WORK: build/break-demo), the simulator is built in
# WORK/build with -DTMU_TB_RTL_DIR=WORK/rtl (the first time a full build of the co-simulation, then
# only the RTL model again), the run's output goes to WORK/out-<name>. Exit 0 when the break was
# caught (tmu_tb exit 1 with a report and an FST), 1 when it was not, 2 on bad input.
# --build-dir reuses a configured build directory (its compiled refmodel saves most of a build); it is
# reconfigured to simulate the broken copy, so reconfigure it with -DTMU_TB_RTL_DIR=<repo>/rtl after.
# --find-only breaks the copy and stops: that the line is still there to break (ctest
# cosim.break_demo_lines runs it for every break; a whole demonstration rebuilds the simulator).
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

# Each break: the file, the line as written, the broken line, and the tmu_tb run that should catch it.
case "$name" in
  argmax-order)
    file=tmu_gmpool_column.sv
    good='localparam int unsigned Step = (r < HalfW) ? (r ^ 4) : r;'
    bad='localparam int unsigned Step = r;  // BROKEN ON PURPOSE (break-demo.sh): plain visit order'
    run=(--test maxpool_gmpool_argmax --arch blackhole) ;;
  rounding-bit)
    file=tmu_shift_round.sv
    good="rounded   = (one_short >> 1) + Width'(one_short[0]);"
    bad='rounded   = (one_short >> 1);  // BROKEN ON PURPOSE (break-demo.sh): truncates'
    run=(--test matmul_hifi4 --arch blackhole) ;;
  *) echo "break-demo.sh: give argmax-order or rounding-bit (see the header of $0)" >&2; exit 2 ;;
esac

work="${work:-$root/build/break-demo}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
build="${build:-$work/build}"
out="$work/out-$name"
rm -rf "$work/rtl" "$out"
cp -r "$root/rtl" "$work/rtl"
mkdir -p "$out"

# The line must be there exactly once, so the demonstration breaks what it says it breaks. It is
# found by its words, whatever the spacing between them (an alignment change must not lose it).
GOOD="$good" BAD="$bad" "${TMU_PYTHON:-/usr/bin/python3}" - "$work/rtl/$file" "$file" <<'EOF' || exit 1
import os, re, sys
path, name = sys.argv[1], sys.argv[2]
good = os.environ["GOOD"]
pattern = r"\s*".join(re.escape(word) for word in good.split())
text = open(path).read()
found = len(re.findall(pattern, text))
if found != 1:
    print(f"break-demo.sh: rtl/{name} holds the line to break {found} times, expected once: '{good}'", file=sys.stderr)
    sys.exit(1)
open(path, "w").write(re.sub(pattern, lambda m: os.environ["BAD"], text))
EOF
echo "break-demo.sh: rtl/$file, the line"
echo "    $good"
echo "  is now"
echo "    $bad"
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
echo "break-demo.sh: running ${run[*]} --seed $seed"
set +e
(cd "$out" && "$build/tb/tmu_tb" "${run[@]}" --seed "$seed" --quiet --replay-dir "$out") \
  | tee "$out/tmu_tb.log"
rc=${PIPESTATUS[0]}
set -e
fst="$(ls "$out"/*.fst 2>/dev/null | head -1 || true)"
if [ "$rc" -eq 1 ] && [ -n "$fst" ]; then
  echo "break-demo.sh: CAUGHT - tmu_tb exit 1; report above and in $out/tmu_tb.log; waveform $fst;"
  echo "  replay programs in $out"
  exit 0
fi
echo "break-demo.sh: NOT CAUGHT (tmu_tb exit $rc, waveform '${fst}')" >&2
exit 1

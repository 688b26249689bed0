#!/usr/bin/env bash
# Co-simulation speed: verified instructions per second of the random test with the scoreboard on,
# the same run with it off (--no-check: the RTL is driven and its retirements are reported, nothing
# is compared), and the simulated cycles per second of the full unit, on both architectures, one
# process at a time (one core).
#
#   bench/cosim.sh [--vs OLD_BUILD] [--perf] [BUILD] [INSTRUCTIONS]
#
# BUILD         build directory whose tb/tmu_tb is measured (default: build)
# INSTRUCTIONS  random instructions per run (default: 5000), seed 1
# --vs OLD      also measure OLD/tb/tmu_tb (e.g. a build of an earlier commit) on the same runs and
#               print both side by side with the speed-up
# --perf        also profile one checked run per build with `perf record` and print where the time
#               goes: the MVMUL / element-wise / GMPOOL arrays, the rest of the RTL, Verilator's
#               runtime helpers, and the scoreboard, driver and DPI (needs Debian's linux-perf)
set -euo pipefail
old=""
perf=0
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --vs) old="${2:?--vs needs a build directory}"; shift ;;
    --perf) perf=1 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench/cosim.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) args+=("$1") ;;
  esac
  shift
done
build="${args[0]:-build}"
n="${args[1]:-5000}"
builds=("$build")
[ -n "$old" ] && builds=("$old" "$build")
for b in "${builds[@]}"; do
  [ -x "$b/tb/tmu_tb" ] || { echo "bench/cosim.sh: $b/tb/tmu_tb is missing (build first)" >&2; exit 2; }
done
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "bench/cosim.sh: INSTRUCTIONS must be a positive number, not '$n'" >&2; exit 2; }

# run BUILD ARCH MODE -> "cycles wall": from the run's JSON report (tmu_tb --report); a build from
# before the report existed (--vs an old commit) is read from its verdict line instead.
python="${TMU_PYTHON:-/usr/bin/python3}"
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
run() {
  local flag=""
  [ "$3" = no-check ] && flag="--no-check"
  local tb="$1/tb/tmu_tb" line verdict cycles wall
  if "$tb" --help | grep -q -- '--report'; then
    "$tb" --test random --arch "$2" --seed 1 --instrs "$n" --quiet --no-wave $flag --report "$report" >/dev/null || true
    read -r verdict cycles wall < <("$python" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["verdict"], d["cycles"], d["wall_seconds"])' "$report")
    case "$verdict" in PASS|DONE) ;; *) echo "bench/cosim.sh: $1: verdict $verdict (report $report)" >&2; exit 1 ;; esac
  else
    line="$("$tb" --test random --arch "$2" --seed 1 --instrs "$n" --quiet --no-wave $flag | grep -E '^tmu_tb: (PASS|FAIL|DONE)')"
    case "$line" in "tmu_tb: PASS"*|"tmu_tb: DONE"*) ;; *) echo "bench/cosim.sh: $1: $line" >&2; exit 1 ;; esac
    cycles="$(sed -n 's/.* cycles=\([0-9]*\).*/\1/p' <<<"$line")"
    wall="$(sed -n 's/.* wall=\([0-9.]*\)s.*/\1/p' <<<"$line")"
  fi
  echo "$cycles $wall"
}

printf '%-9s %-9s %-24s %8s %8s %9s %11s\n' mode arch build cycles seconds instr/s cycles/s
for mode in check no-check; do
  for arch in blackhole wormhole; do
    first_wall=""
    for b in "${builds[@]}"; do
      read -r cycles wall < <(run "$b" "$arch" "$mode")
      speedup=""
      if [ -n "$first_wall" ]; then speedup="$(awk -v a="$first_wall" -v b="$wall" 'BEGIN { printf "  x%.1f", a / b }')"; fi
      first_wall="$wall"
      awk -v m="$mode" -v a="$arch" -v b="$b" -v c="$cycles" -v w="$wall" -v n="$n" -v s="$speedup" \
        'BEGIN { printf "%-9s %-9s %-24s %8d %8.2f %9.0f %11.0f%s\n", m, a, b, c, w, n / w, c / w, s }'
    done
  done
done

if [ "$perf" -eq 1 ]; then
  command -v perf >/dev/null || { echo "bench/cosim.sh: --perf needs perf (Debian: linux-perf)" >&2; exit 2; }
  for b in "${builds[@]}"; do
    data="$(mktemp)"
    perf record -q -o "$data" -- "$b/tb/tmu_tb" --test random --arch blackhole --seed 1 --instrs "$n" \
      --quiet --no-wave >/dev/null 2>&1
    echo "perf profile of $b/tb/tmu_tb (random, blackhole, $n instructions): share of samples"
    perf report -q -i "$data" --no-children --sort symbol 2>/dev/null | awk '
      { share = $1; sub(/%/, "", share); sym = $0; sub(/^[^]]*\] /, "", sym)
        # (tmu_mac_element: the name of the elements in builds before the stage names)
        if (sym ~ /tmu_mvmul_element|tmu_mac_element/)   k = "RTL: MVMUL block elements"
        else if (sym ~ /tmu_elw_element/)                k = "RTL: element-wise unit elements"
        else if (sym ~ /tmu_gmpool/)                     k = "RTL: GMPOOL columns"
        else if (sym ~ /^Vtmu_tb_top/)                   k = "RTL: the rest of the unit and the SV testbench top"
        else if (sym ~ /^VL_|^Verilated|verilated/)      k = "Verilator runtime helpers (wide words, scheduling)"
        else if (sym ~ /tmu_drv_|tmu::tb::|anonymous namespace/) k = "testbench driver, stimulus, coverage and DPI"
        else if (sym ~ /tmu::/)                          k = "refmodel scoreboard"
        else                                             k = "other (libc, libstdc++, kernel)"
        t[k] += share }
      END { for (k in t) printf "  %6.2f%%  %s\n", t[k], k }' | sort -rn
    rm -f "$data"
  done
fi

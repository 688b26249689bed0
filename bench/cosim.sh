#!/usr/bin/env bash
# Co-simulation speed: verified instructions per second with the scoreboard on, and the same run with
# it off (--no-check: the RTL is driven and its retirements are reported, nothing is compared), plus
# the simulated cycles per second of the full unit. Usage: bench/cosim.sh [build-dir] [instructions]
set -euo pipefail
build="${1:-build}"
n="${2:-5000}"
tb="$build/tb/tmu_tb"
[ -x "$tb" ] || { echo "bench/cosim.sh: $tb is missing (build first)" >&2; exit 2; }
for mode in check no-check; do
  for arch in blackhole wormhole; do
    flag=""
    [ "$mode" = no-check ] && flag="--no-check"
    line="$("$tb" --test random --arch "$arch" --seed 1 --instrs "$n" --quiet $flag | grep '^tmu_tb: ')"
    cycles="$(sed -n 's/.* cycles=\([0-9]*\).*/\1/p' <<<"$line")"
    wall="$(sed -n 's/.* wall=\([0-9.]*\)s.*/\1/p' <<<"$line")"
    rate="$(sed -n 's/.*(\([0-9]*\) instr\/s).*/\1/p' <<<"$line")"
    printf 'cosim %-9s %-9s %6d instructions %8d cycles %7.2f s  %6d instr/s  %7.0f cycles/s\n' \
      "$mode" "$arch" "$n" "$cycles" "$wall" "$rate" "$(awk -v c="$cycles" -v w="$wall" 'BEGIN { print c / w }')"
  done
done

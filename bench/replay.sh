#!/usr/bin/env bash
# Vector replay speed, whole process: `tmu check` over a level-2 set of each engine read from disk
# (written first into a scratch directory, seed 1), serially (-j 1, one core) and on every core
# (-j N), with vectors/s, MB/s of vector text and dst lanes/s where counted, by wall time; and the CPU
# seconds (user + system) with vectors per CPU second, which other jobs on a shared machine disturb
# less. Each figure is the minimum of three runs. With --vs OLD_BUILD the same files are replayed by
# OLD_BUILD/tmu too, side by side (an OLD tmu without -j runs serially in both columns); the files
# are then written by OLD_BUILD/tmu, so that both read them (a newer tmu may write records or
# operations an older one does not know).
#
#   bench/replay.sh [--vs OLD_BUILD] [BUILD] [-n N]
#
# BUILD   build directory whose tmu is measured (default: build)
# -n N    random vectors per file of the level-2 sets (default 64; 32 times as many for an engine
#         whose set would be smaller than 32 MB)
set -euo pipefail
old=""
n=64
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --vs) old="${2:?--vs needs a build directory}"; shift ;;
    -n) n="${2:?-n needs a number}"; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench/replay.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) args+=("$1") ;;
  esac
  shift
done
build="${args[0]:-build}"
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "bench/replay.sh: -n must be a positive number, not '$n'" >&2; exit 2; }
builds=("$build")
[ -n "$old" ] && builds=("$old" "$build")
for b in "${builds[@]}"; do
  [ -x "$b/tmu" ] || { echo "bench/replay.sh: $b/tmu is missing (build first)" >&2; exit 2; }
done
cores="$(nproc)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# best TMU JOBS DIR -> "SECONDS|CPU_SECONDS|SUMMARY": the least of three wall times and of three CPU
# times (user + system), and tmu check's summary line
best() {
  local tmu="$1" jobs="$2" dir="$3" t cpu best_t="" best_cpu="" jflag=() summary=""
  "$tmu" check --help | grep -q -- '--jobs' && jflag=(-j "$jobs")
  for _ in 1 2 3; do
    summary=$(/usr/bin/time -f 'time %e %U %S' -o "$work/time" "$tmu" check "${jflag[@]}" "$dir" | tail -1)
    # the last line: /usr/bin/time puts "Command exited with non-zero status N" before it
    read -r _ t user sys < <(tail -1 "$work/time")
    cpu=$(echo "$user + $sys" | bc -l)
    if [ -z "$best_t" ] || [ "$(echo "$t < $best_t" | bc -l)" = 1 ]; then best_t=$t; fi
    if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc -l)" = 1 ]; then best_cpu=$cpu; fi
  done
  echo "$best_t|$best_cpu|$summary"
}

echo "machine: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '%-7s %-9s %9s %6s %-5s %8s %10s %7s %7s %10s\n' engine build vectors MB jobs seconds vectors/s MB/s cpu-s vec/cpu-s
for engine in $("$build/tmu" engines | cut -d' ' -f1); do
  dir="$work/$engine"
  "${old:-$build}/tmu" --engine "$engine" vectors --level 2 -n "$n" --seed 1 -q -o "$dir" > /dev/null 2>&1
  mb=$(du -sm --apparent-size "$dir" | cut -f1)
  # An engine whose files hold few random vectors each gets 32 times as many, so that every set is
  # large enough to time (32 MB or more).
  if [ "$mb" -lt 32 ]; then
    rm -rf "$dir"
    "${old:-$build}/tmu" --engine "$engine" vectors --level 2 -n $((n * 32)) --seed 1 -q -o "$dir" > /dev/null 2>&1
    mb=$(du -sm --apparent-size "$dir" | cut -f1)
  fi
  for b in "${builds[@]}"; do
    for jobs in 1 "$cores"; do
      result=$(best "$b/tmu" "$jobs" "$dir")
      t=${result%%|*}
      result=${result#*|}
      cpu=${result%%|*}
      summary=${result#*|}
      vectors=$(echo "$summary" | sed -n 's/.* files, \([0-9]*\) vectors.*/\1/p')
      lanes=$(echo "$summary" | sed -n 's/.*, \([0-9]*\) dst elements.*/\1/p')
      extra=""
      [ -n "$lanes" ] && extra=$(printf '  %.2f M lanes/s, %.2f M lanes/cpu-s' "$(echo "$lanes / $t / 1000000" | bc -l)" \
        "$(echo "$lanes / $cpu / 1000000" | bc -l)")
      printf '%-7s %-9s %9s %6s %-5s %8.2f %10.0f %7.0f %7.2f %10.0f%s\n' "$engine" "$(basename "$b")" "$vectors" "$mb" \
        "-j $jobs" "$t" "$(echo "$vectors / $t" | bc -l)" "$(echo "$mb / $t" | bc -l)" "$cpu" "$(echo "$vectors / $cpu" | bc -l)" \
        "$extra"
    done
  done
done

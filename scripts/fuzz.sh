#!/usr/bin/env bash
# The fuzz campaigns (docs/reliability.md): libFuzzer with AddressSanitizer and UndefinedBehaviorSanitizer
# over every harness of fuzz/CMakeLists.txt and the engines' fuzz/fuzz.cmake, in a clang build of its
# own (./build-fuzz, or $TMU_FUZZ_BUILD_DIR).
#
#   bash scripts/fuzz.sh --build                   configure (clang++, -DTMU_FUZZ=ON) and build the harnesses
#   bash scripts/fuzz.sh --minutes N [NAME...]     run each harness (default: all) for N minutes, then merge
#                                                  its corpus; findings are saved in build-fuzz/findings/
#   bash scripts/fuzz.sh --runs N [NAME...]        the same, each harness for N executions instead
#   bash scripts/fuzz.sh --keep NAME...            merge the campaign corpus into the checked-in corpus/NAME
#                                                  beside the harness: only inputs adding coverage are copied
#   bash scripts/fuzz.sh --summary                 every campaign run so far, and the totals per harness
#   bash scripts/fuzz.sh --coverage [NAME...]      line coverage of each harness's target (TARGET in
#                                                  tmu_fuzz_harness): from its seeds alone, and from its
#                                                  seeds plus the campaign corpus (build-fuzz-cov/, llvm-cov)
#
# Each harness's corpus lives in build-fuzz/corpus/NAME and grows from run to run (the nightly keeps
# the directory); the checked-in seeds (SEEDS of tmu_fuzz_harness) are read every run. A run appends one
# row per harness to build-fuzz/campaign.tsv: date, harness, seconds, executions, coverage (edges),
# features, corpus size, findings. Exit status 1 when any run found something.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${TMU_FUZZ_BUILD_DIR:-build-fuzz}"
jobs="${TMU_FUZZ_JOBS:-2}"

usage() { sed -n '5,15p' "$0" >&2; exit 2; }

configure_and_build() {
  command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }
  export CCACHE_BASEDIR="$PWD"  # CMakeLists.txt uses ccache when installed; hashed relative to the checkout
  if [ ! -f "$build/build.ninja" ]; then
    nice -n 19 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
      -DTMU_FUZZ=ON -DTMU_BUILD_TESTS=OFF -DTMU_BUILD_TB=OFF -DTMU_BUILD_RTL_TESTS=OFF \
      -DTMU_BUILD_BENCH=OFF -DTMU_BUILD_PYTHON=OFF
  fi
  # The named harnesses only (all without names); cmake re-reads fuzz/CMakeLists.txt first.
  nice -n 19 cmake "$build" >/dev/null
  local targets
  if [ $# -ne 0 ]; then targets=$(printf 'fuzz_%s ' "$@"); else targets=$(cut -d' ' -f1 "$build/fuzz/harnesses.txt" | sed 's/^/fuzz_/'); fi
  # shellcheck disable=SC2086
  nice -n 19 cmake --build "$build" -j "$jobs" --target $targets
}

# The figures of libFuzzer's last status line and final stats in a log.
stat_of() { grep -o "$2: *[0-9]*" "$1" | tail -1 | grep -o '[0-9]*$' || echo 0; }

# run_harness NAME LIMIT: LIMIT is -max_total_time=SECONDS or -runs=N.
run_harness() {
  local name=$1 limit=$2 max_len dict seeds
  read -r _ max_len dict seeds < <(grep "^$name " "$build/fuzz/harnesses.txt") || { echo "fuzz.sh: no harness '$name'" >&2; exit 2; }
  local corpus="$build/corpus/$name" findings="$build/findings" logs="$build/logs"
  mkdir -p "$corpus" "$findings" "$logs"
  local log
  log="$logs/$name-$(date -u +%Y%m%dT%H%M%S).log"
  # libFuzzer reads seed directories only: the seed files are copied into one, read-only to the run.
  local seed_dir="$build/seeds/$name" s
  rm -rf "$seed_dir" && mkdir -p "$seed_dir"
  for s in $seeds; do cp -r "$s"/. "$seed_dir"/ 2>/dev/null || cp "$s" "$seed_dir"/; done
  local start=$SECONDS status=0
  nice -n 19 "$build/fuzz/fuzz_$name" "$limit" -max_len="$max_len" -dict="$dict" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/$name-" \
    "$corpus" "$seed_dir" >"$log" 2>&1 || status=$?
  local seconds=$((SECONDS - start))
  # Keep the corpus small: only inputs that add coverage survive the merge.
  local merged="$build/corpus/$name.merging"
  rm -rf "$merged" && mkdir -p "$merged"
  nice -n 19 "$build/fuzz/fuzz_$name" -merge=1 -max_len="$max_len" "$merged" "$corpus" >>"$log" 2>&1 &&
    rm -rf "$corpus" && mv "$merged" "$corpus"
  local found=0
  [ "$status" -ne 0 ] && found=1
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$name" "$seconds" \
    "$(stat_of "$log" stat::number_of_executed_units)" "$(grep -o 'cov: [0-9]*' "$log" | tail -2 | head -1 | grep -o '[0-9]*$' || echo 0)" \
    "$(grep -o 'ft: [0-9]*' "$log" | tail -2 | head -1 | grep -o '[0-9]*$' || echo 0)" "$(find "$corpus" -type f | wc -l)" "$found" \
    >>"$build/campaign.tsv"
  echo "fuzz.sh: $name: $(tail -1 "$build/campaign.tsv" | cut -f3-8 | tr '\t' ' ') (seconds executions cov ft corpus findings); log $log"
  return "$status"
}

# New corpus entries worth keeping: libFuzzer's merge copies into the harness's checked-in corpus
# (the first of its seeds in harnesses.txt: corpus/NAME beside the file declaring it) only the inputs
# of the campaign corpus that add coverage to what is already there.
keep() {
  local name=$1 seeds
  [ -d "$build/corpus/$name" ] || { echo "fuzz.sh: no campaign corpus for '$name'" >&2; exit 2; }
  read -r _ _ _ seeds < <(grep "^$name " "$build/fuzz/harnesses.txt") || { echo "fuzz.sh: no harness '$name'" >&2; exit 2; }
  local kept="${seeds%% *}" before
  mkdir -p "$kept"
  before=$(find "$kept" -type f | wc -l)
  nice -n 19 "$build/fuzz/fuzz_$name" -merge=1 "$kept" "$build/corpus/$name" >/dev/null 2>&1
  echo "fuzz.sh: $(realpath --relative-to=. "$kept"): $before -> $(find "$kept" -type f | wc -l) inputs"
}

summary() {
  [ -f "$build/campaign.tsv" ] || { echo "fuzz.sh: no campaign yet ($build/campaign.tsv)"; return; }
  echo "date harness seconds executions cov ft corpus findings"
  column -t "$build/campaign.tsv"
  echo
  echo "totals: harness runs seconds executions findings max-cov"
  awk -F'\t' '{r[$2]++; s[$2]+=$3; e[$2]+=$4; f[$2]+=$8; if ($5>c[$2]) c[$2]=$5}
              END {for (h in r) print h, r[h], s[h], e[h], f[h], c[h]}' "$build/campaign.tsv" | sort | column -t
}

# Line coverage, measured apart from the campaigns: a clang build with source-based coverage
# ($TMU_FUZZ_COV_DIR, default build-fuzz-cov) links each harness with the replay driver, which runs
# every input once (--runs 0); llvm-cov counts the lines of the harness's target that ran. The
# campaign executables cannot say it: libFuzzer counts edges, and their -print_coverage names
# functions, not lines.
coverage() {
  local cov="${TMU_FUZZ_COV_DIR:-build-fuzz-cov}"
  command -v clang++ >/dev/null && command -v llvm-cov >/dev/null && command -v llvm-profdata >/dev/null ||
    { echo "fuzz.sh: clang++, llvm-cov and llvm-profdata are needed (apt-get install clang llvm)" >&2; exit 1; }
  if [ ! -f "$cov/build.ninja" ]; then
    nice -n 19 cmake -S . -B "$cov" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
      -DCMAKE_CXX_FLAGS="-fprofile-instr-generate -fcoverage-mapping" \
      -DCMAKE_EXE_LINKER_FLAGS="-fprofile-instr-generate" -DTMU_LTO=OFF -DTMU_BUILD_TB=OFF \
      -DTMU_BUILD_RTL_TESTS=OFF -DTMU_BUILD_BENCH=OFF -DTMU_BUILD_PYTHON=OFF >/dev/null
  fi
  local names=("$@")
  [ ${#names[@]} -ne 0 ] || mapfile -t names < <(cut -d' ' -f1 "$cov/fuzz/harnesses.txt")
  # TMU_FUZZ_NO_BUILD=1: the executables as they are, as for the campaigns.
  if [ "${TMU_FUZZ_NO_BUILD:-0}" != 1 ]; then
    nice -n 19 cmake "$cov" >/dev/null
    # shellcheck disable=SC2046
    nice -n 19 cmake --build "$cov" -j "$jobs" --target $(printf 'fuzz_%s ' "${names[@]}") >/dev/null
  fi
  mkdir -p "$cov/profiles"
  printf '%-16s %7s %16s %16s\n' harness lines "seeds only" "with campaign"
  local name
  for name in "${names[@]}"; do
    local seeds targets
    read -r _ _ _ seeds < <(grep "^$name " "$cov/fuzz/harnesses.txt")
    targets=$(grep "^$name " "$cov/fuzz/targets.txt" | cut -d' ' -f2-)
    local row=() inputs
    for inputs in seeds campaign; do
      local paths=$seeds raw="$cov/profiles/$name-$inputs.profraw"
      [ "$inputs" = campaign ] && [ -d "$build/corpus/$name" ] && paths="$paths $build/corpus/$name"
      # shellcheck disable=SC2086
      LLVM_PROFILE_FILE="$raw" nice -n 19 "$cov/fuzz/fuzz_$name" --runs 0 $paths >/dev/null 2>&1 ||
        { echo "fuzz.sh: $name failed on its $inputs inputs (replay them with $cov/fuzz/fuzz_$name)" >&2; exit 1; }
      llvm-profdata merge -sparse -o "${raw%.profraw}.profdata" "$raw"
      # The rows of the target's files in the whole report (llvm-cov's own file filter does not
      # apply to every executable): columns 8 and 9 are the lines and the missed lines.
      row+=("$(llvm-cov report "$cov/fuzz/fuzz_$name" -instr-profile="${raw%.profraw}.profdata" |
        awk -v targets="$targets" '
          function in_target(f, t) { return f == t || index(f, t "/") == 1 || substr(f, length(f) - length(t)) == "/" t ||
                                            index(f, "/" t "/") > 0 }
          BEGIN { n = split(targets, t, " ") }
          $1 != "TOTAL" && NF >= 9 { for (i = 1; i <= n; i++) if (in_target($1, t[i])) { lines += $8; hit += $8 - $9; break } }
          END { printf "%d %d", lines, hit }')")
    done
    read -r lines seeds_hit <<<"${row[0]}"
    read -r _ all_hit <<<"${row[1]}"
    printf '%-16s %7s %8s (%4.1f%%) %8s (%4.1f%%)\n' "$name" "$lines" "$seeds_hit" "$(echo "100 * $seeds_hit / $lines" | bc -l)" \
      "$all_hit" "$(echo "100 * $all_hit / $lines" | bc -l)"
  done
}

[ $# -ge 1 ] || usage
case "$1" in
  --build) configure_and_build ;;
  --summary) summary ;;
  --coverage) shift; coverage "$@" ;;
  --keep)
    shift
    for n in "$@"; do keep "$n"; done ;;
  --minutes|--runs)
    [ $# -ge 2 ] || usage
    if [ "$1" = --minutes ]; then limit=-max_total_time=$(($2 * 60)); else limit=-runs=$2; fi
    shift 2
    # TMU_FUZZ_NO_BUILD=1: run the executables as they are (e.g. while the tree does not build).
    [ "${TMU_FUZZ_NO_BUILD:-0}" = 1 ] || configure_and_build "$@"
    names=("$@")
    [ ${#names[@]} -ne 0 ] || mapfile -t names < <(cut -d' ' -f1 "$build/fuzz/harnesses.txt")
    failed=0
    for n in "${names[@]}"; do run_harness "$n" "$limit" || failed=1; done
    exit "$failed" ;;
  *) usage ;;
esac

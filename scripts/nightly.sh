#!/usr/bin/env bash
# The nightly campaign: the full depth of what the README's test command runs in a representative
# form, after a build (scripts/build.sh). Each step prints its verdict and time; the script exits 1
# when any step fails and goes on to the next step either way.
#
#   bash scripts/nightly.sh [--seed N]     N: the RTL block and co-simulation seeds (default: today's
#                                          date as YYYYMMDD, printed; rerun a night with --seed N)
#
# Steps (docs/regression.md, "The nightly campaign"):
#   1. Yosys coarse synthesis of every module (scripts/synth.sh --quick); ctest runs the front-end
#      checks (scripts/synth.sh --check).
#   2. Every RTL block test at its full random depth (ctest: a quarter), seed N.
#   3. The co-simulation regression with 8 random runs of 250,000 instructions per architecture
#      (ctest: 2 runs on seed 20261122), seed N.
#   4. The property tests of the shard merge and the ISA table loader with 5,000 examples per
#      property (ctest: 200), seed N.
#   5. The libFuzzer campaign: every harness for $TMU_FUZZ_MINUTES minutes (default 2), its corpus
#      kept and merged in build-fuzz/ from night to night (ctest: the checked-in corpus replayed).
#   6. The model, CLI, unit and DPI tests under ASan+UBSan+LSan (scripts/sanitize.sh, build-san/).
set -uo pipefail
cd "$(dirname "$0")/.."
build="${TMU_BUILD_DIR:-build}"
python="${TMU_PYTHON:-/usr/bin/python3}"
seed="$(date +%Y%m%d)"
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) seed="$2"; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "nightly.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case "$seed" in ''|*[!0-9]*) echo "nightly.sh: --seed takes a decimal number, got '$seed'" >&2; exit 2 ;; esac
for exe in "$build/tests/rtl/tmu_rtl_blocks" "$build/tb/tmu_tb"; do
  [ -x "$exe" ] || { echo "nightly.sh: $exe is missing: build first (bash scripts/build.sh)" >&2; exit 2; }
done
echo "nightly.sh: seed $seed (rerun with --seed $seed)"
out="$build/nightly-$seed"
mkdir -p "$out"

failed=()
step() {
  local name="$1"; shift
  local start=$SECONDS
  echo "== $name"
  if "$@" > "$out/$name.log" 2>&1; then
    echo "   PASS $name ($((SECONDS - start)) s; log $out/$name.log)"
  else
    echo "   FAIL $name ($((SECONDS - start)) s); the end of $out/$name.log:"
    tail -15 "$out/$name.log" | sed 's/^/   | /'
    failed+=("$name")
  fi
}

step synth-quick bash scripts/synth.sh --quick
step rtl-blocks "$build/tests/rtl/tmu_rtl_blocks" all --seed "$seed"
for arch in bh wh; do
  step "cosim-$arch" "$python" scripts/regress.py --tb "$build/tb/tmu_tb" --seed "$seed" --arch "$arch" \
    --random-runs 8 --instrs 250000 --jobs "$(nproc)" --out "$out/regress-$arch" --junit "$out/regress-$arch/junit.xml" \
    --cov-out "$out/regress-$arch/coverage.json"
done
step properties "$python" tests/regress/test_properties.py --examples 5000 --seed "$seed"
step fuzz bash -c "bash scripts/fuzz.sh --build && bash scripts/fuzz.sh --minutes ${TMU_FUZZ_MINUTES:-2}"
step sanitizers bash scripts/sanitize.sh

if [ "${#failed[@]}" -gt 0 ]; then
  echo "nightly.sh: FAIL (${failed[*]}), seed $seed"
  exit 1
fi
echo "nightly.sh: PASS, seed $seed"

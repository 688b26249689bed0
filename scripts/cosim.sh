#!/usr/bin/env bash
# The built-in default co-simulation regression (the README's main job): every directed LLK sequence
# and random runs on both architectures, RTL against the refmodel, with a verdict, the merged
# functional coverage and JUnit XML under build/cosim/. Arguments are passed on to scripts/regress.py
# (e.g. --seed N to replay, --random-runs K, --instrs N, --shard i/N). It ends with
# scripts/cosim_verdict.py's lines: the verdict, the reports, the coverage holes (the expected ones
# from tb/cov/expected_holes.json), the next command; its first word is TMU_VERDICT_LABEL's (the main
# job sets "main job"). Exit status: regress.py's (0 every run passed, 1 a run failed, 2 bad input).
set -euo pipefail
cd "$(dirname "$0")/.."
python="${TMU_PYTHON:-/usr/bin/python3}"
label="${TMU_VERDICT_LABEL:-co-simulation regression}"
tb="${TMU_BUILD_DIR:-build}/tb/tmu_tb"
if [ ! -x "$tb" ]; then
  echo "cosim.sh: $tb is missing; build first (bash scripts/build.sh)" >&2
  echo "$label: FAIL — $tb is missing; build it first"
  echo "next:     bash scripts/build.sh tmu tmu_tb && bash scripts/cosim.sh"
  exit 2
fi
out="${TMU_BUILD_DIR:-build}/cosim"
since="$(date +%s)"
rc=0
"$python" scripts/regress.py --tb "$tb" --seed 1 --arch both --random-runs 2 --instrs 200000 \
  --jobs "$(nproc)" --out "$out" --junit "$out/junit.xml" --cov-out "$out/coverage.json" "$@" || rc=$?
vrc=0
"$python" scripts/cosim_verdict.py --out "$out" --since "$since" --regress-rc "$rc" --label "$label" || vrc=$?
exit $((rc != 0 ? rc : vrc))

#!/usr/bin/env bash
# The built-in default co-simulation regression (the README's main job): every directed LLK sequence
# and random runs on both architectures, RTL against the refmodel, with a verdict, the merged
# functional coverage and JUnit XML under build/cosim/. Arguments are passed on to scripts/regress.py
# (e.g. --seed N to replay, --random-runs K, --instrs N, --shard i/N).
set -euo pipefail
cd "$(dirname "$0")/.."
tb="${TMU_BUILD_DIR:-build}/tb/tmu_tb"
if [ ! -x "$tb" ]; then
  echo "cosim.sh: $tb is missing; build first (bash scripts/build.sh)" >&2
  exit 2
fi
out="${TMU_BUILD_DIR:-build}/cosim"
"${TMU_PYTHON:-/usr/bin/python3}" scripts/regress.py --tb "$tb" --seed 1 --arch both --random-runs 2 --instrs 200000 \
  --jobs "$(nproc)" --out "$out" --junit "$out/junit.xml" --cov-out "$out/coverage.json" "$@"

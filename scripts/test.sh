#!/usr/bin/env bash
# The README's test command: install dependencies, build, run every registered test (in ./build, or
# $TMU_BUILD_DIR when set).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
ctest --test-dir "${TMU_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"

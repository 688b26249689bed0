#!/usr/bin/env bash
# Configures and builds tmu into ./build, or into $TMU_BUILD_DIR when set (Release flags, Ninja, every
# core): every target, or only the targets named (bash scripts/build.sh tmu tmu_tb).
set -euo pipefail
cd "$(dirname "$0")/.."
# CMakeLists.txt makes ccache the compiler launcher when it is installed. Paths below the checkout
# are hashed relative to it, so a second clone reuses the model's, the tests' and the CLI's objects
# too (not Verilator's generated C++, which names the checkout's absolute path).
export CCACHE_BASEDIR="$PWD"
build="${TMU_BUILD_DIR:-build}"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
targets=()
[ $# -ne 0 ] && targets=(--target "$@")
cmake --build "$build" -j "$(nproc)" "${targets[@]}"

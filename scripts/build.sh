#!/usr/bin/env bash
# Configures and builds tmu into ./build (Release flags, Ninja, both cores).
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache, when installed, makes a rebuild after a small change (or a second clone) recompile only
# what changed: most of the build is Verilator's generated C++.
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}"
cmake --build build -j "$(nproc)"

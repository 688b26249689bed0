#!/usr/bin/env bash
# Configures and builds tmu into ./build (Release flags, Ninja, both cores).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"

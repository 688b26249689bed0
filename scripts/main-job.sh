#!/usr/bin/env bash
# The README's main-job command: install dependencies, build, run the refmodel demonstration, then the
# default co-simulation regression of the RTL against the refmodel (verdict and coverage at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Only what the main job runs: the command line (demonstration) and the co-simulation testbench. The
# tests, RTL block testbenches, Python module and benchmarks wait for the test command.
bash scripts/build.sh tmu tmu_tb
bash scripts/demo.sh
bash scripts/cosim.sh

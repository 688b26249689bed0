#!/usr/bin/env bash
# The README's main-job command: install dependencies, build, run the refmodel demonstration, then the
# default co-simulation regression of the RTL against the refmodel (verdict and coverage at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash scripts/demo.sh
bash scripts/cosim.sh

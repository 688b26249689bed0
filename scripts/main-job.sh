#!/usr/bin/env bash
# The README's main-job command: install dependencies, build, and run the built-in demonstration.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash scripts/demo.sh

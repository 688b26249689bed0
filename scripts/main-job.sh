#!/usr/bin/env bash
# The README's main-job command: install dependencies, build, run the refmodel demonstration, then the
# default co-simulation regression of the RTL against the refmodel. It ends with one verdict line
# ("main job: PASS — ..." or "main job: FAIL — ..."), then where the reports are, what the coverage
# holes are and the command to try next (scripts/cosim_verdict.py); a step that fails before the
# regression ends it with a FAIL line naming the step. Exit status 0 only when everything passed.
set -euo pipefail
cd "$(dirname "$0")/.."

# Runs one step; when it fails, the job's verdict names it and the job exits with its status.
step() {
  local what="$1" rc=0
  shift
  "$@" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo
    echo "main job: FAIL — $what failed (\`$*\` exited $rc); its messages are above"
    echo "next:     $* && bash scripts/main-job.sh"
    exit "$rc"
  fi
}

step "installing the Debian packages" bash scripts/install-deps.sh
# Only what the main job runs: the command line (demonstration) and the co-simulation testbench. The
# tests, RTL block testbenches, Python module and benchmarks wait for the test command.
step "the build" bash scripts/build.sh tmu tmu_tb
step "the refmodel demonstration" bash scripts/demo.sh
# The regression prints the job's verdict itself (scripts/cosim.sh, scripts/cosim_verdict.py).
TMU_VERDICT_LABEL="main job" exec bash scripts/cosim.sh

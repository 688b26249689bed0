#!/usr/bin/env bash
# Demonstration on a built tree: decode the 16-MVMUL replay buffer of the matmul_peak kernel (as
# embedded, rotated left by 2), then run the example programs and summarise their final state.
set -euo pipefail
cd "$(dirname "$0")/.."
tmu="${TMU_BUILD_DIR:-./build}/tmu"

echo "== Replay buffer of matmul_peak (TRISC1), rotated words as found in the binary"
$tmu dis --rotated 98000000 98010000 98000000 98020000 98000000 98010000 98000000 98040000 \
                   98000000 98010000 98000000 98020000 98000000 98010000 98000000 98050000
echo
echo "== ZEROACC CLR_ALL and the RWC reset from the kernel's init"
$tmu dis 0x10184000 0x3700000f
echo
for prog in vectors/programs/*.tmu; do
  echo "== tmu run $prog"
  $tmu run "$prog" --show gprs,config,dst,dst32 --indent -1 | "${TMU_PYTHON:-/usr/bin/python3}" scripts/summarize_state.py
done

#!/usr/bin/env bash
# The model, the tmu command line, the unit tests, the DPI-C library's tests and the Python package
# built with AddressSanitizer + UndefinedBehaviorSanitizer (g++, in ./build-san or
# $TMU_SAN_BUILD_DIR) and run under ctest (labels unit, cli, dpi) and pytest (tests/python, the
# extension loaded into Debian's uninstrumented python3 with the sanitizer runtimes preloaded;
# docs/reliability.md, "Sanitizer builds"). Any report fails the run: UBSan does not recover, and
# LeakSanitizer (part of ASan on x86-64 Linux) runs at every C++ process exit, so a passing run is
# also a leak-free one: 0 bytes leaked (not checked in the Python run: the interpreter keeps its
# objects to the end by design).
#
#   bash scripts/sanitize.sh                 configure, build and run everything (-j $TMU_SAN_JOBS, default nproc)
#   bash scripts/sanitize.sh --build-only    configure and build
#   bash scripts/sanitize.sh -R REGEX        run only the ctest tests matching REGEX (after building)
#
# The reports of a run are in build-san/sanitizer-logs/ (one file per report, named by process id).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${TMU_SAN_BUILD_DIR:-build-san}"
jobs="${TMU_SAN_JOBS:-$(nproc)}"
build_only=0
regex=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) build_only=1 ;;
    -R) regex=(-R "$2"); shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "sanitize.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
export CCACHE_BASEDIR="$PWD"  # CMakeLists.txt uses ccache when installed; hashed relative to the checkout
start=$SECONDS
if [ ! -f "$build/build.ninja" ]; then
  # -O1: the sanitizers' usual optimisation level, fast enough for the exhaustive unit tests.
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g" \
    "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=$flags" "-DCMAKE_SHARED_LINKER_FLAGS=$flags" \
    -DTMU_BUILD_TESTS=ON -DTMU_BUILD_TB=ON -DTMU_BUILD_RTL_TESTS=OFF -DTMU_BUILD_BENCH=OFF \
    -DTMU_BUILD_PYTHON=ON -DTMU_FUZZ=OFF -DTMU_LTO=OFF -DTMU_PYTHON="${TMU_PYTHON:-/usr/bin/python3}"
fi
nice -n 10 cmake --build "$build" -j "$jobs" --target tmu tests/tmu_unit_tests tb/tmu_dpi_tests tmu_python \
  tests/toy_engine/tmu_toy_tests tmu_toy_plugin tmu_toy_not_a_plugin tests/toy_engine/tmu_toy_dpi
echo "sanitize.sh: built in $((SECONDS - start)) s"
[ "$build_only" = 1 ] && exit 0

logs="$PWD/$build/sanitizer-logs"
rm -rf "$logs" && mkdir -p "$logs"
# log_path: a report goes to a file as well as failing its test, so a test that passes on a
# non-zero exit (a refusal test) cannot hide one.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:log_path=$logs/asan:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$logs/ubsan"
export LSAN_OPTIONS="print_suppressions=0"
start=$SECONDS
status=0
(cd "$build" && ctest -L 'unit|cli|dpi' -j "$jobs" --output-on-failure "${regex[@]}") || status=$?
echo "sanitize.sh: ctest (unit, cli, dpi) in $((SECONDS - start)) s, exit status $status"
if [ "${#regex[@]}" -eq 0 ]; then
  # The Python tests against the instrumented extension. The interpreter is not instrumented, so the
  # runtimes are preloaded and leak detection is off for it; the memory-limit tests skip themselves
  # (ASan reserves terabytes of address space, which an RLIMIT_AS cap forbids).
  start=$SECONDS
  runtimes="$(g++ -print-file-name=libasan.so):$(g++ -print-file-name=libubsan.so)"
  (ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:log_path=$logs/asan-python" LD_PRELOAD="$runtimes" TMU_SANITIZER=1 \
    PYTHONPATH="$build/python" TMU_EXE="$build/tmu" TMU_SOURCE_DIR="$PWD" \
    "${TMU_PYTHON:-/usr/bin/python3}" -m pytest -q -p no:cacheprovider tests/python) || status=$?
  echo "sanitize.sh: pytest (tests/python) in $((SECONDS - start)) s, exit status $status"
fi
reports=$(find "$logs" -type f | wc -l)
if [ "$reports" -ne 0 ]; then
  echo "sanitize.sh: $reports sanitizer report(s):" >&2
  for f in "$logs"/*; do echo "== $f" >&2; head -40 "$f" >&2; done
  exit 1
fi
echo "sanitize.sh: 0 sanitizer reports (ASan, UBSan, LSan: 0 bytes leaked)"
exit "$status"

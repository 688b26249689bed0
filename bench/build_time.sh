#!/usr/bin/env bash
# Build time of a fresh build directory, from ninja's log: configure, build of every target, the
# wall time, the CPU time the edges took (their durations summed), how much of it was links (no
# cache can skip a link) and the slowest edges. With --vs OLD_SOURCE the same is done for another
# checkout (e.g. `git worktree add /tmp/old HEAD~3`) first, so old and new run on the same machine
# in one run. ccache is used as scripts/build.sh uses it (CCACHE_BASEDIR = the checkout), so a second
# run measures a fresh clone's build with a warm cache; --cold disables ccache to measure from scratch.
#
#   bench/build_time.sh [--vs OLD_SOURCE] [--cold] [-j N] [--top N] [SOURCE]
#
# SOURCE  the checkout to build (default: this one); each build goes to a new temporary directory
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
old=""
cold=0
jobs="$(nproc)"
top=12
src="$here"
while [ $# -gt 0 ]; do
  case "$1" in
    --vs) old="$(cd "${2:?--vs needs a checkout}" && pwd)"; shift ;;
    --cold) cold=1 ;;
    -j) jobs="${2:?-j needs a number}"; shift ;;
    --top) top="${2:?--top needs a number}"; shift ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench/build_time.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) src="$(cd "$1" && pwd)" ;;
  esac
  shift
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "bench/build_time.sh: -j must be a positive number, not '$jobs'" >&2; exit 2; }
[[ "$top" =~ ^[0-9]+$ ]] || { echo "bench/build_time.sh: --top must be a number, not '$top'" >&2; exit 2; }
py="${TMU_PYTHON:-/usr/bin/python3}"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -m), load $(cut -d' ' -f1-3 /proc/loadavg)"

measure() {  # measure NAME SOURCE
  local name=$1 source=$2 build
  build="$(mktemp -d /tmp/tmu-build-time.XXXXXX)"
  # The project's CMake uses ccache whenever it is installed: --cold turns it off through its variable.
  local env=(CCACHE_BASEDIR="$source")
  [ "$cold" = 1 ] && env+=(CCACHE_DISABLE=1)
  local t0=$SECONDS
  (cd "$source" && env "${env[@]}" cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
     >"$build.configure.log" 2>&1)
  local t1=$SECONDS
  (cd "$source" && env "${env[@]}" cmake --build "$build" -j "$jobs" >"$build.build.log" 2>&1) ||
    { echo "bench/build_time.sh: the build of $source failed (log: $build.build.log)" >&2; exit 1; }
  local t2=$SECONDS
  echo "== $name ($source, commit $(git -C "$source" rev-parse --short HEAD 2>/dev/null || echo '?'))"
  echo "configure $((t1 - t0)) s, build $((t2 - t1)) s wall with -j $jobs$([ "$cold" = 1 ] && echo ', ccache off')"
  # .ninja_log: start ms, end ms, mtime, output, hash; one line per output of an edge (an edge
  # with several outputs is counted once, by its first).
  "$py" - "$build/.ninja_log" "$top" <<'EOF'
import sys
path, top = sys.argv[1], int(sys.argv[2])
edges = {}
with open(path) as f:
    for line in f:
        if line.startswith("#"):
            continue
        start, end, _, out, h = line.rstrip("\n").split("\t")
        edges.setdefault((start, end, h), (int(end) - int(start), out))
def is_link(out):  # an executable, a shared library or an archive
    name = out.rsplit("/", 1)[-1]
    return name.endswith(".a") or ".so" in name or "." not in name
total = sum(d for d, _ in edges.values())
links = sum(d for d, o in edges.values() if is_link(o))
print(f"{len(edges)} edges, {total / 1000:.0f} CPU-s in edges, of which links and archives {links / 1000:.0f} s")
for d, o in sorted(edges.values(), reverse=True)[:top]:
    print(f"  {d / 1000:7.1f} s  {o}")
EOF
  rm -rf "$build" "$build.configure.log" "$build.build.log"
}

[ -n "$old" ] && measure old "$old"
measure "$([ -n "$old" ] && echo new || echo build)" "$src"

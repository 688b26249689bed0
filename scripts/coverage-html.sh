#!/usr/bin/env bash
# Code coverage of the RTL from Verilator coverage data, as an lcov info file and an HTML report.
#
#   scripts/coverage-html.sh --build DIR [--dat FILE ...] [--out DIR] [--title TEXT]
#
#   --build DIR   a build directory configured with -DTMU_TB_COVERAGE=ON (the model was verilated with
#                 --coverage-line --coverage-toggle); without --dat every coverage*.dat below DIR
#                 (what `tmu_tb --vlt-coverage FILE` wrote) is used
#   --dat FILE    a coverage data file (repeatable; several are merged by verilator_coverage)
#   --out DIR     output directory (default DIR/coverage-html): merged.dat, rtl.info (lcov, rtl/ files
#                 only) and the genhtml report in html/
#   --title TEXT  genhtml title (default "tmu RTL")
#
# Prints the line (line + branch points) and toggle coverage of rtl/ files, as percentages of
# points hit at least once, from the merged coverage data. Exit 1 when a tool fails, 2 on bad input.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build=""
out=""
title="tmu RTL"
dats=()
usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) [ $# -ge 2 ] || { echo "coverage-html.sh: --build needs a directory" >&2; exit 2; }; build="$2"; shift ;;
    --dat) [ $# -ge 2 ] || { echo "coverage-html.sh: --dat needs a file" >&2; exit 2; }; dats+=("$2"); shift ;;
    --out) [ $# -ge 2 ] || { echo "coverage-html.sh: --out needs a directory" >&2; exit 2; }; out="$2"; shift ;;
    --title) [ $# -ge 2 ] || { echo "coverage-html.sh: --title needs text" >&2; exit 2; }; title="$2"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "coverage-html.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if [ -z "$build" ] && [ "${#dats[@]}" -eq 0 ]; then
  echo "coverage-html.sh: give --build DIR and/or --dat FILE (see --help)" >&2
  exit 2
fi
if [ -n "$build" ]; then
  [ -d "$build" ] || { echo "coverage-html.sh: build directory '$build' does not exist" >&2; exit 2; }
  if ! grep -qs '^TMU_TB_COVERAGE:BOOL=ON' "$build/CMakeCache.txt"; then
    echo "coverage-html.sh: warning: $build was not configured with -DTMU_TB_COVERAGE=ON" >&2
  fi
  if [ "${#dats[@]}" -eq 0 ]; then
    mapfile -t dats < <(find "$build" -name 'coverage*.dat' -type f -not -path '*/coverage-html/*' | sort)
  fi
  [ -n "$out" ] || out="$build/coverage-html"
fi
[ -n "$out" ] || out="coverage-html"
if [ "${#dats[@]}" -eq 0 ]; then
  echo "coverage-html.sh: no coverage*.dat below $build (run tmu_tb with --vlt-coverage FILE first)" >&2
  exit 2
fi
for d in "${dats[@]}"; do
  [ -f "$d" ] || { echo "coverage-html.sh: coverage file '$d' does not exist" >&2; exit 2; }
done
for tool in verilator_coverage genhtml; do
  command -v "$tool" >/dev/null || { echo "coverage-html.sh: $tool not found" >&2; exit 1; }
done

mkdir -p "$out"
merged="$out/merged.dat"
all_info="$out/all.info"
info="$out/rtl.info"
verilator_coverage --write "$merged" "${dats[@]}" >/dev/null
verilator_coverage --write-info "$all_info" "$merged" >/dev/null

# Keep rtl/ sources only (the testbench's SystemVerilog is not what we measure), then report the
# percentages from the data file itself, where each point names its kind (page v_line/...,
# v_branch/..., v_toggle/...); the info file has one merged count per source line.
python3 - "$root" "$all_info" "$info" "$merged" <<'EOF'
import os, re, sys
root, all_info, info, merged = sys.argv[1:]
rtl = os.path.join(root, "rtl") + os.sep
def is_rtl(path):
    return os.path.abspath(path).startswith(rtl)
kept, record, keep = ["TN:verilator_coverage\n"], [], False
with open(all_info) as f:
    for line in f:
        if line.startswith("SF:"):
            record, keep = [line], is_rtl(line[3:].strip())
        elif line.startswith("end_of_record"):
            if keep:
                kept += record + [line]
            record, keep = [], False
        elif record:
            record.append(line)
with open(info, "w") as f:
    f.writelines(kept)
stats = {"line": [0, 0], "toggle": [0, 0]}
files = set()
point = re.compile(r"^C '(.*)' (\d+)$")
with open(merged, errors="replace") as f:
    for line in f:
        m = point.match(line.rstrip("\n"))
        if not m:
            continue
        fields = dict(kv.split("\x02", 1) for kv in m.group(1).split("\x01") if "\x02" in kv)
        if not is_rtl(fields.get("f", "")):
            continue
        page = fields.get("page", "")
        kind = "toggle" if page.startswith("v_toggle") else "line" if page.startswith(("v_line", "v_branch")) else None
        if kind is None:
            continue
        files.add(fields["f"])
        stats[kind][1] += 1
        stats[kind][0] += int(m.group(2)) > 0
if not files:
    sys.exit("coverage-html.sh: the coverage data holds no points of rtl/ files")
for kind, (hit, total) in stats.items():
    pct = f"{100.0 * hit / total:.1f}%" if total else "n/a (not collected)"
    print(f"{kind:<7} coverage: {pct:>8}  ({hit}/{total} points, {len(files)} rtl/ files)")
EOF

genhtml --quiet --title "$title" --output-directory "$out/html" "$info" >"$out/genhtml.log" 2>&1 || {
  echo "coverage-html.sh: genhtml failed; see $out/genhtml.log" >&2
  tail -5 "$out/genhtml.log" >&2
  exit 1
}
echo "lcov info: $info"
echo "report:    $out/html/index.html"

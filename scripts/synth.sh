#!/usr/bin/env bash
# Synthesises tmu's RTL with Yosys (Debian's 0.23) and prints a cell summary per module.
#
#   scripts/synth.sh                  every module of rtl/tmu.f as its own top, full generic synthesis
#   scripts/synth.sh --quick          the same up to Yosys's coarse netlist (word-level cells): reads,
#                                     elaborates, checks for latches, counts multipliers, memories and
#                                     flip-flop bits in seconds (scripts/nightly.sh runs it)
#                                     (tmu_mvmul_block only when named with --top, then at Rows=1;
#                                     tmu_elw_unit, 128 elements, only when named with --top)
#   scripts/synth.sh --check          the front end only, every module in one Yosys run that reads the
#                                     files once: elaborates, checks for latches and for what Yosys's
#                                     `check` finds (multiple drivers, undriven bits, logic loops), counts
#                                     memories and flip-flop bits; what ctest runs (rtl.synth_check.*;
#                                     the four composite modules --quick leaves out only with --top)
#   scripts/synth.sh --top M [--top N ...]   only these modules
#   scripts/synth.sh --hier           keep the hierarchy: each module is synthesised once however often it
#                                     is instantiated, and the figures are the totals over the instances
#                                     (how the whole tmu_top is synthesised at full width by hand)
#   scripts/synth.sh --frontend-netlist DIR   also write each module as Yosys read it (after proc and
#                                     flatten, before optimisation) to DIR/<module>.v, for simulating
#                                     Yosys's reading of the SystemVerilog against Verilator's
#   scripts/synth.sh --keep DIR       keep the Yosys logs and JSON statistics in DIR
#
# Fails (exit 1) when Yosys reports an error or any warning (Yosys 0.23 misreads some SystemVerilog
# with no more than a warning, e.g. an implicitly declared identifier), or infers a latch.
# Columns: coarse $mul/$macc cells, memories (bits), flip-flop bits; with full synthesis also the
# gate-level cell count and flip-flop cells ($_DFF*/$_SDFF*/$_DLATCH*), then the seconds it took.
# Full synthesis leaves the inferred memories as memory cells (the SRAM macros of a real flow; they
# count one cell each) instead of mapping their bits to flip-flops.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
quick=0
check=0
hier=0
tops=()
netlist_dir=""
keep_dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --check) check=1 ;;
    --hier) hier=1 ;;
    --top) tops+=("$2"); shift ;;
    --frontend-netlist) netlist_dir="$2"; shift ;;
    --keep) keep_dir="$2"; shift ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "synth.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

command -v yosys >/dev/null || { echo "synth.sh: yosys not found" >&2; exit 1; }

# rtl/tmu.f lists the files, packages first, one module or package per file named after it.
mapfile -t files < <(grep -v '^[[:space:]]*\(//\|$\)' "$root/rtl/tmu.f" | sed "s#^#$root/#")
if [ "${#tops[@]}" -eq 0 ]; then
  for f in "${files[@]}"; do
    name="$(basename "$f" .sv)"
    case "$name" in *_pkg) ;; *) tops+=("$name") ;; esac
  done
  # Even reduced, the multiplier array takes about two minutes of coarse synthesis (its element,
  # tmu_mvmul_element, is a top of its own and takes under one): --quick leaves it to --top. The same
  # holds for the element-wise and GMPOOL/MOV-carrying units and for tmu_top, which holds them all.
  if [ "$quick" -eq 1 ] || [ "$check" -eq 1 ]; then
    kept=()
    for top in "${tops[@]}"; do
      case "$top" in tmu_mvmul_block|tmu_elw_unit|tmu_gmpool_unit|tmu_top) ;; *) kept+=("$top") ;; esac
    done
    tops=("${kept[@]}")
  fi
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
[ -n "$netlist_dir" ] && mkdir -p "$netlist_dir"

read_cmd="read_verilog -sv -DSYNTHESIS ${files[*]}"

# Arrays --quick --top synthesises at a reduced size, and the array and its element without
# Yosys's SAT-based resource sharing, whose run time grows steeply with the number of elements
# (it took over 2.5 minutes on a one-row tmu_mvmul_block) and which only merges a few shifters per
# element. A run without --quick synthesises them at full width with sharing.
declare -A quick_params=([tmu_mvmul_block]="Rows 1")
declare -A quick_synth_opts=([tmu_mvmul_block]="-noshare" [tmu_mvmul_element]="-noshare"
                             [tmu_elw_unit]="-noshare" [tmu_elw_element]="-noshare")
latch_types='t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH_* t:$_DLATCHSR_*'

# --check: one Yosys run, the files read once and each top elaborated from a saved copy. Yosys's
# `check -assert` turns its findings into errors; -e '.*' does the same for every warning.
if [ "$check" -eq 1 ]; then
  script="$work/check.ys"
  {
    echo "$read_cmd"
    echo "design -save read"
    for top in "${tops[@]}"; do
      echo "design -load read"
      echo "hierarchy -check -top $top"
      echo "proc"
      echo "flatten"
      echo "select -assert-none $latch_types"
      echo "opt_clean"
      echo "check -assert"
      echo "tee -q -o $work/$top.frontend.json stat -json -width"
    done
  } > "$script"
  start=$(date +%s.%N)
  if ! yosys -q -e '.*' -l "$work/check.log" -s "$script" > "$work/check.out" 2>&1; then
    echo "synth.sh: --check FAILED; Yosys said:" >&2
    grep -i -m 20 'error\|warning\|assert\|found and reported' "$work/check.log" "$work/check.out" >&2 || tail -20 "$work/check.log" >&2
    exit 1
  fi
  end=$(date +%s.%N)
  printf '%-22s %5s %12s %8s\n' module '$mul' 'mem(bits)' 'ff_bits'
  python3 - "$work" "$start" "$end" "${tops[@]}" <<'EOF'
import json, re, sys
work, start, end, tops = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
for top in tops:
    with open(f"{work}/{top}.frontend.json") as f:
        design = json.loads("".join(line for line in f if re.match(r'\s*["{}\[\]]', line)))["design"]
    by_width = design["num_cells_by_type"]
    muls = sum(n for t, n in by_width.items() if re.fullmatch(r"\$mul(_\d+)?", t))
    ff_bits = sum(n * int(m.group(2)) for t, n in by_width.items()
                  if (m := re.fullmatch(r"\$(a?s?dff[a-z]*|dffsre?|aldffe?)_(\d+)", t)))
    mem = f"{design['num_memories']}({design['num_memory_bits']})"
    print(f"{top:<22} {muls:>5} {mem:>12} {ff_bits:>8}")
print(f"{len(tops)} modules elaborated and checked in {end - start:.1f} s")
EOF
  exit 0
fi

flatten="-flatten"
stat_top=""
if [ "$hier" -eq 1 ]; then flatten=""; fi

printf '%-22s %5s %5s %12s %8s' module '$mul' '$macc' 'mem(bits)' 'ff_bits'
[ "$quick" -eq 0 ] && printf ' %9s %8s' cells ff_cells
printf ' %7s\n' seconds

status=0
for top in "${tops[@]}"; do
  script="$work/$top.ys"
  [ "$hier" -eq 1 ] && stat_top="-top $top"
  {
    echo "$read_cmd"
    if [ "$quick" -eq 1 ] && [ -n "${quick_params[$top]:-}" ]; then
      echo "chparam -set ${quick_params[$top]} $top"
    fi
    echo "hierarchy -check -top $top"
    echo "proc"
    [ -n "$flatten" ] && echo "flatten"
    echo "select -assert-none $latch_types"
    [ -n "$netlist_dir" ] && echo "write_verilog -noattr $netlist_dir/$top.v"
    echo "opt_clean"
    echo "tee -q -o $work/$top.frontend.json stat -json $stat_top"
    [ "$quick" -eq 1 ] && opts="${quick_synth_opts[$top]:-}" || opts=""
    echo "synth $flatten $opts -top $top -run coarse:fine"
    echo "select -assert-none $latch_types"
    echo "tee -q -o $work/$top.coarse.json stat -json -width $stat_top"
    if [ "$quick" -eq 0 ]; then
      # synth's fine step without memory_map (see the header)
      printf '%s\n' "opt -fast -full" "opt -full" "techmap" "opt -fast" "abc -fast" "opt -fast" "check"
      echo "select -assert-none $latch_types"
      echo "tee -q -o $work/$top.gates.json stat -json $stat_top"
    fi
  } > "$script"
  start=$(date +%s.%N)
  if ! yosys -q -e '.*' -l "$work/$top.log" -s "$script" > "$work/$top.out" 2>&1; then
    echo "synth.sh: $top FAILED; Yosys said:" >&2
    grep -i -m 20 'error\|warning\|assert' "$work/$top.log" "$work/$top.out" >&2 || tail -20 "$work/$top.log" >&2
    status=1
    continue
  fi
  end=$(date +%s.%N)
  python3 - "$work" "$top" "$quick" "$start" "$end" <<'EOF'
import json, re, sys
work, top, quick, start, end = sys.argv[1], sys.argv[2], sys.argv[3] == "1", float(sys.argv[4]), float(sys.argv[5])
def design(kind):
    # Yosys 0.23's `stat -json -top` prints the hierarchy listing into the JSON: drop those lines.
    with open(f"{work}/{top}.{kind}.json") as f:
        text = "".join(line for line in f if re.match(r'\s*["{}\[\]]', line))
    return json.loads(text)["design"]
front, coarse = design("frontend"), design("coarse")
by_width = coarse["num_cells_by_type"]
def count(prefix):
    return sum(n for t, n in by_width.items() if re.fullmatch(re.escape(prefix) + r"(_\d+)?", t))
ff_bits = sum(n * int(m.group(2)) for t, n in by_width.items()
              if (m := re.fullmatch(r"\$(a?s?dff[a-z]*|dffsre?|aldffe?)_(\d+)", t)))
mem = f"{front['num_memories']}({front['num_memory_bits']})"
line = f"{top:<22} {count('$mul'):>5} {count('$macc'):>5} {mem:>12} {ff_bits:>8}"
if not quick:
    gates = design("gates")
    ff_cells = sum(n for t, n in gates["num_cells_by_type"].items() if re.match(r"\$_(S?DFF|DLATCH|ALDFF)", t))
    line += f" {gates['num_cells']:>9} {ff_cells:>8}"
print(line + f" {end - start:>7.1f}")
EOF
  if [ -n "$keep_dir" ]; then mkdir -p "$keep_dir"; cp "$work/$top".* "$keep_dir/"; fi
done
exit $status

#!/usr/bin/env bash
# Proves RTL modules equivalent to their version at an earlier commit with Yosys (Debian's 0.23):
# both read by Yosys, flattened into one miter, constant-folded and merged, then proven by SAT
# temporal induction (an equivalent pair leaves a trigger that is constant 0).
#
#   scripts/equiv.sh [--rev REV] [--tie PORT=VALUE ...] [--new-output PORT ...] [--map-memories]
#                    [--gold-rename PERL_SUBST ...] MODULE [MODULE ...]
#
# --rev REV       the reference commit (default: HEAD)
# --tie P=V       drive input port P with the constant V (e.g. valid_i=1'b1) in both versions,
#                 where it exists: a module that gained an input, or one case of a case split;
#                 the proof then says "equal whenever P = V"
# --new-output P  an output the module gained since REV (an observation port): left out of the
#                 comparison, every other output is compared as usual
# --map-memories  turn inferred memories into flip-flops first (SAT cannot read memory cells):
#                 for the register files
# --gold-rename S a Perl substitution applied to every reference file before it is read, for
#                 modules and ports renamed since REV (e.g. 's/\btmu_mac_element\b/tmu_mvmul_element/g';
#                 repeatable, applied in order); MODULE and --tie use the new names. Anchor each name
#                 with \b: the substitution must rename the old names only (a clash with an existing
#                 name is a Yosys error).
#
# Exit 0: every module proven; 1: a module is not proven (the Yosys error is printed); 2: bad
# arguments or a commit that does not exist.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
rev=HEAD
ties=()
new_outputs=()
gold_renames=()
memory_pass="memory -nomap"
modules=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rev) rev="${2:?--rev needs a commit}"; shift ;;
    --tie) ties+=("${2:?--tie needs PORT=VALUE}"); shift ;;
    --new-output) new_outputs+=("${2:?--new-output needs a port name}"); shift ;;
    --map-memories) memory_pass="memory" ;;
    --gold-rename) gold_renames+=("${2:?--gold-rename needs a Perl substitution}"); shift ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "equiv.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) modules+=("$1") ;;
  esac
  shift
done
[ "${#modules[@]}" -gt 0 ] || { echo "equiv.sh: name at least one module (see --help)" >&2; exit 2; }
command -v yosys >/dev/null || { echo "equiv.sh: yosys not found" >&2; exit 2; }
git -C "$root" rev-parse --verify --quiet "$rev^{commit}" >/dev/null ||
  { echo "equiv.sh: '$rev' is not a commit of this repository" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/gold" "$work/gate"

# The reference's file list is its own rtl/tmu.f.
mapfile -t gold_files < <(git -C "$root" show "$rev:rtl/tmu.f" | grep -v '^[[:space:]]*\(//\|$\)')
for f in "${gold_files[@]}"; do git -C "$root" show "$rev:$f" > "$work/gold/$(basename "$f")"; done
for r in "${gold_renames[@]}"; do
  perl -pi -e "$r" "$work"/gold/*.sv || { echo "equiv.sh: --gold-rename '$r' is not a Perl substitution" >&2; exit 2; }
done
mapfile -t gate_files < <(grep -v '^[[:space:]]*\(//\|$\)' "$root/rtl/tmu.f")
for f in "${gate_files[@]}"; do cp "$root/$f" "$work/gate/"; done

read_list() {  # the files of one side in tmu.f order
  local side="$1"; shift
  local out=""
  for f in "$@"; do out+=" $work/$side/$(basename "$f")"; done
  echo "$out"
}
gold_read="$(read_list gold "${gold_files[@]}")"
gate_read="$(read_list gate "${gate_files[@]}")"

# tie FILE PORT=VALUE...: turn input ports into constants of their declared type, in place.
tie() {
  python3 - "$@" <<'PY'
import re, sys
path, ties = sys.argv[1], dict(t.split("=", 1) for t in sys.argv[2:])
lines = open(path).read().split("\n")
out, pending, in_header = [], [], False
for line in lines:
    if re.match(r"\s*module\s", line):
        in_header = True
    m = re.match(r"\s*input\s+(.*?)\s+(\w+)\s*,?\s*(//.*)?$", line) if in_header else None
    if m and m.group(2) in ties:
        pending.append(f"  localparam {m.group(1)} {m.group(2)} = {ties[m.group(2)]};")
        continue
    out.append(line)
    if in_header and re.match(r"\s*\);", line):
        out.extend(pending)
        pending, in_header = [], False
open(path, "w").write("\n".join(out))
PY
}

status=0
for m in "${modules[@]}"; do
  for side in gold gate; do
    [ "${#ties[@]}" -gt 0 ] && tie "$work/$side/$m.sv" "${ties[@]}"
  done
  log="$work/$m.log"
  # proc -norom: a case statement that assigns constants stays logic instead of becoming a ROM
  # cell, which SAT cannot read (tmu_mu_ctrl's format-code decode, for one).
  prep="hierarchy -top $m; proc -norom; flatten; $memory_pass; async2sync; opt_clean"
  drop=""
  for p in "${new_outputs[@]}"; do drop+="delete -port gate/$p; "; done
  # Both sides flattened into one miter; after constant folding and merging of identical logic an
  # equivalent pair leaves a trigger that is constant 0, which the induction then proves at once.
  if yosys -q -l "$log" -p "
      read_verilog -sv $gold_read; $prep; rename $m gold; design -stash gold;
      read_verilog -sv $gate_read; $prep; rename $m gate; $drop design -stash gate;
      design -copy-from gold -as gold gold; design -copy-from gate -as gate gate;
      miter -equiv -flatten -make_outputs gold gate miter; hierarchy -top miter; flatten;
      opt -full; opt_merge -share_all; opt -full;
      sat -verify -tempinduct -prove trigger 0 -set-init-zero -seq 1 -timeout 600 miter" >/dev/null 2>&1; then
    echo "equiv.sh: $m${ties[*]:+ (${ties[*]})}: equivalent to $rev"
  else
    echo "equiv.sh: $m${ties[*]:+ (${ties[*]})}: NOT proven equivalent to $rev"
    grep -E "ERROR|FAIL|timeout|failed" "$log" | head -5
    status=1
  fi
done
exit "$status"

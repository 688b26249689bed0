#!/usr/bin/env bash
# A regression on a real Slurm: installs Debian's slurm-wlm and munge, starts a one-node cluster on
# this machine (slurmctld and slurmd on localhost, configured in a temporary directory), submits a
# small regression with `regress.py submit --slurm` (an array of shards plus the merge job that
# depends on it), waits, checks the merged verdict, coverage and JUnit file, and stops the cluster
# again. docs/regression.md ("A one-node Slurm") shows a run.
#
#   scripts/slurm-demo.sh [--tb PATH] [--shards N] [--random-runs K] [--instrs N] [--seed G]
#                         [--expect pass|fail] [--work DIR]
#
# --tb         the testbench to run (default build/tb/tmu_tb; build it first)
# --expect     fail: the testbench simulates a broken RTL copy (scripts/break-demo.sh NAME
#              --build-only), and the demo succeeds when the merged verdict is FAIL and names the
#              failing run's replay command
# Needs root (packages, daemons). Exit 0 when the merged verdict is the expected one, 1 otherwise, 2
# on bad input.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tb="$root/build/tb/tmu_tb"
shards=4
random_runs=2
instrs=300
seed=1
expect=pass
work=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tb) tb="$2"; shift ;;
    --shards) shards="$2"; shift ;;
    --random-runs) random_runs="$2"; shift ;;
    --instrs) instrs="$2"; shift ;;
    --seed) seed="$2"; shift ;;
    --expect) expect="$2"; shift ;;
    --work) work="$2"; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "slurm-demo.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
case "$expect" in pass|fail) ;; *) echo "slurm-demo.sh: --expect pass or fail" >&2; exit 2 ;; esac
[ -x "$tb" ] || { echo "slurm-demo.sh: $tb is missing (bash scripts/build.sh first)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "slurm-demo.sh: needs root (packages and daemons)" >&2; exit 2; }
tb="$(cd "$(dirname "$tb")" && pwd)/$(basename "$tb")"
python="${TMU_PYTHON:-/usr/bin/python3}"

if ! dpkg -s slurm-wlm munge >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends slurm-wlm munge
fi

work="${work:-$(mktemp -d /tmp/tmu-slurm.XXXXXX)}"
mkdir -p "$work"/{state,spool,log,run}
chmod 755 "$work"
conf="$work/slurm.conf"
port=$((17000 + RANDOM % 2000))
cpus="$(nproc)"
mem="$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)"
cat > "$conf" <<EOF
ClusterName=tmu-demo
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=tmu-node NodeAddr=127.0.0.1 NodeHostname=$(hostname) CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=demo Nodes=tmu-node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$conf"

munged_pid=""
stop() {
  scontrol shutdown >/dev/null 2>&1 || true
  sleep 1
  for f in "$work/run/slurmctld.pid" "$work/run/slurmd.pid"; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
  done
  [ -n "$munged_pid" ] && kill "$munged_pid" 2>/dev/null || true
}
trap stop EXIT

# munge: its own key and socket in the work directory, so a system munge is left alone.
mkdir -p "$work/munge"
chown munge:munge "$work/munge"
chmod 755 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chown munge:munge "$work/munge/munge.key"
chmod 400 "$work/munge/munge.key"
runuser -u munge -- /usr/sbin/munged --key-file="$work/munge/munge.key" \
  --socket="$work/munge/munge.socket" --pid-file="$work/munge/munged.pid" \
  --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed"
munged_pid="$(cat "$work/munge/munged.pid")"
# Slurm's auth/munge plugin finds the socket through the configuration.
sed -i "s|^AuthType=auth/munge|AuthType=auth/munge\nAuthInfo=socket=$work/munge/munge.socket|" "$conf"

/usr/sbin/slurmctld -f "$conf"
/usr/sbin/slurmd -f "$conf" -N tmu-node
for _ in $(seq 1 60); do
  state="$(sinfo -h -N -o '%T' 2>/dev/null | head -1 || true)"
  [ "$state" = idle ] && break
  sleep 1
done
echo "slurm-demo.sh: one-node cluster up ($(sinfo -h -o '%P %D %T %C')), SLURM_CONF=$conf"

out="$work/regress"
"$python" "$root/scripts/regress.py" submit --slurm --shards "$shards" --out "$out" \
  --tb "$tb" --seed "$seed" --random-runs "$random_runs" --instrs "$instrs" --arch both --jobs 1 \
  | tee "$work/submit.txt"
ids="$(sed -n 's/.*watch: squeue -j \([0-9,]*\).*/\1/p' "$work/submit.txt")"
for _ in $(seq 1 3600); do
  [ -z "$(squeue -h -j "$ids" 2>/dev/null)" ] && break
  sleep 2
done
echo "slurm-demo.sh: the jobs have ended"
echo "---- merge job output ($out/slurm/merge.out) ----"
cat "$out/slurm/merge.out"
echo "----"

summary="$out/merged/summary.json"
[ -f "$summary" ] || { echo "slurm-demo.sh: no merged summary ($summary)" >&2; exit 1; }
"$python" - "$summary" "$out/merged/coverage.json" "$out/merged/junit.xml" "$shards" "$expect" <<'EOF'
import json, sys, xml.etree.ElementTree as ET
summary, coverage, junit, shards, expect = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
doc = json.load(open(summary))
cov = json.load(open(coverage))
cases = list(ET.parse(junit).getroot().iter("testcase"))
ok = doc["shards_merged"] == list(range(shards)) and not doc["shards_missing"]
ok = ok and len(doc["runs"]) == doc["entries_total"] == len(cases) and cov.get("hit", 0) > 0
failed = [r for r in doc["runs"] if r["status"] != "pass"]
print(f"slurm-demo.sh: merged {len(doc['shards_merged'])} shards: {len(doc['runs'])} runs, {doc['passed']} passed, "
      f"{doc['failed']} failed; coverage {cov['hit']}/{cov['total']} bins; {len(cases)} JUnit test cases")
if expect == "pass":
    ok = ok and not failed
else:
    ok = ok and bool(failed) and all(r["replay"] for r in failed)
    for r in failed[:3]:
        print(f"  failed run {r['index']} ({r['test']}, {r['arch']}): replay: {r['replay']}")
print(f"slurm-demo.sh: {'OK' if ok else 'UNEXPECTED'}: expected a merged {expect.upper()}")
sys.exit(0 if ok else 1)
EOF

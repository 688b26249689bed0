#!/usr/bin/python3
"""Testbench qualification by mutation (docs/regression.md, "Mutation testing").

Yosys 0.23's `mutate` (the engine of SymbiYosys's mcy) lists N mutations of the design, hierarchy
kept: a mutation changes a module, so every instance of it (all 128 MVMUL elements, say) carries it, as
an edit of the source line would. All of them go into ONE netlist behind a selector input `mutsel`
(mutsel = K enables mutation K, mutsel = 0 is the original design) that Yosys threads from each
mutated module up to the top's ports. The co-simulation model is built once against that netlist and
each mutant is a short regression: the --tb-args argument sets, each run with `--mutant K`, stopping
at the first failing one.

  mutate.py --top tmu_top [--count 120] [--seed 1] [--jobs 2] [--work DIR] [--build-dir DIR]
            [--tb-args "--test random --arch blackhole --seed 1 --instrs 500" ...] [--timeout 120]
            [--tb PATH] [--build-cmd CMD] [--rtl-file F ...] [--mutants K,K-K] [--equiv-depth D]
            [--generate-only] [--skip-generate] [--skip-build] [--select SEL]
            [--base-report JSON] [--equivalents FILE] [--resume]

Steps: (1) one yosys run reads the RTL as scripts/synth.sh does (rtl/tmu.f, -DSYNTHESIS), `prep -top
TOP`, `mutate -list COUNT -seed SEED -ctrl mutsel W 1 -o mutations.txt [SEL]`, applies every listed
line (`script mutations.txt`; in the same run, because the names of Yosys's internal cells differ
from one run to the next) and writes mutants.v (`write_verilog -noattr`) and mutants.il; (2)
the build, by default
`cmake -S <root> -B BUILD-DIR -DTMU_TB_BUILD=ON -DTMU_TB_RTL_NETLIST=<mutants.v>
-DTMU_TB_MUTSEL_WIDTH=W` then `ninja -C BUILD-DIR tmu_tb`, the simulator being BUILD-DIR/tb/tmu_tb;
--build-cmd replaces it (placeholders {netlist} {width} {work} {build_dir}; --tb then names the
simulator); (3) mutant 0 must pass every argument set, otherwise the netlist itself is wrong and the
script stops (exit 1); (4) every mutant: killed (a run exited non-zero), timeout (a run exceeded
--timeout), survived. With --equiv-depth D each survivor's module is checked for equivalence with
the original by Yosys (two copies of the mutated module from mutants.il, flattened below it, mutsel
tied to 0 and to K, `miter -equiv`, `sat -seq D -prove trigger 0 -set-init-zero`, a bounded check
with a time limit): a module whose outputs cannot differ makes the mutant equivalent, and it leaves
the kill-rate denominator. A module that can differ may still be equivalent in its context (an
input the rest of the design never drives that way): the report says "differs" or "unknown" (the
solver gave up, e.g. on a memory) and such survivors are argued by hand. Each verdict is appended
to WORK/verdicts.jsonl as it is reached; --resume takes the verdicts already there (of this very
list: the mutation line must match) instead of running those mutants again, so a campaign of hours
that was stopped goes on where it stopped. Writes WORK/mutate-report.txt and WORK/mutate-report.json; exit 0 when the flow ran
(whatever the kill rate), 1 when mutant 0 fails or a tool fails, 2 on bad input.
"""

import argparse
import concurrent.futures
import json
import math
import os
import re
import shlex
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class UsageError(Exception):
    pass


class FlowError(Exception):
    pass


def rtl_files(extra):
    if extra:
        files = [os.path.abspath(f) for f in extra]
    else:
        with open(os.path.join(ROOT, "rtl", "tmu.f")) as f:
            files = [os.path.join(ROOT, line.strip()) for line in f
                     if line.strip() and not line.strip().startswith("//")]
    for f in files:
        if not os.path.isfile(f):
            raise UsageError(f"RTL file {f} does not exist")
    return files


def yosys(script_path, log_path):
    p = subprocess.run(["yosys", "-q", "-l", log_path, "-s", script_path], capture_output=True, text=True)
    if p.returncode != 0:
        raise FlowError(f"yosys failed on {script_path} (log {log_path}):\n{(p.stdout + p.stderr)[-3000:]}")


def read_cmds(files, top):
    return [f"read_verilog -sv -DSYNTHESIS {' '.join(files)}", f"prep -top {top}"]


def parse_mutation(line, index):
    """A `mutate -list` line -> its fields (mode, module, cell, src locations)."""
    toks = line.split()  # no quoting: Yosys's names hold no blanks but may hold ' (Latency=32'...)
    m = {"id": index, "line": line, "src": []}
    i = 1
    while i < len(toks):
        key = toks[i]
        if key == "-ctrl":
            i += 4
            continue
        if key.startswith("-") and i + 1 < len(toks):
            name = key[1:]
            if name == "src":
                m["src"].append(toks[i + 1])
            else:
                m[name] = toks[i + 1]
            i += 2
        else:
            i += 1
    # Shortest source locations first: the innermost expression.
    m["location"] = ", ".join(os.path.relpath(s, ROOT) if s.startswith("/") else s for s in m["src"][-1:]) \
        if m["src"] else "?"
    return m


def generate(args, files, width):
    ys = os.path.join(args.work, "mutate.ys")
    mut_list = os.path.join(args.work, "mutations.txt")
    netlist = os.path.join(args.work, "mutants.v")
    select = f" {args.select}" if args.select else ""
    with open(ys, "w") as f:
        f.write("\n".join(read_cmds(files, args.top) + [
            f"mutate -list {args.count} -seed {args.seed} -ctrl mutsel {width} 1 -o {mut_list}{select}",
            f"script {mut_list}", "opt_clean", f"write_rtlil {os.path.join(args.work, 'mutants.il')}",
            f"write_verilog -noattr {netlist}"]) + "\n")
    yosys(ys, os.path.join(args.work, "mutate.log"))
    with open(mut_list) as f:
        lines = [line.strip() for line in f if line.strip().startswith("mutate ")]
    if not lines:
        raise FlowError("yosys listed no mutations")
    return [parse_mutation(line, n + 1) for n, line in enumerate(lines)], netlist


def build(args, netlist, width):
    log = os.path.join(args.work, "build.log")
    if args.build_cmd:
        cmd = args.build_cmd.format(netlist=netlist, width=width, work=args.work, build_dir=args.build_dir)
        cmds = [["bash", "-c", cmd]]
    else:
        cmds = [["cmake", "-S", ROOT, "-B", args.build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                 "-DTMU_TB_BUILD=ON", f"-DTMU_TB_RTL_NETLIST={netlist}", f"-DTMU_TB_MUTSEL_WIDTH={width}"],
                ["nice", "-n", "5", "ninja", "-C", args.build_dir, "-j", str(max(1, args.jobs)), "tmu_tb"]]
    with open(log, "w") as f:
        for c in cmds:
            f.write("$ " + shlex.join(c) + "\n")
            f.flush()
            if subprocess.run(c, stdout=f, stderr=subprocess.STDOUT).returncode != 0:
                raise FlowError(f"build failed: {shlex.join(c)} (log {log})")
    tb = args.tb or os.path.join(args.build_dir, "tb", "tmu_tb")
    if not (os.path.isfile(tb) and os.access(tb, os.X_OK)):
        raise FlowError(f"the build produced no simulator at {tb}")
    return tb


def run_mutant(tb, k, arg_sets, timeout):
    """Runs the argument sets with --mutant k until one fails: (status, detail)."""
    for n, a in enumerate(arg_sets):
        cmd = [tb] + shlex.split(a) + ["--mutant", str(k), "--no-wave", "--quiet"]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout", f"args #{n} exceeded {timeout} s: {shlex.join(cmd)}"
        if p.returncode != 0:
            out = (p.stdout + p.stderr).strip().splitlines()
            verdict = next((line for line in reversed(out) if line.startswith("tmu_tb:")), out[-1] if out else "")
            return "killed", f"args #{n} exit {p.returncode}: {verdict}"
    return "survived", ""


def equivalent(args, width, m, depth):
    """Bounded equivalence of mutant K's module with the original, from the very design that is
    simulated: two copies of the module, mutsel tied to 0 in one and to K in the other, compared by
    a miter for `depth` cycles from the all-zero state (mcy's check; a difference deeper than that
    goes unseen). Returns "equivalent", "differs" or "unknown"."""
    ys = os.path.join(args.work, f"equiv_{m['id']}.ys")
    module = m.get("module", args.top)  # unquoted: Yosys would keep the quotes as part of the name
    with open(ys, "w") as f:
        f.write("\n".join([
            f"read_rtlil {os.path.join(args.work, 'mutants.il')}", f"hierarchy -top {module}",
            f"rename {module} gold", "copy gold gate",
            "delete -port gold/mutsel", "delete -port gate/mutsel",
            "cd gold", f"connect -set mutsel {width}'d0", "cd ..",
            "cd gate", f"connect -set mutsel {width}'d{m['id']}", "cd ..",
            # No -ignore_gold_x: with it Yosys 0.23 proved a const1 output mutant "equivalent".
            "miter -equiv -flatten -make_outputs gold gate miter", "hierarchy -top miter",
            "flatten", "memory_map", "async2sync", "opt_clean",  # sat takes neither memories nor async resets
            f"sat -verify -prove trigger 0 -set-def-inputs -set-init-zero -seq {depth} -timeout 120 miter"]) + "\n")
    p = subprocess.run(["yosys", "-q", "-s", ys], capture_output=True, text=True)
    if p.returncode == 0:
        return "equivalent"
    out = p.stdout + p.stderr
    return "differs" if re.search(r"SAT proof finished - model found|failed", out, re.I) and \
        not re.search(r"timeout|interrupted", out, re.I) else "unknown"


def report(args, muts, wall):
    counts = {s: sum(m["status"] == s for m in muts) for s in ("killed", "timeout", "survived")}
    equiv = sum(bool(m.get("equivalent")) for m in muts)
    considered = len(muts) - equiv
    kill = counts["killed"] / considered if considered else 0.0
    detect = (counts["killed"] + counts["timeout"]) / considered if considered else 0.0
    lines = [f"mutate.py: top {args.top}, {len(muts)} mutants (seed {args.seed}), {len(args.tb_args)} argument set(s), "
             f"{wall:.0f} s", "",
             f"{'id':>4}  {'status':9} {'mode':7} {'location':40} detail"]
    for m in muts:
        st = m["status"] + ("*" if m.get("equivalent") else "")
        detail = m.get("detail", "") or (f"equivalent: {m['argument']}" if m.get("argument") else "")
        lines.append(f"{m['id']:>4}  {st:9} {m.get('mode', '?'):7} {m['location']:40} {detail}")
    lines += ["", f"killed {counts['killed']}  timeout {counts['timeout']}  survived {counts['survived']}  "
              f"equivalent {equiv}" + ("" if args.equiv_depth or args.equivalents else " (not checked)"),
              f"kill rate {100 * kill:.1f}% of {considered} non-equivalent mutants "
              f"(killed or timed out: {100 * detect:.1f}%)"]
    survivors = [m for m in muts if m["status"] == "survived" and not m.get("equivalent")]
    if survivors:
        lines.append("survivors (the testbench does not notice these changes):")
        for m in survivors:
            check = f" (module check: {m['module_check']})" if m.get("module_check") else ""
            lines.append(f"  #{m['id']} {m.get('mode', '?')} module {m.get('module', '?')} cell {m.get('cell', '?')} "
                         f"port {m.get('port', '?')}[{m.get('portbit', '?')}] at {', '.join(m['src']) or '?'}{check}")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.work, "mutate-report.txt"), "w") as f:
        f.write(text)
    doc = {"top": args.top, "seed": args.seed, "count": len(muts), "tb_args": args.tb_args,
           "killed": counts["killed"], "timeout": counts["timeout"], "survived": counts["survived"],
           "equivalent": equiv, "equivalence_checked": bool(args.equiv_depth), "kill_rate": kill,
           "detect_rate": detect, "wall_seconds": wall,
           "mutants": [{k: m.get(k) for k in ("id", "status", "equivalent", "argument", "module_check", "mode", "module",
                                              "cell", "port", "portbit", "ctrlbit", "wire", "wirebit", "src", "detail",
                                              "line", "from_base")}
                       for m in muts]}
    with open(os.path.join(args.work, "mutate-report.json"), "w") as f:
        json.dump(doc, f, indent=1)
    return text


def read_equivalents(path, muts):
    """The hand-argued equivalents: {id: reason}; each line's cell must be the listed mutant's."""
    by_id = {m["id"]: m for m in muts}
    out = {}
    try:
        with open(path) as f:
            lines = f.readlines()
    except OSError as e:
        raise UsageError(f"--equivalents: cannot read {path}: {e.strerror}")
    for n, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        parts = line.split(None, 2)
        if len(parts) < 3 or not parts[0].isdigit():
            raise UsageError(f"{path}:{n}: expected 'ID CELL reason...'")
        k, cell, reason = int(parts[0]), parts[1], parts[2]
        if k not in by_id:
            raise UsageError(f"{path}:{n}: mutant {k} is not in the list of {len(muts)}")
        listed = (by_id[k].get("cell") or "").replace(ROOT + "/", "")  # Yosys names cells by absolute path
        if listed != cell:
            raise UsageError(f"{path}:{n}: mutant {k} is cell {listed} in this list, not {cell}")
        out[k] = reason
    return out


def read_base_report(path, muts):
    """Verdicts of an earlier run of the same list: {id: entry}."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise UsageError(f"--base-report: cannot read {path}: {e}")
    entries = {e["id"]: e for e in doc.get("mutants", [])}
    for m in muts:
        e = entries.get(m["id"])
        if e and e.get("line") != m["line"]:
            raise UsageError(f"--base-report: mutant {m['id']} of {path} is another mutation than this list's")
    return entries


JOURNAL_KEYS = ("status", "detail", "module_check", "equivalent")


def read_journal(path, muts):
    """Verdicts reached by earlier runs of this list: {id: entry}; a line of another list is an error."""
    by_id = {m["id"]: m for m in muts}
    out = {}
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            try:
                e = json.loads(raw)
                k, line = int(e["id"]), e["line"]
            except (ValueError, KeyError, TypeError):
                raise UsageError(f"{path}:{n}: not a verdict line (a stopped write is cut at its end: delete it)")
            if k not in by_id or by_id[k]["line"] != line:
                raise UsageError(f"{path}:{n}: mutant {k} is another mutation than this list's")
            out[k] = e
    return out


def parse_ids(text, n):
    ids = set()
    for part in text.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part.strip())
        if not m:
            raise UsageError(f"--mutants: '{part}' is not K or K-K")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        ids.update(range(lo, hi + 1))
    return sorted(i for i in ids if 1 <= i <= n)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog="See docs/regression.md.")
    ap.add_argument("--top", required=True, help="the module to mutate (flattened below it)")
    ap.add_argument("--count", type=int, default=120, help="mutations to list (default 120)")
    ap.add_argument("--seed", type=int, default=1, help="yosys mutate's selection seed (default 1)")
    ap.add_argument("--jobs", type=int, default=2, help="mutants run in parallel, and build jobs (default 2)")
    ap.add_argument("--work", default="mutate-work", help="work directory (default mutate-work)")
    ap.add_argument("--build-dir", default=None, help="build directory of the mutant model (default WORK/build)")
    ap.add_argument("--tb-args", action="append", default=[], metavar="ARGS",
                    help="one tmu_tb argument set (repeatable; run in order, stop at the first failure)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per run before 'timeout' (default 300)")
    ap.add_argument("--tb", help="the simulator to run (default BUILD-DIR/tb/tmu_tb)")
    ap.add_argument("--build-cmd", help="replaces the cmake/ninja build; {netlist} {width} {work} {build_dir}")
    ap.add_argument("--rtl-file", action="append", help="read these files instead of rtl/tmu.f (repeatable)")
    ap.add_argument("--mutants", help="only run these mutants (e.g. 1-20,37); all are still generated")
    ap.add_argument("--equiv-depth", type=int, default=0, help="bounded equivalence check of survivors (0 = off)")
    ap.add_argument("--skip-generate", action="store_true", help="reuse WORK/mutations.txt and WORK/mutants.v")
    ap.add_argument("--skip-build", action="store_true", help="reuse the simulator (needs --tb or a built BUILD-DIR)")
    ap.add_argument("--generate-only", action="store_true", help="stop after writing mutations.txt and mutants.v")
    ap.add_argument("--select", help="Yosys selection the mutations are drawn from (default: the whole design)")
    ap.add_argument("--base-report", help="an earlier mutate-report.json of this list: the verdicts of mutants not rerun")
    ap.add_argument("--equivalents", help="hand-argued equivalent mutants: lines 'ID CELL reason'")
    ap.add_argument("--resume", action="store_true", help="take the verdicts in WORK/verdicts.jsonl instead of rerunning")
    args = ap.parse_args(argv)
    if not args.tb_args and not args.generate_only:
        raise UsageError("give at least one --tb-args set")
    if args.count < 1 or args.jobs < 1 or args.timeout <= 0 or args.equiv_depth < 0:
        raise UsageError("--count and --jobs must be >= 1, --timeout > 0, --equiv-depth >= 0")
    args.work = os.path.abspath(args.work)
    args.build_dir = os.path.abspath(args.build_dir or os.path.join(args.work, "build"))
    os.makedirs(args.work, exist_ok=True)
    files = rtl_files(args.rtl_file)
    width = max(1, math.ceil(math.log2(args.count + 1)))
    start = time.monotonic()

    if args.skip_generate:
        with open(os.path.join(args.work, "mutations.txt")) as f:
            lines = [line.strip() for line in f if line.strip().startswith("mutate ")]
        muts = [parse_mutation(line, n + 1) for n, line in enumerate(lines)]
        netlist = os.path.join(args.work, "mutants.v")
        width = int(re.search(r"-ctrl \S+ (\d+) ", lines[0]).group(1))
    else:
        print(f"mutate.py: listing {args.count} mutations of {args.top} (seed {args.seed}), mutsel width {width}",
              flush=True)
        muts, netlist = generate(args, files, width)
    print(f"mutate.py: {len(muts)} mutants in {netlist}", flush=True)
    if args.generate_only:
        return 0
    if args.skip_build:
        tb = args.tb or os.path.join(args.build_dir, "tb", "tmu_tb")
    else:
        print("mutate.py: building the simulator once", flush=True)
        tb = build(args, netlist, width)

    status, detail = run_mutant(tb, 0, args.tb_args, args.timeout)
    if status != "survived":
        raise FlowError(f"mutant 0 (the unmutated netlist) does not pass: {status}: {detail}")
    print("mutate.py: mutant 0 (original) passes every argument set", flush=True)

    chosen = set(parse_ids(args.mutants, len(muts)) if args.mutants else [m["id"] for m in muts])
    argued = read_equivalents(args.equivalents, muts) if args.equivalents else {}
    base = read_base_report(args.base_report, muts) if args.base_report else {}
    carried = []
    for m in muts:
        if m["id"] not in chosen and m["id"] in base:
            m.update({k: base[m["id"]].get(k) for k in ("status", "detail", "module_check")})
            m["from_base"] = True
            carried.append(m)
    journal_path = os.path.join(args.work, "verdicts.jsonl")
    journal = read_journal(journal_path, muts) if args.resume else {}
    muts_all = muts
    muts = [m for m in muts if m["id"] in chosen]
    for m in muts:
        if m["id"] in journal:
            m.update({k: journal[m["id"]].get(k) for k in JOURNAL_KEYS})
    if journal:
        print(f"mutate.py: {sum(m['id'] in journal for m in muts)} verdict(s) taken from {journal_path}", flush=True)
    lock = threading.Lock()

    def one(m):
        if m["id"] in journal:
            return m
        m["status"], m["detail"] = run_mutant(tb, m["id"], args.tb_args, args.timeout)
        if m["status"] == "survived" and args.equiv_depth:
            m["module_check"] = equivalent(args, width, m, args.equiv_depth)
            m["equivalent"] = m["module_check"] == "equivalent"
        with lock:
            with open(journal_path, "a") as f:
                f.write(json.dumps({"id": m["id"], "line": m["line"], **{k: m.get(k) for k in JOURNAL_KEYS}}) + "\n")
            print(f"  mutant {m['id']:4d} {m['status']:8s}{' (equivalent)' if m.get('equivalent') else ''} "
                  f"{m['location']}", flush=True)
        return m

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(one, muts))
    reported = [m for m in muts_all if m["id"] in chosen or m.get("from_base")]
    wrong = []
    for m in reported:
        if m["id"] in argued:
            if m["status"] == "survived":
                m["equivalent"], m["argument"] = True, argued[m["id"]]
            else:
                wrong.append(m["id"])
    print(report(args, reported, time.monotonic() - start), end="")
    if carried:
        print(f"mutate.py: {len(carried)} verdict(s) carried over from {args.base_report}")
    print(f"mutate.py: reports in {args.work}/mutate-report.txt and .json")
    if wrong:
        print(f"mutate.py: mutants argued equivalent but killed: {', '.join(map(str, wrong))}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except UsageError as e:
        print(f"mutate.py: {e}", file=sys.stderr)
        sys.exit(2)
    except FlowError as e:
        print(f"mutate.py: {e}", file=sys.stderr)
        sys.exit(1)

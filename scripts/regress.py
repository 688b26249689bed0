#!/usr/bin/python3
"""The long co-simulation regression (docs/regression.md).

Runs the co-simulation executable tmu_tb for every directed test x architecture plus K random runs x
architecture, one shard of that list at a time, writes JUnit XML, merges the per-run functional
coverage JSON by summing, prints a summary and exits 1 if any run failed (2 on bad input).

  regress.py --tb build/tb/tmu_tb [--seed GLOBAL] [--shard i/N | --shards N] [--random-runs K]
             [--instrs N] [--arch both|bh|wh] [--junit FILE] [--cov-out FILE] [--jobs J] [--out DIR]
             [--timeout SECONDS] [--list] [--vlt-coverage]
  regress.py merge SHARD_DIR|DIR ... [--out DIR] [--tb TB]   combine shard directories
  regress.py submit --slurm --shards N --out DIR [--partition P] [--time T] [--dry-run] --tb TB ...
  regress.py --tb TB --merge-cov OUT IN.json [IN.json ...]   sum coverage files

Run list: the tests `tmu_tb --list-tests` prints except "random" (directed), each on every selected
architecture, then "random" K times on every architecture; entry n (0-based) of the whole list
belongs to shard n mod N (shards are 0-based: --shard 0/4 .. 3/4). Without --shard, a batch array
job's index names the shard (regress_shards.py: Slurm, LSF, PBS); otherwise the run is unsharded.
Seeds: run n under global seed G uses derive_seed(G, f"run {n}") & (2**63 - 1), whatever the
sharding, so the shards of a regression run exactly the runs of the unsharded one;
tmu::derive_seed of refmodel/common/include/tmu/rng.h (docs/architecture.md, "Random numbers and
seeds"), printed per run and recorded in the JUnit <properties> with the exact command that
replays it. The global seed defaults to the clock (printed); --seed G replays a whole regression.
Each shard writes its directory (OUT, or OUT/shard-i-of-N when N > 1): runs/, replay/, junit.xml,
coverage.json and summary.json; `merge` combines any set of them.
Standard library only (Debian's /usr/bin/python3).
"""

import argparse
import concurrent.futures
import difflib
import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET

import regress_shards

ARCHES = {"bh": ["blackhole"], "wh": ["wormhole"], "both": ["blackhole", "wormhole"]}


class UsageError(Exception):
    pass


MASK64 = (1 << 64) - 1


def derive_seed(parent, name):
    """tmu::derive_seed: FNV-1a of name, starting from the FNV offset xor the spread parent."""
    h = 0xCBF29CE484222325 ^ ((parent * 0x9E3779B97F4A7C15) & MASK64)
    for byte in name.encode():
        h = ((h ^ byte) * 0x100000001B3) & MASK64
    return h


def run_seed(global_seed, index):
    """The documented per-run seed, in 63 bits like every seed a command picks itself. It does not
    depend on the sharding: entry n is the same run in every layout."""
    return derive_seed(global_seed, f"run {index}") & ((1 << 63) - 1)


def merge_coverage_files(tb, out, inputs):
    """Sums coverage files into OUT with the testbench's own merge (tmu_tb --merge-cov, which is
    tmu::tb::Coverage::merge): the one rule, not restated here. Returns the merged document."""
    proc = subprocess.run([tb, "--merge-cov", out, *inputs], capture_output=True, text=True)
    if proc.returncode != 0:
        raise ValueError(f"{tb} --merge-cov failed: {(proc.stderr or proc.stdout).strip()}")
    return load_coverage(out)


def load_coverage(path):
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("coverpoints"), dict):
        raise ValueError(f"{path}: not a coverage file (no \"coverpoints\" object)")
    return doc


def parse_shard(text):
    m = re.fullmatch(r"(\d+)/(\d+)", text or "")
    if not m:
        raise UsageError(f"--shard must be i/N (e.g. 0/4), got '{text}'")
    i, n = int(m.group(1)), int(m.group(2))
    if n < 1 or i >= n:
        raise UsageError(f"--shard {text}: need 0 <= i < N")
    return i, n


def list_tests(tb):
    try:
        p = subprocess.run([tb, "--list-tests"], capture_output=True, text=True, timeout=120)
    except OSError as e:
        raise UsageError(f"cannot run {tb}: {e}")
    if p.returncode != 0:
        raise UsageError(f"{tb} --list-tests exited {p.returncode}: {p.stderr.strip() or p.stdout.strip()}")
    names = [line.strip() for line in p.stdout.splitlines() if line.strip()]
    if not names:
        raise UsageError(f"{tb} --list-tests listed no tests")
    return names


def build_run_list(tests, arches, random_runs):
    runs = [(t, a) for t in tests if t != "random" for a in arches]
    runs += [("random", a) for _ in range(random_runs) for a in arches]
    return [{"index": n, "test": t, "arch": a} for n, (t, a) in enumerate(runs)]


def replay_command(tb, run, instrs):
    return shlex.join([tb, "--test", run["test"], "--arch", run["arch"], "--seed", str(run["seed"]),
                       "--instrs", str(instrs)])


def execute(run, args, print_lock):
    tag = f"{run['index']:05d}_{run['test']}_{run['arch']}"
    run_dir = os.path.join(args.out, "runs")
    cov_path = os.path.join(run_dir, tag + ".cov.json")
    report_path = os.path.join(run_dir, tag + ".report.json")
    log_path = os.path.join(run_dir, tag + ".log")
    cmd = [args.tb, "--test", run["test"], "--arch", run["arch"], "--seed", str(run["seed"]),
           "--instrs", str(args.instrs), "--cov-json", cov_path, "--report", report_path,
           "--replay-dir", os.path.join(args.out, "replay", tag), "--quiet"]
    if args.vlt_coverage:  # a TMU_TB_COVERAGE build: Verilator line/toggle data for coverage-html.sh
        os.makedirs(os.path.join(args.out, "vlt"), exist_ok=True)
        cmd += ["--vlt-coverage", os.path.join(args.out, "vlt", f"coverage_{tag}.dat")]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        output, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        output = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        output += f"\nregress.py: timed out after {args.timeout} s\n"
        rc = None
    run["time"] = time.monotonic() - start
    with open(log_path, "w") as f:
        f.write(" ".join(shlex.quote(c) for c in cmd) + "\n" + output)
    run["log"], run["output"] = log_path, output
    run["cov"] = cov_path if os.path.exists(cov_path) else None
    # The verdict is the run's JSON report (tmu_tb --report), not its text.
    report = read_report(report_path) if rc is not None else None
    run["instrs"] = report["instrs"] if report else 0
    run["cycles"] = report["cycles"] if report else 0
    if rc is None:
        run["status"], run["why"] = "timeout", f"no verdict within {args.timeout} s"
    elif report is None:
        run["status"], run["why"] = "error", f"exit {rc} without a readable run report"
    elif rc == 0 and report["verdict"] == "PASS":
        run["status"], run["why"] = "pass", ""
    elif rc == 0:
        run["status"], run["why"] = "fail", f"exit 0 with verdict {report['verdict']}"
    elif rc == 1:
        run["status"], run["why"] = "fail", "mismatch (exit 1)"
    elif rc == 2:
        run["status"], run["why"] = "error", "usage/bad input (exit 2)"
    else:
        run["status"], run["why"] = "error", f"exit {rc}"
    with print_lock:
        word = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "timeout": "TIMEOUT"}[run["status"]]
        print(f"[{run['index']:5d}] {word:7s} {run['test']} arch={run['arch']} seed {run['seed']} "
              f"({run['time']:.1f} s)" + (f"  {run['why']}; replay: {run['replay']}" if word != "PASS" else ""),
              flush=True)
    return run


def read_report(path):
    """tmu_tb's run report, or None when it is missing or not one."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("format") != "tmu-tb-report 1":
        return None
    if not all(isinstance(doc.get(k), int) for k in ("instrs", "cycles")) or not isinstance(doc.get("verdict"), str):
        return None
    return doc


def write_junit(path, runs, args, wall):
    suite = ET.Element("testsuite", name="tmu_regress", tests=str(len(runs)),
                       failures=str(sum(r["status"] == "fail" for r in runs)),
                       errors=str(sum(r["status"] in ("error", "timeout") for r in runs)),
                       time=f"{wall:.3f}")
    props = ET.SubElement(suite, "properties")
    for name, value in (("global_seed", args.seed), ("shard", args.shard), ("instrs", args.instrs),
                        ("random_runs", args.random_runs), ("tb", args.tb)):
        ET.SubElement(props, "property", name=name, value=str(value))
    for r in runs:
        case = ET.SubElement(suite, "testcase", classname=f"tmu_tb.{r['arch']}",
                             name=f"{r['test']}[{r['arch']}]#{r['index']}", time=f"{r['time']:.3f}")
        p = ET.SubElement(case, "properties")
        ET.SubElement(p, "property", name="seed", value=str(r["seed"]))
        ET.SubElement(p, "property", name="replay", value=r["replay"])
        if r["status"] != "pass":
            tag = "failure" if r["status"] == "fail" else "error"
            el = ET.SubElement(case, tag, message=f"{r['why']}; replay: {r['replay']}")
            el.text = r["output"][-20000:]
        ET.SubElement(case, "system-out").text = r["output"][-20000:]
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def merge_main(tb, out, inputs):
    merged = merge_coverage_files(tb, out, inputs)
    print(f"regress.py: merged {len(inputs)} coverage files into {out}: "
          f"{merged.get('hit', 0)}/{merged.get('total', 0)} bins hit")
    return 0


def print_coverage_table(merged):
    """One line per coverpoint: bins hit of bins, and a few of the bins never hit."""
    print(f"  {'coverpoint':36s} {'hit':>6s} {'bins':>6s} {'%':>6s}  missed (first few)")
    for name, cp in sorted(merged.get("coverpoints", {}).items()):
        bins = cp.get("bins", {})
        hit = sum(1 for v in bins.values() if v > 0)
        missed = [b for b, v in bins.items() if v == 0]
        pct = 100.0 * hit / max(len(bins), 1)
        print(f"  {name:36s} {hit:6d} {len(bins):6d} {pct:6.1f}  {', '.join(missed[:3])}")


def main(argv):
    if argv and argv[0] == "merge":
        return regress_shards.merge_main(argv[1:], merge_cov=merge_coverage_files, print_table=print_coverage_table)
    if argv and argv[0] == "submit":
        return regress_shards.submit_main(argv[1:], script=__file__)
    if argv and not argv[0].startswith("-"):
        # The run mode takes options only, so a leading word is a subcommand, perhaps misspelt; argparse
        # would print its usage block, naming neither subcommand.
        close = difflib.get_close_matches(argv[0], ["submit", "merge"], n=1, cutoff=0.6)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise UsageError(f"unknown command '{argv[0]}'{hint}: the commands are submit and merge; "
                         "a regression itself takes options only (regress.py --help)")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog="See docs/regression.md.",
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tb", help="the tmu_tb executable (<build>/tb/tmu_tb)")
    ap.add_argument("--seed", type=int, help="global seed (default: from the clock, printed)")
    ap.add_argument("--shard", help="i/N: run entries n with n mod N == i (default: the batch array index, "
                    "else 0/1)")
    ap.add_argument("--shards", type=int, help="N, with the shard index from the batch system (LSF, PBS)")
    ap.add_argument("--shard-base", type=int, help="the batch array's first index (default: Slurm's "
                    "SLURM_ARRAY_TASK_MIN, LSF 1, PBS 0)")
    ap.add_argument("--random-runs", type=int, default=10, help="random runs per architecture (default 10)")
    ap.add_argument("--instrs", type=int, default=2000, help="instructions per run (default 2000)")
    ap.add_argument("--arch", default="both", choices=sorted(ARCHES), help="architectures (default both)")
    ap.add_argument("--junit", help="write JUnit XML here")
    ap.add_argument("--cov-out", help="write the merged coverage JSON here")
    ap.add_argument("--jobs", type=int, default=1, help="parallel runs (default 1)")
    ap.add_argument("--out", default="regress-out", help="per-run logs, coverage, replay dirs (default regress-out)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per run before it counts as failed")
    ap.add_argument("--list", action="store_true", help="print this shard's runs and seeds, run nothing")
    ap.add_argument("--vlt-coverage", action="store_true",
                    help="each run writes Verilator coverage to OUT/vlt/coverage_<run>.dat (TMU_TB_COVERAGE builds)")
    ap.add_argument("--merge-cov", nargs="+", metavar="FILE", help="OUT IN...: only merge coverage files")
    args = ap.parse_args(argv)

    if args.merge_cov:  # the older spelling: sum coverage files only
        if len(args.merge_cov) < 2:
            raise UsageError("--merge-cov needs OUT and at least one IN")
        if not args.tb:
            raise UsageError("--merge-cov needs --tb: the merge is the testbench's (tmu_tb --merge-cov)")
        return merge_main(args.tb, args.merge_cov[0], args.merge_cov[1:])
    if not args.tb:
        raise UsageError("--tb PATH is required")
    if not (os.path.isfile(args.tb) and os.access(args.tb, os.X_OK)):
        raise UsageError(f"--tb {args.tb}: not an executable file")
    if args.random_runs < 0 or args.instrs < 1 or args.jobs < 1 or args.timeout <= 0:
        raise UsageError("--random-runs must be >= 0, --instrs, --jobs and --timeout > 0")
    if args.shard is not None:
        shard, shards = parse_shard(args.shard)
        origin = "--shard"
    else:
        try:
            shard, shards, origin = regress_shards.shard_from_environment(os.environ, args.shards, args.shard_base)
        except ValueError as e:
            raise UsageError(str(e))
    shard_dir = regress_shards.shard_directory(args.out, shard, shards)
    if args.seed is None:
        args.seed = time.time_ns() & ((1 << 63) - 1)
    if args.seed < 0:
        raise UsageError("--seed must be >= 0")
    print(f"regress.py: global seed {args.seed} shard {shard}/{shards} ({origin}) in {shard_dir} "
          f"(replay the regression with --seed {args.seed})", flush=True)

    runs = build_run_list(list_tests(args.tb), ARCHES[args.arch], args.random_runs)
    total_entries = len(runs)
    runs = [r for r in runs if r["index"] % shards == shard]
    for r in runs:
        r["seed"] = run_seed(args.seed, r["index"])
        r["replay"] = replay_command(args.tb, r, args.instrs)
    print(f"regress.py: {len(runs)} of {total_entries} runs in this shard", flush=True)
    if args.list:
        for r in runs:
            print(f"[{r['index']:5d}] {r['test']} arch={r['arch']} seed {r['seed']}: {r['replay']}")
        return 0

    args.out = shard_dir
    os.makedirs(os.path.join(args.out, "runs"), exist_ok=True)
    lock = threading.Lock()
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        done = list(pool.map(lambda r: execute(r, args, lock), runs))
    wall = time.monotonic() - start

    # A run's unreadable coverage file is reported and left out; the rest are merged.
    merged, cov_problems, cov_files = {}, [], []
    for r in done:
        if r["cov"]:
            try:
                load_coverage(r["cov"])
                cov_files.append(r["cov"])
            except (OSError, ValueError) as e:
                cov_problems.append(str(e))
    shard_cov = os.path.join(args.out, "coverage.json")
    if cov_files:
        try:
            merged = merge_coverage_files(args.tb, shard_cov, cov_files)
            if args.cov_out:
                os.makedirs(os.path.dirname(os.path.abspath(args.cov_out)), exist_ok=True)
                merge_coverage_files(args.tb, args.cov_out, [shard_cov])
        except (OSError, ValueError) as e:
            cov_problems.append(str(e))
    args.shard = f"{shard}/{shards}"
    write_junit(os.path.join(args.out, "junit.xml"), done, args, wall)
    if args.junit:
        write_junit(args.junit, done, args, wall)
    regress_shards.write_summary(os.path.join(args.out, "summary.json"), args, shard, shards, total_entries, done,
                                 wall, "coverage.json" if merged else None, cov_problems)

    passed = sum(r["status"] == "pass" for r in done)
    failed = [r for r in done if r["status"] != "pass"]
    print("\n==== regression summary ====")
    print(f"global seed  {args.seed}  shard {shard}/{shards}")
    print(f"runs         {len(done)}  passed {passed}  failed {len(failed)}")
    print(f"instructions {sum(r['instrs'] for r in done)}  cycles {sum(r['cycles'] for r in done)}")
    print(f"wall time    {wall:.1f} s")
    if merged:
        print(f"coverage     {merged['hit']}/{merged['total']} bins hit "
              f"({100.0 * merged['hit'] / max(merged['total'], 1):.1f}%), {len([r for r in done if r['cov']])} files"
              + (f" -> {args.cov_out}" if args.cov_out else ""))
        print_coverage_table(merged)
    for p in cov_problems:
        print(f"coverage file problem: {p}")
    regress_shards.print_failures(failed)
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (UsageError, regress_shards.MergeError) as e:
        print(f"regress.py: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)

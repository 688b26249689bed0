"""Shards of scripts/regress.py on a batch farm: which shard a job is, the shard's summary, and the
merge of shard directories (docs/regression.md, "On a batch farm").

A shard directory holds junit.xml, coverage.json (when any run wrote coverage), summary.json and the
runs' logs. `regress.py merge DIR ...` reads any set of them (a shard directory, or a directory whose
shard-i-of-N subdirectories are shards), checks that they are shards of one regression and that none
is missing or damaged, and writes one junit.xml, coverage.json and summary.json. A problem names the
shard directory and the reason and exits 2: a merge never drops a shard silently.
Standard library only.
"""

import argparse
import json
import os
import re
import shutil
import time
import xml.etree.ElementTree as ET

SUMMARY_FORMAT = "tmu-regress-shard 1"
MERGED_FORMAT = "tmu-regress-merged 1"
SHARD_DIR = re.compile(r"shard-(\d+)-of-(\d+)$")
CASE_INDEX = re.compile(r"#(\d+)$")
# The settings every shard of one regression shares.
SHARED = ("global_seed", "shards", "instrs_per_run", "random_runs", "arch", "entries_total")


class MergeError(Exception):
    pass


def _int(env, name):
    text = env.get(name)
    if text is None:
        return None
    if not re.fullmatch(r"\d+", text.strip()):
        raise ValueError(f"{name}={text!r} is not a non-negative integer")
    return int(text)


def shard_from_environment(env, shards=None, base=None):
    """(i, N, origin) of this job from a batch array's environment: Slurm's SLURM_ARRAY_TASK_ID with
    SLURM_ARRAY_TASK_COUNT (the first index SLURM_ARRAY_TASK_MIN), LSF's LSB_JOBINDEX (1-based; N
    from LSB_JOBINDEX_END), PBS's PBS_ARRAY_INDEX (N from `shards`). `shards` and `base` override
    the count and the first index. No array: (0, 1). ValueError when the values do not make a
    shard."""
    for index_var, count_var, base_var, default_base in (
            ("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", 0),
            ("LSB_JOBINDEX", "LSB_JOBINDEX_END", None, 1),
            ("PBS_ARRAY_INDEX", None, None, 0)):
        index = _int(env, index_var)
        if index is None or (index_var == "LSB_JOBINDEX" and index == 0):  # LSF sets 0 outside arrays
            continue
        first = base if base is not None else (_int(env, base_var) if base_var else None)
        first = default_base if first is None else first
        count = shards if shards is not None else (_int(env, count_var) if count_var else None)
        if count is None:
            raise ValueError(f"{index_var}={index} gives the shard but not the number of shards: pass --shards N")
        if count < 1 or not first <= index < first + count:
            raise ValueError(f"{index_var}={index} is not one of {count} shards numbered from {first}")
        return index - first, count, f"{index_var}={index}"
    if shards is not None and shards != 1:
        raise ValueError(f"--shards {shards} without a batch array index (SLURM_ARRAY_TASK_ID, LSB_JOBINDEX, "
                         "PBS_ARRAY_INDEX): pass --shard i/N")
    return 0, 1, "unsharded"


def shard_directory(out, shard, shards):
    return out if shards == 1 else os.path.join(out, f"shard-{shard}-of-{shards}")


def write_summary(path, args, shard, shards, entries_total, runs, wall, coverage, coverage_problems):
    keys = ("index", "test", "arch", "seed", "status", "why", "instrs", "cycles", "time", "replay", "log")
    doc = {
        "format": SUMMARY_FORMAT, "global_seed": args.seed, "shard": shard, "shards": shards,
        "instrs_per_run": args.instrs, "random_runs": args.random_runs, "arch": args.arch,
        "entries_total": entries_total, "tb": os.path.abspath(args.tb), "wall_time": round(wall, 3),
        "runs": [{k: r[k] for k in keys} for r in runs], "coverage": coverage,
        "coverage_problems": coverage_problems, "junit": "junit.xml",
    }
    doc.update(totals(doc["runs"]))
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def print_failures(failed):
    """Each failed run with its log and the command that replays it."""
    for r in failed:
        print(f"FAILED [{r['index']}] {r['test']} arch={r['arch']} seed {r['seed']} ({r['why']}) log {r['log']}\n"
              f"  replay: {r['replay']}")


def totals(runs):
    return {"passed": sum(r["status"] == "pass" for r in runs), "failed": sum(r["status"] != "pass" for r in runs),
            "instructions": sum(r["instrs"] for r in runs), "cycles": sum(r["cycles"] for r in runs)}


def find_shards(paths):
    """The shard directories the arguments name, each once."""
    found = []
    for p in paths:
        if not os.path.isdir(p):
            raise MergeError(f"{p}: no such directory")
        if os.path.exists(os.path.join(p, "summary.json")):
            found.append(p)
            continue
        subs = sorted(os.path.join(p, d) for d in os.listdir(p) if SHARD_DIR.fullmatch(d))
        if not subs:
            raise MergeError(f"{p}: neither a shard directory (no summary.json) nor a directory of shard-i-of-N ones")
        found += subs
    seen = set()
    return [d for d in found if not (os.path.realpath(d) in seen or seen.add(os.path.realpath(d)))]


def _count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


# What the merge reads of a shard's summary.json, and the type each must have.
RUN_COUNTS = ("index", "instrs", "cycles")
RUN_TEXTS = ("test", "arch", "status", "why", "replay", "log")


def summary_problem(doc):
    """The first thing in a shard summary the merge cannot use, as a phrase; None when it can."""
    for k in ("global_seed", "instrs_per_run", "random_runs", "entries_total"):
        if not _count(doc[k]):
            return f"{k} {doc[k]!r} is not a non-negative integer"
    if not _count(doc["shards"]) or doc["shards"] == 0:
        return f"shards {doc['shards']!r} is not a positive integer"
    if not _count(doc["shard"]) or doc["shard"] >= doc["shards"]:
        return f"shard {doc['shard']!r} is not one of {doc['shards']} shards"
    for k in ("arch", "tb", "junit", "coverage"):
        if k in doc and not isinstance(doc[k], str) and not (k == "coverage" and doc[k] is None):
            return f"{k} {doc[k]!r} is not a string"
    if not isinstance(doc["wall_time"], (int, float)) or isinstance(doc["wall_time"], bool):
        return f"wall_time {doc['wall_time']!r} is not a number"
    if not isinstance(doc["runs"], list):
        return "runs is not a list"
    seen = set()
    for n, r in enumerate(doc["runs"]):
        if not isinstance(r, dict):
            return f"run {n} is not an object"
        for k in RUN_COUNTS + RUN_TEXTS + ("seed",):
            if k not in r:
                return f"run {n} lacks {k}"
        bad = [k for k in RUN_COUNTS + ("seed",) if not _count(r[k])] + [k for k in RUN_TEXTS if not isinstance(r[k], str)]
        if bad:
            return f"run {n}: {bad[0]} {r[bad[0]]!r} is not a {'string' if bad[0] in RUN_TEXTS else 'non-negative integer'}"
        if r["index"] % doc["shards"] != doc["shard"]:
            return f"run {r['index']} does not belong to shard {doc['shard']}/{doc['shards']}"
        if r["index"] in seen:
            return f"run {r['index']} is listed twice"
        seen.add(r["index"])
    return None


def read_shard(d):
    path = os.path.join(d, "summary.json")
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        raise MergeError(f"shard {d}: cannot read summary.json ({e.strerror})")
    except json.JSONDecodeError as e:
        raise MergeError(f"shard {d}: summary.json is not JSON ({e.msg} at line {e.lineno})")
    if not isinstance(doc, dict) or doc.get("format") != SUMMARY_FORMAT:
        raise MergeError(f"shard {d}: summary.json is not a regress.py shard summary ({SUMMARY_FORMAT!r})")
    missing = [k for k in SHARED + ("shard", "runs", "tb", "wall_time") if k not in doc]
    if missing:
        raise MergeError(f"shard {d}: summary.json lacks {', '.join(missing)}")
    problem = summary_problem(doc)
    if problem:
        raise MergeError(f"shard {d}: summary.json: {problem}")
    try:
        cases = ET.parse(os.path.join(d, doc.get("junit", "junit.xml"))).getroot().iter("testcase")
        doc["_cases"] = list(cases)
    except (OSError, ET.ParseError) as e:
        raise MergeError(f"shard {d}: junit.xml unreadable ({e})")
    if len(doc["_cases"]) != len(doc["runs"]):
        raise MergeError(f"shard {d}: junit.xml has {len(doc['_cases'])} test cases, summary.json {len(doc['runs'])} runs")
    for c in doc["_cases"]:
        if not CASE_INDEX.search(c.get("name", "")):
            raise MergeError(f"shard {d}: junit.xml test case {c.get('name')!r} does not end in #<run index>")
    doc["_dir"] = d
    if doc.get("coverage"):
        cov = os.path.join(d, doc["coverage"])
        try:
            with open(cov) as f:
                if not isinstance(json.load(f).get("coverpoints"), dict):
                    raise ValueError("no coverpoints")
        except (OSError, ValueError, AttributeError) as e:
            raise MergeError(f"shard {d}: {doc['coverage']} is missing or not a coverage file ({e})")
        doc["_cov"] = cov
    return doc


def merge_main(argv, merge_cov, print_table):
    ap = argparse.ArgumentParser(prog="regress.py merge", description="Combine regress.py shard directories.")
    ap.add_argument("dirs", nargs="+", help="shard directories, or directories of shard-i-of-N ones")
    ap.add_argument("--out", default="regress-merged", help="where the merged files go (default regress-merged)")
    ap.add_argument("--tb", help="the tmu_tb whose --merge-cov sums coverage (default: the shards' own)")
    ap.add_argument("--partial", action="store_true", help="merge although shards are missing (named, exit 1)")
    args = ap.parse_args(argv)
    shards = [read_shard(d) for d in find_shards(args.dirs)]
    first = shards[0]
    for s in shards[1:]:
        for k in SHARED:
            if s[k] != first[k]:
                raise MergeError(f"shard {s['_dir']}: {k} {s[k]} differs from {first['_dir']}'s {first[k]} "
                                 "(not a shard of the same regression)")
    by_index = {}
    for s in shards:
        if s["shard"] in by_index:
            raise MergeError(f"shard {s['_dir']}: shard {s['shard']}/{s['shards']} is also {by_index[s['shard']]['_dir']}")
        by_index[s["shard"]] = s
    missing = [i for i in range(first["shards"]) if i not in by_index]
    if missing and not args.partial:
        raise MergeError(f"shards {', '.join(map(str, missing))} of {first['shards']} are missing "
                         "(pass them, or --partial to merge the others)")

    os.makedirs(args.out, exist_ok=True)
    runs = sorted((r for s in shards for r in s["runs"]), key=lambda r: r["index"])
    cases = sorted((c for s in shards for c in s["_cases"]),
                   key=lambda c: int(CASE_INDEX.search(c.get("name", "#0")).group(1)))
    suite = ET.Element("testsuite", name="tmu_regress", tests=str(len(cases)),
                       failures=str(sum(c.find("failure") is not None for c in cases)),
                       errors=str(sum(c.find("error") is not None for c in cases)),
                       time=f"{sum(s['wall_time'] for s in shards):.3f}")
    props = ET.SubElement(suite, "properties")
    for k in SHARED:
        ET.SubElement(props, "property", name=k, value=str(first[k]))
    ET.SubElement(props, "property", name="merged_shards", value=",".join(str(s["shard"]) for s in shards))
    suite.extend(cases)
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    ET.ElementTree(root).write(os.path.join(args.out, "junit.xml"), encoding="utf-8", xml_declaration=True)

    merged_cov = None
    cov_inputs = [s["_cov"] for s in shards if "_cov" in s]
    if cov_inputs:
        tb = args.tb or first["tb"]
        try:
            merged_cov = merge_cov(tb, os.path.join(args.out, "coverage.json"), cov_inputs)
        except (OSError, ValueError) as e:
            raise MergeError(f"coverage merge with {tb} failed: {e}")
    doc = {k: first[k] for k in SHARED}
    doc.update({"format": MERGED_FORMAT, "shards_merged": sorted(by_index), "shards_missing": missing,
                "runs": runs, "coverage": "coverage.json" if merged_cov else None,
                "wall_time": round(sum(s["wall_time"] for s in shards), 3), "merged_at": time.time()})
    doc.update(totals(runs))
    failed = [r for r in runs if r["status"] != "pass"]
    verdict = "FAIL" if failed else ("INCOMPLETE" if missing else "PASS")
    doc["verdict"] = verdict
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")

    print(f"==== merged regression: {len(shards)} of {first['shards']} shards, global seed {first['global_seed']} ====")
    print(f"runs         {len(runs)} of {first['entries_total']}  passed {doc['passed']}  failed {doc['failed']}")
    print(f"instructions {doc['instructions']}  cycles {doc['cycles']}")
    if merged_cov:
        print(f"coverage     {merged_cov['hit']}/{merged_cov['total']} bins hit "
              f"({100.0 * merged_cov['hit'] / max(merged_cov['total'], 1):.1f}%)")
        print_table(merged_cov)
    for i in missing:
        print(f"MISSING shard {i}/{first['shards']}")
    print_failures(failed)
    print(f"regress.py merge: {verdict} -> {args.out}/junit.xml, {args.out}/summary.json"
          + (f", {args.out}/coverage.json" if merged_cov else ""))
    return 0 if verdict == "PASS" else 1


def submit_main(argv, script):
    """`regress.py submit --slurm`: the regression as one Slurm array job (a shard per task, each
    taking its shard from SLURM_ARRAY_TASK_ID) and a merge job that runs after every task ended,
    whatever their verdicts. The sbatch scripts are written to OUT/slurm/ first."""
    ap = argparse.ArgumentParser(prog="regress.py submit", description=submit_main.__doc__)
    ap.add_argument("--slurm", action="store_true", required=True, help="submit to Slurm (the one batch system so far)")
    ap.add_argument("--shards", type=int, required=True, help="array tasks")
    ap.add_argument("--out", required=True, help="the regression's directory, on storage every node sees")
    ap.add_argument("--partition", help="sbatch --partition")
    ap.add_argument("--time", help="sbatch --time per task (e.g. 02:00:00)")
    ap.add_argument("--sbatch-arg", action="append", default=[], help="one more sbatch option, e.g. --account=dv")
    ap.add_argument("--dry-run", action="store_true", help="write the scripts and print the sbatch commands only")
    args, regress_args = ap.parse_known_args(argv)
    if args.shards < 1:
        raise MergeError("--shards must be at least 1")
    for banned in ("--shard", "--out", "--junit", "--cov-out"):
        if banned in regress_args:
            raise MergeError(f"{banned} is decided by submit (each task writes OUT/shard-i-of-N)")
    if "--tb" not in regress_args:
        raise MergeError("--tb PATH is required (the testbench every task runs)")
    i = regress_args.index("--tb")
    regress_args[i + 1] = os.path.abspath(regress_args[i + 1])
    if "--seed" not in regress_args:  # every task must draw the same runs
        regress_args += ["--seed", str(time.time_ns() & ((1 << 63) - 1))]
    jobs = regress_args[regress_args.index("--jobs") + 1] if "--jobs" in regress_args else "1"
    out = os.path.abspath(args.out)
    slurm_dir = os.path.join(out, "slurm")
    os.makedirs(slurm_dir, exist_ok=True)
    python = os.environ.get("TMU_PYTHON") or "/usr/bin/python3"
    script = os.path.abspath(script)
    common = [f"#SBATCH --{k}={v}" for k, v in (("partition", args.partition), ("time", args.time)) if v]
    common += [f"#SBATCH {a}" for a in args.sbatch_arg]

    def quote(words):
        return " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)

    shard_script = os.path.join(slurm_dir, "shard.sbatch")
    with open(shard_script, "w") as f:
        f.write("\n".join(["#!/bin/bash", "#SBATCH --job-name=tmu-regress", f"#SBATCH --array=0-{args.shards - 1}",
                           f"#SBATCH --cpus-per-task={jobs}", f"#SBATCH --output={slurm_dir}/shard-%a.out", *common,
                           "# One shard of the regression: regress.py takes it from SLURM_ARRAY_TASK_ID.",
                           f"exec {quote([python, script, *regress_args, '--out', out])}", ""]))
    merge_script = os.path.join(slurm_dir, "merge.sbatch")
    with open(merge_script, "w") as f:
        f.write("\n".join(["#!/bin/bash", "#SBATCH --job-name=tmu-regress-merge", "#SBATCH --cpus-per-task=1",
                           f"#SBATCH --output={slurm_dir}/merge.out", *common,
                           "# After every shard ended: one JUnit file, one coverage file, one verdict.",
                           f"exec {quote([python, script, 'merge', out, '--out', os.path.join(out, 'merged')])}", ""]))
    if args.dry_run:
        print(f"sbatch --parsable {shard_script}")
        print(f"sbatch --parsable --dependency=afterany:<array job id> {merge_script}")
        return 0

    if shutil.which("sbatch") is None:
        raise MergeError(f"sbatch is not on PATH: this is not a Slurm submit host (the scripts are in {slurm_dir}; "
                         "--dry-run prints the commands)")

    def sbatch(*words):
        import subprocess
        p = subprocess.run(["sbatch", "--parsable", *words], capture_output=True, text=True)
        if p.returncode != 0:
            raise MergeError(f"sbatch {' '.join(words)} failed: {(p.stderr or p.stdout).strip()}")
        return p.stdout.strip().split(";")[0]

    array_id = sbatch(shard_script)
    merge_id = sbatch(f"--dependency=afterany:{array_id}", merge_script)
    print(f"regress.py submit: array job {array_id} ({args.shards} shards), merge job {merge_id}")
    print(f"  watch: squeue -j {array_id},{merge_id}")
    print(f"  verdict: {os.path.join(out, 'merged', 'summary.json')} and {slurm_dir}/merge.out")
    return 0

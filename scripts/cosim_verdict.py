#!/usr/bin/python3
"""The last lines of the main job (scripts/cosim.sh): one verdict line, then where the reports are,
what the coverage holes are, and the command to try next, all read from what the regression wrote.

  cosim_verdict.py --out DIR [--since EPOCH] [--regress-rc N] [--label TEXT] [--holes FILE]

DIR is regress.py's --out: its summary.json (or a shard-i-of-N/summary.json below it, the newest),
ignoring one older than EPOCH (a summary a previous regression left). The coverage is the summary's
coverage file; a missed bin listed in FILE (default tb/cov/expected_holes.json) is an expected hole,
with the list's reason. Exit status: 0 when every run passed, 1 when a run failed or the regression
wrote no summary (so a shell caller can pass it on); regress.py's own status, when given and
non-zero, wins. Standard library only.
"""

import argparse
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_HOLES = os.path.join(HERE, "..", "tb", "cov", "expected_holes.json")
SHOWN = 5  # missed bins or failures named in full; the rest are counted


def find_summary(out, since=None):
    """The newest summary.json of OUT or of its shard directories, not older than since (seconds)."""
    found = [p for p in [os.path.join(out, "summary.json"), *glob.glob(os.path.join(out, "shard-*-of-*", "summary.json"))]
             if os.path.isfile(p) and (since is None or os.path.getmtime(p) >= since)]
    return max(found, key=os.path.getmtime) if found else None


def load_holes(path):
    """{(coverpoint, bin): entry} of the expected-holes list; empty when there is no list."""
    if not path or not os.path.exists(path):
        return {}
    with open(path) as f:
        doc = json.load(f)
    return {(h["coverpoint"], h["bin"]): h for h in doc.get("holes", [])}


def missed_bins(coverage):
    """[(coverpoint, bin)] of every declared bin with no hit, in coverpoint order."""
    return [(name, b) for name, cp in sorted(coverage.get("coverpoints", {}).items())
            for b, hits in cp.get("bins", {}).items() if hits == 0]


def hit_bins(coverage):
    return {(name, b) for name, cp in coverage.get("coverpoints", {}).items()
            for b, hits in cp.get("bins", {}).items() if hits > 0}


def show(path):
    """PATH relative to the current directory when it is below it, else absolute."""
    rel = os.path.relpath(path)
    return os.path.abspath(path) if rel.startswith("..") else rel


def _names(pairs):
    text = ", ".join(f"{cp}/{b}" for cp, b in pairs[:SHOWN])
    return text + (f" and {len(pairs) - SHOWN} more" if len(pairs) > SHOWN else "")


def coverage_lines(coverage, holes, holes_path, settings):
    """What the coverage holes mean: expected ones with their reason, unexpected ones with what reaches
    them, and listed holes that were hit (a stale list)."""
    missed = missed_bins(coverage)
    total, hit = coverage.get("total", 0), coverage.get("hit", 0)
    head = f"coverage: {hit} of {total} bins hit"
    if not missed:
        return [head + "; no holes"]
    expected = [m for m in missed if m in holes]
    unexpected = [m for m in missed if m not in holes]
    lines = [head + f"; {len(missed)} missed, {len(expected)} of them expected ({show(holes_path)})"]
    by_reason = {}
    for m in expected:
        h = holes[m]
        by_reason.setdefault((h.get("kind", "expected"), h.get("why", "")), []).append(m)
    for (kind, why), bins in by_reason.items():
        lines.append(f"  expected, {kind}: {_names(bins)}: {why}")
    if unexpected:
        lines.append(f"  not expected: {_names(unexpected)}: no run of this regression ({settings}) reached them; "
                     "more random runs draw more streams (bash scripts/cosim.sh --random-runs 8, the nightly "
                     "depth), and each coverpoint's rule is in docs/coverage.md")
    stale = sorted(k for k in holes if k in hit_bins(coverage))
    if stale:
        lines.append(f"  listed as expected holes but hit, so the list is out of date: {_names(stale)}")
    return lines


def verdict(out, since=None, regress_rc=None, label="co-simulation regression", holes_path=DEFAULT_HOLES):
    """(lines, exit status) of the end of the main job."""
    summary_path = find_summary(out, since)
    if summary_path is None:
        why = f"regress.py exited {regress_rc}" if regress_rc is not None else "no regression ran"
        return ([f"{label}: FAIL — the co-simulation regression wrote no summary under {out} ({why}); "
                 "its message is above",
                 "next:     bash scripts/build.sh tmu tmu_tb && bash scripts/cosim.sh"], regress_rc or 1)
    with open(summary_path) as f:
        summary = json.load(f)
    shard_dir = os.path.dirname(summary_path)
    runs = summary.get("runs", [])
    failed = [r for r in runs if r.get("status") != "pass"]
    passed = len(runs) - len(failed)
    settings = (f"global seed {summary.get('global_seed')}, {summary.get('random_runs')} random runs of "
                f"{summary.get('instrs_per_run')} instructions per architecture")
    if summary.get("shards", 1) > 1:
        settings += f", shard {summary.get('shard')} of {summary.get('shards')}"
    if not runs:
        line = f"{label}: FAIL — the regression ran no co-simulation runs ({settings})"
    elif failed:
        line = f"{label}: FAIL — {len(failed)} of {len(runs)} co-simulation runs failed, {passed} passed ({settings})"
    elif regress_rc:
        line = (f"{label}: FAIL — regress.py exited {regress_rc} although all {len(runs)} co-simulation runs "
                f"passed ({settings}); its message is above")
    else:
        line = f"{label}: PASS — {passed} of {len(runs)} co-simulation runs passed ({settings})"
    lines = [line]

    rel = show
    reports = [f"{rel(os.path.join(shard_dir, summary.get('junit') or 'junit.xml'))} (JUnit)",
               f"{rel(summary_path)} (every run's seed, verdict and replay command)"]
    cov_path = os.path.join(shard_dir, summary["coverage"]) if summary.get("coverage") else None
    if cov_path:
        reports.append(f"{rel(cov_path)} (merged functional coverage)")
    reports.append(f"{rel(os.path.join(shard_dir, 'runs'))}/ (each run's log)")
    lines.append("reports:  " + ", ".join(reports))

    for r in failed[:SHOWN]:
        lines.append(f"failed:   [{r.get('index')}] {r.get('test')} arch={r.get('arch')} seed {r.get('seed')} "
                     f"({r.get('why')}) log {rel(r['log']) if r.get('log') else '-'}")
    if len(failed) > SHOWN:
        lines.append(f"failed:   ... and {len(failed) - SHOWN} more in {rel(summary_path)}")

    coverage = None
    if cov_path:
        try:
            with open(cov_path) as f:
                coverage = json.load(f)
        except (OSError, ValueError) as e:
            lines.append(f"coverage: {rel(cov_path)} is unreadable: {e}")
    else:
        lines.append("coverage: none merged" + (f" ({'; '.join(summary.get('coverage_problems') or [])})"
                                                if summary.get("coverage_problems") else ""))
    if coverage is not None:
        lines += coverage_lines(coverage, load_holes(holes_path), holes_path, settings)

    if failed:
        lines.append(f"next:     {failed[0].get('replay')}   (replays the first failing run; "
                     "docs/cosim.md says how to read its report)")
    else:
        lines.append("next:     bash scripts/test.sh   (every unit, CLI, RTL block and co-simulation test through ctest)")
    status = 1 if failed or not runs else 0
    if regress_rc:
        status = regress_rc
    return lines, status


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="regress.py's --out directory")
    ap.add_argument("--since", type=float, help="ignore a summary.json older than this (seconds since the epoch)")
    ap.add_argument("--regress-rc", type=int, help="regress.py's exit status")
    ap.add_argument("--label", default="co-simulation regression", help="the verdict line's first words")
    ap.add_argument("--holes", default=DEFAULT_HOLES, help="the expected-holes list (default tb/cov/expected_holes.json)")
    args = ap.parse_args(argv)
    lines, status = verdict(args.out, args.since, args.regress_rc, args.label, args.holes)
    print("\n" + "\n".join(lines))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""What the Python package costs over the C++ it calls (docs/python.md, "What it costs").

  PYTHONPATH=build/python /usr/bin/python3 bench/bench_python.py [--tmu-bench build/bench/tmu_bench]
  PYTHONPATH=build/python /usr/bin/time -v /usr/bin/python3 bench/bench_python.py --memory 4096

The call overhead of one tiny operation (tmu.formats.to_float of one element, and each engine's own;
goal <= 5 us) and, for each registered engine, the throughput of its Python calls against the Google
Benchmark in tmu_bench doing the same work in C++. The cases are the engine's: refmodel/engines/
<name>/bench/python_cases.py, with throughput(tmu, rng) -> [{label, unit, goal, cpp, items, call}] and
optionally overhead(tmu, rng) -> {label: call} and memory(tmu, rng, n); an engine without that
file has no Python cases. Each Python figure is the best of --repeat timed loops; the C++ figures come
from tmu_bench's JSON output. --memory N runs each engine's memory case at size N instead.
"""

import argparse
import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]


def best_rate(fn, items, repeat, min_seconds):
    """items per second of fn(), the best of `repeat` loops of at least min_seconds each."""
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - t0 >= min_seconds / 4:
            break
        n *= 2
    best = 0.0
    for _ in range(repeat):
        k, t0 = 0, time.perf_counter()
        while True:
            for _ in range(n):
                fn()
            k += n
            elapsed = time.perf_counter() - t0
            if elapsed >= min_seconds:
                break
        best = max(best, k * items / elapsed)
    return best


def engine_cases(tmu):
    """{engine name: its python_cases module} for each registered engine that has one."""
    cases = {}
    for e in tmu.engines():
        path = ROOT / "refmodel" / "engines" / e["name"] / "bench" / "python_cases.py"
        if not path.is_file():
            continue
        spec = importlib.util.spec_from_file_location(f"python_cases_{e['name']}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        cases[e["name"]] = module
    return cases


def cpp_rates(exe, names, repeat, min_seconds):
    """{benchmark name: best rate} from tmu_bench (items_per_second, or the ops_per_s counter)."""
    pattern = "^(" + "|".join(names) + ")$"
    out = subprocess.run([exe, f"--benchmark_filter={pattern}", "--benchmark_format=json",
                          f"--benchmark_min_time={min_seconds}", f"--benchmark_repetitions={repeat}"],
                         check=True, capture_output=True, text=True).stdout
    best = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        rate = b.get("ops_per_s", b.get("items_per_second"))
        best[b["run_name"]] = max(best.get(b["run_name"], 0.0), rate)
    missing = [n for n in names if n not in best]
    if missing:
        sys.exit(f"bench_python.py: {exe} has no benchmark {', '.join(missing)}")
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tmu-bench", default=str(ROOT / "build" / "bench" / "tmu_bench"), help="the C++ benchmark executable")
    p.add_argument("--repeat", type=int, default=5, help="timed loops per figure; the best counts (default 5)")
    p.add_argument("--min-time", type=float, default=0.3, help="seconds per timed loop (default 0.3)")
    p.add_argument("--memory", type=int, metavar="N", help="only each engine's memory case at size N (a multiple of 32)")
    args = p.parse_args()
    if args.repeat < 1 or args.min_time <= 0:
        p.error("--repeat: expected >= 1 and --min-time > 0")
    if args.memory is not None and (args.memory < 32 or args.memory % 32):
        p.error(f"--memory: expected a positive multiple of 32, got {args.memory}")
    try:
        import tmu
    except ImportError as e:
        sys.exit(f"bench_python.py: cannot import tmu ({e}); set PYTHONPATH=build/python")
    engines = engine_cases(tmu)
    if args.memory is not None:
        for module in engines.values():
            if hasattr(module, "memory"):
                module.memory(tmu, np.random.default_rng(2), args.memory)
        return 0
    if not os.access(args.tmu_bench, os.X_OK):
        p.error(f"--tmu-bench: {args.tmu_bench} is not an executable (build the target tmu_bench)")

    one = np.array([0x3F80], np.uint16)
    overhead = {"to_float, 1 element": lambda: tmu.formats.to_float(one, "bf16")}
    rows = []
    for module in engines.values():
        if hasattr(module, "overhead"):
            overhead.update(module.overhead(tmu, np.random.default_rng(1)))
        rows += module.throughput(tmu, np.random.default_rng(1))
    seconds = {label: 1.0 / best_rate(call, 1, args.repeat, args.min_time) for label, call in overhead.items()}
    python = [best_rate(r["call"], r["items"], args.repeat, args.min_time) for r in rows]
    cpp = cpp_rates(args.tmu_bench, [r["cpp"] for r in rows], args.repeat, args.min_time)
    print(f"{'call overhead':<34} {'us/call':>10} {'goal':>8}")
    for label, sec in seconds.items():
        print(f"{label:<34} {sec * 1e6:>10.2f} {'<= 5':>8}")
    print()
    print(f"{'throughput':<34} {'Python':>12} {'C++':>12} {'ratio':>7} {'goal':>6}")
    for r, py in zip(rows, python):
        c = cpp[r["cpp"]]
        print(f"{r['label'] + ' (' + r['unit'] + ')':<34} {py:>12.4g} {c:>12.4g} {py / c:>6.0%} {r['goal']:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

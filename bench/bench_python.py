#!/usr/bin/env python3
"""What the Python package costs over the C++ it calls (docs/python.md, "What it costs").

  PYTHONPATH=build/python /usr/bin/python3 bench/bench_python.py [--tmu-bench build/bench/tmu_bench]
  PYTHONPATH=build/python /usr/bin/time -v /usr/bin/python3 bench/bench_python.py --memory 4096

(a) the call overhead of one tiny operation (tmu.formats.to_float of one element; one PTO TADD on an
    8-lane f32 row); goal <= 5 us;
(b) tmu.tensix.matmul on 32x32x32 BF16 at HiFi4, route="instructions" (output tiles/s), against
    bench_audit_sequence.cpp's BM_MatmulSequence (the same run_matmul_sequence call per output
    tile); goal >= 80%;
(c) PTO TADD f32 on a 64x64 tile (lanes/s) against bench_pto.cpp's BM_Pto/TADD_f32; goal >= 50%;
(d) AMX matfp f32, all lanes (operations/s) against bench_amx.cpp's BM_Matfp/f32.
Each Python figure is the best of --repeat timed loops; the C++ figures come from Google Benchmark's
JSON output of tmu_bench. --memory N runs one N x N x N BF16 matmul golden instead and prints the
peak RSS beside the bytes of its inputs and output.
"""

import argparse
import inspect
import json
import os
import pathlib
import resource
import subprocess
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
CPP = {
    "matmul": "BM_MatmulSequence/bf16_32x32x32_HiFi4",
    "tadd": "BM_Pto/TADD_f32",
    "matfp": "BM_Matfp/f32",
}


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


def cpp_rates(exe, repeat, min_seconds):
    """{name: rate} from tmu_bench for the CPP entries (items_per_second; ops_per_s for matfp)."""
    pattern = "^(" + "|".join(CPP.values()) + ")$"
    out = subprocess.run([exe, f"--benchmark_filter={pattern}", "--benchmark_format=json",
                          f"--benchmark_min_time={min_seconds}", f"--benchmark_repetitions={repeat}"],
                         check=True, capture_output=True, text=True).stdout
    best = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        rate = b.get("ops_per_s", b.get("items_per_second"))
        name = b["run_name"]
        best[name] = max(best.get(name, 0.0), rate)
    return {key: best[name] for key, name in CPP.items()}


def python_rates(tmu, repeat, min_seconds):
    rng = np.random.default_rng(1)
    one = np.array([0x3F80], np.uint16)
    row = np.full((1, 8), 1.5, np.float32)
    row_dst = np.zeros((1, 8), np.float32)
    overhead = {
        "to_float, 1 element": 1.0 / best_rate(lambda: tmu.formats.to_float(one, "bf16"), 1, repeat, min_seconds),
        "pto TADD, 1x8 f32": 1.0 / best_rate(lambda: tmu.pto.execute("TADD", row_dst, [row, row]), 1, repeat, min_seconds),
    }

    # (b) BF16 operands: uniform draws rounded into BF16 (normal or zero, as the Matrix Unit takes them).
    def bf16(shape):
        v = tmu.formats.round(rng.uniform(-1, 1, shape), "bf16")
        v[np.abs(v) < 2.0**-126] = 0
        return v
    a, b = bf16((32, 32)), bf16((32, 32))
    # The instruction route: BM_MatmulSequence times the same run_matmul_sequence call.
    route = {"route": "instructions"} if "route" in inspect.signature(tmu.tensix.matmul).parameters else {}
    rates = {"matmul": best_rate(lambda: tmu.tensix.matmul(a, b, fidelity="HiFi4", **route), 1, repeat, min_seconds)}

    # (c) 64x64 f32 tiles of normal numbers, exponents -4..3 as bench_pto.cpp draws them.
    def f32(shape):
        return (rng.choice([-1, 1], shape) * rng.uniform(1, 2, shape) * np.exp2(rng.integers(-4, 4, shape))).astype(np.float32)
    x, y, dst = f32((64, 64)), f32((64, 64)), np.zeros((64, 64), np.float32)
    rates["tadd"] = best_rate(lambda: tmu.pto.execute("TADD", dst, [x, y]), 64 * 64, repeat, min_seconds)

    # (d) matfp f32 over all 16 x 16 lanes, alternating add and subtract as bench_amx.cpp does.
    s = tmu.amx.State()
    s.x = f32((8, 16))
    s.y = f32((8, 16))
    add = tmu.amx.matfp_operand(lane_width="f32", alu="add")
    sub = tmu.amx.matfp_operand(lane_width="f32", alu="sub")
    matfp = s.matfp

    def pair():
        matfp(add)
        matfp(sub)
    rates["matfp"] = 2 * best_rate(pair, 1, repeat, min_seconds)
    return overhead, rates


def memory(tmu, n):
    rng = np.random.default_rng(2)
    a = tmu.formats.round(rng.uniform(-1, 1, (n, n)), "bf16")
    b = tmu.formats.round(rng.uniform(-1, 1, (n, n)), "bf16")
    a[np.abs(a) < 2.0**-126] = 0
    b[np.abs(b) < 2.0**-126] = 0
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    t0 = time.perf_counter()
    out = tmu.tensix.matmul(a, b, fidelity="HiFi4")
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    data = a.nbytes + b.nbytes + out.nbytes
    print(f"{n}x{n}x{n} BF16 matmul golden (HiFi4, FP32 Dst): {seconds:.1f} s")
    print(f"inputs and output (float64 arrays): {data / 2**20:.1f} MiB")
    print(f"peak RSS: {peak / 2**20:.1f} MiB ({peak / data:.2f}x the arrays; {base / 2**20:.1f} MiB before the call)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tmu-bench", default=str(ROOT / "build" / "bench" / "tmu_bench"), help="the C++ benchmark executable")
    p.add_argument("--repeat", type=int, default=5, help="timed loops per figure; the best counts (default 5)")
    p.add_argument("--min-time", type=float, default=0.3, help="seconds per timed loop (default 0.3)")
    p.add_argument("--memory", type=int, metavar="N", help="only the N x N x N matmul's peak RSS (N a multiple of 32)")
    args = p.parse_args()
    if args.repeat < 1 or args.min_time <= 0:
        p.error("--repeat: expected >= 1 and --min-time > 0")
    if args.memory is not None and (args.memory < 32 or args.memory % 32):
        p.error(f"--memory: expected a positive multiple of 32, got {args.memory}")
    try:
        import tmu
    except ImportError as e:
        sys.exit(f"bench_python.py: cannot import tmu ({e}); set PYTHONPATH=build/python")
    if args.memory is not None:
        memory(tmu, args.memory)
        return 0
    if not os.access(args.tmu_bench, os.X_OK):
        p.error(f"--tmu-bench: {args.tmu_bench} is not an executable (build the target tmu_bench)")

    overhead, py = python_rates(tmu, args.repeat, args.min_time)
    cpp = cpp_rates(args.tmu_bench, args.repeat, args.min_time)
    print(f"{'call overhead':<34} {'us/call':>10} {'goal':>8}")
    for name, sec in overhead.items():
        print(f"{name:<34} {sec * 1e6:>10.2f} {'<= 5':>8}")
    print()
    print(f"{'throughput':<34} {'Python':>12} {'C++':>12} {'ratio':>7} {'goal':>6}")
    rows = [("tensix.matmul 32x32x32 HiFi4", "matmul", "tiles/s", ">= 80%"),
            ("pto TADD f32 64x64", "tadd", "lanes/s", ">= 50%"),
            ("amx matfp f32", "matfp", "ops/s", "-")]
    for label, key, unit, goal in rows:
        print(f"{label + ' (' + unit + ')':<34} {py[key]:>12.4g} {cpp[key]:>12.4g} {py[key] / cpp[key]:>6.0%} {goal:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

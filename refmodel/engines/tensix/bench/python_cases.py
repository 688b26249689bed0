"""The Tensix cases of bench/bench_python.py: what tmu.tensix costs over the C++ it calls."""

import inspect
import resource
import time


def _bf16(tmu, rng, shape):
    """Uniform draws rounded into BF16, normal or zero as the Matrix Unit takes them."""
    v = tmu.formats.round(rng.uniform(-1, 1, shape), "bf16")
    v[abs(v) < 2.0**-126] = 0
    return v


def throughput(tmu, rng):
    # bench_audit_sequence.cpp's BM_MatmulSequence times the same run_matmul_sequence call per output tile.
    a, b = _bf16(tmu, rng, (32, 32)), _bf16(tmu, rng, (32, 32))
    route = {"route": "instructions"} if "route" in inspect.signature(tmu.tensix.matmul).parameters else {}
    return [{"label": "tensix.matmul 32x32x32 HiFi4", "unit": "tiles/s", "goal": ">= 80%",
             "cpp": "BM_MatmulSequence/bf16_32x32x32_HiFi4", "items": 1,
             "call": lambda: tmu.tensix.matmul(a, b, fidelity="HiFi4", **route)}]


def memory(tmu, rng, n):
    """One n x n x n BF16 matmul golden at HiFi4: its time and the process's peak RSS beside its arrays."""
    a, b = _bf16(tmu, rng, (n, n)), _bf16(tmu, rng, (n, n))
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    t0 = time.perf_counter()
    out = tmu.tensix.matmul(a, b, fidelity="HiFi4")
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    data = a.nbytes + b.nbytes + out.nbytes
    print(f"{n}x{n}x{n} BF16 matmul golden (HiFi4, FP32 Dst): {seconds:.1f} s")
    print(f"inputs and output (float64 arrays): {data / 2**20:.1f} MiB")
    print(f"peak RSS: {peak / 2**20:.1f} MiB ({peak / data:.2f}x the arrays; {base / 2**20:.1f} MiB before the call)")

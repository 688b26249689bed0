"""The PTO cases of bench/bench_python.py: what tmu.pto costs over the C++ it calls."""

import numpy as np


def _f32(rng, shape):
    """Normal numbers with exponents -4..3, as bench_pto.cpp draws them."""
    return (rng.choice([-1, 1], shape) * rng.uniform(1, 2, shape) * np.exp2(rng.integers(-4, 4, shape))).astype(np.float32)


def overhead(tmu, rng):
    row, dst = np.full((1, 8), 1.5, np.float32), np.zeros((1, 8), np.float32)
    return {"pto TADD, 1x8 f32": lambda: tmu.pto.execute("TADD", dst, [row, row])}


def throughput(tmu, rng):
    x, y, dst = _f32(rng, (64, 64)), _f32(rng, (64, 64)), np.zeros((64, 64), np.float32)
    return [{"label": "pto TADD f32 64x64", "unit": "lanes/s", "goal": ">= 50%", "cpp": "BM_Pto/TADD_f32",
             "items": 64 * 64, "call": lambda: tmu.pto.execute("TADD", dst, [x, y])}]

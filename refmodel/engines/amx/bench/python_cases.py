"""The AMX cases of bench/bench_python.py: what tmu.amx costs over the C++ it calls."""

import numpy as np


def throughput(tmu, rng):
    # matfp f32 over all 16 x 16 lanes, alternating add and subtract as bench_amx.cpp does.
    def f32(shape):
        return (rng.choice([-1, 1], shape) * rng.uniform(1, 2, shape) * np.exp2(rng.integers(-4, 4, shape))).astype(np.float32)
    s = tmu.amx.State()
    s.x, s.y = f32((8, 16)), f32((8, 16))
    add = tmu.amx.matfp_operand(lane_width="f32", alu="add")
    sub = tmu.amx.matfp_operand(lane_width="f32", alu="sub")
    matfp = s.matfp

    def pair():
        matfp(add)
        matfp(sub)
    return [{"label": "amx matfp f32", "unit": "ops/s", "goal": "-", "cpp": "BM_Matfp/f32", "items": 2, "call": pair}]

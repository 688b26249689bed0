"""tmu.tensix's threads: the goldens give the same bits for any thread count, on shapes whose tile
counts do not divide evenly among the threads, and refuse a count that is not one. The seeds are
fixed (named in each test), so a failure replays as it is."""

import numpy as np
import pytest

from tmu import tensix
from tensix_program import random_numbers

COUNTS = (1, 2, 3)


def _same_for_every_count(run):
    results = [run(t) for t in COUNTS]
    for t, r in zip(COUNTS[1:], results[1:]):
        if isinstance(r, dict):
            assert r.keys() == results[0].keys(), t
            for k in r:
                assert np.array_equal(np.asarray(r[k]), np.asarray(results[0][k])), (t, k)
        else:
            assert r.tobytes() == results[0].tobytes(), t


@pytest.mark.parametrize("fidelity,fmt,dst", [("HiFi4", "BF16", "FP32"), ("LoFi", "FP16", "FP16"), ("HiFi3", "TF32", "BF16")])
def test_matmul_bits_do_not_depend_on_threads(fidelity, fmt, dst):
    rng = np.random.default_rng(39)  # seed 39
    a = random_numbers(rng, (96, 64), fmt)   # 3 x 5 = 15 output tiles: 2 threads share them unevenly
    b = random_numbers(rng, (64, 160), fmt)
    _same_for_every_count(lambda t: tensix.matmul(a, b, fidelity=fidelity, src_format=fmt, dst=dst, bits=True,
                                                  snapshots=True, threads=t))


@pytest.mark.parametrize("op,bshape", [("ELWMUL", (160, 96)), ("ELWADD", (1, 96)), ("ELWSUB", (160, 1))])
def test_eltwise_bits_do_not_depend_on_threads(op, bshape):
    rng = np.random.default_rng(40)  # seed 40
    a = random_numbers(rng, (160, 96), "BF16")
    b = random_numbers(rng, bshape, "BF16")
    _same_for_every_count(lambda t: tensix.eltwise_binary(op, a, b, fidelity="HiFi2", bits=True, snapshots=True, threads=t))


@pytest.mark.parametrize("pool,dim", [("sum", "col"), ("avg", "row"), ("max", "col"), ("sum", "scalar")])
def test_reduce_bits_do_not_depend_on_threads(pool, dim):
    rng = np.random.default_rng(41)  # seed 41
    a = random_numbers(rng, (224, 160), "BF16")
    scaler = 0.5 if pool == "avg" else None
    argmax = pool == "max"
    _same_for_every_count(lambda t: tensix.reduce(a, pool, dim, scaler=scaler, bits=True, snapshots=True, argmax=argmax,
                                                  threads=t))


def test_threads_default_and_environment(monkeypatch):
    rng = np.random.default_rng(42)  # seed 42
    a = random_numbers(rng, (64, 96), "BF16")
    b = random_numbers(rng, (96, 96), "BF16")
    one = tensix.matmul(a, b, threads=1)
    assert np.array_equal(tensix.matmul(a, b), one)
    monkeypatch.setenv("TMU_THREADS", "3")
    assert np.array_equal(tensix.matmul(a, b), one)
    monkeypatch.setenv("TMU_THREADS", "0")
    with pytest.raises(ValueError, match="TMU_THREADS"):
        tensix.matmul(a, b)
    assert np.array_equal(tensix.matmul(a, b, threads=2), one)  # an explicit count does not read it
    monkeypatch.setenv("TMU_THREADS", "two")
    with pytest.raises(ValueError, match="TMU_THREADS"):
        tensix.reduce(a)


@pytest.mark.parametrize("fn", ["matmul", "eltwise_binary", "reduce"])
def test_threads_refusals(fn):
    x = np.ones((32, 32))
    call = {
        "matmul": lambda t: tensix.matmul(x, x, threads=t),
        "eltwise_binary": lambda t: tensix.eltwise_binary("ELWADD", x, x, threads=t),
        "reduce": lambda t: tensix.reduce(x, threads=t),
    }[fn]
    for bad in (0, -1):
        with pytest.raises(ValueError, match=f"tmu.tensix.{fn}: threads: {bad} is not a thread count"):
            call(bad)
    for bad in (2.0, "2", True):
        with pytest.raises(TypeError, match=f"tmu.tensix.{fn}: threads"):
            call(bad)
    assert call(np.int64(2)).shape == call(None).shape

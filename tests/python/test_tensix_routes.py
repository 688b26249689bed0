"""tmu.tensix.matmul's two routes: route="tiles" (the sequence's MVMULs run straight on the block
kernel, the default) and route="instructions" (the LLK's instructions issued on the model, the
reference) give the same bits for every Src format, fidelity, Dst width and variant; the tile route
refuses what it does not compute. The seeds are fixed (named in each test)."""

import itertools

import numpy as np
import pytest

from tmu import tensix
from tensix_program import random_numbers

CASES = list(itertools.product(("BF16", "FP16", "TF32"), ("LoFi", "HiFi2", "HiFi3", "HiFi4"), (True, False),
                               ("blackhole", "wormhole")))


@pytest.mark.parametrize("fmt,fidelity,dst32,variant", CASES)
def test_tiles_and_instructions_give_the_same_bits(fmt, fidelity, dst32, variant):
    rng = np.random.default_rng(41)  # seed 41
    a = random_numbers(rng, (64, 96), fmt)  # 2 x 2 output tiles, 3 K tiles
    b = random_numbers(rng, (96, 64), fmt)
    dst = "FP32" if dst32 else ("FP16" if fmt == "FP16" else "BF16")
    run = lambda route: tensix.matmul(a, b, fidelity=fidelity, src_format=fmt, dst=dst, variant=variant, bits=True,
                                      route=route, threads=2)
    tiles, insns = run("tiles"), run("instructions")
    assert np.array_equal(tiles["bits"], insns["bits"])
    assert tiles["values"].tobytes() == insns["values"].tobytes()
    assert tiles["values"].tobytes() == run("auto")["values"].tobytes()


def test_cancelling_sums_agree():
    # Row k + 16 of b is minus row k, and a repeats its columns: every dot product cancels to the
    # few bits the alignment keeps, where a wrong order or a wrong pass would show.
    rng = np.random.default_rng(42)  # seed 42
    a = random_numbers(rng, (32, 32), "BF16")
    a[:, 16:] = a[:, :16]
    b = random_numbers(rng, (32, 32), "BF16")
    b[16:, :] = -b[:16, :]
    b[16:, :] *= 1.0078125
    for fidelity in ("LoFi", "HiFi4"):
        t = tensix.matmul(a, b, fidelity=fidelity, conversion="rne", bits=True, route="tiles")
        i = tensix.matmul(a, b, fidelity=fidelity, conversion="rne", bits=True, route="instructions")
        assert np.array_equal(t["bits"], i["bits"]), fidelity


def test_tile_route_refuses_what_only_the_instructions_compute():
    a = np.ones((32, 32))
    with pytest.raises(ValueError, match="route"):
        tensix.matmul(a, a, snapshots=True, route="tiles")
    with pytest.raises(ValueError, match="route"):
        tensix.matmul(a, a, perturb="negate1", route="tiles")
    with pytest.raises(ValueError, match="route"):
        tensix.matmul(a, a, route="fast")
    # auto takes the instructions for these, which honour the perturbation.
    assert tensix.matmul(a, a, perturb="negate1").tobytes() == tensix.matmul(a, a, perturb="negate1",
                                                                          route="instructions").tobytes()

"""A tt-llk-style matmul test whose golden is bit-exact, at tolerance 0.

tt-llk's Python tests (tests/python_tests/test_matmul.py in tenstorrent/tt-llk) make their stimuli
with torch, compute the golden with torch on the host and accept the device's result within a
tolerance chosen per format, because the host's float32 arithmetic is not the Matrix Unit's:

    golden = torch.matmul(src_A.float(), src_B.float())
    assert torch.allclose(res_from_L1, golden, rtol=..., atol=...)

With tmu the golden is what the Matrix Unit computes (the same LLK sequence on the bit-exact model),
so the comparison is torch.equal: any difference is a bug, and no tolerance hides one. The stimuli
stay torch tensors; tmu takes them as they are.

`device_matmul` stands in for the device: replace it with the call that runs your kernel on silicon
or a simulator and reads the result back from L1. Here it is the model itself, with an optional
kernel bug (one of the precision audit's perturbations: a fidelity phase skipped, repeated or
negated, the operands swapped), so that the tests show both sides: a correct device passes at
tolerance 0, and every broken one fails, including those tt-llk's tolerance lets through.

Run: python3 -m pytest -q test_llk_matmul_golden.py   (with the tmu package importable)
"""

from __future__ import annotations

import pathlib
import sys
from typing import Optional

import pytest
import torch

import tmu

SEED = 20261202
TORCH_FORMAT = {"BF16": torch.bfloat16, "FP16": torch.float16}


def generate_stimuli(fmt: str, shape: tuple[int, int], generator: torch.Generator) -> torch.Tensor:
    """Random operands of the source format, as tt-llk's generate_stimuli makes them (normal numbers
    in [-2, 2), no subnormals: the Matrix Unit flushes them)."""
    x = (torch.rand(shape, generator=generator) * 4 - 2).to(TORCH_FORMAT[fmt])
    tiny = torch.finfo(TORCH_FORMAT[fmt]).tiny
    return torch.where(x.abs() < tiny, torch.zeros_like(x), x)


def device_matmul(src_a: torch.Tensor, src_b: torch.Tensor, fmt: str, fidelity: str,
                  bug: Optional[str] = None) -> torch.Tensor:
    """The device under test (see the module's docstring)."""
    return torch.from_numpy(tmu.tensix.matmul(src_a, src_b, src_format=fmt, fidelity=fidelity, perturb=bug))


def golden_matmul(src_a: torch.Tensor, src_b: torch.Tensor, fmt: str, fidelity: str) -> torch.Tensor:
    """The golden: the Matrix Unit's own result, from the torch stimuli as they are."""
    return torch.from_numpy(tmu.tensix.matmul(src_a, src_b, src_format=fmt, fidelity=fidelity))


@pytest.mark.parametrize("fidelity", ["LoFi", "HiFi2", "HiFi4"])
@pytest.mark.parametrize("fmt", ["BF16", "FP16"])
def test_matmul(fmt: str, fidelity: str) -> None:
    print(f"seed {SEED}")
    g = torch.Generator().manual_seed(SEED)
    src_a = generate_stimuli(fmt, (64, 64), g)
    src_b = generate_stimuli(fmt, (64, 32), g)

    res_from_l1 = device_matmul(src_a, src_b, fmt, fidelity)

    golden = golden_matmul(src_a, src_b, fmt, fidelity)
    assert torch.equal(res_from_l1, golden)  # tolerance 0


@pytest.mark.parametrize("bug", ["skip1", "repeat2", "negate3", "swap"])
def test_a_broken_device_fails_at_tolerance_0(bug: str) -> None:
    g = torch.Generator().manual_seed(SEED)
    src_a = generate_stimuli("BF16", (32, 64), g)
    src_b = generate_stimuli("BF16", (64, 32), g)
    res_from_l1 = device_matmul(src_a, src_b, "BF16", "HiFi4", bug)
    assert not torch.equal(res_from_l1, golden_matmul(src_a, src_b, "BF16", "HiFi4"))


@pytest.mark.parametrize("bug", [None, "skip1"])
def test_matmul_bfp8_b_from_l1_to_l1(bug: Optional[str]) -> None:
    """tt-llk's BFP8_b matmul: the operands sit in L1 as BFP8_b (16 datums share an 8-bit exponent),
    the unpackers read them into Src, and the packer writes Dst back to L1 as BFP8_b. The golden gives
    the packed L1 bytes, so the device's bytes are compared at tolerance 0; a device that skips a
    fidelity phase differs in them although BFP8_b keeps only 7 bits of each result."""
    g = torch.Generator().manual_seed(SEED)
    src_a = generate_stimuli("BF16", (32, 64), g).float()
    src_b = generate_stimuli("BF16", (64, 32), g).float()
    device = tmu.tensix.matmul(src_a, src_b, fidelity="HiFi4", in_format="BFP8", out_format="BFP8", perturb=bug,
                               bits=True)
    golden = tmu.tensix.matmul(src_a, src_b, fidelity="HiFi4", in_format="BFP8", out_format="BFP8", bits=True)
    assert isinstance(device, dict) and isinstance(golden, dict)  # bits=True: the dict with the L1 bytes
    assert golden["l1"].size == 32 * 32 + 32 * 32 // 16  # a byte per datum, an exponent byte per block
    assert (device["l1"] == golden["l1"]).all() == (bug is None)


def test_tt_llks_tolerance_lets_a_broken_device_through() -> None:
    """tt-llk's check (torch.isclose with atol = rtol = 0.05, tests/python_tests/helpers/utils.py)
    against the float32 golden passes a device that skips the last fidelity phase."""
    g = torch.Generator().manual_seed(SEED)
    src_a = generate_stimuli("BF16", (32, 64), g)
    src_b = generate_stimuli("BF16", (64, 32), g)
    broken = device_matmul(src_a, src_b, "BF16", "HiFi4", "skip3")
    approximate = torch.matmul(src_a.float(), src_b.float()).double()
    assert torch.isclose(broken, approximate, atol=0.05, rtol=0.05).all()
    assert not torch.equal(broken, golden_matmul(src_a, src_b, "BF16", "HiFi4"))


def test_the_host_float32_golden_is_not_the_matrix_units() -> None:
    """Why the tolerance existed: LoFi keeps only the top 5x7 bits of each product, which torch's
    float32 golden does not, so the two differ on ordinary inputs."""
    g = torch.Generator().manual_seed(SEED)
    src_a = generate_stimuli("BF16", (32, 32), g)
    src_b = generate_stimuli("BF16", (32, 32), g)
    approximate = torch.matmul(src_a.float(), src_b.float()).double()
    exact = torch.from_numpy(tmu.tensix.matmul(src_a, src_b, fidelity="LoFi"))
    assert not torch.equal(approximate, exact)


if __name__ == "__main__":
    sys.exit(pytest.main(["-q", str(pathlib.Path(__file__))]))

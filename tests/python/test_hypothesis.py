"""Properties of the bindings checked by hypothesis against independent paths: numpy's own IEEE
conversions and arithmetic, and the same call on a plain C-contiguous array. ctest runs this file
with a fixed seed, printed first; TMU_HYPOTHESIS_SEED=N runs (and replays) another."""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tmu

settings.register_profile("tmu", max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tmu")
SEED = int(os.environ.get("TMU_HYPOTHESIS_SEED", "20261202"))
print(f"hypothesis seed: {SEED} (TMU_HYPOTHESIS_SEED={SEED} replays this run)")

shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=9)
finite64 = st.floats(allow_nan=False, allow_infinity=False, width=64)


@st.composite
def layouts(draw, a):
    """`a` presented some other way: byte order, memory order, a strided or reversed view."""
    kind = draw(st.sampled_from(["plain", "swapped", "fortran", "strided", "reversed"]))
    if kind == "swapped":
        return a.astype(a.dtype.newbyteorder())
    if kind == "fortran":
        return np.asfortranarray(a)
    if kind == "strided":
        big = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
        big[..., ::2] = a
        return big[..., ::2]
    if kind == "reversed":
        return np.flip(np.ascontiguousarray(np.flip(a)))
    return a


@seed(SEED)
@given(st.data(), hnp.arrays(np.uint16, shapes))
def test_bf16_values_are_the_top_half_of_binary32(data, bits):
    """BF16 is binary32's top 16 bits: numpy's float32 of bits << 16, an independent path."""
    values = tmu.formats.to_float(data.draw(layouts(bits)), "bf16")
    with np.errstate(invalid="ignore"):  # signalling NaN patterns quieten on the cast
        expected = (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    nan = np.isnan(expected)
    assert np.array_equal(np.isnan(values), nan)
    assert np.array_equal(values[~nan], expected[~nan])


@seed(SEED)
@given(st.data(), hnp.arrays(np.float64, shapes, elements=finite64))
def test_rne_to_fp16_and_fp32_is_numpys_cast(data, values):
    """numpy's float64 -> float16/float32 casts round to nearest, ties to even, in one step."""
    shown = data.draw(layouts(values))
    with np.errstate(over="ignore"):
        half = values.astype(np.float16).view(np.uint16)
        single = values.astype(np.float32).view(np.uint32)
    assert np.array_equal(tmu.formats.from_float(shown, "fp16", "rne"), half)
    assert np.array_equal(tmu.formats.from_float(shown, "fp32", "rne"), single)


@seed(SEED)
@given(st.sampled_from(["bf16", "fp16", "fp32", "tf32", "fp8_e5m2"]), st.data())
def test_patterns_round_trip_through_values(fmt, data):
    info = tmu.formats.info(fmt)
    dtype = np.dtype(info["bits_dtype"])
    bits = data.draw(hnp.arrays(dtype, shapes))
    if fmt == "tf32":
        bits &= np.uint32(0xFFFFE000)
    values = tmu.formats.to_float(bits, fmt)
    keep = ~np.isnan(values)
    assert np.array_equal(tmu.formats.from_float(values[keep], fmt), bits[keep])


f32 = st.floats(width=32, allow_nan=False, allow_infinity=False)


@seed(SEED)
@given(st.data(), st.integers(1, 3), st.integers(1, 4), st.sampled_from(["TADD", "TSUB", "TMUL"]))
def test_pto_cpusim_f32_is_ieee_binary32(data, rows, blocks, op):
    """cpusim computes float32 lanes as the host does: numpy's float32 arithmetic, any layout of input."""
    shape = (rows, 8 * blocks)
    a = data.draw(hnp.arrays(np.float32, shape, elements=f32))
    b = data.draw(hnp.arrays(np.float32, shape, elements=f32))
    with np.errstate(all="ignore"):
        expected = {"TADD": a + b, "TSUB": a - b, "TMUL": a * b}[op]
    out = tmu.pto.execute(op, np.zeros(shape, np.float32), [data.draw(layouts(a)), data.draw(layouts(b))])
    assert np.array_equal(out.view(np.uint32), expected.view(np.uint32))


@seed(SEED)
@given(st.data())
@settings(max_examples=40)
def test_matmul_input_kinds_agree(data):
    """A BF16 matmul is the same golden from float64 values, their BF16 patterns, and torch."""
    torch = pytest.importorskip("torch")
    bits_a = data.draw(hnp.arrays(np.uint16, (32, 32), elements=st.integers(0x3F00, 0x40FF)))
    bits_b = data.draw(hnp.arrays(np.uint16, (32, 32), elements=st.integers(0xBF00, 0xC0FF)))
    fidelity = data.draw(st.sampled_from(tmu.tensix.fidelities()))
    plain = tmu.tensix.matmul(tmu.formats.to_float(bits_a, "bf16"), tmu.formats.to_float(bits_b, "bf16"), fidelity=fidelity)
    from_bits = tmu.tensix.matmul(data.draw(layouts(bits_a)), bits_b, input="bits", fidelity=fidelity)
    ta = torch.from_numpy(bits_a.view(np.int16)).view(torch.bfloat16)
    tb = torch.from_numpy(bits_b.view(np.int16)).view(torch.bfloat16)
    from_torch = tmu.tensix.matmul(ta, tb, fidelity=fidelity)
    assert plain.tobytes() == from_bits.tobytes() == from_torch.tobytes()

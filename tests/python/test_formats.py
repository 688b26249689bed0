"""tmu.formats: values worked out by hand from the formats' definitions (sign, biased exponent,
fraction), ties, subnormals, infinities and NaNs, and every refusal."""

import numpy as np
import pytest

import tmu
from tmu import formats

U16 = np.uint16


def bits(values, dtype):
    return np.array(values, dtype=dtype)


@pytest.mark.parametrize("pattern, value", [
    (0x3FC0, 1.5),             # sign 0, exponent 127, fraction 1000000b: 1.1b
    (0x3F80, 1.0),
    (0x8000, -0.0),
    (0xC000, -2.0),
    (0x0080, 2.0**-126),       # smallest normal
    (0x0001, 2.0**-133),       # smallest subnormal: 2^-126 * 2^-7
    (0x7F7F, (2 - 2**-7) * 2.0**127),  # largest finite
    (0x7F80, np.inf),
    (0xFF80, -np.inf),
])
def test_bf16_patterns_by_hand(pattern, value):
    got = formats.to_float(bits([pattern], U16), "bf16")
    assert got.dtype == np.float64
    assert got[0] == value and np.signbit(got[0]) == np.signbit(value)
    assert formats.from_float(np.array([value]), "bf16")[0] == pattern


def test_bf16_nan_reads_as_nan_of_its_sign_and_converts_to_a_quiet_nan():
    got = formats.to_float(bits([0x7FC0, 0xFFC1, 0x7F81], U16), "bf16")
    assert np.isnan(got).all() and list(np.signbit(got)) == [False, True, False]
    assert formats.from_float(np.array([np.nan]), "bf16")[0] == 0x7FC0


@pytest.mark.parametrize("value, rne, truncate", [
    (1 + 2**-8, 0x3F80, 0x3F80),              # halfway between 0x3f80 and 0x3f81: ties to even 0x3f80
    (1 + 3 * 2**-8, 0x3F82, 0x3F81),          # halfway between 0x3f81 and 0x3f82: ties to even 0x3f82
    (1 + 2**-8 + 2**-20, 0x3F81, 0x3F80),     # just above the tie: up
    (-(1 + 3 * 2**-8), 0xBF82, 0xBF81),       # the same with the sign
    (0.1, 0x3DCD, 0x3DCC),                    # 0.1 = 1.10011001100...b * 2^-4
    (2.0**-134, 0x0000, 0x0000),              # half the smallest subnormal: tie to even zero
    (3 * 2.0**-134, 0x0002, 0x0001),          # 1.5 subnormal ulps: tie to even 2
    (2.0**128, 0x7F80, 0x7F7F),               # overflow: infinity, or the largest finite toward zero
])
def test_bf16_rounding_by_hand(value, rne, truncate):
    v = np.array([value])
    assert formats.from_float(v, "bf16", rounding="rne")[0] == rne
    assert formats.from_float(v, "bf16", rounding="truncate")[0] == truncate


@pytest.mark.parametrize("fmt, dtype, pattern, value", [
    ("fp16", np.uint16, 0x3C00, 1.0),
    ("fp16", np.uint16, 0x0001, 2.0**-24),
    ("fp16", np.uint16, 0x0400, 2.0**-14),
    ("fp16", np.uint16, 0x7BFF, 65504.0),
    ("fp16", np.uint16, 0x7C00, np.inf),
    ("fp32", np.uint32, 0x3F800001, 1 + 2.0**-23),
    ("fp32", np.uint32, 0x00000001, 2.0**-149),
    ("tf32", np.uint32, 0x3F802000, 1 + 2.0**-10),  # fraction bit 0 of TF32 is binary32's bit 13
    ("tf32", np.uint32, 0x00002000, 2.0**-136),     # smallest subnormal: 2^-126 * 2^-10
    ("fp8_e5m2", np.uint8, 0x3C, 1.0),              # exponent 15 (bias 15) << 2
    ("fp8_e5m2", np.uint8, 0x01, 2.0**-16),         # 2^-14 * 2^-2
    ("fp8_e5m2", np.uint8, 0x7B, 57344.0),          # 1.75 * 2^15
    ("fp8_e5m2", np.uint8, 0xFC, -np.inf),
])
def test_other_float_formats_by_hand(fmt, dtype, pattern, value):
    assert formats.to_float(bits([pattern], dtype), fmt)[0] == value
    out = formats.from_float(np.array([value]), fmt)
    assert out.dtype == dtype and out[0] == pattern


def test_fp16_overflow_tie_goes_to_infinity_under_rne_and_largest_finite_under_truncate():
    # 65520 is halfway between 65504 (0x7bff, odd) and 65536 (2^16, beyond the format): even is 2^16 -> inf
    assert formats.from_float(np.array([65520.0]), "fp16", rounding="rne")[0] == 0x7C00
    assert formats.from_float(np.array([65520.0]), "fp16", rounding="truncate")[0] == 0x7BFF


def test_fp32_agrees_with_numpy_float32_on_every_kind_of_value():
    rng = np.random.default_rng(1)
    raw = rng.integers(0, 2**32, size=4096, dtype=np.uint64).astype(np.uint32)
    values = formats.to_float(raw, "fp32")
    with np.errstate(invalid="ignore"):
        expect = raw.view(np.float32).astype(np.float64)
    same = (values == expect) | (np.isnan(values) & np.isnan(expect))
    assert same.all()


@pytest.mark.parametrize("fmt, dtype, values, expect", [
    ("int8", np.int8, [127, -128, 0, -1], [127, -128, 0, -1]),
    ("int16", np.int16, [32767, -32768], [32767, -32768]),
    ("int32", np.int32, [2**31 - 1, -2**31], [2**31 - 1, -2**31]),
])
def test_integers(fmt, dtype, values, expect):
    out = formats.from_float(np.array(values, dtype=np.float64), fmt)
    assert out.dtype == dtype and list(out) == expect
    assert list(formats.to_float(out, fmt)) == [float(v) for v in expect]


def test_integer_rounding_ties_to_even_and_truncation():
    v = np.array([2.5, 3.5, -2.5, 2.75, -0.5])
    assert list(formats.from_float(v, "int8", rounding="rne")) == [2, 4, -2, 3, 0]
    assert list(formats.from_float(v, "int8", rounding="truncate")) == [2, 3, -2, 2, 0]


def test_results_keep_the_input_shape_and_take_non_contiguous_input():
    v = np.arange(24, dtype=np.float64).reshape(4, 6)[:, ::2]
    out = formats.from_float(v, "bf16")
    assert out.shape == (4, 3)
    assert np.array_equal(formats.to_float(out, "bf16"), v)
    assert formats.from_float(np.zeros((0, 3)), "fp16").shape == (0, 3)


def test_round_reads_the_rounded_value_back():
    assert formats.round(np.array([0.1]), "bf16")[0] == 0.10009765625  # 0x3dcd = 1.6015625 * 2^-4


def test_info_and_names():
    assert formats.names() == ["fp32", "bf16", "fp16", "tf32", "fp8_e5m2", "int8", "int16", "int32"]
    i = formats.info("fp16")
    assert (i["exponent_bits"], i["fraction_bits"], i["bias"], i["bits_dtype"]) == (5, 10, 15, "uint16")


# ---- refusals: each names the function, the argument and what was expected ----

def test_inexact_value_is_refused_naming_the_first_offending_index():
    v = np.array([[1.0, 1.5], [0.1, 0.2]])
    with pytest.raises(ValueError, match=r"tmu.formats.from_float: values: element \(1, 0\) = 0.1 is not exactly "
                                         r"a bf16 number"):
        formats.from_float(v, "bf16")


def test_integer_out_of_range_and_fraction_refused():
    with pytest.raises(ValueError, match=r"values: element \(1,\) = 128.0 is outside the range of int8"):
        formats.from_float(np.array([1.0, 128.0]), "int8")
    with pytest.raises(ValueError, match=r"values: element \(0,\) = 2.5 is not an integer"):
        formats.from_float(np.array([2.5]), "int8")
    with pytest.raises(ValueError, match=r"outside the range of int16"):
        formats.from_float(np.array([np.inf]), "int16", rounding="rne")


def test_wrong_bits_dtype_is_a_type_error_naming_bits():
    with pytest.raises(TypeError, match=r"tmu.formats.to_float: bits: expected dtype uint16, got float32"):
        formats.to_float(np.array([1.0], dtype=np.float32), "bf16")
    with pytest.raises(TypeError, match=r"tmu.formats.to_float: bits: expected a numpy array of dtype uint16, got list"):
        formats.to_float([0x3F80], "bf16")


def test_tf32_pattern_with_low_bits_set_is_refused():
    with pytest.raises(ValueError, match=r"bits: element \(0,\) = 0x3f800001 is not a tf32 pattern"):
        formats.to_float(bits([0x3F800001], np.uint32), "tf32")


def test_unknown_format_rounding_and_value_types_are_named():
    with pytest.raises(ValueError, match=r"tmu.formats.from_float: fmt: unknown format 'bf8' \(expected 'fp32', "):
        formats.from_float(np.array([1.0]), "bf8")
    with pytest.raises(TypeError, match=r"tmu.formats.to_float: fmt: expected a str, got int"):
        formats.to_float(bits([1], U16), 16)
    with pytest.raises(ValueError, match=r"tmu.formats.from_float: rounding: expected 'rne' .* got 'up'"):
        formats.from_float(np.array([1.0]), "bf16", rounding="up")
    with pytest.raises(TypeError, match=r"tmu.formats.from_float: values: expected real numbers .* complex128"):
        formats.from_float(np.array([1j]), "bf16")
    with pytest.raises(TypeError, match=r"tmu.formats.from_float: values: expected a numpy array of real numbers, got str"):
        formats.from_float("1.5", "bf16")
    with pytest.raises(ValueError, match=r"values: element \(0,\) is beyond 2\^53"):
        formats.from_float(np.array([2**53 + 1], dtype=np.int64), "fp32")

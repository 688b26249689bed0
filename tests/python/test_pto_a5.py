"""tmu.pto with variant='a5': lanes worked by hand, the types only A5 accepts, and the refusals
that name the assumption a5-ieee or the A5 headers."""

import numpy as np
import pytest

import tmu
from tmu import pto


def test_a5_tand_reads_float_lanes_as_bits():
    # TAnd.hpp reinterprets lanes as unsigned: 1.5 (0x3FC00000) & -1.0 (0xBF800000) = 1.0.
    a = pto.Tile(np.full((1, 8), 0x3FC00000, np.uint32), type="f32")
    b = pto.Tile(np.full((1, 8), 0xBF800000, np.uint32), type="f32")
    out = pto.execute("TAND", pto.Tile(np.zeros((1, 8), np.uint32), type="f32"), [a, b], variant="a5")
    assert (out == 0x3F800000).all()
    with pytest.raises(tmu.Unsupported, match=r"TAND \(cpusim\): element type f32 is not accepted"):
        pto.execute("TAND", pto.Tile(np.zeros((1, 8), np.uint32), type="f32"), [a, b])


def test_a5_float_add_rounds_once_to_nearest_even():
    # 1 + 2^-24 is a tie between 1 and 1 + 2^-23: the even one, 1.
    a = np.ones((1, 8), np.float32)
    b = np.full((1, 8), 2.0 ** -24, np.float32)
    assert (pto.execute("TADD", np.zeros((1, 8), np.float32), [a, b], variant="a5") == 1).all()
    assert "a5-ieee" in pto.A5_FLOAT_ASSUMPTION


def test_a5_int8_add_wraps_where_a2a3_has_no_implementation():
    a = np.full((1, 32), 127, np.int8)
    b = np.ones((1, 32), np.int8)
    assert (pto.execute("TADD", np.zeros((1, 32), np.int8), [a, b], variant="a5") == -128).all()
    with pytest.raises(tmu.Unsupported, match=r"TADD \(a2a3\): element type i8 is not accepted"):
        pto.execute("TADD", np.zeros((1, 32), np.int8), [a, b], variant="a2a3")


def test_a5_ieee_false_refuses_float_lanes_but_not_raw_bits():
    a = np.ones((1, 8), np.float32)
    with pytest.raises(tmu.Unsupported, match=r"TMUL \(a5\): f32 lanes on a5 are computed only under the assumption a5-ieee, which is switched off"):
        pto.execute("TMUL", np.zeros((1, 8), np.float32), [a, a], variant="a5", a5_ieee=False)
    out = pto.execute("TOR", np.zeros((1, 8), np.float32), [a, a], variant="a5", a5_ieee=False)
    assert (out == 1).all()


def test_a5_refusals_name_the_reason():
    sub = np.zeros((1, 8), np.float32)
    sub[0, 3] = np.float32(1e-45)  # the smallest subnormal
    with pytest.raises(tmu.Unsupported, match=r"lane \(0, 3\).*subnormal operand.*a5-ieee"):
        pto.execute("TADD", np.zeros((1, 8), np.float32), [sub, sub], variant="a5")
    with pytest.raises(tmu.Unsupported, match=r"TEXP \(a5\).*vexp and vln"):
        pto.execute("TEXP", np.zeros((1, 8), np.float32), [np.ones((1, 8), np.float32)], variant="a5")
    with pytest.raises(ValueError, match=r"unknown profile 'a6' \(expected 'cpusim', 'a2a3' or 'a5'\)"):
        pto.execute("TADD", np.zeros((1, 8), np.float32), [sub, sub], variant="a6")


def test_a5_tcvt_rounds_once_and_saturates_per_pair():
    # TCvt.hpp: f32 -> i32 is one vcvt, ON by default (3e9 clamps); OFF keeps the low 32 bits,
    # 3000000000 - 2^32. i32 -> i16 runs OFF by default: 70000 -> 70000 - 65536 = 4464.
    x = np.array([[1.5, 2.5, -2.5, 3e9, 0.5, -1.5, 40000, -40000]], np.float32)
    y = pto.execute("TCVT", np.zeros((1, 8), np.int32), [x], variant="a5", round="RINT")
    assert y.tolist() == [[2, 2, -2, 2**31 - 1, 0, -2, 40000, -40000]]
    y = pto.execute("TCVT", np.zeros((1, 8), np.int32), [x], variant="a5", round="FLOOR", saturation="off")
    assert y.tolist() == [[1, 2, -3, 3000000000 - 2**32, 0, -2, 40000, -40000]]
    i = np.full((1, 16), 70000, np.int32)
    assert (pto.execute("TCVT", np.zeros((1, 16), np.int16), [i], variant="a5") == 4464).all()
    with pytest.raises(tmu.Unsupported, match=r"i32 to f16: A5's TCvt.hpp has no castData overload"):
        pto.execute("TCVT", np.zeros((1, 16), np.float16), [i], variant="a5")
    with pytest.raises(tmu.Unsupported, match=r"TCVT \(a5\): f32 to i32 lanes .* a5-ieee, which is switched off"):
        pto.execute("TCVT", np.zeros((1, 8), np.int32), [x], variant="a5", a5_ieee=False)

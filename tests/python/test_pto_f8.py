"""tmu.pto with the 8-bit float types: uint8 bit patterns in and out, lanes worked by hand from
the OCP encodings (e4m3 bias 7, e5m2 bias 15), and the refusals."""

import numpy as np
import pytest

import tmu
from tmu import pto


def f8_tile(patterns, kind, valid):
    row = np.zeros((1, 32), np.uint8)
    row[0, : len(patterns)] = patterns
    return pto.Tile(row, type=kind, valid=valid)


def test_f8_types_are_listed():
    assert "f8e4m3" in pto.types() and "f8e5m2" in pto.types()


def test_tcvt_to_e4m3_a5_rounds_to_nearest_even_cpusim_truncates():
    # 1.1875 = 1.0011b: halfway between 1.125 (0x39) and 1.25 (0x3a); 248: between 240 (0x77) and 256 (0x78).
    x = np.zeros((1, 32), np.float32)
    x[0, :2] = [1.1875, 248.0]
    src = pto.Tile(x, valid=(1, 2))
    dst = f8_tile([], "f8e4m3", (1, 2))
    a5 = pto.execute("TCVT", dst, [src], variant="a5")
    assert a5.dtype == np.uint8 and list(a5[0, :2]) == [0x3A, 0x78]
    assert list(pto.execute("TCVT", dst, [src])[0, :2]) == [0x39, 0x77]


def test_tcvt_from_e5m2_to_f32():
    # 0x3e = 1.10b x 2^0 = 1.5; 0xfb = -1.11b x 2^15 = -57344; 0x7c = inf (a5) but 2^16 in the simulator.
    src = f8_tile([0x3E, 0xFB, 0x7C], "f8e5m2", (1, 3))
    dst = pto.Tile(np.zeros((1, 32), np.float32), valid=(1, 3))
    assert list(pto.execute("TCVT", dst, [src], variant="a5")[0, :3]) == [1.5, -57344.0, np.inf]
    assert list(pto.execute("TCVT", dst, [src])[0, :3]) == [1.5, -57344.0, 65536.0]


def test_f8_tiles_take_uint8_only():
    bad = pto.Tile(np.zeros((1, 32), np.int8), type="f8e4m3")
    with pytest.raises(TypeError, match="dst"):
        pto.execute("TAND", bad, [f8_tile([], "f8e4m3", None), f8_tile([], "f8e4m3", None)], variant="a5")


def test_a2a3_refuses_f8():
    src = pto.Tile(np.ones((1, 32), np.float32))
    with pytest.raises(tmu.Unsupported, match="A5-only"):
        pto.execute("TCVT", f8_tile([], "f8e4m3", None), [src], variant="a2a3")

"""tmu.amx: State views, matfp on hand-derived operands (the README's outer product, the one
rounding of a fused multiply-add), the operand helpers, and refusals."""

import numpy as np
import pytest

import tmu
from tmu import amx


def test_f32_outer_product_lands_in_every_fourth_row():
    s = amx.State()
    s.x.view(np.float32)[0, :] = np.arange(16)       # x[i] = i
    s.y.view(np.float32)[0, :] = 1.0                 # y[j] = 1
    rows = s.matfp(amx.matfp_operand(lane_width="f32"))
    assert rows == tuple(range(0, 64, 4))            # f32: Z row 4j + (z_row & 3)
    z = s.z.view(np.float32)
    assert np.array_equal(z[0::4], np.tile(np.arange(16, dtype=np.float32), (16, 1)))
    assert (z[1::4] == 0).all()


def test_readme_f16f32_example():
    # README "Apple AMX": three outer products leave z[j][i] = i + j - 0.125 in Z row 2j + (i & 1), lane i / 2.
    s = amx.State()
    x = s.x.view(np.float16)
    y = s.y.view(np.float16)
    x[0] = np.arange(32); y[0] = 1          # step 1 at byte offset 0x000
    x[1] = 1; y[1] = np.arange(32)          # step 2 at 0x040
    x[2] = 0.5; y[2] = -0.25                # step 3 at 0x080
    for off in (0x000, 0x040, 0x080):
        assert s.matfp(amx.matfp_operand(x_offset=off, y_offset=off, lane_width="f16f32")) == tuple(range(64))
    z = s.z.view(np.float32)
    i = np.arange(32)
    for j in (0, 1, 17, 31):
        assert np.array_equal(z[2 * j + (i & 1), i // 2], (i + j - 0.125).astype(np.float32))


def test_matfp_fuses_the_multiply_and_add():
    # x = y = 1 + 2^-23, z = -(1 + 2^-22): x*y + z = 2^-46 exactly; rounding the product first
    # (to 1 + 2^-22) would give 0.
    s = amx.State()
    s.x.view(np.float32)[0, 0] = 1 + 2.0**-23
    s.y.view(np.float32)[0, 0] = 1 + 2.0**-23
    s.z.view(np.float32)[0, 0] = -(1 + 2.0**-22)
    s.matfp(amx.matfp_operand(lane_width="f32"))
    assert s.z.view(np.float32)[0, 0] == np.float32(2.0**-46)


def test_sub_and_select():
    s = amx.State()
    s.x.view(np.float32)[0, :2] = [2.0, -1.0]
    s.y.view(np.float32)[0, 0] = 3.0
    s.matfp(amx.matfp_operand(lane_width="f32", alu="sub"))
    assert list(s.z.view(np.float32)[0, :2]) == [-6.0, 3.0]
    s.matfp(amx.matfp_operand(lane_width="f32", alu="select"))   # x <= 0 ? 0 : y
    assert list(s.z.view(np.float32)[0, :2]) == [3.0, 0.0]


def test_assigning_arrays_copies_their_bytes_and_views_share_the_state():
    s = amx.State()
    s.x = np.arange(128, dtype=np.float32)
    assert s.x.shape == (8, 64) and s.x.dtype == np.uint8
    assert s.x.view(np.float32)[1, 0] == 16.0
    z = s.z
    del s                               # the view keeps the state alive
    z[0, 0] = 1
    assert z[0, 0] == 1


def test_operand_helpers_round_trip():
    op = amx.matfp_operand(x_offset=0x40, y_offset=0x80, lane_width="f32")
    assert op == 0x0000100000010080                               # 4 << 42 | 0x40 << 10 | 0x80
    assert op == tmu.assemble("matfp f32 z+=x*y x=0x40 y=0x80", engine="amx")
    d = amx.decode_matfp(op)
    assert (d["x_offset"], d["y_offset"], d["lane_width"], d["alu_mode"]) == (0x40, 0x80, 4, 0)
    op2 = amx.matfp_operand(z_row=3, y_enable=(2, 4), lane_width="f16f32")
    d2 = amx.decode_matfp(op2)
    assert (d2["z_row"], d2["y_enable"], d2["lane_width"]) == (3, (2, 4), 3)


def test_refusals():
    with pytest.raises(tmu.BadInput, match=r"x_offset"):
        amx.matfp_operand(x_offset=600)                           # 9 bits
    with pytest.raises(ValueError, match=r"tmu.amx.matfp_operand: lane_width: unknown lane width 'f8'"):
        amx.matfp_operand(lane_width="f8")
    with pytest.raises(ValueError, match=r"tmu.amx.matfp_operand: alu: unknown ALU mode 'mul'"):
        amx.matfp_operand(alu="mul")
    with pytest.raises(TypeError, match=r"tmu.amx.matfp_operand: x_enable: expected \(mode, value\)"):
        amx.matfp_operand(x_enable=3)
    with pytest.raises(ValueError, match=r"tmu.amx.State: variant: unknown AMX version 'M9'"):
        amx.State("M9")
    s = amx.State()
    with pytest.raises(ValueError, match=r"tmu.amx.State: x: expected 512 bytes"):
        s.x = np.zeros(10, np.float32)
    with pytest.raises(TypeError, match=r"tmu.amx.State: z: expected a numeric array"):
        s.z = np.zeros(4096, dtype=bool)
    with pytest.raises(TypeError, match=r"tmu.amx.State.matfp: operand: expected an int"):
        s.matfp(1.5)
    with pytest.raises(ValueError, match=r"tmu.amx.State.matfp: operand: -1 is out of range \(expected 0..2\*\*64-1"):
        s.matfp(-1)

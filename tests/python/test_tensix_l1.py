"""tmu.tensix.pack and tmu.tensix.unpack: the packer's and unpackers' L1 conversions from Python.

Expected bytes are derived by hand (the comments) or from numpy's float32 as an independent path;
the C++ unit tests (tests/unit/test_l1_pack.cpp, test_l1_unpack.cpp) cover every pattern.
"""

import numpy as np
import pytest

import tmu
from tmu import tensix


def test_fp32_to_bf16_rounds_ties_away():
    # 1 + 2^-8 (0x3f808000) is halfway between BF16 1 and 1 + 2^-7: ties away gives 0x3f81 (bytes 81 3f).
    out = tensix.pack(np.array([0x3F808000, 0xBF808000, 0x3F807FFF], np.uint32), "BF16")
    assert out.dtype == np.uint8
    assert list(out.view(np.uint16)) == [0x3F81, 0xBF81, 0x3F80]


def test_values_and_bits_agree():
    x = np.array([1.5, -2.25, 0.0, 3.0e-39], np.float32)  # the last is an FP32 denormal: flushed to +0
    by_bits = tensix.pack(x.view(np.uint32), "BF16")
    by_values = tensix.pack(x.astype(np.float64), "BF16")
    assert (by_bits == by_values).all()
    assert list(by_bits.view(np.uint16)) == [0x3FC0, 0xC010, 0, 0]
    with pytest.raises(ValueError, match=r"tmu.tensix.pack: data: element \(0,\) \(0.1\) is not a BF16 Dst value"):
        tensix.pack(np.array([0.1]), "BF16", dst="BF16")


def test_bfp8_block_layout_and_round_trip():
    v = np.arange(32, dtype=np.float64) / 16  # exact in BFP8: two blocks, exponents 126 and 127
    l1 = tensix.pack(v, "BFP8", dst="BF16")
    assert l1.shape == (34,)
    assert list(l1[:2]) == [126, 127]
    assert l1[2 + 16] == 0x40  # 1.0 in the block of exponent 127: 64/64
    assert (tensix.unpack(l1, "BFP8") == v).all()
    with pytest.raises(tmu.BadInput, match="whole blocks of 16"):
        tensix.pack(np.zeros(8), "BFP8", dst="BF16")


def test_int8_clamps_and_sign_magnitude():
    out = tensix.pack(np.array([5, -5, 1000, -1000]), "INT8", dst="INT32")
    assert list(out) == [5, 0x85, 127, 0xFF]
    assert list(tensix.pack(np.array([-5, 300, 200]), "UINT8", dst="INT32")) == [0, 255, 200]
    assert list(tensix.unpack(out, "INT8")) == [5, -5, 127, -127]


def test_l1_accumulation_fp32():
    a = np.array([1.0, 2.0**24, 1.0e30], np.float32)
    b = np.array([0.5, 1.0, -1.0e30], np.float32)
    got = tensix.pack(b.astype(np.float64), "FP32", l1=a.view(np.uint8)).view(np.float32)
    assert list(got) == list(a + b)  # numpy's float32 sum: round to nearest even (2^24 + 1 -> 2^24)
    with pytest.raises(tmu.BadInput, match="L1 accumulation"):
        tensix.pack(np.zeros(16), "BFP8", dst="BF16", l1=np.zeros(17, np.uint8))


def test_arch_differences():
    half = np.array([0x3F803000], np.uint32)  # 1 + 2^-10 + 2^-11
    # Wormhole truncates FP32 -> FP16 (0x3c01); Blackhole rounds through TF32 by default (0x3c02).
    assert tensix.pack(half, "FP16", variant="wormhole").view(np.uint16)[0] == 0x3C01
    assert tensix.pack(half, "FP16").view(np.uint16)[0] == 0x3C02
    assert tensix.pack(half, "FP16", intermediate="FP32").view(np.uint16)[0] == 0x3C01
    with pytest.raises(tmu.BadInput, match="FP32 -> FP8 on wormhole"):
        tensix.pack(half, "FP8", variant="wormhole")


def test_unpack_formats():
    fp32 = np.array([0x3F809001], np.uint32).view(np.uint8)  # 1 + 2^-8 + 2^-11 + 2^-23
    assert tensix.unpack(fp32, "FP32")[0] == 1 + 2.0**-8           # TF32 truncation
    assert tensix.unpack(fp32, "FP32", out_format="BF16")[0] == 1.0
    assert tensix.unpack(fp32, "FP32", to="dst")[0] == 1 + 2.0**-8 + 2.0**-11 + 2.0**-23
    assert tensix.unpack(fp32, "FP32", bits=True)[0] == (0x004 << 8 | 127)  # sign 18, mantissa 17:8, exponent 7:0
    assert tensix.unpack(np.array([0x38], np.uint8), "FP8", fp8_e4m3=True)[0] == 1.0  # e=7 (bias 7), m=0
    with pytest.raises(tmu.BadInput, match="INT32 data goes to Dst only"):
        tensix.unpack(np.zeros(4, np.uint8), "INT32")


def test_argument_checks():
    with pytest.raises(ValueError, match="tmu.tensix.pack: out_format: unknown L1 format 'BF17'"):
        tensix.pack(np.zeros(1), "BF17")
    with pytest.raises(TypeError, match="tmu.tensix.pack: data: FP32 Dst patterns are uint32, got uint16"):
        tensix.pack(np.zeros(1, np.uint16), "BF16")
    with pytest.raises(tmu.BadInput, match="stochastic"):
        tensix.pack(np.zeros(1), "BF16", stochastic_rounding=True)
    with pytest.raises(ValueError, match="3 bytes is not a whole number of BF16 datums"):
        tensix.unpack(np.zeros(3, np.uint8), "BF16")
    with pytest.raises(TypeError, match="l1_bytes: expected dtype uint8"):
        tensix.unpack(np.zeros(4, np.uint16), "BF16")


def test_matmul_out_format():
    a = np.full((32, 32), 1.0)
    b = np.full((32, 32), 1.0078125)  # each output: 32 * (1 + 2^-7) = 32.25, FP32 exact
    r = tensix.matmul(a, b, out_format="BF16", bits=True)
    assert r["dst_values"][0, 0] == 32.25
    # 32.25 = 1.0000001b x 2^5 is exact in BF16 (7 fraction bits): it stays.
    assert r["values"][0, 0] == 32.25 and r["l1"].shape == (2048,)
    # BFP8 beside nothing larger: 32.25 / 2^(132 - 133) = 64.5 units, a tie, away: 65 -> 32.5.
    assert tensix.matmul(a, b, out_format="BFP8")[0, 0] == 32.5
    with pytest.raises(tmu.BadInput, match="FP32 -> INT8"):
        tensix.matmul(a, b, out_format="INT8")


def test_matmul_in_format():
    a = np.full((32, 32), 1.0)
    b = np.full((32, 32), 1.0078125)  # 1 + 2^-7: half of E8M6's unit, so BFP8 (ties away) makes it 1 + 2^-6
    assert tensix.matmul(a, b, in_format="BFP8")[0, 0] == 32 * (1 + 2.0**-6)
    assert tensix.matmul(a, b, in_format="BF16")[0, 0] == 32 * (1 + 2.0**-7)
    # FP32 1 + 2^-8, truncated into Src as BF16 by the unpacker, is 1: 32 in all.
    c = np.full((32, 32), 1.00390625)
    assert tensix.matmul(a, c, in_format="FP32")[0, 0] == 32.0
    with pytest.raises(ValueError, match="in_format: takes FP32 values"):
        tensix.matmul(a, b, in_format="BFP8", conversion="rne")


def test_eltwise_binary_in_and_out_format():
    a = np.full((32, 32), 1.0)
    b = np.full((32, 32), 1.0078125)  # 1 + 2^-7
    assert tensix.eltwise_binary("ELWADD", a, b)[0, 0] == 2.0078125
    # BFP8 rounds 1 + 2^-7 (half of E8M6's unit) away to 1 + 2^-6; 1.0 stays.
    assert tensix.eltwise_binary("ELWADD", a, b, in_format="BFP8")[0, 0] == 2.015625
    # 2 + 2^-7 = 2 x (1 + 2^-8): a quarter of E8M6's unit, so BFP8 drops it; half of BF16's, so BF16
    # rounds it away to 2 x (1 + 2^-7).
    assert tensix.eltwise_binary("ELWADD", a, b, out_format="BFP8")[0, 0] == 2.0
    r = tensix.eltwise_binary("ELWADD", a, b, out_format="BF16", bits=True)
    assert r["values"][0, 0] == 2.015625 and r["dst_values"][0, 0] == 2.0078125 and r["l1"].shape == (2048,)
    with pytest.raises(ValueError, match="tmu.tensix.eltwise_binary: in_format: takes FP32 values"):
        tensix.eltwise_binary("ELWADD", a, b, in_format="BFP8", input="bits")


def test_reduce_in_and_out_format():
    a = np.full((32, 32), 1.0078125)  # every column sums to 32 x (1 + 2^-7) = 32.25, exact in FP32
    assert tensix.reduce(a)[0, 0] == 32.25
    assert tensix.reduce(a, in_format="BFP8")[0, 0] == 32 * (1 + 2.0**-6)
    # 32.25 in BFP8 with its block all alike: 64.5 units of 2^-1, a tie, away: 32.5.
    assert tensix.reduce(a, out_format="BFP8")[0, 0] == 32.5
    r = tensix.reduce(a, out_format="BFP8", argmax=False, bits=True)
    assert r["l1"].shape == (32 // 16 + 32,)  # an exponent byte per block of 16, a byte per datum

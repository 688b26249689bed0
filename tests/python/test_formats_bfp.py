"""tmu.formats' BFP block formats. Expected values are worked out by hand from the ISA's BFP tables
(FloatBitPatterns.md: a datum is a sign and a magnitude, Mag / 2^(width-2) * 2^(Exp - bias)), its
unpacker conversion BFP8ToBF16 / BFP8aToFP16, and tt-metal's host packing (blockfloat_common.cpp);
the unpacker's patterns are checked against tmu.formats.from_float of the values by hand."""

import numpy as np
import pytest

import tmu
from tmu import formats

U8 = np.uint8
# name: (datum width, bias, largest exponent, unpacks to)
FORMATS = {
    "bfp8": (8, 127, 255, "bf16"), "bfp4": (4, 127, 255, "bf16"), "bfp2": (2, 127, 255, "bf16"),
    "bfp8a": (8, 15, 31, "fp16"), "bfp4a": (4, 15, 31, "fp16"), "bfp2a": (2, 15, 31, "fp16"),
}


def block(*values):
    """One 16-value block: the values given, then zeros."""
    return np.array(list(values) + [0.0] * (16 - len(values)))


def datums(*ds):
    return np.array(list(ds) + [0] * (16 - len(ds)), dtype=U8)


def value_by_table(fmt, exponent, datum):
    """FloatBitPatterns.md's BFP tables, with the Matrix Unit's reading of a lone sign bit."""
    width, bias, _, _ = FORMATS[fmt]
    negative, mag = datum >> (width - 1), datum & ((1 << (width - 1)) - 1)
    if mag == 0:
        return -(2.0 ** (16 if fmt.endswith("a") else 128)) if negative else 0.0
    return (-1) ** negative * mag * 2.0 ** (exponent - bias - (width - 2))


# ---- Packing, by hand ----

# A bfp8 block whose largest element, 3 = 1.1b x 2^1, sets the shared exponent 127 + 1 = 128: the step
# is 2^(1 - 6) = 2^-5 and each datum is |x| / 2^-5 with the sign in bit 7.
MIXED = block(3.0, 1.5, 1 + 2**-6, 1 + 3 * 2**-6, -0.75, 2**-5, 2**-6, -(2**-6), 0.0, -0.0, 0.1, 127 * 2**-5)
MIXED_RNE = [
    0x60,         # 3 / 2^-5 = 96
    0x30,         # 48
    0x20,         # 32.5: a tie, to even 32 (the 2^-6 bit is lost)
    0x22,         # 33.5: a tie, to even 34
    0x80 | 24,    # -0.75: sign, 24
    0x01,         # 2^-5: 1
    0x00,         # 2^-6: 0.5, a tie, to even 0
    0x00,         # -2^-6: 0 too, and a zero magnitude carries no sign
    0x00, 0x00,   # +0 and -0
    0x03,         # 0.1 / 2^-5 = 3.2
    0x7F,         # 127: the largest magnitude
]
MIXED_TRUNCATE = [0x60, 0x30, 0x20, 0x21, 0x98, 0x01, 0x00, 0x00, 0x00, 0x00, 0x03, 0x7F]


def test_bfp8_block_shared_exponent_and_mantissa_loss_by_hand():
    e, m = formats.to_bfp(MIXED, "bfp8", rounding="rne")
    assert e.dtype == U8 and m.dtype == U8 and e.shape == (1,) and m.shape == (16,)
    assert e[0] == 128
    assert list(m[:12]) == MIXED_RNE and not m[12:].any()
    e, m = formats.to_bfp(MIXED, "bfp8", rounding="truncate")
    assert e[0] == 128 and list(m[:12]) == MIXED_TRUNCATE
    # What the datums mean: 1 + 2^-6 came back as 1, 0.1 as 3/32, -2^-6 as 0.
    got = formats.from_bfp(e, m, "bfp8")
    assert list(got[:12]) == [3.0, 1.5, 1.0, 1 + 2**-5, -0.75, 2**-5, 0, 0, 0, 0, 3 / 32, 127 / 32]


def test_exact_refuses_the_first_value_its_block_cannot_hold():
    with pytest.raises(ValueError) as e:
        formats.to_bfp(MIXED, "bfp8")
    assert str(e.value) == (
        "tmu.formats.to_bfp: values: element (2,) = 1.015625 is not exactly a bfp8 number in its block: the "
        "block's largest element sets the shared exponent 128, so its datums are multiples of 2^-5 up to "
        "127 x 2^-5 (pass rounding='rne', 'truncate' or 'tt-metal' to round)")


def test_blocks_are_16_consecutive_values_of_the_last_axis():
    # Row 0: ones, then fours; row 1: a half, then zeros. Each block has its own exponent.
    x = np.zeros((2, 32))
    x[0, :16], x[0, 16:], x[1, 0] = 1.0, 4.0, 0.5
    e, m = formats.to_bfp(x, "bfp8")
    assert e.shape == (2, 2) and m.shape == (2, 32)
    assert e.tolist() == [[127, 129], [126, 0]]     # 1 = 2^0, 4 = 2^2, 0.5 = 2^-1, all zeros: 0
    assert (m[0] == 0x40).all() and m[1, 0] == 0x40 and not m[1, 1:].any()
    assert (formats.from_bfp(e, m, "bfp8") == x).all()


def test_negative_zero_packs_as_plus_zero_and_all_zero_blocks_get_exponent_0():
    for fmt in FORMATS:
        e, m = formats.to_bfp(np.full(16, -0.0), fmt)
        assert e[0] == 0 and not m.any()
        got = formats.from_bfp(e, m, fmt)
        assert not got.any() and not np.signbit(got).any()


def test_bfp4_and_bfp2_by_hand():
    # bfp4: 3 magnitude bits, Mag / 2^2; largest 1.75 = 1.11b x 2^0 sets exponent 127, step 2^-2.
    e, m = formats.to_bfp(block(1.0, 0.75, 0.5, 0.25, -1.75), "bfp4")
    assert e[0] == 127 and list(m[:5]) == [0x4, 0x3, 0x2, 0x1, 0x8 | 0x7]
    # bfp2: 1 magnitude bit, step 2^0 at exponent 127: 0.5 is a tie (to even 0), 0.75 rounds to 1.
    e, m = formats.to_bfp(block(1.0, -1.0, 0.5, 0.75), "bfp2", rounding="rne")
    assert e[0] == 127 and list(m[:4]) == [0x1, 0x3, 0x0, 0x1]
    e, m = formats.to_bfp(block(1.0, -1.0, 0.5, 0.75), "bfp2", rounding="truncate")
    assert list(m[:4]) == [0x1, 0x3, 0x0, 0x0]


def test_bfp8a_by_hand():
    # Bias 15: 1.5 sets exponent 15, step 2^-6; -0.25 is 16 steps; 130048 = 127 x 2^10 needs exponent 31.
    e, m = formats.to_bfp(block(1.5, -0.25), "bfp8a")
    assert e[0] == 15 and list(m[:2]) == [0x60, 0x90]
    e, m = formats.to_bfp(block(130048.0, 1024.0), "bfp8a")
    assert e[0] == 31 and list(m[:2]) == [0x7F, 0x01]
    assert formats.from_bfp(e, m, "bfp8a")[:2].tolist() == [130048.0, 1024.0]


def test_rne_keeps_the_block_exponent_when_rounding_past_the_largest_magnitude():
    # 127.75 steps rounds to 128, which the block cannot hold: the largest, 127, is the nearest.
    e, m = formats.to_bfp(block(127.75 * 2**-6), "bfp8", rounding="rne")
    assert e[0] == 127 and m[0] == 0x7F


# ---- Round trips and enumeration ----

@pytest.mark.parametrize("fmt", list(FORMATS))
def test_from_bfp_every_datum_by_the_table(fmt):
    width, _, top, _ = FORMATS[fmt]
    exps = [0, 1, 15, 30, 31] if fmt.endswith("a") else [0, 1, 100, 127, 200, 254, 255]
    all_datums = np.arange(1 << width, dtype=U8)
    m = np.tile(np.resize(all_datums, 16), (len(exps), 1))  # every datum, repeated to fill a block
    e = np.array(exps, dtype=U8).reshape(-1, 1)
    got = formats.from_bfp(e, m, fmt)
    want = [[value_by_table(fmt, x, int(d)) for d in row] for x, row in zip(exps, m)]
    assert got.dtype == np.float64 and got.tolist() == want


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("rounding", ["exact", "rne", "truncate"])
def test_normalised_blocks_round_trip_through_their_values(fmt, rounding):
    # Each block starts with magnitude 1.0 (the leading magnitude bit), so the shared exponent comes
    # back; every other datum except the lone sign bit (which means -2^128 / -2^16) follows it.
    width, bias, top, _ = FORMATS[fmt]
    lead = 1 << (width - 2)
    others = [d for d in range(1 << width) if d != 1 << (width - 1)]
    rows = [[lead] + [others[(k + i) % len(others)] for i in range(15)] for k in range(0, len(others), 15)]
    for x in sorted({0, 1, bias, top - 1, top}):
        m = np.array(rows, dtype=U8)
        e = np.full((len(rows), 1), x, dtype=U8)
        values = formats.from_bfp(e, m, fmt)
        e2, m2 = formats.to_bfp(values, fmt, rounding=rounding)
        assert (e2 == e).all() and (m2 == m).all(), (fmt, x)
        assert (formats.from_bfp(e2, m2, fmt) == values).all()


def test_exactly_representable_values_round_trip():
    rng = np.random.default_rng(7)
    for fmt, (width, bias, top, _) in FORMATS.items():
        # Any multiple of the block's step below the largest magnitude, whatever the block's maximum.
        x = rng.integers(-(1 << (width - 1)) + 1, 1 << (width - 1), size=(8, 64)).astype(np.float64)
        x *= 2.0 ** (int(rng.integers(0, top + 1)) - bias - (width - 2))
        e, m = formats.to_bfp(x, fmt)
        assert (formats.from_bfp(e, m, fmt) == x).all(), fmt


# ---- The unpacker's conversion (BFP8ToBF16 / BFP8aToFP16) ----

@pytest.mark.parametrize("fmt, exponent, datum, pattern", [
    ("bfp8", 127, 0x40, 0x3F80),   # 64/2^6 = 1: the leading magnitude bit becomes the implicit 1
    ("bfp8", 127, 0x98, 0xBEC0),   # -24/2^6 = -0.375 = -1.1b x 2^-2: exponent 125, fraction 1000000b
    ("bfp8", 127, 0x81, 0xBC80),   # -1/2^6: shifted up 6, exponent 121
    ("bfp8", 127, 0x7F, 0x3FFE),   # 127/2^6 = 1.111111b: the seventh fraction bit is always 0
    ("bfp8", 255, 0x40, 0x7F80),   # 2^128: exponent 255 (IEEE reads +inf)
    ("bfp8", 6, 0x02, 0x0080),     # 2/2^6 x 2^-121 = 2^-126, exponent 6 - 5 = 1
    ("bfp8", 6, 0x01, 0x0000),     # 2^-127: the exponent reaches 0, fraction 0
    ("bfp8", 2, 0x01, 0x7E00),     # exponent 2 - 6 wraps to 252 (uint8_t)
    ("bfp8", 0, 0x80, 0xFF80),     # a sign with zero magnitude, whatever the exponent
    ("bfp8", 127, 0x00, 0x0000),
    ("bfp4", 127, 0x5, 0x3FA0),    # 5/2^2 = 1.25 = 1.01b
    ("bfp4", 127, 0x8, 0xFF80),
    ("bfp2", 127, 0x3, 0xBF80),    # -1
    ("bfp2", 127, 0x2, 0xFF80),
    ("bfp8a", 15, 0x60, 0x3E00),   # 96/2^6 = 1.5 in FP16
    ("bfp8a", 15, 0x90, 0xB400),   # -16/2^6 = -0.25 = -1.0b x 2^-2: exponent 13
    ("bfp8a", 31, 0x40, 0x7C00),   # 2^16: exponent 31 (IEEE reads +inf)
    ("bfp8a", 0, 0x60, 0x0200),    # exponent 0 with fraction 1000000000b (the Matrix Unit reads 0)
    ("bfp8a", 7, 0x80, 0xFC00),
    ("bfp4a", 15, 0x7, 0x3F00),    # 7/2^2 = 1.75 = 1.11b
    ("bfp2a", 20, 0x1, 0x5000),    # 2^(20-15) = 32: exponent 20
])
def test_bfp_to_src_by_hand(fmt, exponent, datum, pattern):
    got = formats.bfp_to_src(np.array([exponent], U8), datums(datum), fmt)
    assert got.dtype == np.uint16 and got.shape == (16,)
    assert hex(got[0]) == hex(pattern)


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_bfp_to_src_gives_the_datums_value_as_bf16_or_fp16(fmt):
    # Every datum at every exponent whose renormalised exponent stays a normal BF16/FP16 one
    # (1 to 254, 1 to 30): the pattern is the plain BF16/FP16 encoding of the table's value.
    width, bias, top, to = FORMATS[fmt]
    d = np.arange(1 << width, dtype=U8)
    mags = d & ((1 << (width - 1)) - 1)
    lz = np.array([(width - 1) - int(v).bit_length() for v in mags])
    checked = 0
    for x in range(top + 1):
        keep = (mags != 0) & (x - lz >= 1) & (x - lz <= top - 1)
        if not keep.any():
            continue
        m = np.resize(d[keep], 16 * -(-int(keep.sum()) // 16)).astype(U8)
        e = np.full(m.size // 16, x, dtype=U8)
        want = formats.from_float(np.array([value_by_table(fmt, x, int(v)) for v in m]), to)
        assert (formats.bfp_to_src(e, m, fmt) == want).all(), (fmt, x)
        checked += int(keep.sum())
    assert checked > (top - 8) * ((1 << width) - 2)


def test_bfp_to_src_a_flavour_below_exponent_0_is_undefined():
    with pytest.raises(tmu.UndefinedBehaviour) as e:
        formats.bfp_to_src(np.array([2], U8), datums(0x40, 0x01), "bfp8a")
    assert "mantissas element (1,) = 0x1 with shared exponent 2" in str(e.value)
    assert "BFP8aToFP16" in str(e.value)


# ---- tt-metal's host packing ----

def test_tt_metal_rounds_after_a_truncating_shift():
    # 0.5 + 2^-7 + 2^-24 beside 1.0 (exponent 127, step 2^-6) is 32.5 + 2^-18 steps: nearest is 33.
    # tt-metal shifts the float32 significand 0x820001 right by 1 first, losing the 2^-24 bit, and
    # then sees an exact tie, which goes to even 32.
    x = block(1.0, 0.5 + 2**-7 + 2**-24).astype(np.float32)
    assert formats.to_bfp(x, "bfp8", rounding="rne")[1][1] == 33
    e, m = formats.to_bfp(x, "bfp8", rounding="tt-metal")
    assert e[0] == 127 and m[0] == 0x40 and m[1] == 32


@pytest.mark.parametrize("fmt, values, exponent, first", [
    ("bfp8", [1 + 2**-7], 127, 0x40),          # significand 0x810000: a tie, to even 64
    ("bfp8", [1 + 3 * 2**-7], 127, 0x42),      # 0x830000: a tie, to even 66
    ("bfp8", [-(2.0**-149)], 0, 0xC0),         # a subnormal gets the implicit 1: -1.0 x 2^-127
    ("bfp8", [np.inf], 255, 0x40),             # exponent 255, significand 1.0
    ("bfp8", [-np.nan], 255, 0xE0),            # 0xffc00000: significand 1.1b = 96, sign
    ("bfp8a", [2.0**-20] * 16, 0, 0x40),       # exponent 107 - 112 < 0: clamped to 0, significand 1.0
    ("bfp8a", [2.0**17], 31, 0x7F),            # exponent 144 - 112 > 31: 31, significand all ones
    ("bfp4", [1.0, -0.0, 2.0**-3], 127, 0x4),  # -0 packs as 0; 2^-3 is 0.5 step: a tie, to even 0
])
def test_tt_metal_packing_by_hand(fmt, values, exponent, first):
    e, m = formats.to_bfp(block(*values).astype(np.float32), fmt, rounding="tt-metal")
    assert e[0] == exponent and m[0] == first
    if fmt == "bfp4":
        assert not m[1:].any()


def test_tt_metal_equals_rne_when_no_alignment_shift_drops_bits():
    rng = np.random.default_rng(11)
    x = (rng.uniform(1, 2, size=(64, 16)) * rng.choice([-1, 1], size=(64, 16))).astype(np.float32)
    x[:, 0] = 1.0  # every element has exponent 127, the block's
    for fmt in ("bfp8", "bfp4", "bfp2"):
        a, b = formats.to_bfp(x, fmt, rounding="tt-metal"), formats.to_bfp(x, fmt, rounding="rne")
        assert (a[0] == b[0]).all() and (a[1] == b[1]).all(), fmt


# ---- Refusals ----

@pytest.mark.parametrize("call, exc, message", [
    (lambda: formats.to_bfp(block(1.0), "bfp16"), ValueError,
     "tmu.formats.to_bfp: fmt: unknown BFP format 'bfp16' (expected 'bfp8', 'bfp4', 'bfp2', 'bfp8a', 'bfp4a', 'bfp2a')"),
    (lambda: formats.to_bfp(block(1.0), 8), TypeError, "tmu.formats.to_bfp: fmt: expected a str, got int"),
    (lambda: formats.to_bfp(block(1.0), "bfp8", rounding="nearest"), ValueError,
     "tmu.formats.to_bfp: rounding: expected 'exact', 'rne'"),
    (lambda: formats.to_bfp(np.zeros(20), "bfp8"), ValueError,
     "tmu.formats.to_bfp: values: the last axis has length 20, not a multiple of 16"),
    (lambda: formats.to_bfp(np.array(1.0), "bfp8"), ValueError, "tmu.formats.to_bfp: values: expected at least one axis"),
    (lambda: formats.to_bfp(np.zeros(16, complex), "bfp8"), TypeError, "tmu.formats.to_bfp: values: expected real numbers"),
    (lambda: formats.to_bfp(block(1.0, np.nan), "bfp8"), ValueError,
     "tmu.formats.to_bfp: values: element (1,) = nan is not finite: bfp8 has no infinity or NaN"),
    (lambda: formats.to_bfp(block(2.0**129), "bfp8", rounding="rne"), ValueError,
     "tmu.formats.to_bfp: values: element (0,) = 6.80564733841877e+38 is beyond the range of bfp8 (largest magnitude 127 x 2^122)"),
    (lambda: formats.to_bfp(block(-(2.0**17)), "bfp8a", rounding="truncate"), ValueError,
     "tmu.formats.to_bfp: values: element (0,) = -131072.0 is beyond the range of bfp8a (largest magnitude 127 x 2^10)"),
    (lambda: formats.to_bfp(np.array([block(1.0), block(1.0, 0, 0, 2**-7)]), "bfp8"), ValueError,
     "tmu.formats.to_bfp: values: element (1, 3) = 0.0078125 is not exactly a bfp8 number in its block"),
    (lambda: formats.to_bfp(block(0.1), "bfp8", rounding="tt-metal"), ValueError,
     "tmu.formats.to_bfp: values: element (0,) = 0.1 is not a float32 number: tt-metal packs float32 values"),
    (lambda: formats.from_bfp(np.array([127.0]), datums(), "bfp8"), TypeError,
     "tmu.formats.from_bfp: exponents: expected dtype uint8, got float64"),
    (lambda: formats.from_bfp(np.array([127], U8), np.zeros(16, np.int16), "bfp8"), TypeError,
     "tmu.formats.from_bfp: mantissas: expected dtype uint8, got int16"),
    (lambda: formats.from_bfp(np.array([127, 0], U8), datums(), "bfp8"), ValueError,
     "tmu.formats.from_bfp: exponents: expected shape (1,) (one exponent per 16 mantissas of shape (16,)), got (2,)"),
    (lambda: formats.from_bfp(np.array([127], U8), np.zeros(15, U8), "bfp8"), ValueError,
     "tmu.formats.from_bfp: mantissas: the last axis has length 15, not a multiple of 16"),
    (lambda: formats.from_bfp(np.array([127], U8), datums(0, 0, 0, 0x10), "bfp4"), ValueError,
     "tmu.formats.from_bfp: mantissas: element (3,) = 0x10 is not a 4-bit bfp4 datum (sign bit 3, 3 magnitude bits)"),
    (lambda: formats.bfp_to_src(np.array([32], U8), datums(), "bfp2a"), ValueError,
     "tmu.formats.bfp_to_src: exponents: element (0,) = 32 is not a 5-bit bfp2a exponent"),
    (lambda: formats.bfp_to_src(np.array([0], U8), datums(0x4), "bfp2"), ValueError,
     "tmu.formats.bfp_to_src: mantissas: element (0,) = 0x4 is not a 2-bit bfp2 datum"),
])
def test_refusals(call, exc, message):
    with pytest.raises(exc) as e:
        call()
    assert str(e.value).startswith(message), str(e.value)


def test_results_are_new_arrays_of_the_input_shape():
    x = np.arange(48, dtype=np.float64).reshape(3, 16)
    e, m = formats.to_bfp(x, "bfp8", rounding="rne")
    assert e.shape == (3, 1) and m.shape == (3, 16)
    assert formats.bfp_to_src(e, m, "bfp8").shape == (3, 16)
    # 32..47: 47 = 1.0111b x 2^5 sets exponent 132, step 2^-1, so every integer is exact.
    assert e[2, 0] == 132 and (formats.from_bfp(e, m, "bfp8") == x).all()


def test_the_worked_example_of_docs_python_md():
    x = np.array([3.0, 1 + 3 * 2**-6, -0.75, 0.1] + [0.0] * 12)
    e, m = formats.to_bfp(x, "bfp8", rounding="rne")
    assert e.tolist() == [128] and [hex(v) for v in m[:4]] == ["0x60", "0x22", "0x98", "0x3"]
    assert formats.from_bfp(e, m, "bfp8")[:4].tolist() == [3.0, 1.0625, -0.75, 0.09375]
    src = formats.bfp_to_src(e, m, "bfp8")
    assert [hex(v) for v in src[:4]] == ["0x4040", "0x3f88", "0xbf40", "0x3dc0"]
    assert (formats.to_float(src, "bf16") == formats.from_bfp(e, m, "bfp8")).all()
    with pytest.raises(ValueError, match=r"element \(1,\) = 1.046875 is not exactly a bfp8 number in its block"):
        formats.to_bfp(x, "bfp8")

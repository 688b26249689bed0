"""tmu.tensix.eltwise_binary's ELWSUB, SrcB broadcasts, bit-pattern inputs and the unpacker's FP32
conversion: hand-derived values, every refusal, and the cross-check against `tmu run` of the same
LLK sequence (tt-llk llk_math_eltwise_binary.h's MOP, llk_unpack_AB.h's SrcB fills) written here as
a .tmu program, bit for bit."""

import numpy as np
import pytest

import tmu
from tensix_program import DST16, FIDELITIES, FORMATS, cli_dst, dst_layout_bits, random_numbers, run_cli

tensix = tmu.tensix
elw = tensix.eltwise_binary


# ---- ELWSUB: Dst = SrcA - SrcB (ELWSUB.md), a to SrcA, b to SrcB ----

def test_elwsub_is_a_minus_b():
    a = np.full((32, 32), 3.0)
    b = np.full((32, 32), 1.25)
    assert (elw("ELWSUB", a, b) == 1.75).all()
    assert (elw("ELWSUB", b, a) == -1.75).all()
    for fmt in FORMATS:   # 3 - 1.25 in every source format, 16-bit Dst too (1.75 = 1.11b is exact)
        assert (elw("ELWSUB", a, b, src_format=fmt, dst=DST16[fmt]) == 1.75).all(), fmt
    # x - x is +0 in every element
    r = elw("ELWSUB", a, a, bits=True)
    assert (r["values"] == 0).all() and (r["bits"] == 0).all()


def test_elwsub_tiles_are_independent():
    a = np.zeros((64, 96))
    a[32:, 64:] = 8.0
    out = elw("ELWSUB", a, np.full((64, 96), 0.5))
    assert (out[32:, 64:] == 7.5).all() and (out[:32, :] == -0.5).all() and (out[:, :64] == -0.5).all()


# ---- broadcasts ----

def test_row_broadcast():
    a = np.full((64, 64), 0.5)
    row = np.arange(64.0).reshape(1, 64)          # 0..63: exact in BF16 (6 bits)
    j = np.arange(64.0)
    assert (elw("ELWADD", a, row) == 0.5 + j).all()
    assert (elw("ELWSUB", a, row) == 0.5 - j).all()
    assert (elw("ELWMUL", a, row) == 0.5 * j).all()
    # (1 + 2^-7) * (1 + 2^-7 * k): at HiFi4 the product is exact in FP32 (16 significand bits)
    x = np.full((32, 32), 1 + 2.0**-7)
    r = np.array([[1 + k * 2.0**-7 for k in range(32)]])
    assert (elw("ELWMUL", x, r) == (1 + 2.0**-7) * r).all()


def test_column_broadcast():
    a = np.full((64, 32), 0.5)
    col = np.arange(64.0).reshape(64, 1)
    i = np.arange(64.0).reshape(64, 1)
    assert (elw("ELWADD", a, col) == np.broadcast_to(0.5 + i, (64, 32))).all()
    assert (elw("ELWSUB", a, col) == np.broadcast_to(0.5 - i, (64, 32))).all()
    assert (elw("ELWMUL", a, col, fidelity="HiFi2") == np.broadcast_to(0.5 * i, (64, 32))).all()


def test_scalar_broadcast():
    a = np.arange(64.0 * 32).reshape(64, 32) / 256    # k / 256, k < 2048: 11 bits, exact in FP16/TF32
    for fmt in ("FP16", "TF32"):
        assert (elw("ELWADD", a, np.array([[2.0]]), src_format=fmt) == a + 2).all()
        assert (elw("ELWSUB", a, np.array([[2.0]]), src_format=fmt) == a - 2).all()
        # ELWMUL: SrcA's fidelity slices are its significand bits 10:6 and 5:1, so bit 0 never takes
        # part; with at most 10 significant bits (k / 128, k < 1024) the product is exact at HiFi4.
        m = (np.arange(64 * 32) % 1024).reshape(64, 32) / 128
        assert (elw("ELWMUL", m, np.array([[-0.25]]), src_format=fmt) == m * -0.25).all()
        assert elw("ELWMUL", np.full((32, 32), 1 + 2.0**-10), np.array([[1.0]]), src_format=fmt)[0, 0] == 1.0


def test_broadcast_snapshots_have_one_plane_per_pass():
    x = np.full((32, 32), 1 + 2.0**-7)
    r = elw("ELWMUL", x, np.array([[1 + 2.0**-7]]), fidelity="HiFi2", snapshots=True)
    # Phase 0 multiplies SrcA's top 5 significand bits by SrcB's top 7: 1 * 1; phase 1 adds SrcA's
    # next 5 bits (2^-7) times SrcB's top 7 (1): 1 + 2^-7. HiFi2 stops there (SrcB's low bits unused).
    assert list(r["snapshots"][0, :, 0, 0]) == [0, 1, 1 + 2.0**-7]
    assert (r["values"] == 1 + 2.0**-7).all()


@pytest.mark.parametrize("op", ["ELWMUL", "ELWADD"])
def test_snapshots_place_every_face_element(op):
    # Each face's snapshot lists its own elements in face order; every element of every face must
    # land at its place in the (M, N) plane: before any pass 0, after the last pass the values.
    rng = np.random.default_rng(43)  # seed 43
    a = random_numbers(rng, (64, 96), "BF16")
    b = random_numbers(rng, (64, 96), "BF16")
    r = elw(op, a, b, fidelity="HiFi3", snapshots=True)
    assert np.array_equal(r["snapshots"][0, -1], r["values"])
    if op == "ELWMUL":
        assert (r["snapshots"][0, 0] == 0).all()


# ---- bit-pattern inputs ----

def u16(v, shape=(32, 32)):
    return np.full(shape, v, np.uint16)


def test_bits_are_the_source_format_patterns():
    assert (elw("ELWADD", u16(0x3FC0), u16(0x4040), input="bits") == 4.5).all()          # 1.5 + 3
    assert (elw("ELWSUB", u16(0x3C00), u16(0x3800), input="bits", src_format="FP16") == 0.5).all()   # 1 - 0.5
    a = np.full((32, 32), 0x3FC00000, np.uint32)                                          # TF32 1.5
    assert (elw("ELWMUL", a, a, input="bits", src_format="TF32") == 2.25).all()
    eye = np.eye(32, dtype=np.uint16) * 0x3F80                                            # BF16 identity
    m = np.arange(32 * 32, dtype=np.uint16).reshape(32, 32) % 128 + 0x3F80                # 1 + k/128
    assert (tensix.matmul(eye, m, input="bits") == 1 + (m - 0x3F80) / 128.0).all()


def test_exponent_zero_patterns_are_zero_and_all_ones_exponents_are_numbers():
    # The model's Src read (FloatBitPatterns.md, Matrix Unit column): exponent 0 is zero whatever the
    # mantissa, so the IEEE subnormals 0x0001 and 0x8001 add nothing and multiply to zero.
    one = u16(0x3F80)
    for sub in (0x0001, 0x8001, 0x007F):
        assert (elw("ELWADD", one, u16(sub), input="bits") == 1.0).all()
        assert (elw("ELWMUL", one, u16(sub), input="bits") == 0.0).all()
    # BF16 0x7F80 (IEEE +inf) is 2^128 to the Matrix Unit; times 0.5 is 2^127.
    assert (elw("ELWMUL", u16(0x7F80), u16(0x3F00), input="bits") == 2.0**127).all()
    # FP16 0x7C00 (IEEE +inf) is 2^16; 0x7E00 (a NaN) is 1.5 * 2^16.
    assert (elw("ELWMUL", u16(0x7C00), u16(0x3800), input="bits", src_format="FP16") == 2.0**15).all()
    assert (elw("ELWADD", u16(0x7E00), u16(0x0000), input="bits", src_format="FP16") == 1.5 * 2**16).all()


def test_bits_refusals():
    with pytest.raises(TypeError, match=r"tmu.tensix.eltwise_binary: a: expected dtype uint16, got float64"):
        elw("ELWADD", np.ones((32, 32)), u16(0), input="bits")
    with pytest.raises(TypeError, match=r"tmu.tensix.eltwise_binary: b: expected dtype uint16, got uint32"):
        elw("ELWADD", u16(0), np.zeros((32, 32), np.uint32), input="bits")
    with pytest.raises(TypeError, match=r"tmu.tensix.matmul: a: expected dtype uint32, got uint16"):
        tensix.matmul(u16(0), u16(0), input="bits", src_format="TF32")
    t = np.zeros((32, 32), np.uint32)
    t[2, 7] = 0x3F800001
    with pytest.raises(ValueError, match=r"tmu.tensix.eltwise_binary: b: element \(2, 7\) = 0x3f800001 is not a TF32 "
                                         r"pattern: TF32 keeps bits 12:0 zero in binary32's frame"):
        elw("ELWADD", np.zeros((32, 32), np.uint32), t, input="bits", src_format="TF32")
    with pytest.raises(ValueError, match=r"input: unknown input kind 'patterns' \(expected 'values' or 'bits'\)"):
        elw("ELWADD", u16(0), u16(0), input="patterns")
    with pytest.raises(ValueError, match=r"conversion: 'rne' rounds values; input='bits' patterns are already"):
        elw("ELWADD", u16(0), u16(0), input="bits", conversion="rne")
    with pytest.raises(ValueError, match=r"a: expected a 2-D array, got 1 dimensions"):
        elw("ELWADD", np.zeros(32, np.uint16), u16(0), input="bits")


# ---- the unpacker's FP32 -> BF16 / TF32 conversion (UNPACR_Regular.md, FormatConversion) ----

def test_unpacker_conversion_patterns_by_hand():
    fp32 = np.array([0x3F81FFFF,   # 1 + 2^-7 + (just under 2^-7): truncated to 0x3F81 (RNE would give 0x3F82)
                     0x3F808000,   # exactly halfway: truncated to 0x3F80
                     0xBF800000,   # -1
                     0x00400000,   # FP32 denormal: flushed to +0
                     0x80400001,   # negative denormal: -0
                     0x7F800000,   # +inf: bits kept
                     0x7FC00001,   # NaN: top half kept
                     0x00800000],  # smallest normal: kept
                    np.uint32)
    assert list(tensix.unpacker_conversion(fp32, "BF16")) == [0x3F81, 0x3F80, 0xBF80, 0x0000, 0x8000, 0x7F80, 0x7FC0, 0x0080]
    out = tensix.unpacker_conversion(fp32.reshape(2, 4), "TF32")
    assert out.dtype == np.uint32 and out.shape == (2, 4)
    # TF32 keeps bits 31:13 and flushes nothing: the denormal keeps its top mantissa bits.
    assert list(out.ravel()) == [0x3F81E000, 0x3F808000, 0xBF800000, 0x00400000, 0x80400000, 0x7F800000, 0x7FC00000,
                                 0x00800000]
    with pytest.raises(ValueError, match=r"src_format: FP16: the ISA's UNPACR functional model names FP32ToFP16 without"):
        tensix.unpacker_conversion(fp32, "FP16")
    with pytest.raises(TypeError, match=r"unpacker_conversion: bits: expected dtype uint32, got float64"):
        tensix.unpacker_conversion(np.zeros(3), "BF16")


def test_unpacker_conversion_truncates_values():
    x = np.full((32, 32), 1 + 2.0**-8 + 2.0**-9)       # FP32-exact; BF16 neighbours 1 and 1 + 2^-7
    zero = np.zeros((32, 32))
    assert (elw("ELWADD", x, zero, conversion="unpacker") == 1.0).all()            # truncated
    assert (elw("ELWADD", x, zero, conversion="rne") == 1 + 2.0**-7).all()         # rounded up
    y = np.full((32, 32), 1 + 2.0**-10 + 2.0**-11)      # TF32: truncated to 1 + 2^-10
    assert (elw("ELWADD", y, zero, src_format="TF32", conversion="unpacker") == 1 + 2.0**-10).all()
    # FP32 denormals: BF16 flushes them; TF32 keeps the exponent-0 pattern, which the Matrix Unit reads as 0.
    d = np.full((32, 32), 2.0**-140)
    for fmt in ("BF16", "TF32"):
        assert (elw("ELWADD", d, np.ones((32, 32)), src_format=fmt, conversion="unpacker") == 1.0).all()
    # +inf becomes the all-ones exponent: 2^128 on the Matrix Unit, times 0.5 = 2^127.
    inf = np.full((32, 32), np.inf)
    assert (elw("ELWMUL", inf, np.full((32, 32), 0.5), conversion="unpacker") == 2.0**127).all()
    # input='bits' with the unpacker: the FP32 patterns in L1.
    p = np.full((32, 32), 0x3F81FFFF, np.uint32)
    assert (elw("ELWADD", p, np.zeros((32, 32), np.uint32), input="bits", conversion="unpacker") == 1 + 2.0**-7).all()
    assert (tensix.matmul(np.eye(32), x, conversion="unpacker") == 1.0).all()


def test_unpacker_conversion_refusals():
    x = np.ones((32, 32))
    bad = x.copy()
    bad[1, 2] = 0.1
    with pytest.raises(ValueError, match=r"eltwise_binary: a: element \(1, 2\) = 0.1 is not exactly an FP32 number "
                                         r"\(conversion='unpacker' reads FP32 data"):
        elw("ELWADD", bad, x, conversion="unpacker")
    bad[1, 2] = 1e300
    with pytest.raises(ValueError, match=r"element \(1, 2\) = 1e\+300 is not exactly an FP32 number"):
        elw("ELWADD", bad, x, conversion="unpacker")
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match=r"b: element \(1, 2\) = nan is NaN, which has no one FP32 pattern \(pass the "
                                         r"uint32 patterns with input='bits'\)"):
        elw("ELWADD", x, bad, conversion="unpacker")
    with pytest.raises(ValueError, match=r"conversion: 'unpacker' for FP16 sources: the ISA's UNPACR functional model "
                                         r"names FP32ToFP16 without defining it"):
        elw("ELWADD", x, x, src_format="FP16", conversion="unpacker")
    with pytest.raises(TypeError, match=r"a: expected dtype uint32, got uint16"):
        elw("ELWADD", u16(0), u16(0), input="bits", conversion="unpacker")


# ---- refusals of the op and the broadcast ----

def test_op_and_broadcast_refusals():
    one = np.ones((32, 64))
    for shape in ((1, 33), (2, 64), (32, 2), (64, 64), (1, 1, 1)):
        with pytest.raises(ValueError, match=r"tmu.tensix.eltwise_binary: b: "):
            elw("ELWADD", one, np.ones(shape))
    with pytest.raises(ValueError, match=r"b: shape \(2, 64\) does not broadcast against a's \(32, 64\) \(expected "
                                         r"\(32, 64\), \(1, 64\) for a row, \(32, 1\) for a column or \(1, 1\) for a scalar\)"):
        elw("ELWADD", one, np.ones((2, 64)))
    with pytest.raises(ValueError, match=r"b: expected a 2-D array, got 3 dimensions"):
        elw("ELWADD", one, np.ones((1, 1, 1)))
    with pytest.raises(ValueError, match=r"a: shape \(1, 64\) is not a non-empty multiple of the 32x32 tile"):
        elw("ELWADD", np.ones((1, 64)), np.ones((1, 64)))
    with pytest.raises(ValueError, match=r"perturb: ELWSUB's MOP has no fidelity passes to perturb"):
        elw("ELWSUB", one, one, perturb="negate0")
    with pytest.raises(ValueError, match=r"perturb: 'swap' with a broadcast b"):
        elw("ELWMUL", one, np.ones((1, 64)), perturb="swap")


# ---- the cross-check against `tmu run` of the same sequence ----

BCAST_FIELDS = {"none": "", "row": " BroadcastSrcBRow=1", "col": " BroadcastSrcBCol0=1",
                "scalar": " BroadcastSrcBRow=1 BroadcastSrcBCol0=1"}


def eltwise_program(op, bcast, a, b_tile, fmt, fidelity, dst32):
    """One 32x32 tile through llk_math_eltwise_binary.h's MOP for `op` with SrcB broadcast `bcast`,
    Blackhole. The unpacker's side (llk_unpack_AB.h) is written as bank fills before each face: SrcA
    gets a's face f every face; SrcB gets b's face f (none), face f % 2 (row: b's faces 0 and 1 for each
    face row), face 0 / 2 once per face row (col) or face 0 once (scalar). The face's last instruction
    releases SrcA, and SrcB unless it is broadcast across faces (col, scalar), which the LLK releases
    with SETRWC CLR_B after a face row (col) or the tile (scalar, with SET_D)."""
    typ = fmt.lower()
    passes = FIDELITIES.index(fidelity) + 1
    lines = [".arch blackhole", f".config ALU_ACC_CTRL_Fp32_enabled={int(dst32)}"]
    srcb_incr = 8 if bcast in ("none", "col") else 0
    lines.append(f".addrmod 0 SrcAIncr=8 SrcBIncr={srcb_incr} DestIncr=8")
    lines.append(f".addrmod 2 SrcAClear=1 SrcBClear=1 DestCR=1 FidelityIncr={int(passes > 1)}")
    lines.append(".addrmod 3 SrcAClear=1 SrcBClear=1 DestIncr=8 DestCToCR=1 FidelityClear=1")
    lines += ["ZEROACC Mode=3", "SETRWC SrcA=1 SrcB=1 Dst=1 Fidelity=1"]
    bank = {"srca": 0, "srcb": 0}

    def fill(directive, tile, face):
        n = bank[directive]
        lines.append(f".bank {directive} {n} owner=matrix format={fmt}")
        r0, c0 = (face // 2) * 16, (face % 2) * 16
        for r in range(16):
            vals = tile[r0 + r, c0:c0 + 16]
            lines.append(f".{directive} {n} {r} " + " ".join(f"{typ}:{float(v).hex()}" for v in vals))

    shared_b = bcast in ("col", "scalar")
    for face in range(4):
        fill("srca", a, face)
        b_face = {"none": face, "row": face % 2, "col": face - face % 2, "scalar": 0}[bcast]
        if {"none": True, "row": True, "col": face % 2 == 0, "scalar": face == 0}[bcast]:
            fill("srcb", b_tile, b_face)
        insn = op + BCAST_FIELDS[bcast]
        release = " FlipSrcA=1" if shared_b else " FlipSrcA=1 FlipSrcB=1"
        if op == "ELWMUL":
            for p in range(passes):
                last = p == passes - 1
                lines.append(f"{insn} AddrMod=0")
                lines.append(f"{insn}{release if last else ''} AddrMod={3 if last else 2}")
        else:
            lines += [f"{insn} AddrMod=0", f"{insn} AddrMod=0",
                      f"SETRWC{release} SrcA=1 SrcB=1 SrcACr=1 SrcBCr=1"]
        bank["srca"] ^= 1
        if not shared_b:
            bank["srcb"] ^= 1
        if bcast == "col" and face % 2 == 1:
            lines.append("SETRWC FlipSrcB=1")
            bank["srcb"] ^= 1
        if bcast == "scalar" and face == 3:
            lines.append("SETRWC FlipSrcB=1 Dst=1")
    return "\n".join(lines) + "\n"


CASES = [(op, bcast) for op in ("ELWADD", "ELWSUB", "ELWMUL") for bcast in ("none", "row", "col", "scalar")]


@pytest.mark.parametrize("op,bcast", CASES, ids=[f"{o}-{b}" for o, b in CASES])
def test_eltwise_equals_tmu_run_of_the_same_sequence_bit_for_bit(op, bcast, tmp_path, tmu_exe):
    k = CASES.index((op, bcast))
    fmt = FORMATS[k % 3]
    dst32 = k % 2 == 0
    fidelity = FIDELITIES[k % 4] if op == "ELWMUL" else "LoFi"
    rng = np.random.default_rng(100 + k)
    a = random_numbers(rng, (32, 32), fmt, -2, 2)
    full_b = random_numbers(rng, (32, 32), fmt, -2, 2)
    b = {"none": full_b, "row": full_b[:1, :], "col": full_b[:, :1], "scalar": full_b[:1, :1]}[bcast]
    # b's tile in L1 as tmu.tensix documents it: the broadcast row / column / element, zeros elsewhere
    b_tile = np.zeros((32, 32))
    b_tile[:b.shape[0], :b.shape[1]] = b
    dst = "FP32" if dst32 else DST16[fmt]
    r = elw(op, a, b, fidelity=fidelity, src_format=fmt, dst=dst, bits=True)
    path = tmp_path / "eltwise.tmu"
    path.write_text(eltwise_program(op, bcast, a, b_tile, fmt, fidelity, dst32))
    cli_values, cli_bits = cli_dst(*run_cli(tmu_exe, path, dst32, fmt))
    assert np.array_equal(cli_values, r["values"])
    assert np.array_equal(np.signbit(cli_values), np.signbit(r["values"]))
    assert np.array_equal(cli_bits, dst_layout_bits(r["bits"], dst32, fmt))
    # and the broadcast is what numpy's would be, wherever the result is exact in float64 terms
    if op != "ELWMUL" or fidelity == "HiFi4":
        exact = {"ELWADD": a + b, "ELWSUB": a - b, "ELWMUL": a * b}[op]
        close = np.isclose(r["values"], exact, rtol=2.0**-7, atol=0)
        assert close.mean() > 0.9

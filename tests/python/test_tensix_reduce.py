"""tmu.tensix.reduce: hand-derived sums, averages and maxima (ties, negatives, the argmax the hardware
keeps), every refusal, and the cross-check against `tmu run` of the same reduce LLK sequence written
out as a .tmu program (a bank hand-over per face, as llk_unpack_reduce.h's unpacker makes them)."""

import subprocess

import numpy as np
import pytest

import tmu
from tmu import tensix
from tensix_program import DST16, random_numbers, run_cli

MANTISSA_BITS = {"BF16": 7, "FP16": 10, "TF32": 10}
FORMAT_CODE = {"BF16": 5, "FP16": 1, "TF32": 4}  # formats.h DataFormat
I = np.arange(32)[:, None]
J = np.arange(32)[None, :]


# ---- sums and averages by hand ----

def test_fidelity_decides_whether_srca_low_bits_count():
    a = np.full((32, 32), 1.0078125)  # BF16 1 + 2^-7 in SrcA, scaler 1.0 in SrcB
    assert (tensix.reduce(a, "sum", "col") == 32.25).all()  # 32 (1 + 2^-7)
    assert (tensix.reduce(a, "sum", "col", fidelity="HiFi2") == 32.25).all()
    # LoFi multiplies only SrcA's top mantissa bits: 1 + 2^-7 counts as 1.
    assert (tensix.reduce(a, "sum", "col", fidelity="LoFi") == 32.0).all()


@pytest.mark.parametrize("arch", ["blackhole", "wormhole"])
def test_column_row_and_scalar_sums_land_on_their_elements(arch):
    # a[i, j] = (i + 1) 2^(j % 8 - 4): column j sums to 528 2^(j % 8 - 4), every partial sum exact.
    a = (I + 1) * np.exp2(J % 8 - 4)
    expect = 528 * np.exp2(np.arange(32) % 8 - 4)
    for dst in ("FP32", "BF16"):
        col = tensix.reduce(a, "sum", "col", dst=dst, variant=arch)
        assert col.shape == (1, 32) and np.array_equal(col[0], expect)
        row = tensix.reduce(a.T, "sum", "row", dst=dst, variant=arch)
        assert row.shape == (32, 1) and np.array_equal(row[:, 0], expect)
    # scalar: 528 * 4 * (2^-4 + ... + 2^3) = 528 * 63.75
    assert tensix.reduce(a, "sum", "scalar", variant=arch).tolist() == [[33660.0]]
    assert tensix.reduce(np.ones((32, 32)), "sum", "REDUCE_SCALAR", variant=arch).tolist() == [[1024.0]]
    assert tensix.reduce(a, "max", "scalar", variant=arch).tolist() == [[256.0]]   # 32 * 2^3


def test_tiles_along_the_reduced_dimension_accumulate():
    a = np.ones((96, 64))
    a[32:64] = 2.0                    # the second tile row
    r = tensix.reduce(a, "sum", "col", snapshots=True)
    assert (r["values"] == 32 + 64 + 32).all() and r["values"].shape == (1, 64)
    assert r["snapshots"].shape == (3, 1, 64)
    assert [s[0, 0] for s in r["snapshots"]] == [32, 96, 128]
    rows = tensix.reduce(a, "sum", "row")
    assert rows.shape == (96, 1) and rows[:32, 0].tolist() == [64] * 32 and rows[32:64, 0].tolist() == [128] * 32
    assert tensix.reduce(a, "sum", "scalar")[0, 0] == 64 * 96 + 32 * 64


def test_average_is_the_scaler():
    a = (I + 1) * np.ones((1, 32))    # column mean 16.5
    assert (tensix.reduce(a, "avg", "col") == 16.5).all()            # default scaler 1/32
    assert (tensix.reduce(a.T, "avg", "row") == 16.5).all()
    assert tensix.reduce(a, "avg", "scalar")[0, 0] == 16.5           # 1/32 twice = 1/1024
    tall = np.vstack([a, a + 32])     # rows 1..64: mean 32.5 with the default 1/64
    assert (tensix.reduce(tall, "avg", "col") == 32.5).all()
    # Explicit scalers: 0.25 on SUM, and AVG with scaler 1 is SUM.
    assert (tensix.reduce(a, "sum", "col", scaler=0.25) == 132).all()
    assert (tensix.reduce(a, "avg", "col", scaler=1.0) == 528).all()
    # REDUCE_SCALAR applies the scaler twice: 0.5 gives a quarter.
    assert tensix.reduce(np.ones((32, 32)), "sum", "scalar", scaler=0.5)[0, 0] == 256


def test_bits_are_the_dst_patterns():
    a = np.full((32, 32), 1.0078125)
    r = tensix.reduce(a, "sum", "col", bits=True)
    assert r["bits_format"] == "FP32" and (r["bits"] == 0x42010000).all()   # 32.25 = 1.0000001b 2^5
    # A 16-bit Dst rounds after every fidelity pass, to nearest with ties away from zero (the
    # accumulator's rounding, refmodel/engines/tensix/include/tmu/tensix/fpu/datapath.h). Faces 0 and 2 each give 16 in
    # phase 0 and 16 * 2^-7 = 0.125 in phase 1: 16, 16.125, then 32.125 -> 32.25 (a tie at ulp 0.25,
    # away), 32.375 -> 32.5 (again a tie): 32.5 = 0x4202, not the exact 32.25.
    r = tensix.reduce(a, "sum", "col", dst="BF16", bits=True)
    assert r["bits_format"] == "BF16" and (r["bits"] == 0x4202).all() and (r["values"] == 32.5).all()


# ---- maxima by hand ----

def test_max_with_negatives_and_each_dim():
    a = -np.exp2(I % 8) * np.ones((1, 32))                 # -1, -2, ..., -128 repeating down a column
    a[5, 3], a[30, 20] = 3.0, -0.5
    col = tensix.reduce(a, "max", "col")[0]
    assert col[3] == 3.0 and col[20] == -0.5 and col[0] == -1.0
    assert tensix.reduce(a.T, "max", "row")[:, 0].tolist() == col.tolist()
    assert tensix.reduce(a, "max", "scalar")[0, 0] == 3.0
    assert tensix.reduce(np.full((32, 32), -7.0), "max", "scalar")[0, 0] == -7.0


def test_max_uses_only_the_scalers_exponent():
    a = np.full((32, 32), 1.5)
    assert (tensix.reduce(a, "max", "col", scaler=2.0) == 3.0).all()
    assert (tensix.reduce(a, "max", "col", scaler=3.0) == 3.0).all()   # 3 = 1.5 * 2^1: scales by 2
    assert (tensix.reduce(a, "max", "col", scaler=0.75) == 0.75).all()  # exponent -1


def test_argmax_tie_rule_and_first_eight_rows():
    """GMPOOL.md: rows visited 4..7, 0..3, 8..15 per 16-row block, >= replaces, the index kept only for
    the first eight; raw index = 16 * phase + T[i], T = 0 3 6 1 4 7 2 5, two GMPOOLs per column per tile."""
    a = np.full((32, 32), -4.0)
    a[2, 0] = a[6, 0] = 5.0           # 0..3 are visited after 4..7: row 2
    a[5, 1] = a[7, 1] = 5.0           # within 4..7 the later: row 7
    a[1, 2] = a[3, 2] = 5.0           # within 0..3 the later: row 3
    a[4, 3], a[10, 3] = 1.0, 5.0      # the maximum in rows 8..15: value from row 10, index still row 4
    a[3, 4] = a[17, 4] = 5.0          # the later block wins a tie: row 17
    a[3, 5] = a[26, 5] = 5.0          # ... unless its row is beyond the first eight of the block: row 3
    a[20, 6] = 5.0
    a[:, 7] = -3.0
    a[12, 7], a[5, 7], a[1, 7] = -1.0, -2.0, -2.0   # negative maxima: value -1 (row 12), index row 1
    a[0, 20] = 5.0                    # a column of the second face: Dst row 16
    r = tensix.reduce(a, "max", "col", argmax=True, bits=True)
    assert r["values"][0, :8].tolist() == [5, 5, 5, 5, 5, 5, 5, -1] and r["values"][0, 20] == 5
    assert r["argmax"][0, :8].tolist() == [2, 7, 3, 4, 17, 3, 20, 1] and r["argmax"][0, 20] == 0
    # Raw: the second GMPOOL's phase (1) in bits 11:8; the index byte from the winning GMPOOL.
    t = [0, 3, 6, 1, 4, 7, 2, 5]
    assert r["argmax_raw"][0, 0] == 0x100 | t[2]
    assert r["argmax_raw"][0, 4] == 0x100 | (16 + t[1])
    assert r["argmax_raw"][0, 6] == 0x100 | (16 + t[4])
    assert r["bits_format"] == "BF16" and r["bits"][0, 0] == 0x40A0   # 5.0 in Dst's high half


def test_argmax_across_tiles_counts_phases():
    a = np.full((64, 32), -1.0)
    a[37, 0] = 2.0                    # tile 1, block 2 (rows 32..47), i = 5: index 32 + T[5] = 39
    a[63, 1], a[39, 1] = 3.0, 2.0     # row 63 is beyond the first eight of its block: index row 39
    a[:, 2] = 0.0                     # all zeros: see below
    r = tensix.reduce(a, "max", "col", argmax=True, src_format="FP16")
    assert r["argmax"][0, :2].tolist() == [37, 39] and r["values"][0, :2].tolist() == [2.0, 3.0]
    assert r["argmax_raw"][0, 0] == 0x300 | 39                       # four GMPOOLs: phase 3
    # GMPOOL.md's ReadDst adds the bias to the stored exponent, so a zero written to Dst reads back
    # above the +0 of a zero SrcA datum: block 0's last visited zero (row 3) is never displaced.
    assert r["argmax"][0, 2] == 3 and r["values"][0, 2] == 0.0


# ---- refusals ----

def test_refusals():
    one = np.ones((32, 32))
    with pytest.raises(ValueError, match=r"tmu.tensix.reduce: pool: unknown pool type 'min'"):
        tensix.reduce(one, "min")
    with pytest.raises(ValueError, match=r"dim: unknown dimension 'diag'"):
        tensix.reduce(one, "sum", "diag")
    with pytest.raises(ValueError, match=r"a: shape \(32, 48\) is not a non-empty multiple of the 32x32 tile"):
        tensix.reduce(np.ones((32, 48)))
    with pytest.raises(ValueError, match=r"scaler: element \(0, 0\) = 0.1 is not exactly a BF16 number"):
        tensix.reduce(one, scaler=0.1)
    with pytest.raises(TypeError, match=r"scaler: expected a real number or None"):
        tensix.reduce(one, scaler="half")
    with pytest.raises(ValueError, match=r"scaler: the average over 96 needs 1/96"):
        tensix.reduce(np.ones((96, 32)), "avg", "col")
    with pytest.raises(ValueError, match=r"scaler: the average of 2048 elements needs 1/sqrt\(2048\)"):
        tensix.reduce(np.ones((32, 64)), "avg", "scalar")
    with pytest.raises(ValueError, match=r"a: element \(0, 1\) = 1.00390625 is not exactly a BF16 number"):
        x = one.copy(); x[0, 1] = 1.00390625; tensix.reduce(x)
    with pytest.raises(ValueError, match=r"fidelity: unknown fidelity 'HiFi5'"):
        tensix.reduce(one, fidelity="HiFi5")
    with pytest.raises(ValueError, match=r"argmax: only pool='max' \(GMPOOL\) has an index"):
        tensix.reduce(one, "sum", argmax=True)
    with pytest.raises(tmu.Unsupported, match=r"argmax: only for REDUCE_COL"):
        tensix.reduce(one, "max", "row", argmax=True)
    with pytest.raises(tmu.Unsupported, match=r"argmax: GMPOOL returns the index only with a 32-bit Dst"):
        tensix.reduce(one, "max", argmax=True, dst="BF16")
    with pytest.raises(tmu.Unsupported, match=r"argmax: with TF32 GMPOOL writes the index instead of the value"):
        tensix.reduce(one, "max", argmax=True, src_format="TF32")
    with pytest.raises(tmu.Unsupported, match=r"argmax: 9 tiles along the reduced dimension"):
        tensix.reduce(np.ones((288, 32)), "max", argmax=True)


# ---- the cross-check: the reduce LLK as a tmu program, run by `tmu run` ----

class Program:
    """llk_math_reduce.h's instructions for one tile, written out, with the unpacker's bank fills
    (llk_unpack_reduce.h: per face SrcA zeroed then the face, SrcB row 0 the scaler) as directives."""

    def __init__(self, fmt, dst32, phases, arch="blackhole"):
        self.fmt, self.phases, self.bank = fmt, phases, 0
        code = FORMAT_CODE[fmt]
        self.lines = [f".arch {arch}",
                      f".config ALU_ACC_CTRL_Fp32_enabled={int(dst32)} ALU_FORMAT_SPEC_REG0_SrcA={code} "
                      f"ALU_FORMAT_SPEC_REG1_SrcB={code}",
                      ".addrmod 0 FidelityClear=1", ".addrmod 1 SrcBIncr=1 DestIncr=1",
                      ".addrmod 2 SrcBIncr=8 DestIncr=8", ".addrmod 3 FidelityIncr=1",
                      "ZEROACC Mode=3", "SETRWC SrcA=1 SrcB=1 Dst=1 Fidelity=1"]

    def value(self, v):
        return f"{self.fmt.lower()}:{float(v).hex()}"

    def face(self, face16, scaler):
        b, t = self.bank, self.fmt
        self.lines += [f".bank srca {b} owner=matrix format={t}", f".bank srcb {b} owner=matrix format={t}"]
        for r in range(16):
            self.lines.append(f".srca {b} {r} " + " ".join(self.value(v) for v in face16[r]))
        self.lines += [f".srca {b} 16-63 fill 0x0", f".srcb {b} 0 fill {self.value(scaler)}"]

    def release(self):
        self.bank ^= 1

    def pool(self, op, dst_row, release, argmax=False):
        flips = " FlipSrcA=1 FlipSrcB=1" if release else ""
        if op == "max":
            self.lines.append(f"GMPOOL Dim16x16=1 ArgMax={int(argmax)} DstRow={dst_row}{flips} AddrMod=0")
        elif self.phases == 1:
            self.lines.append(f"GAPOOL Dim16x16=1 DstRow={dst_row}{flips} AddrMod=0")
        else:
            self.lines += [f"GAPOOL Dim16x16=1 DstRow={dst_row} AddrMod=3"] * (self.phases - 1)
            self.lines.append(f"GAPOOL Dim16x16=1 DstRow={dst_row} AddrMod=0")
            if release:
                self.lines.append("CLEARDVALID FlipSrcA=1 FlipSrcB=1")
        if release:
            self.release()

    def setrwc(self, text, release=False):
        self.lines.append("SETRWC " + ("FlipSrcA=1 FlipSrcB=1 " if release else "") + text)
        if release:
            self.release()


def faces(tile, transpose):
    out = []
    for f in range(4):
        face = tile[(f // 2) * 16:(f // 2) * 16 + 16, (f % 2) * 16:(f % 2) * 16 + 16]
        out.append(face.T if transpose else face)
    return out


def reduce_program(tiles, op, dim, scaler, fmt, dst32, phases, argmax=False, arch="blackhole"):
    p = Program(fmt, dst32, phases, arch)
    for tile in tiles:
        fs = faces(tile, dim == "row")
        if dim == "col":
            for half in range(2):
                p.face(fs[2 * half], scaler)
                p.pool(op, 0, False, argmax)
                p.setrwc("DstCr=1 DstVal=8 Dst=1")
                p.setrwc("DstCr=1 DstVal=8 Dst=1", release=True)
                p.face(fs[2 * half + 1], scaler)
                p.pool(op, 0, False, argmax)
                p.setrwc("SrcA=1 Dst=1", release=True)
        elif dim == "row":
            for half in range(2):
                p.face(fs[2 * half], scaler)
                p.pool(op, 0, True)
                p.face(fs[2 * half + 1], scaler)
                p.pool(op, 0, False)
                p.lines += ["SETRWC DstCr=1 SrcA=1 SrcB=1", "MOVD2B SrcRow=16 DstRow=0 AddrMod=0", "TRNSPSRCB",
                            "MOVD2B SrcRow=16 DstRow=0 AddrMod=0", "SETRWC SrcBCr=1 SrcBVal=8 SrcB=1",
                            "SETRWC SrcBCr=1 SrcBVal=8 SrcB=1", "ZEROSRC ClearSrcA=1 SingleBankMatrixUnit=1",
                            "ELWADD AddrMod=2", "ELWADD AddrMod=2"]
                if half == 0:
                    p.lines += ["SETRWC DstCr=1 DstVal=8 Dst=1"] * 3
                    p.setrwc("DstCr=1 DstVal=8 SrcB=1 Dst=1", release=True)
                else:
                    p.setrwc("SrcB=1 Dst=1", release=True)
        else:
            for f in range(4):
                p.face(fs[f], scaler)
                p.pool(op, 4, f < 3)
            p.lines += ["SETRWC DstCr=1 SrcA=1 SrcB=1", "MOVD2B SrcRow=16 DstRow=4 AddrMod=0",
                        "GATESRCRST ResetSrcAGateControl=1 InvalidateSrcBCache=1", "TRNSPSRCB",
                        "GATESRCRST ResetSrcAGateControl=1 InvalidateSrcBCache=1"]
            p.lines += [f"MOVB2A SrcARow={r} Move4Rows=1 SrcBRow={16 + r} AddrMod=0" for r in (0, 4, 8, 12)]
            p.lines += ["GATESRCRST ResetSrcAGateControl=1 InvalidateSrcBCache=1", "ZEROACC Mode=0 Imm10=4 AddrMod=0"]
            if op == "max":
                p.lines.append("GMPOOL Dim16x16=1 DstRow=0 FlipSrcA=1 FlipSrcB=1 AddrMod=0")
            else:
                p.lines += ["GAPOOL Dim16x16=1 DstRow=0 AddrMod=3"] * (phases - 1)
                p.lines.append("GAPOOL Dim16x16=1 DstRow=0 FlipSrcA=1 FlipSrcB=1 AddrMod=0")
            p.release()
    return "\n".join(p.lines) + "\n"


def result_cells(dim):
    """(Dst row, column) of each result: tile row 0, tile column 0, or element (0, 0)."""
    if dim == "scalar":
        return [(0, 0)]
    if dim == "col":
        return [((j // 16) * 16, j % 16) for j in range(32)]
    return [(i if i < 16 else 32 + i - 16, 0) for i in range(32)]


POOLS, DIMS, FORMATS, FIDELITIES = ["sum", "avg", "max"], ["col", "row", "scalar"], ["BF16", "FP16", "TF32"], ["LoFi", "HiFi4"]


@pytest.mark.parametrize("dst32", [True, False], ids=["dst32", "dst16"])
@pytest.mark.parametrize("fidelity", FIDELITIES)
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("dim", DIMS)
@pytest.mark.parametrize("pool", POOLS)
def test_reduce_equals_tmu_run_of_the_llk_sequence(pool, dim, fmt, fidelity, dst32, tmp_path, tmu_exe):
    seed = (((POOLS.index(pool) * 3 + DIMS.index(dim)) * 3 + FORMATS.index(fmt)) * 2 + FIDELITIES.index(fidelity)) * 2 + dst32
    rng = np.random.default_rng(seed)
    # Two tiles along the reduced dimension, so the accumulation in Dst is covered too.
    shape = {"col": (64, 32), "row": (32, 64), "scalar": (32, 64)}[dim]
    a = random_numbers(rng, shape, fmt, -2, 2)
    scaler = {"sum": 1.0, "avg": 0.5 if dim == "scalar" else 0.015625, "max": 1.0}[pool]
    tiles = [a[:, :32], a[:, 32:]] if shape[1] == 64 else [a[:32], a[32:]]
    path = tmp_path / "reduce.tmu"
    path.write_text(reduce_program(tiles, pool, dim, scaler, fmt, dst32, 1 if fidelity == "LoFi" else 4))
    kwargs = dict(scaler=scaler, fidelity=fidelity, src_format=fmt, dst="FP32" if dst32 else DST16[fmt], bits=True)
    if pool == "max" and fmt == "FP16" and dst32:
        with pytest.raises(tmu.Unsupported, match=r"MAX of FP16 with a 32-bit Dst: GMPOOL.md lists it"):
            tensix.reduce(a, pool, dim, **kwargs)
        return
    if fmt == "TF32" and not dst32 and dim != "col":
        # MOVD2B of a 16-bit Dst into a TF32 SrcB is undefined (MOVD2B.md): both refuse it.
        with pytest.raises(tmu.UndefinedBehaviour, match=r"MOVD2B .*Dst16b cannot hold TF32"):
            tensix.reduce(a, pool, dim, **kwargs)
        cli = subprocess.run([tmu_exe, "run", str(path)], capture_output=True, text=True)
        assert cli.returncode == 2 and "Dst16b cannot hold TF32" in cli.stderr
        return
    r = tensix.reduce(a, pool, dim, **kwargs)
    vals, _ = run_cli(tmu_exe, path, dst32, fmt)
    cli = np.array([float(vals[row][col]) for row, col in result_cells(dim)])
    ours = r["values"].ravel()
    assert np.array_equal(cli, ours) and np.array_equal(np.signbit(cli), np.signbit(ours))
    if pool == "max" and (fmt != "TF32" or dst32):
        # The maximum is one of the inputs (a 16-bit Dst would cut TF32's mantissa to BF16's).
        expect = {"col": a.max(axis=0), "row": a.max(axis=1), "scalar": np.array([a.max()])}[dim]
        assert np.array_equal(ours, expect)


def test_argmax_equals_tmu_run(tmp_path, tmu_exe):
    rng = np.random.default_rng(7)
    a = np.round(rng.integers(-4, 5, (64, 32)).astype(float))   # many ties
    r = tensix.reduce(a, "max", "col", argmax=True)
    path = tmp_path / "argmax.tmu"
    path.write_text(reduce_program([a[:32], a[32:]], "max", "col", 1.0, "BF16", True, 4, argmax=True))
    _, bits = run_cli(tmu_exe, path, True, "BF16")
    raw = np.array([int(bits[row][col], 16) & 0xFFF for row, col in result_cells("col")])
    assert np.array_equal(raw, r["argmax_raw"][0])
    assert np.array_equal(r["values"][0], a.max(axis=0))
    # Every reported row holds the maximum of its column (the first eight rows of some block do here).
    assert all(a[r["argmax"][0, j], j] == a[:, j].max() or (a[:, j].max() not in a[[k for k in range(64) if k % 16 < 8], j])
               for j in range(32))


@pytest.mark.parametrize("dim", DIMS)
@pytest.mark.parametrize("pool", POOLS)
def test_wormhole_equals_tmu_run(pool, dim, tmp_path, tmu_exe):
    rng = np.random.default_rng(100 + POOLS.index(pool) * 3 + DIMS.index(dim))
    a = random_numbers(rng, (64, 64), "BF16", -2, 2)
    scaler = 0.25 if pool == "avg" else 1.0
    r = tensix.reduce(a[:32, :32] if dim != "col" else a[:, :32], pool, dim, scaler=scaler, fidelity="HiFi2", variant="wormhole")
    tiles = [a[:32, :32]] if dim != "col" else [a[:32, :32], a[32:, :32]]
    path = tmp_path / "reduce.tmu"
    path.write_text(reduce_program(tiles, pool, dim, scaler, "BF16", True, 2, arch="wormhole"))
    vals, _ = run_cli(tmu_exe, path, True, "BF16")
    assert np.array_equal(np.array([float(vals[row][col]) for row, col in result_cells(dim)]), r.ravel())

"""tmu.tensix: hand-derived results, refusals, and the cross-check against `tmu run` of the same LLK
sequence (vectors/programs/matmul_32x32_hifi4.tmu with other operands, fidelities, formats and Dst
modes) bit for bit."""

import re
import subprocess

import numpy as np
import pytest

import tmu
from tmu import tensix

MANTISSA_BITS = {"BF16": 7, "FP16": 10, "TF32": 10}
DST16 = {"BF16": "BF16", "FP16": "FP16", "TF32": "BF16"}


def random_numbers(rng, shape, fmt, lo=-3, hi=3):
    """Numbers of the format (normal, small exponents), exact in float64: (-1)^s (1 + m 2^-mb) 2^e."""
    mb = MANTISSA_BITS[fmt]
    s = rng.integers(0, 2, shape)
    m = rng.integers(0, 2**mb, shape)
    e = rng.integers(lo, hi + 1, shape)
    return np.where(s == 1, -1.0, 1.0) * (1 + m / 2.0**mb) * np.exp2(e)


def test_readme_program_by_hand():
    # vectors/programs/matmul_32x32_hifi4.tmu: SrcA (b) all 1.0078125, SrcB (a) all 2 -> 32 * 2 * (1 + 2^-7)
    a = np.full((32, 32), 2.0)
    b = np.full((32, 32), 1.0078125)
    r = tensix.matmul(a, b, fidelity="HiFi4", bits=True, snapshots=True)
    assert (r["values"] == 64.5).all()
    assert r["bits_format"] == "FP32" and (r["bits"] == 0x42810000).all()   # 1.0000001b * 2^6
    # LoFi: phase 0 takes SrcA's top mantissa bits only, so 1 + 2^-7 counts as 1: 64. Phase 1 adds 0.5.
    assert list(r["snapshots"][0, :, 0, 0]) == [0, 64, 64.5, 64.5, 64.5]
    assert (tensix.matmul(a, b, fidelity="LoFi") == 64).all()


def test_k_tiles_accumulate_and_output_tiles_are_independent():
    a = np.ones((64, 96))
    b = np.ones((96, 32))
    b[:, :] = 0.5
    out = tensix.matmul(a, b)
    assert out.shape == (64, 32) and (out == 48).all()       # 96 * 0.5


def test_matmul_tiles_equal_one_tile_runs():
    rng = np.random.default_rng(5)
    a = random_numbers(rng, (64, 64), "BF16")
    b = random_numbers(rng, (64, 64), "BF16")
    whole = tensix.matmul(a, b, fidelity="HiFi2")
    part = tensix.matmul(a[32:, :], b[:, :32], fidelity="HiFi2")
    assert np.array_equal(whole[32:, :32], part)


def test_eltwise_by_hand():
    x = np.full((32, 32), 1.0078125)                          # BF16 1 + 2^-7
    assert (tensix.eltwise_binary("ELWMUL", x, x) == 1 + 2**-6 + 2**-14).all()   # exact in FP32 at HiFi4
    assert (tensix.eltwise_binary("ELWADD", x, x) == 2.015625).all()
    # LoFi multiplies SrcA's top 5 significand bits (1.0000b: the 2^-7 bit is not among them) by
    # SrcB's top 7 (1.000000b, likewise): 1 * 1.
    assert (tensix.eltwise_binary("ELWMUL", x, x, fidelity="LoFi") == 1.0).all()


def test_perturbations_change_the_result():
    rng = np.random.default_rng(3)
    a = random_numbers(rng, (32, 32), "BF16")
    b = random_numbers(rng, (32, 32), "BF16")
    good = tensix.matmul(a, b, fidelity="HiFi4")
    for p in ("skip1", "repeat0", "negate2", "swap"):
        assert not np.array_equal(tensix.matmul(a, b, fidelity="HiFi4", perturb=p), good), p
    assert np.array_equal(tensix.matmul(a, b, perturb="none"), good)


def test_conversion_rne_rounds_and_flushes_below_the_smallest_normal():
    a = np.full((32, 32), 1 + 2**-8)          # halfway between 1 and 1 + 2^-7 in BF16: even is 1
    a[0, 0] = 2.0**-130                        # below BF16's smallest normal on the Matrix Unit: 0
    b = np.eye(32)
    out = tensix.matmul(a, b, conversion="rne")
    assert out[0, 0] == 0 and out[0, 1] == 1.0


# ---- refusals ----

def test_inexact_input_names_the_first_offending_element():
    a = np.ones((32, 32))
    a[3, 5] = 0.1
    with pytest.raises(ValueError, match=r"tmu.tensix.matmul: a: element \(3, 5\) = 0.1 is not exactly a BF16 number "
                                         r"\(pass conversion='rne' to round\)"):
        tensix.matmul(a, np.ones((32, 32)))
    b = np.ones((32, 32))
    b[0, 1] = 2.0**-127
    with pytest.raises(ValueError, match=r"tmu.tensix.matmul: b: element \(0, 1\) = .* is below BF16's smallest normal"):
        tensix.matmul(np.ones((32, 32)), b)
    b[0, 1] = np.inf
    with pytest.raises(ValueError, match=r"b: element \(0, 1\) = inf is not a number the Matrix Unit's BF16 holds"):
        tensix.matmul(np.ones((32, 32)), b)


def test_wrong_shapes_and_keywords_are_named():
    one = np.ones((32, 32))
    with pytest.raises(ValueError, match=r"tmu.tensix.matmul: a: shape \(32, 33\) is not a non-empty multiple of the 32x32 tile"):
        tensix.matmul(np.ones((32, 33)), one)
    with pytest.raises(ValueError, match=r"tmu.tensix.matmul: b: has 64 rows, a has 32 columns"):
        tensix.matmul(one, np.ones((64, 32)))
    with pytest.raises(ValueError, match=r"tmu.tensix.matmul: a: expected a 2-D array, got 1 dimensions"):
        tensix.matmul(np.ones(32), one)
    with pytest.raises(ValueError, match=r"fidelity: unknown fidelity 'HiFi5'"):
        tensix.matmul(one, one, fidelity="HiFi5")
    with pytest.raises(ValueError, match=r"src_format: unknown source format 'FP8'"):
        tensix.matmul(one, one, src_format="FP8")
    with pytest.raises(ValueError, match=r"dst: unknown Dst mode 'FP16' for BF16 sources \(expected FP32, or BF16"):
        tensix.matmul(one, one, dst="FP16")
    with pytest.raises(ValueError, match=r"arch: unknown arch 'grayskull'"):
        tensix.matmul(one, one, arch="grayskull")
    with pytest.raises(ValueError, match=r"perturb: unknown perturbation 'skip9'"):
        tensix.matmul(one, one, perturb="skip9")
    with pytest.raises(ValueError, match=r"perturb: 'skip3' names phase 3, but HiFi2 runs phases 0..1"):
        tensix.matmul(one, one, fidelity="HiFi2", perturb="skip3")
    with pytest.raises(ValueError, match=r"conversion: expected None"):
        tensix.matmul(one, one, conversion="truncate")
    with pytest.raises(TypeError, match=r"tmu.tensix.matmul: a: expected real numbers .* got dtype complex128"):
        tensix.matmul(one.astype(complex), one)
    with pytest.raises(TypeError):
        tensix.matmul(one, one, "HiFi4")   # keywords only after a and b
    with pytest.raises(ValueError, match=r"tmu.tensix.eltwise_binary: op: unknown operation 'ELWDIV'"):
        tensix.eltwise_binary("ELWDIV", one, one)
    with pytest.raises(ValueError, match=r"tmu.tensix.eltwise_binary: b: shape \(64, 32\) differs from a's \(32, 32\)"):
        tensix.eltwise_binary("ELWMUL", one, np.ones((64, 32)))


def test_elwsub_is_not_modelled_yet():
    one = np.ones((32, 32))
    with pytest.raises(tmu.Unsupported, match=r"ELWSUB: the audit has no LLK sequence for it yet"):
        tensix.eltwise_binary("ELWSUB", one, one)


# ---- the cross-check: the same LLK sequence as a tmu program, run by `tmu run` ----

def program(a, b, fmt, fidelity, dst32, source_dir):
    """vectors/programs/matmul_32x32_hifi4.tmu with a (to SrcB) and b (to SrcA) filled row by row,
    the Src format, the Dst mode and the fidelity's pass count and phase increment."""
    passes = {"LoFi": 1, "HiFi2": 2, "HiFi3": 3, "HiFi4": 4}[fidelity]
    text = (source_dir / "vectors" / "programs" / "matmul_32x32_hifi4.tmu").read_text()
    lines = []
    typ = fmt.lower()
    for line in text.splitlines():
        if line.startswith(".srca 0 0-63 fill") or line.startswith(".srcb 0 0-63 fill"):
            bank, tile = (line[1:5], b) if line.startswith(".srca") else (line[1:5], a)
            for row in range(64):
                face = row // 16
                r = (face // 2) * 16 + row % 16
                c0 = (face % 2) * 16
                # SrcB row: a[r, c]; SrcA row: b[r, c] (tile element (r, c) of the operand)
                vals = tile[r, c0:c0 + 16]
                lines.append(f".{bank} 0 {row} " + " ".join(f"{typ}:{float(v).hex()}" for v in vals))
            continue
        line = line.replace("format=BF16", f"format={fmt}")
        line = line.replace("ALU_ACC_CTRL_Fp32_enabled=1", f"ALU_ACC_CTRL_Fp32_enabled={int(dst32)}")
        line = line.replace(".repeat 4", f".repeat {passes}")
        if passes == 1:
            line = line.replace("FidelityIncr=1", "FidelityIncr=0")
        lines.append(line)
    return "\n".join(lines) + "\n"


def run_cli(tmu_exe, path, dst32, fmt):
    show, values = ("dst32", "fp32") if dst32 else ("dst", DST16[fmt].lower())
    out = subprocess.run([tmu_exe, "run", str(path), "--show", show, "--values", values, "--format", "lines"],
                         check=True, capture_output=True, text=True).stdout
    rows_values, rows_bits = {}, {}
    for line in out.splitlines():
        m = re.match(rf"{show}\.(\d+)\.(values|bits): (.*)", line)
        if m:
            (rows_values if m.group(2) == "values" else rows_bits)[int(m.group(1))] = m.group(3).split()
    return rows_values, rows_bits


def dst_layout_bits(ieee_bits, dst32, fmt):
    """IEEE-order patterns -> the Dst layouts `tmu run` prints (formats.h): Dst32 FP32 = sign 31, mantissa
    high 7 bits 30:24, exponent 23:16, mantissa low 16 bits 15:0; Dst16 BF16 = sign 15, mantissa 14:8,
    exponent 7:0; Dst16 FP16 = sign 15, mantissa 14:5, exponent 4:0."""
    v = ieee_bits.astype(np.uint64)
    if dst32:
        sign, exp, man = v >> 31, (v >> 23) & 0xFF, v & 0x7FFFFF
        return (sign << 31) | ((man >> 16) << 24) | (exp << 16) | (man & 0xFFFF)
    if DST16[fmt] == "BF16":
        sign, exp, man = v >> 15, (v >> 7) & 0xFF, v & 0x7F
        return (sign << 15) | (man << 8) | exp
    sign, exp, man = v >> 15, (v >> 10) & 0x1F, v & 0x3FF
    return (sign << 15) | (man << 5) | exp


@pytest.mark.parametrize("dst32", [True, False], ids=["dst32", "dst16"])
@pytest.mark.parametrize("fidelity", ["LoFi", "HiFi2", "HiFi3", "HiFi4"])
@pytest.mark.parametrize("fmt", ["BF16", "FP16", "TF32"])
def test_matmul_equals_tmu_run_of_the_same_sequence_bit_for_bit(fmt, fidelity, dst32, tmp_path, tmu_exe, source_dir):
    seed = ["BF16", "FP16", "TF32"].index(fmt) * 10 + ["LoFi", "HiFi2", "HiFi3", "HiFi4"].index(fidelity) * 2 + dst32
    rng = np.random.default_rng(seed)
    a = random_numbers(rng, (32, 32), fmt, -2, 2)
    b = random_numbers(rng, (32, 32), fmt, -2, 2)
    dst = "FP32" if dst32 else DST16[fmt]
    r = tensix.matmul(a, b, fidelity=fidelity, src_format=fmt, dst=dst, bits=True)
    path = tmp_path / "matmul.tmu"
    path.write_text(program(a, b, fmt, fidelity, dst32, source_dir))
    rows_values, rows_bits = run_cli(tmu_exe, path, dst32, fmt)
    layout = dst_layout_bits(r["bits"], dst32, fmt)
    i, j = np.meshgrid(np.arange(32), np.arange(32), indexing="ij")
    dst_row = ((i // 16) * 2 + j // 16) * 16 + i % 16
    cli_values = np.array([[float(rows_values[dst_row[p, q]][q % 16]) for q in range(32)] for p in range(32)])
    cli_bits = np.array([[int(rows_bits[dst_row[p, q]][q % 16], 16) for q in range(32)] for p in range(32)])
    assert np.array_equal(cli_values, r["values"])
    assert np.array_equal(np.signbit(cli_values), np.signbit(r["values"]))
    assert np.array_equal(cli_bits, layout)

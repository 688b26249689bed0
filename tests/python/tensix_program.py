"""The tmu.tensix cross-check's other side: the LLK sequence of a matmul written out as a `tmu run` program
(vectors/programs/matmul_32x32_hifi4.tmu with other operands, K tiles, fidelity, source format and Dst
mode), run by the CLI, and its Dst read back in tmu.tensix's element order. Shared by test_tensix.py
(K = 32) and test_tensix_crosscheck.py (K = 64, 96)."""

import re
import subprocess

import numpy as np

MANTISSA_BITS = {"BF16": 7, "FP16": 10, "TF32": 10}
DST16 = {"BF16": "BF16", "FP16": "FP16", "TF32": "BF16"}
FIDELITIES = ["LoFi", "HiFi2", "HiFi3", "HiFi4"]
FORMATS = ["BF16", "FP16", "TF32"]


def random_numbers(rng, shape, fmt, lo=-3, hi=3):
    """Numbers of the format (normal, small exponents), exact in float64: (-1)^s (1 + m 2^-mb) 2^e."""
    mb = MANTISSA_BITS[fmt]
    s = rng.integers(0, 2, shape)
    m = rng.integers(0, 2**mb, shape)
    e = rng.integers(lo, hi + 1, shape)
    return np.where(s == 1, -1.0, 1.0) * (1 + m / 2.0**mb) * np.exp2(e)


def _src_rows(bank, directive, tile, typ):
    """A 32x32 operand tile as the unpacker leaves it in a Src bank: face f (16x16, row-major faces)
    in rows 16f..16f+15."""
    lines = []
    for row in range(64):
        face = row // 16
        r = (face // 2) * 16 + row % 16
        c0 = (face % 2) * 16
        vals = tile[r, c0:c0 + 16]
        lines.append(f".{directive} {bank} {row} " + " ".join(f"{typ}:{float(v).hex()}" for v in vals))
    return lines


def program(a, b, fmt, fidelity, dst32, source_dir):
    """matmul_32x32_hifi4.tmu's sequence for a (32, K) times b (K, 32): for each K tile, a's tile to
    SrcB and b's to SrcA in the bank the Matrix Unit reads next, as the audit's unpacker writes them
    (the closing SETRWC has FlipSrcB=1 and no SrcA flip: SrcB alternates banks, SrcA stays in bank 0),
    the 16-MVMUL replay once per fidelity pass, accumulating into the same Dst rows; ZEROACC once."""
    passes = FIDELITIES.index(fidelity) + 1
    k_tiles = a.shape[1] // 32
    assert a.shape == (32, 32 * k_tiles) and b.shape == (32 * k_tiles, 32)
    text = (source_dir / "vectors" / "programs" / "matmul_32x32_hifi4.tmu").read_text()
    header, setup, replay = [], [], []
    section = header
    for line in text.splitlines():
        if line.startswith((".bank", ".srca", ".srcb")):
            continue  # written per K tile below
        line = line.replace("ALU_ACC_CTRL_Fp32_enabled=1", f"ALU_ACC_CTRL_Fp32_enabled={int(dst32)}")
        line = line.replace(".repeat 4", f".repeat {passes}")
        if passes == 1:
            line = line.replace("FidelityIncr=1", "FidelityIncr=0")
        if line.startswith("ZEROACC"):
            section = setup
        elif line.startswith(".repeat"):
            section = replay
        section.append(line)
    typ = fmt.lower()
    lines = list(header)
    for kt in range(k_tiles):
        bank_b = kt % 2
        lines += [f".bank srca 0 owner=matrix format={fmt}", f".bank srcb {bank_b} owner=matrix format={fmt}"]
        lines += _src_rows(0, "srca", b[32 * kt:32 * kt + 32, :], typ)
        lines += _src_rows(bank_b, "srcb", a[:, 32 * kt:32 * kt + 32], typ)
        if kt == 0:
            lines += setup
        lines += replay
    return "\n".join(lines) + "\n"


def run_cli(tmu_exe, path, dst32, fmt):
    """`tmu run` of the program: Dst rows' values and bits as printed (lines format)."""
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


def cli_dst(rows_values, rows_bits):
    """The 32x32 output tile from the CLI's Dst rows (face f of the tile in rows 16f..16f+15)."""
    i, j = np.meshgrid(np.arange(32), np.arange(32), indexing="ij")
    dst_row = ((i // 16) * 2 + j // 16) * 16 + i % 16
    values = np.array([[float(rows_values[dst_row[p, q]][q % 16]) for q in range(32)] for p in range(32)])
    bits = np.array([[int(rows_bits[dst_row[p, q]][q % 16], 16) for q in range(32)] for p in range(32)])
    return values, bits


def assert_matmul_equals_cli(tensix, a, b, fmt, fidelity, dst32, path, tmu_exe, source_dir):
    """tensix.matmul of a @ b and `tmu run` of the same LLK sequence written to `path` give the same
    Dst values, signs of zero and stored bits."""
    r = tensix.matmul(a, b, fidelity=fidelity, src_format=fmt, dst="FP32" if dst32 else DST16[fmt], bits=True)
    path.write_text(program(a, b, fmt, fidelity, dst32, source_dir))
    values, bits = cli_dst(*run_cli(tmu_exe, path, dst32, fmt))
    assert np.array_equal(values, r["values"])
    assert np.array_equal(np.signbit(values), np.signbit(r["values"]))
    assert np.array_equal(bits, dst_layout_bits(r["bits"], dst32, fmt))

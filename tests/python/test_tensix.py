"""tmu.tensix: hand-derived results, refusals, and the cross-check against `tmu run` of the same LLK
sequence (vectors/programs/matmul_32x32_hifi4.tmu with other operands, fidelities, formats and Dst
modes) bit for bit."""

import numpy as np
import pytest

from tmu import tensix
from tensix_program import FIDELITIES, FORMATS, assert_matmul_equals_cli, random_numbers


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
    with pytest.raises(ValueError, match=r"variant: unknown arch 'grayskull'"):
        tensix.matmul(one, one, variant="grayskull")
    with pytest.raises(ValueError, match=r"perturb: unknown perturbation 'skip9'"):
        tensix.matmul(one, one, perturb="skip9")
    with pytest.raises(ValueError, match=r"perturb: unknown perturbation 'skip0' \(expected none, skipN with N a phase 1..3"):
        tensix.matmul(one, one, perturb="skip0")
    with pytest.raises(ValueError, match=r"perturb: 'skip3' names phase 3, but HiFi2 runs phases 0..1"):
        tensix.matmul(one, one, fidelity="HiFi2", perturb="skip3")
    with pytest.raises(ValueError, match=r"conversion: expected None .* or 'unpacker'"):
        tensix.matmul(one, one, conversion="truncate")
    with pytest.raises(TypeError, match=r"tmu.tensix.matmul: a: expected real numbers .* got dtype complex128"):
        tensix.matmul(one.astype(complex), one)
    with pytest.raises(TypeError):
        tensix.matmul(one, one, "HiFi4")   # keywords only after a and b
    with pytest.raises(ValueError, match=r"tmu.tensix.eltwise_binary: op: unknown operation 'ELWDIV'"):
        tensix.eltwise_binary("ELWDIV", one, one)
    with pytest.raises(ValueError, match=r"tmu.tensix.eltwise_binary: b: shape \(64, 32\) does not broadcast against "
                                         r"a's \(32, 32\) \(expected \(32, 32\), \(1, 32\) for a row, \(32, 1\) for a column "
                                         r"or \(1, 1\) for a scalar\)"):
        tensix.eltwise_binary("ELWMUL", one, np.ones((64, 32)))


# ---- the cross-check: the same LLK sequence as a tmu program, run by `tmu run` ----

@pytest.mark.parametrize("dst32", [True, False], ids=["dst32", "dst16"])
@pytest.mark.parametrize("fidelity", FIDELITIES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_matmul_equals_tmu_run_of_the_same_sequence_bit_for_bit(fmt, fidelity, dst32, tmp_path, tmu_exe, source_dir):
    seed = FORMATS.index(fmt) * 10 + FIDELITIES.index(fidelity) * 2 + dst32
    rng = np.random.default_rng(seed)
    a = random_numbers(rng, (32, 32), fmt, -2, 2)
    b = random_numbers(rng, (32, 32), fmt, -2, 2)
    assert_matmul_equals_cli(tensix, a, b, fmt, fidelity, dst32, tmp_path / "matmul.tmu", tmu_exe, source_dir)

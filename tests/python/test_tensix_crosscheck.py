"""tmu.tensix.matmul with K > 32 equals `tmu run` of the same LLK sequence bit for bit: K tiles (64, 96)
accumulating in Dst, random operands, every source format, fidelity and Dst mode (tensix_program.py
writes the program)."""

import numpy as np
import pytest

from tmu import tensix
from tensix_program import FIDELITIES, FORMATS, assert_matmul_equals_cli, cli_dst, program, random_numbers, run_cli


@pytest.mark.parametrize("k", [64, 96])
@pytest.mark.parametrize("dst32", [True, False], ids=["dst32", "dst16"])
@pytest.mark.parametrize("fidelity", FIDELITIES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_matmul_k_tiles_equal_tmu_run_bit_for_bit(fmt, fidelity, dst32, k, tmp_path, tmu_exe, source_dir):
    seed = 1000 + k + FORMATS.index(fmt) * 10 + FIDELITIES.index(fidelity) * 2 + dst32
    rng = np.random.default_rng(seed)
    a = random_numbers(rng, (32, k), fmt, -2, 2)
    b = random_numbers(rng, (k, 32), fmt, -2, 2)
    assert_matmul_equals_cli(tensix, a, b, fmt, fidelity, dst32, tmp_path / "matmul.tmu", tmu_exe, source_dir)


def test_the_k_tiles_matter(tmp_path, tmu_exe, source_dir):
    # Guards the program against running only its first K tile: the second tile alone changes Dst.
    a = np.ones((32, 64))
    b = np.ones((64, 32))
    b[32:, :] = 2.0
    assert (tensix.matmul(a, b) == 32 * 1 + 32 * 2).all()
    path = tmp_path / "matmul.tmu"
    path.write_text(program(a, b, "BF16", "HiFi4", True, source_dir))
    values, _ = cli_dst(*run_cli(tmu_exe, path, True, "BF16"))
    assert (values == 96).all()

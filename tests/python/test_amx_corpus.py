"""Every matfp vector of `tmu --engine amx vectors` (level 1, and level 2 with a fixed seed) replayed
through tmu.amx: the Z rows State.matfp writes are exactly the file's `expect` rows, byte for byte
(docs/vector-format.md, "AMX records")."""

import pathlib
import subprocess

import numpy as np
import pytest

from tmu import amx


def words(fields):
    """Sixteen 32-bit hex words -> a register's 64 bytes (word k is bytes 4k..4k+3, little-endian)."""
    return np.array([int(w, 16) for w in fields], dtype="<u4")


def replay_file(path):
    """(vectors, differing vectors, Z rows compared) of one file."""
    count = failed = rows = 0
    arch, vec = None, None
    for line in pathlib.Path(path).read_text().splitlines():
        f = line.split("#")[0].split()
        if not f:
            continue
        if f[0] == "arch":
            arch = f[1]
        elif f[0] == "vector":
            vec = {"state": amx.State(arch), "expect": {}}
        elif f[0] == "init":
            reg = getattr(vec["state"], f[1])  # a uint8 view of the model's x, y or z
            reg[int(f[2])] = words(f[3:]).view(np.uint8)
        elif f[0] == "insn":
            vec["operand"] = int(f[1], 16)
        elif f[0] == "expect":
            vec["expect"][int(f[2])] = words(f[3:]).view(np.uint8)
        elif f[0] == "end":
            s = vec["state"]
            written = s.matfp(vec["operand"])
            ok = sorted(written) == sorted(vec["expect"]) and all(
                np.array_equal(s.z[r], want) for r, want in vec["expect"].items())
            count += 1
            failed += not ok
            rows += len(vec["expect"])
    return count, failed, rows


@pytest.fixture(scope="module")
def amx_vectors(tmp_path_factory, tmu_exe):
    out = tmp_path_factory.mktemp("amx_vectors")
    subprocess.run([tmu_exe, "--engine", "amx", "vectors", "-o", str(out)], check=True, capture_output=True)
    subprocess.run([tmu_exe, "--engine", "amx", "vectors", "-o", str(out / "random"), "--level", "2", "-n", "64",
                    "--seed", "7"], check=True, capture_output=True)
    return sorted(out.glob("**/*.tmv"))


def test_every_amx_vector_replayed_through_python_gives_the_expected_z_rows(amx_vectors):
    names = {p.name for p in amx_vectors}
    assert {"M1-f16.tmv", "M1-f32.tmv", "M1-f64.tmv", "M1-f16f32.tmv", "M2-bf16.tmv", "M2-bf16f32.tmv",
            "M1-fields.tmv", "M1-random.tmv", "M2-random.tmv"} <= names
    total = 0
    for path in amx_vectors:
        count, failed, rows = replay_file(path)
        assert count > 0 and rows > 0, path.name  # a random operand may enable no lane: no row
        assert failed == 0, f"{path.name}: {failed} of {count} vectors differ"
        total += count
    assert total >= 1016 + 2 * 64  # level 1's vectors (tmu vectors' own count) and the random ones


def test_a_wrong_expectation_is_noticed(amx_vectors, tmp_path):
    # The replay must be able to fail: one expected byte changed in a copy of the f32 file.
    src = next(p for p in amx_vectors if p.name == "M1-f32.tmv")
    lines = src.read_text().splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("expect z "))
    f = lines[i].split()
    f[3] = format(int(f[3], 16) ^ 1, "08x")
    lines[i] = " ".join(f)
    bad = tmp_path / "M1-f32.tmv"
    bad.write_text("\n".join(lines) + "\n")
    count, failed, _ = replay_file(bad)
    assert failed == 1 and count > 1

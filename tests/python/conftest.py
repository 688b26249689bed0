"""Shared fixtures: where the tmu executable and the source tree are (set by ctest python.pytest)."""

import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("TMU_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture(scope="session")
def tmu_exe():
    exe = os.environ.get("TMU_EXE", str(SOURCE_DIR / "build" / "tmu"))
    if not os.path.exists(exe):
        pytest.fail(f"the tmu executable is not at {exe} (set TMU_EXE)")
    return exe


@pytest.fixture(scope="session")
def source_dir():
    return SOURCE_DIR

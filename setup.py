"""Builds the extension module tmu._tmu with this project's CMake for pip (pyproject.toml).

Only the models and the extension are configured (no testbench, tests, RTL or benchmarks); the
interpreter running pip is the one the module is built for. TMU_CMAKE_ARGS adds CMake arguments,
CMAKE_BUILD_PARALLEL_LEVEL sets the build's jobs.
"""

import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def version():
    m = re.search(r"project\(tmu VERSION (\S+)", (ROOT / "CMakeLists.txt").read_text())
    if not m:
        sys.exit("setup.py: CMakeLists.txt has no 'project(tmu VERSION x.y.z' line")
    return m.group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        cmake = shutil.which("cmake")
        if not cmake:
            sys.exit("setup.py: cmake is not on PATH (Debian: apt-get install cmake ninja-build g++)")
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        args = [f"-DTMU_PYTHON={sys.executable}", "-DCMAKE_BUILD_TYPE=Release", "-DTMU_BUILD_TB=OFF",
                "-DTMU_BUILD_TESTS=OFF", "-DTMU_BUILD_RTL_TESTS=OFF", "-DTMU_BUILD_BENCH=OFF", "-DTMU_BUILD_PYTHON=ON"]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        if shutil.which("ccache"):
            args += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
        args += shlex.split(os.environ.get("TMU_CMAKE_ARGS", ""))
        env = {**os.environ, "CCACHE_BASEDIR": str(ROOT)}
        subprocess.run([cmake, "-S", str(ROOT), "-B", str(build), *args], check=True, env=env)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run([cmake, "--build", str(build), "--target", "tmu_python", "-j", jobs], check=True, env=env)
        built = build / "python" / "tmu" / self.get_ext_filename("_tmu")
        if not built.exists():
            sys.exit(f"setup.py: CMake did not build {built}: is python3-pybind11 installed for {sys.executable}?")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)


# setuptools writes its build tree and metadata here rather than into ./build, CMake's.
(ROOT / "build-pip").mkdir(exist_ok=True)

setup(
    version=version(),
    ext_modules=[CMakeExtension("tmu._tmu")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build-pip"}, "egg_info": {"egg_base": "build-pip"}},
)

"""ctest python.pip_install: the package installed as Python users install things.

A copy of the checkout (its tracked and untracked, not ignored, files: what a fresh clone of this
work tree holds) is installed with `pip install --no-build-isolation --no-index` into a new virtual
environment that sees the system's site packages (numpy, pybind11, setuptools), then imported from
another directory: the installed package must be the venv's, carry its version, its type marker and
its stubs, and compute.

Usage: pip_install.py SOURCE_DIR WORK_DIR
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"FAILED ({p.returncode}): {' '.join(map(str, cmd))}\n{p.stdout[-4000:]}\n{p.stderr[-4000:]}")
    return p.stdout


def main():
    source, work = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    clone = work / "checkout"
    files = run(["git", "-C", str(source), "ls-files", "-z", "--cached", "--others", "--exclude-standard"]).split("\0")
    for f in filter(None, files):
        src = source / f
        if src.is_file():
            (clone / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, clone / f)
    venv = work / "venv"
    run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)])
    python = venv / "bin" / "python"
    run([str(python), "-m", "pip", "install", "--no-build-isolation", "--no-index", str(clone)],
        env={**os.environ, "CMAKE_BUILD_PARALLEL_LEVEL": str(os.cpu_count() or 1)})
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = run([str(python), "-c", "import pathlib, tmu, numpy as np; "
               "print(tmu.__version__); print(tmu.__file__); "
               "print(sorted(p.name for p in pathlib.Path(tmu.__file__).parent.iterdir() if p.suffix in ('.typed', '.pyi'))); "
               "print(float(tmu.tensix.matmul(np.full((32, 32), 2.0), np.full((32, 32), 1.0078125))[0, 0]))"],
              cwd=elsewhere, env=env)
    version, path, typed, value = out.splitlines()
    expected_version = re.search(r"project\(tmu VERSION (\S+)", (source / "CMakeLists.txt").read_text()).group(1)
    checks = [
        ("version", version == expected_version, f"{version} != {expected_version}"),
        ("installed into the venv", pathlib.Path(path).resolve().is_relative_to(venv.resolve()), path),
        ("py.typed and stubs shipped", typed == "['_tmu.pyi', 'py.typed']", typed),
        ("computes: 32 * 2 * (1 + 2^-7) = 64.5", value == "64.5", value),
    ]
    failed = [f"{name}: {detail}" for name, ok, detail in checks if not ok]
    for name, ok, detail in checks:
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
    print(f"{len(checks) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

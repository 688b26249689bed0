"""ctest python.types: the tmu package's types are complete and true.

1. Every public name of every module is typed: functions have annotated signatures (visible to
   inspect), and the classes the extension defines are described, method for method, by the class
   stub their module declares for type checkers (`if TYPE_CHECKING:`), so a stub cannot drift from
   the class it describes.
2. mypy --strict passes over the package, over code written against it (usage.py, which also runs)
   and over the examples.

Usage: check_types.py PACKAGE_PARENT EXAMPLES_DIR   (PACKAGE_PARENT: the directory holding tmu/)
"""

import ast
import importlib
import inspect
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def stub_classes(module):
    """The classes a module declares under `if TYPE_CHECKING:`, as {name: set of public members}."""
    tree = ast.parse(pathlib.Path(module.__file__).read_text())
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for cls in node.body:
                if isinstance(cls, ast.ClassDef):
                    out[cls.name] = {f.name for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AnnAssign))
                                     and not f.name.startswith("_")}
    return out


def main():
    package_parent, examples = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    sys.path.insert(0, str(package_parent))
    failures = []
    checked = 0
    for name in ["tmu", "tmu.formats", "tmu.pto", "tmu.amx", "tmu.tensix"]:
        module = importlib.import_module(name)
        stubs = stub_classes(module)
        for public in module.__all__:
            obj = getattr(module, public)
            checked += 1
            if inspect.isfunction(obj):
                sig = inspect.signature(obj)
                missing = [p for p in sig.parameters.values() if p.annotation is inspect.Parameter.empty]
                if missing or sig.return_annotation is inspect.Signature.empty:
                    failures.append(f"{name}.{public}: unannotated {[p.name for p in missing] or 'return'}")
            elif inspect.isclass(obj) and obj.__module__.startswith("tmu._tmu"):
                runtime = {m for m in dir(obj) if not m.startswith("_")}
                stub = stubs.get(public)
                if stub is None:
                    failures.append(f"{name}.{public}: an extension class with no TYPE_CHECKING stub")
                elif stub != runtime:
                    failures.append(f"{name}.{public}: stub and class differ: only in the class {sorted(runtime - stub)}, "
                                    f"only in the stub {sorted(stub - runtime)}")
    print(f"{checked} public names checked")
    env_path = str(package_parent)
    targets = [str(package_parent / "tmu"), str(HERE / "usage.py")] + sorted(str(p) for p in examples.glob("*.py"))
    p = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(HERE / "mypy.ini"), *targets],
                       capture_output=True, text=True, env={"MYPYPATH": env_path, "PATH": "/usr/bin:/bin"})
    print(p.stdout, end="")
    if p.returncode != 0:
        failures.append("mypy --strict: " + (p.stderr.strip() or "errors above"))
    run = subprocess.run([sys.executable, str(HERE / "usage.py")], capture_output=True, text=True,
                         env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})
    if run.returncode != 0:
        failures.append("usage.py does not run: " + run.stderr[-2000:])
    for f in failures:
        print("FAIL", f)
    print("types: " + ("FAIL" if failures else "ok"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

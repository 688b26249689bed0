"""Every `>>>` example in docs/python.md runs as written (ctest docs.python_examples), so the guide
cannot drift from the package: the fenced ```python blocks that hold `>>>` examples are run in the
order they appear, in one shared namespace (a name an earlier block defines is there for a later
one, as for a reader typing them into one interpreter), by doctest with NORMALIZE_WHITESPACE and
ELLIPSIS. Shell blocks and Python blocks without `>>>` are not run.

  PYTHONPATH=build/python /usr/bin/python3 tests/docs/test_python_doc.py [docs/python.md | SOURCE_DIR]

Each failure is reported with the document's line number; the last line is `N passed, M failed`
(N and M count examples) and the exit status is 1 when an example failed or none was found. A block
that imports torch is skipped, and said so, when torch cannot be imported (the package does not
need it).
"""

import doctest
import importlib.util
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")


def python_blocks(path):
    """(first line number, text) of each fenced ```python block holding a `>>>` example, in order.
    The text keeps the block's lines as they are, so example k's line is first + its offset."""
    blocks, inside, lang, first, lines, fence = [], False, "", 0, [], ""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = FENCE.match(line)
            if not inside and m:
                inside, fence, lang, first, lines = True, m.group(2), m.group(3).lower(), number + 1, []
            elif inside and line.strip().startswith(fence[0] * len(fence)) and not line.strip().strip(fence[0]):
                inside = False
                text = "".join(lines)
                if lang == "python" and re.search(r"^\s*>>>", text, re.MULTILINE):
                    blocks.append((first, text))
            elif inside:
                lines.append(line)
    if inside:
        raise SystemExit(f"{path}: a code block opened at line {first - 1} is never closed")
    return blocks


def main(argv):
    target = argv[1] if len(argv) > 1 else ROOT
    path = os.path.join(target, "docs", "python.md") if os.path.isdir(target) else target
    shown = os.path.relpath(path, ROOT) if os.path.abspath(path).startswith(ROOT + os.sep) else path
    have_torch = importlib.util.find_spec("torch") is not None
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    namespace = {"__name__": "__main__"}
    attempted = failed = skipped = 0
    failing = []
    for first, text in python_blocks(path):
        # lineno is the line before the text: doctest prints test.lineno + example.lineno + 1.
        test = parser.get_doctest(text, {}, f"{shown}:{first}", shown, first - 1)
        if not have_torch and re.search(r"^\s*>>>.*\bimport torch\b", text, re.MULTILINE):
            skipped += len(test.examples)
            print(f"{shown}:{first}: skipped ({len(test.examples)} examples): torch cannot be imported")
            continue
        test.globs = namespace  # DocTest copies the globals it is given; share one dict instead
        before = runner.failures
        result = runner.run(test, out=sys.stdout.write, clear_globs=False)
        attempted += result.attempted
        failed += result.failed
        if runner.failures > before:
            failing.append(f"{shown}:{first}")
    if attempted == 0 and skipped == 0:
        print(f"{shown}: no >>> examples found")
        return 1
    for where in failing:
        print(f"FAIL block at {where}")
    print(f"{attempted - failed} passed, {failed} failed")
    return 1 if failed or attempted == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

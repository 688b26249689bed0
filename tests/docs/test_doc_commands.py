"""Every `build/tmu ...` command in the README's and docs' code blocks runs as written (ctest
docs.commands), so the documents cannot drift from the tool: each must exit 0, and a `dis` whose
comment shows the disassembly must print it. The guides also may not speak of "this machine": a
figure names the machine it came from, in docs/measurements.md.

  /usr/bin/python3 tests/docs/test_doc_commands.py BUILD_DIR

Output directories (`-o X`, `--out X`, `--output X`, and an `OUT` placeholder) are redirected into
a scratch directory, the same one for every command of a code block, so a block that writes vectors
and then checks them runs as a reader would run it. Commands that only take long (the audit at its
default sizes, every vector family at once) are listed in SLOW and skipped; placeholders a reader
replaces (FILE_OR_DIRECTORY, `...`) are skipped too.
"""

import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUTPUT_OPTIONS = {"-o", "--out", "--output"}
PLACEHOLDERS = {"FILE_OR_DIRECTORY", "..."}
SLOW = [
    lambda words: "audit" in words,                                   # minutes at the default sizes
    lambda words: "vectors" in words and "--engine" not in words       # every Tensix family: 120 MB and more
    and not any(w in words for w in ("--family", "--ops", "--list")),
    lambda words: "--corpus" in words,                                # the checked-in corpus, rewritten
]


def commands(path):
    """(block, line number, command text, comment) of each build/tmu line inside a fenced code
    block, `block` counting the blocks."""
    inside, block = False, 0
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.lstrip().startswith("```"):
            inside = not inside
            block += inside
            continue
        text = line.strip()
        if inside and text.startswith("build/tmu "):
            command, _, comment = text.partition("  #")
            yield block, number, command.strip(), comment.strip()


def main(build):
    tmu = os.path.join(build, "tmu")
    failures, ran, skipped = [], 0, 0
    docs = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    with tempfile.TemporaryDirectory(prefix="tmu-doc-") as root:
        for doc in docs:
            failures_in, ran_in, skipped_in = run_doc(doc, tmu, root)
            failures += failures_in
            ran += ran_in
            skipped += skipped_in
    for doc in docs:
        for number, line in enumerate(open(doc, encoding="utf-8"), 1):
            if re.search(r"\bthis (project's )?(2-core )?machine\b", line, re.IGNORECASE):
                failures.append(f"{os.path.relpath(doc, ROOT)}:{number}: says 'this machine'; name the machine "
                                "(docs/measurements.md)")
    for f in failures:
        print(f"FAIL {f}")
    print(f"doc commands: {ran} run, {skipped} skipped, {len(failures)} failed")
    return 1 if failures else 0


def run_doc(doc, tmu, root):
    """Runs one document's commands, each code block in a fresh scratch directory under root."""
    failures, ran, skipped = [], 0, 0
    scratch, scratch_block = None, None
    for block, number, command, comment in commands(doc):
        if block != scratch_block:
            scratch, scratch_block = tempfile.mkdtemp(dir=root), block
        where = f"{os.path.relpath(doc, ROOT)}:{number}"
        words = shlex.split(command)[1:]
        if any(w in PLACEHOLDERS for w in words) or any(slow(words) for slow in SLOW):
            skipped += 1
            continue
        for i, w in enumerate(words):
            if w == "OUT" or (i > 0 and words[i - 1] in OUTPUT_OPTIONS):
                words[i] = os.path.join(scratch, os.path.basename(w))
        p = subprocess.run([tmu, *words], cwd=ROOT, capture_output=True, text=True, timeout=600)
        ran += 1
        if p.returncode != 0:
            failures.append(f"{where}: `{command}` exited {p.returncode}: {(p.stderr or p.stdout).strip()[:300]}")
            continue
        shown = comment.rstrip(". ").removesuffix("...").strip()
        if "dis" in words and re.match(r"^([A-Z0-9]{3,}|matfp)\b", shown) and shown not in p.stdout:
            failures.append(f"{where}: `{command}` prints\n  {p.stdout.strip()}\nwhere the text shows\n  {shown}")
    return failures, ran, skipped


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: test_doc_commands.py BUILD_DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))

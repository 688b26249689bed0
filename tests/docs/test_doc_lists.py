"""The lists in the README and docs/architecture.md match the program (ctest docs.lists): the
engines and each engine's variants as `tmu --help` gives them (the `--variant` option's help names
every engine's variants, the default first), and the subcommands `tmu --help` lists.

  /usr/bin/python3 tests/docs/test_doc_lists.py BUILD_DIR [ROOT]

ROOT (default: the source tree) holds README.md and docs/; another one lets a copy with an edit be
checked. What is checked:

- README.md: the `--engine a|b|c` list names every engine; some list of variants names every
  variant of each engine; every subcommand appears as a `tmu ... SUBCOMMAND` command; no `tmu WORD`
  command names a subcommand the program lacks.
- docs/architecture.md: the engine table's header names the engines in order, its `variants()` row
  gives each engine's variants, and the diagram's subcommand line lists every subcommand.
- In README.md, docs/architecture.md and docs/scoreboard.md: a list of backticked names
  (`a`/`b`, `a`, `b` and `c`, `a|b`, `M1`..`M4`) that names two or more variants of one engine
  names them all, and a count ("three profiles", "both architectures", "three engines") is the
  program's count.
"""

import os
import re
import subprocess
import sys

SRC_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# Documents where a list of an engine's variants must be whole.
LIST_DOCS = ["README.md", "docs/architecture.md", "docs/scoreboard.md"]
# The noun each engine's variants go by in prose, for counts such as "three profiles".
VARIANT_NOUNS = {"pto": "profiles", "tensix": "architectures"}
NUMBERS = {"one": 1, "two": 2, "both": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}

# Backticked names joined by /, |, commas, "and", "or" or a range "..".
LIST_RE = re.compile(r"`[^`\n]+`(?:\s*(?:/|\||\.\.|,\s*and|,\s*or|,|and|or)\s*`[^`\n]+`)+")


def program(build):
    """(engines in order, {engine: [variants]}, [subcommands]) from `tmu --help`."""
    tmu = os.path.join(build, "tmu")
    p = subprocess.run([tmu, "--help"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f"FAIL `{tmu} --help` exited {p.returncode}: {p.stderr.strip()[:300]}")
    text = p.stdout
    flat = " ".join(text.split())
    m = re.search(r"--variant\b.*?the first its default \(([^)]*)\)", flat)
    if not m:
        sys.exit("FAIL `tmu --help`: no --variant option listing each engine's variants")
    variants = {}
    for part in m.group(1).split(";"):
        engine, _, names = part.strip().partition(":")
        variants[engine.strip()] = names.strip().split("|")
    engines = list(variants)
    subcommands, inside = [], False
    for line in text.splitlines():
        if re.match(r"^\s*Subcommands:\s*$", line):
            inside = True
            continue
        if inside:
            s = re.match(r"^\s+([a-z][\w-]*)\b", line)
            if s:
                subcommands.append(s.group(1))
            elif line.strip():
                break
    if not engines or not subcommands:
        sys.exit(f"FAIL `tmu --help`: found engines {engines} and subcommands {subcommands}")
    return engines, variants, subcommands


def expand(tokens_text):
    """The names in a list's text: backticked tokens, split on | and blanks, ranges A1..A4 expanded."""
    raw = re.findall(r"`([^`\n]+)`|(\.\.)", tokens_text)
    names = []
    for i, (tok, dots) in enumerate(raw):
        if dots:
            continue
        if i >= 2 and raw[i - 1][1] and names:
            a, b = re.match(r"^(.*?)(\d+)$", names[-1]), re.match(r"^(.*?)(\d+)$", tok)
            if a and b and a.group(1) == b.group(1):
                names += [f"{a.group(1)}{n}" for n in range(int(a.group(2)) + 1, int(b.group(2)) + 1)]
                continue
        names += [w for w in re.split(r"[|\s]+", tok) if w]
    return names


def lines_of(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def paragraphs(lines):
    """(line_at, text) of each run of non-blank lines joined by spaces, so that a list may span
    lines; line_at(offset) is the line number of an offset in text."""
    out, numbers, buf = [], [], []
    for n, line in enumerate(lines + [""], 1):
        if line.strip():
            numbers.append(n)
            buf.append(line.strip())
        elif buf:
            starts = [sum(len(b) + 1 for b in buf[:i]) for i in range(len(buf))]
            out.append((lambda at, s=starts, ns=numbers: ns[max(i for i, o in enumerate(s) if o <= at)],
                        " ".join(buf)))
            numbers, buf = [], []
    return out


def check_lists(rel, lines, engines, variants):
    """Partial variant lists and wrong counts anywhere in the document."""
    failures = []
    for line_at, text in paragraphs(lines):
        for m in LIST_RE.finditer(text):
            names = set(expand(m.group(0)))
            for engine in engines:
                hits = names & set(variants[engine])
                if len(hits) >= 2 and hits != set(variants[engine]):
                    missing = [v for v in variants[engine] if v not in hits]
                    failures.append(f"{rel}:{line_at(m.start())}: the list {m.group(0)!r} names {engine} variants "
                                    f"but not {', '.join(missing)} (tmu --help: {'|'.join(variants[engine])})")
        counts = [("engines", len(engines))] + [(noun, len(variants[e])) for e, noun in VARIANT_NOUNS.items()
                                                 if e in variants]
        for noun, count in counts:
            for m in re.finditer(rf"\b({'|'.join(NUMBERS)})\s+(?:\w+\s+)?{noun}\b", text, re.IGNORECASE):
                said = NUMBERS[m.group(1).lower()]
                if said not in (1, count):
                    failures.append(f"{rel}:{line_at(m.start())}: says {m.group(0)!r}; tmu --help has {count} {noun}")
    return failures


def commands_named(lines):
    """(line number, the word after `tmu` and its options) of each tmu command in code."""
    out, inside = [], False
    for n, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            inside = not inside
            continue
        texts = [line.split("  #")[0]] if inside else re.findall(r"`([^`\n]+)`", line)
        for text in texts:
            m = re.match(r"^\s*(?:build/)?tmu((?:\s+\S+)*)\s*$", text)
            if not m:
                continue
            words = m.group(1).split()
            i = 0
            while i < len(words) and words[i].startswith("-"):
                i += 1 if "=" in words[i] or words[i] in ("--help", "-h") else 2
            if i < len(words):
                out.append((n, words[i]))
    return out


def check_readme(root, engines, variants, subcommands):
    rel = "README.md"
    lines = lines_of(os.path.join(root, rel))
    text = "\n".join(lines)
    failures = []
    lists = re.findall(r"--engine ((?:[a-z0-9_]+\|)+[a-z0-9_]+)", text)
    if not lists:
        failures.append(f"{rel}: no `--engine a|b|c` list of the engines")
    for found in lists:
        if found.split("|") != engines:
            failures.append(f"{rel}: `--engine {found}`; tmu --help: --engine {'|'.join(engines)}")
    whole = set()
    for _, para in paragraphs(lines):
        for m in LIST_RE.finditer(para):
            names = set(expand(m.group(0)))
            whole |= {e for e in engines if set(variants[e]) <= names}
    for engine in engines:
        if engine not in whole:
            failures.append(f"{rel}: no list names every {engine} variant ({'|'.join(variants[engine])})")
    named = commands_named(lines)
    for sub in subcommands:
        if not any(word == sub for _, word in named):
            failures.append(f"{rel}: no `tmu {sub}` command (a subcommand of tmu --help)")
    for n, word in named:
        if word not in subcommands and not word.startswith("-"):
            failures.append(f"{rel}:{n}: `tmu {word}`: tmu --help has no subcommand '{word}' ({', '.join(subcommands)})")
    return failures


def table_row(lines, first_cell, column=0):
    """(line number, cells) of the first table row whose cell `column` starts with first_cell."""
    for n, line in enumerate(lines, 1):
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) > column and cells[column].startswith(first_cell):
                return n, cells
    return None, None


def check_architecture(root, engines, variants, subcommands):
    rel = "docs/architecture.md"
    lines = lines_of(os.path.join(root, rel))
    failures = []
    # The engine interface's table: | Interface | Members | What it is | one column per engine |
    n, header = table_row(lines, "Interface")
    if header is None:
        failures.append(f"{rel}: no engine table (a header row beginning '| Interface |')")
    elif [c.strip("`") for c in header[3:]] != engines:
        failures.append(f"{rel}:{n}: the engine table's columns are {header[3:]}; tmu --help: {engines}")
    else:
        n, row = table_row(lines, "`variants()`", column=1)
        if row is None:
            failures.append(f"{rel}: no `variants()` row in the engine table")
        else:
            for engine, cell in zip(engines, row[3:]):
                names = set(expand(cell))
                missing = [v for v in variants[engine] if v not in names]
                if missing:
                    failures.append(f"{rel}:{n}: the `variants()` row's {engine} cell lacks {', '.join(missing)}")
    listed = None
    for i, line in enumerate(lines):
        if "tmu (refmodel/cli" in line and i + 1 < len(lines):
            listed = re.split(r"\s{3,}", lines[i + 1].strip())[0].split()
            where = i + 2
            break
    if listed is None:
        failures.append(f"{rel}: no subcommand line under 'tmu (refmodel/cli' in the diagram")
    elif sorted(listed) != sorted(subcommands):
        failures.append(f"{rel}:{where}: the diagram lists subcommands {' '.join(listed)}; "
                        f"tmu --help: {' '.join(subcommands)}")
    return failures


def main(build, root):
    engines, variants, subcommands = program(build)
    failures = check_readme(root, engines, variants, subcommands)
    failures += check_architecture(root, engines, variants, subcommands)
    for rel in LIST_DOCS:
        failures += check_lists(rel, lines_of(os.path.join(root, rel)), engines, variants)
    for f in failures:
        print(f"FAIL {f}")
    print(f"doc lists: engines {', '.join(engines)}; variants "
          f"{'; '.join(e + ': ' + '|'.join(v) for e, v in variants.items())}; subcommands {' '.join(subcommands)}; "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        print("usage: test_doc_lists.py BUILD_DIR [ROOT]", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else SRC_ROOT))

"""Property tests (hypothesis) of the two readers of farm and table input that are written in Python:
the merge of regress.py shard directories (scripts/regress_shards.py) and the ISA table loader
(refmodel/engines/tensix/isa/gen_isa.py). Each property is checked on inputs hypothesis builds and shrinks:

- a regression split into any number of shards, passed in any order, merges to the runs, counts,
  verdict and test-case order of the unsplit regression;
- a shard whose summary.json has any one value replaced by any JSON value (or a key deleted) either
  merges or is refused with a MergeError naming that shard: never another exception;
- the ISA table with any one value replaced or deleted is either loaded, with every field inside
  bits 23:0 and no two fields overlapping, or refused with "gen_isa.py: <table>: <place>: <reason>".

  python3 tests/regress/test_properties.py [--seed N] [--examples N]

The seed is printed; --seed N replays the same examples.
"""

import argparse
import contextlib
import copy
import io
import json
import os
import random
import shutil
import sys
import tempfile
import unittest

# hypothesis keeps an example database in the working directory unless told otherwise.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(tempfile.gettempdir(), "tmu-hypothesis"))
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "refmodel", "engines", "tensix", "isa"))
sys.path.insert(0, HERE)
import gen_isa  # noqa: E402
import regress_shards  # noqa: E402
from test_regress_shards import fake_shard  # noqa: E402

TABLE = os.path.join(ROOT, "refmodel", "engines", "tensix", "isa", "tensix_isa.json")
SCHEMA = os.path.join(ROOT, "refmodel", "engines", "tensix", "isa", "tensix_isa.schema.json")
SEED = None
EXAMPLES = 150

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**64), max_value=2**64) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


def paths(doc, prefix=()):
    """Every key path inside a JSON document, the document's own keys and list items included."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for k, v in items:
        yield prefix + (k,)
        yield from paths(v, prefix + (k,))


def mutate(doc, path, value, delete):
    """doc with the value at path replaced by value, or deleted (a list item or a dict key)."""
    out = copy.deepcopy(doc)
    parent = out
    for k in path[:-1]:
        parent = parent[k]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return out


def settings_for(n):
    return settings(max_examples=n, deadline=None, database=None, derandomize=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def seeded(test):
    return seed(SEED)(settings_for(EXAMPLES)(test))


class ShardMerge(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.root)

    def merge(self, dirs, out):
        with contextlib.redirect_stdout(io.StringIO()):
            return regress_shards.merge_main([*dirs, "--out", out], merge_cov=lambda *a: None,
                                             print_table=lambda doc: None)

    @given(data=st.data())
    def test_any_split_merges_to_the_whole(self, data):
        shards = data.draw(st.integers(1, 6), "shards")
        per = data.draw(st.integers(1, 4), "runs per shard")
        statuses = data.draw(st.lists(st.sampled_from(["pass", "fail"]), min_size=shards * per,
                                      max_size=shards * per), "statuses")
        order = data.draw(st.permutations(range(shards)), "order")
        work = tempfile.mkdtemp(dir=self.root)
        dirs = [fake_shard(work, i, shards, statuses[i::shards]) for i in range(shards)]
        for d in dirs:  # fake_shard writes a fixed total; this regression has shards * per runs
            with open(os.path.join(d, "summary.json")) as f:
                doc = json.load(f)
            doc["entries_total"] = shards * per
            with open(os.path.join(d, "summary.json"), "w") as f:
                json.dump(doc, f)
        out = os.path.join(work, "merged")
        status = self.merge([dirs[i] for i in order], out)
        with open(os.path.join(out, "summary.json")) as f:
            merged = json.load(f)
        failed = statuses.count("fail")
        self.assertEqual(status, 1 if failed else 0)
        self.assertEqual([r["index"] for r in merged["runs"]], list(range(shards * per)))
        self.assertEqual([r["status"] for r in merged["runs"]], statuses)
        self.assertEqual((merged["passed"], merged["failed"]), (shards * per - failed, failed))
        self.assertEqual(merged["verdict"], "FAIL" if failed else "PASS")
        with open(os.path.join(out, "junit.xml")) as f:
            junit = f.read()
        marks = [junit.index(f'#{n}"') for n in range(shards * per)]
        self.assertEqual(marks, sorted(marks))

    @given(data=st.data())
    def test_a_damaged_summary_is_merged_or_named(self, data):
        work = tempfile.mkdtemp(dir=self.root)
        dirs = [fake_shard(work, i, 2, ["pass", "fail"]) for i in range(2)]
        victim = dirs[data.draw(st.integers(0, 1), "victim")]
        with open(os.path.join(victim, "summary.json")) as f:
            doc = json.load(f)
        path = data.draw(st.sampled_from(sorted(paths(doc), key=repr)), "path")
        delete = data.draw(st.booleans(), "delete")
        value = None if delete else data.draw(json_values, "value")
        with open(os.path.join(victim, "summary.json"), "w") as f:
            json.dump(mutate(doc, path, value, delete), f)
        try:
            self.merge(dirs, os.path.join(work, "merged"))
        except regress_shards.MergeError as e:
            self.assertIn(victim, str(e))


class IsaTable(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(TABLE) as f:
            cls.table = json.load(f)
        cls.paths = sorted(paths(cls.table), key=repr)
        cls.work = tempfile.mkdtemp()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work)

    def load(self, table):
        path = os.path.join(self.work, "table.json")
        with open(path, "w") as f:
            json.dump(table, f)
        try:
            return path, gen_isa.load(path, SCHEMA), None
        except SystemExit as e:
            return path, None, str(e.code)

    def test_the_real_table_loads(self):
        _, per_arch, refusal = self.load(self.table)
        self.assertIsNone(refusal)
        self.assertTrue(all(per_arch[a] for a in gen_isa.ARCHES))

    @given(data=st.data())
    def test_one_change_is_loaded_consistently_or_refused_by_place(self, data):
        path = data.draw(st.sampled_from(self.paths), "path")
        delete = data.draw(st.booleans(), "delete")
        if delete:
            value = None
        else:  # a nearby integer is likelier to pass the schema and reach the loader's own checks
            old = self.table
            for k in path:
                old = old[k]
            near = st.integers(old - 3, old + 3) if isinstance(old, int) and not isinstance(old, bool) else st.nothing()
            value = data.draw(near | json_values, "value")
        table_path, per_arch, refusal = self.load(mutate(self.table, path, value, delete))
        if refusal is not None:
            self.assertTrue(refusal.startswith(f"gen_isa.py: {table_path}: "), refusal)
            self.assertGreater(len(refusal), len(f"gen_isa.py: {table_path}: ") + 10, refusal)
            return
        for arch in gen_isa.ARCHES:
            opcodes = [i["opcode"] for i in per_arch[arch]]
            self.assertEqual(len(opcodes), len(set(opcodes)), arch)
            for insn in per_arch[arch]:
                used = 0
                for name, lo, width, fmax, _ in insn["fields"]:
                    mask = ((1 << width) - 1) << lo
                    self.assertEqual(mask & ~0x00FFFFFF, 0, f"{insn['mn']}.{name} leaves bits 23:0")
                    self.assertEqual(mask & used, 0, f"{insn['mn']}.{name} overlaps")
                    self.assertLess(fmax, 1 << width, f"{insn['mn']}.{name}")
                    used |= mask
                self.assertEqual(insn["reserved"], ~used & 0x00FFFFFF, insn["mn"])


def main():
    global SEED, EXAMPLES
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=None, help="replay these examples (default: a new seed)")
    ap.add_argument("--examples", type=int, default=EXAMPLES, help=f"examples per property (default {EXAMPLES})")
    args, rest = ap.parse_known_args()
    SEED = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    EXAMPLES = args.examples
    print(f"test_properties.py: seed {SEED} ({EXAMPLES} examples per property; --seed {SEED} replays)", flush=True)
    for cls in (ShardMerge, IsaTable):
        for name in dir(cls):
            fn = getattr(cls, name)
            if name.startswith("test_") and hasattr(fn, "hypothesis"):
                setattr(cls, name, seeded(fn))
    unittest.main(argv=[sys.argv[0], *rest])


if __name__ == "__main__":
    main()

"""scripts/regress.py on a batch farm: the shard a job takes from its environment, and the merge of
shard directories with its refusals (ctest regress.shards). With --tb TMU_TB (ctest
cosim.regress_shards) also the real testbench: a regression run whole and as three shards merged
gives the same runs, seeds, verdicts and coverage.

  python3 tests/regress/test_regress_shards.py [--tb build/tb/tmu_tb]
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "scripts")
sys.path.insert(0, SCRIPTS)
import regress_shards  # noqa: E402

TB = None
REGRESS = os.path.join(SCRIPTS, "regress.py")


def run_regress(*args):
    return subprocess.run([sys.executable, REGRESS, *args], capture_output=True, text=True)


class ShardFromEnvironment(unittest.TestCase):
    def test_slurm(self):
        env = {"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"}
        self.assertEqual(regress_shards.shard_from_environment(env)[:2], (3, 4))
        # `sbatch --array=1-4`: the first index is 1.
        env = {"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"}
        self.assertEqual(regress_shards.shard_from_environment(env)[:2], (0, 4))
        with self.assertRaisesRegex(ValueError, "not one of 4 shards"):
            regress_shards.shard_from_environment({"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"})
        with self.assertRaisesRegex(ValueError, "not a non-negative integer"):
            regress_shards.shard_from_environment({"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"})

    def test_lsf_is_one_based(self):
        env = {"LSB_JOBINDEX": "1", "LSB_JOBINDEX_END": "8"}
        self.assertEqual(regress_shards.shard_from_environment(env)[:2], (0, 8))
        self.assertEqual(regress_shards.shard_from_environment({"LSB_JOBINDEX": "8", "LSB_JOBINDEX_END": "8"})[:2],
                         (7, 8))
        # LSF sets LSB_JOBINDEX=0 for a job that is not part of an array.
        self.assertEqual(regress_shards.shard_from_environment({"LSB_JOBINDEX": "0"})[:2], (0, 1))

    def test_pbs_needs_the_count(self):
        with self.assertRaisesRegex(ValueError, "pass --shards N"):
            regress_shards.shard_from_environment({"PBS_ARRAY_INDEX": "2"})
        self.assertEqual(regress_shards.shard_from_environment({"PBS_ARRAY_INDEX": "2"}, shards=3)[:2], (2, 3))
        self.assertEqual(regress_shards.shard_from_environment({"PBS_ARRAY_INDEX": "3"}, shards=3, base=1)[:2], (2, 3))

    def test_no_array(self):
        self.assertEqual(regress_shards.shard_from_environment({}), (0, 1, "unsharded"))
        with self.assertRaisesRegex(ValueError, "without a batch array index"):
            regress_shards.shard_from_environment({}, shards=4)


def fake_shard(root, shard, shards, statuses, seed=7, cov_bins=None):
    """A shard directory as regress.py writes one, for runs shard, shard + N, ... with these statuses."""
    d = os.path.join(root, f"shard-{shard}-of-{shards}")
    os.makedirs(d)
    runs = []
    for k, status in enumerate(statuses):
        n = shard + k * shards
        runs.append({"index": n, "test": "random", "arch": "blackhole", "seed": 100 + n, "status": status,
                     "why": "" if status == "pass" else "mismatch (exit 1)", "instrs": 10, "cycles": 40,
                     "time": 0.5, "replay": f"tmu_tb --test random --seed {100 + n}", "log": f"{d}/runs/{n}.log"})
    cases = "".join(
        f'<testcase classname="tmu_tb.blackhole" name="random[blackhole]#{r["index"]}" time="0.5">'
        + ("<failure message=\"m\"/>" if r["status"] != "pass" else "") + "</testcase>" for r in runs)
    with open(os.path.join(d, "junit.xml"), "w") as f:
        f.write(f'<?xml version="1.0"?><testsuites><testsuite name="tmu_regress">{cases}</testsuite></testsuites>')
    doc = {"format": regress_shards.SUMMARY_FORMAT, "global_seed": seed, "shard": shard, "shards": shards,
           "instrs_per_run": 10, "random_runs": 6, "arch": "bh", "entries_total": 6, "tb": "/nonexistent/tmu_tb",
           "wall_time": 1.0, "runs": runs, "coverage": None, "junit": "junit.xml"}
    if cov_bins is not None:
        with open(os.path.join(d, "coverage.json"), "w") as f:
            json.dump({"coverpoints": {"p": {"bins": cov_bins}}}, f)
        doc["coverage"] = "coverage.json"
    with open(os.path.join(d, "summary.json"), "w") as f:
        json.dump(doc, f)
    return d


def sum_coverage(tb, out, inputs):
    """A stand-in for tmu_tb --merge-cov: bins summed."""
    bins = {}
    for p in inputs:
        with open(p) as f:
            for b, v in json.load(f)["coverpoints"]["p"]["bins"].items():
                bins[b] = bins.get(b, 0) + v
    doc = {"coverpoints": {"p": {"bins": bins}}, "hit": sum(v > 0 for v in bins.values()), "total": len(bins)}
    with open(out, "w") as f:
        json.dump(doc, f)
    return doc


class Merge(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.out = os.path.join(self.root, "merged")

    def tearDown(self):
        shutil.rmtree(self.root)

    def merge(self, *dirs, extra=()):
        return regress_shards.merge_main([*dirs, "--out", self.out, *extra], merge_cov=sum_coverage,
                                         print_table=lambda doc: None)

    def test_merges_every_shard(self):
        fake_shard(self.root, 0, 3, ["pass", "pass"], cov_bins={"a": 1, "b": 0})
        fake_shard(self.root, 1, 3, ["pass", "fail"], cov_bins={"a": 2, "c": 1})
        fake_shard(self.root, 2, 3, ["pass", "pass"], cov_bins={"b": 0})
        self.assertEqual(self.merge(self.root), 1)  # run 4 failed
        with open(os.path.join(self.out, "summary.json")) as f:
            doc = json.load(f)
        self.assertEqual([r["index"] for r in doc["runs"]], [0, 1, 2, 3, 4, 5])
        self.assertEqual((doc["passed"], doc["failed"], doc["instructions"]), (5, 1, 60))
        self.assertEqual(doc["verdict"], "FAIL")
        with open(os.path.join(self.out, "coverage.json")) as f:
            self.assertEqual(json.load(f)["coverpoints"]["p"]["bins"], {"a": 3, "b": 0, "c": 1})
        with open(os.path.join(self.out, "junit.xml")) as f:
            junit = f.read()
        self.assertIn('tests="6" failures="1"', junit)
        self.assertLess(junit.index("#3"), junit.index("#4"))

    def test_missing_shard_is_refused(self):
        fake_shard(self.root, 0, 3, ["pass", "pass"])
        fake_shard(self.root, 2, 3, ["pass", "pass"])
        with self.assertRaisesRegex(regress_shards.MergeError, "shards 1 of 3 are missing"):
            self.merge(self.root)
        self.assertEqual(self.merge(self.root, extra=["--partial"]), 1)  # INCOMPLETE, named

    def test_damaged_shards_are_named(self):
        good = fake_shard(self.root, 0, 2, ["pass"])
        bad = fake_shard(self.root, 1, 2, ["pass"])
        with open(os.path.join(bad, "summary.json"), "w") as f:
            f.write("{ truncated")
        with self.assertRaisesRegex(regress_shards.MergeError, f"shard {bad}: summary.json is not JSON"):
            self.merge(good, bad)
        os.remove(os.path.join(bad, "summary.json"))
        with self.assertRaisesRegex(regress_shards.MergeError, f"{bad}: neither a shard directory"):
            self.merge(good, bad)
        with self.assertRaisesRegex(regress_shards.MergeError, "no such directory"):
            self.merge(good, os.path.join(self.root, "nowhere"))

    def test_junit_and_coverage_must_be_there(self):
        d0 = fake_shard(self.root, 0, 2, ["pass"], cov_bins={"a": 1})
        d1 = fake_shard(self.root, 1, 2, ["pass"], cov_bins={"a": 1})
        os.remove(os.path.join(d1, "coverage.json"))
        with self.assertRaisesRegex(regress_shards.MergeError, f"shard {d1}: coverage.json is missing"):
            self.merge(d0, d1)
        os.remove(os.path.join(d0, "junit.xml"))
        with self.assertRaisesRegex(regress_shards.MergeError, f"shard {d0}: junit.xml unreadable"):
            self.merge(d0, d1)

    def test_shards_of_other_regressions_and_duplicates(self):
        a = fake_shard(os.path.join(self.root, "a"), 0, 2, ["pass"])
        b = fake_shard(os.path.join(self.root, "b"), 1, 2, ["pass"], seed=8)
        with self.assertRaisesRegex(regress_shards.MergeError, "global_seed 8 differs"):
            self.merge(a, b)
        c = fake_shard(os.path.join(self.root, "c"), 0, 2, ["pass"])
        with self.assertRaisesRegex(regress_shards.MergeError, "shard 0/2 is also"):
            self.merge(a, c)

    def test_command_line_exit_status(self):
        p = run_regress("merge", os.path.join(self.root, "nowhere"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("no such directory", p.stderr)

    def test_submit_without_sbatch_is_one_line_and_status_2(self):
        env = dict(os.environ, PATH=self.root)  # no sbatch anywhere on it
        p = subprocess.run([sys.executable, REGRESS, "submit", "--slurm", "--shards", "2", "--out",
                            os.path.join(self.root, "sub"), "--tb", "/bin/true"], capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("sbatch is not on PATH", p.stderr)
        self.assertNotIn("Traceback", p.stderr)


class Typos(unittest.TestCase):
    def test_misspelt_command_is_named_with_a_suggestion(self):
        for typo, meant in (("sumbit", "submit"), ("merg", "merge"), ("mrege", "merge")):
            p = run_regress(typo, "--out", "x")
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn(f"regress.py: unknown command '{typo}' (did you mean '{meant}'?)", p.stderr)
            self.assertIn("submit and merge", p.stderr)
        p = run_regress("banana")
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown command 'banana': the commands are submit and merge", p.stderr)


class RealTestbench(unittest.TestCase):
    """The same regression whole and in three shards: the same runs and seeds, verdicts and
    coverage."""

    def test_three_shards_merge_to_the_unsharded_run(self):
        tb = os.environ.get("TMU_TB")
        if not tb:
            self.skipTest("needs the testbench (--tb)")
        root = tempfile.mkdtemp()
        try:
            common = ["--tb", tb, "--seed", "11", "--arch", "bh", "--random-runs", "3", "--instrs", "150", "--jobs", "2"]
            whole = run_regress(*common, "--out", os.path.join(root, "whole"))
            self.assertEqual(whole.returncode, 0, whole.stdout + whole.stderr)
            for i in range(3):
                env = dict(os.environ, SLURM_ARRAY_TASK_ID=str(i), SLURM_ARRAY_TASK_COUNT="3", SLURM_ARRAY_TASK_MIN="0")
                p = subprocess.run([sys.executable, REGRESS, *common, "--out", os.path.join(root, "farm")],
                                   capture_output=True, text=True, env=env)
                self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                self.assertIn(f"shard {i}/3 (SLURM_ARRAY_TASK_ID={i})", p.stdout)
            m = run_regress("merge", os.path.join(root, "farm"), "--out", os.path.join(root, "merged"))
            self.assertEqual(m.returncode, 0, m.stdout + m.stderr)
            self.assertIn("regress.py merge: PASS", m.stdout)

            def load(d, name):
                with open(os.path.join(root, d, name)) as f:
                    return json.load(f)

            keys = ("index", "test", "arch", "seed", "status", "instrs", "cycles")
            w, g = load("whole", "summary.json"), load("merged", "summary.json")
            self.assertEqual([{k: r[k] for k in keys} for r in w["runs"]], [{k: r[k] for k in keys} for r in g["runs"]])
            self.assertEqual(load("whole", "coverage.json")["coverpoints"], load("merged", "coverage.json")["coverpoints"])
        finally:
            shutil.rmtree(root)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--tb":
        os.environ["TMU_TB"] = os.path.abspath(sys.argv[2])
        del sys.argv[1:3]
    unittest.main()

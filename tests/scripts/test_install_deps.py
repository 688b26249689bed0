"""scripts/install-deps.sh against stand-ins (ctest scripts.install_deps): dpkg-query, apt-get and id
come first on PATH from a temporary directory, so nothing is installed and no real lock is touched.
The stand-in apt-get records its calls; the lock files are temporary ones named through the script's
test-only TMU_DPKG_LOCK_PATHS and held by a `flock` process (a flock lock) or by a Python child with
fcntl.lockf (a POSIX lock, the kind apt and dpkg take).

  python3 tests/scripts/test_install_deps.py
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "install-deps.sh")
PACKAGE_COUNT = 35  # the script's list, counted by hand


class InstallDeps(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="tmu-install-deps-")
        self.bin = os.path.join(self.tmp, "bin")
        os.mkdir(self.bin)
        self.apt_log = os.path.join(self.tmp, "apt-calls")
        self.dpkg_log = os.path.join(self.tmp, "dpkg-calls")
        self.lock = os.path.join(self.tmp, "lock-frontend")
        self.other_lock = os.path.join(self.tmp, "lists-lock")
        for p in (self.lock, self.other_lock):
            open(p, "w").close()
        # dpkg-query -W -f='${Status}\n' PKG: installed unless PKG is in FAKE_MISSING; FAKE_CONFIG_FILES
        # names packages removed but not purged.
        self.tool("dpkg-query", f"""\
            pkg="${{@: -1}}"
            echo "$pkg" >> {self.dpkg_log}
            for m in $FAKE_MISSING; do
              if [ "$m" = "$pkg" ]; then echo "dpkg-query: no packages found matching $pkg" >&2; exit 1; fi
            done
            for m in $FAKE_CONFIG_FILES; do
              if [ "$m" = "$pkg" ]; then echo "deinstall ok config-files"; exit 0; fi
            done
            echo "install ok installed"
            """)
        self.tool("apt-get", f'echo "$*" >> {self.apt_log}\n')
        self.tool("id", 'if [ "$1" = -u ]; then echo "${FAKE_UID:-0}"; else exec /usr/bin/id "$@"; fi\n')
        self.holders = []

    def tearDown(self):
        for p in self.holders:
            if p.poll() is None:
                p.kill()
            p.wait()
            p.stdout.close()
        shutil.rmtree(self.tmp)

    def tool(self, name, body):
        path = os.path.join(self.bin, name)
        with open(path, "w") as f:
            f.write("#!/bin/bash\n" + textwrap.dedent(body))
        os.chmod(path, 0o755)

    def run_script(self, missing="", uid="0", timeout="10", config_files=""):
        env = dict(os.environ, PATH=self.bin + ":" + os.environ.get("PATH", "/usr/bin:/bin"),
                   FAKE_MISSING=missing, FAKE_UID=uid, FAKE_CONFIG_FILES=config_files,
                   TMU_DPKG_LOCK_PATHS=f"{self.lock}:{self.other_lock}", TMU_APT_LOCK_TIMEOUT=timeout)
        start = time.monotonic()
        p = subprocess.run(["bash", SCRIPT], capture_output=True, text=True, env=env, timeout=120)
        return p, time.monotonic() - start

    def apt_calls(self):
        if not os.path.exists(self.apt_log):
            return []
        with open(self.apt_log) as f:
            return f.read().splitlines()

    def hold_with_flock(self, path, seconds):
        """A `flock` process holding PATH for SECONDS; returns once the lock is taken."""
        p = subprocess.Popen(["flock", path, "sh", "-c", f"echo locked; exec sleep {seconds}"],
                             stdout=subprocess.PIPE, text=True)
        self.holders.append(p)
        self.assertEqual(p.stdout.readline().strip(), "locked")
        return p

    def hold_with_lockf(self, path):
        """A Python child holding a POSIX (fcntl) lock on PATH until it is killed."""
        code = ("import fcntl, sys, time\nf = open(sys.argv[1], 'w')\nfcntl.lockf(f, fcntl.LOCK_EX)\n"
                "print('locked', flush=True)\ntime.sleep(600)\n")
        p = subprocess.Popen([sys.executable, "-c", code, path], stdout=subprocess.PIPE, text=True)
        self.holders.append(p)
        self.assertEqual(p.stdout.readline().strip(), "locked")
        return p

    # (a) everything present: one line, no apt-get call at all (not even `update`)
    def test_all_installed_calls_no_apt(self):
        p, _ = self.run_script()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.splitlines(),
                         [f"install-deps.sh: all {PACKAGE_COUNT} packages are installed; nothing to install"])
        self.assertEqual(p.stderr, "")
        self.assertEqual(self.apt_calls(), [])
        with open(self.dpkg_log) as f:
            asked = f.read().split()
        self.assertEqual(len(asked), PACKAGE_COUNT)
        for pkg in ("cmake", "verilator", "python3-torch", "python3-pip", "python3-setuptools",
                    "python3-wheel", "python3-venv", "mypy"):
            self.assertIn(pkg, asked)

    def test_all_installed_not_root(self):
        p, _ = self.run_script(uid="1000")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("nothing to install", p.stdout)
        self.assertEqual(self.apt_calls(), [])

    def test_missing_not_root_fails_without_apt(self):
        p, _ = self.run_script(missing="mypy python3-venv", uid="1000")
        self.assertEqual(p.returncode, 1)
        self.assertIn("install-deps.sh: not root and these packages are missing: python3-venv mypy", p.stderr)
        self.assertEqual(self.apt_calls(), [])

    def test_config_files_only_counts_as_missing(self):
        p, _ = self.run_script(config_files="yosys")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"missing 1 of {PACKAGE_COUNT} packages: yosys", p.stdout)
        self.assertEqual(len(self.apt_calls()), 2)

    def test_missing_and_free_locks_installs(self):
        p, _ = self.run_script(missing="python3-torch")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("waiting", p.stdout)
        calls = self.apt_calls()
        self.assertEqual(len(calls), 2, calls)
        self.assertTrue(re.fullmatch(r"-o DPkg::Lock::Timeout=\d+ update", calls[0]), calls[0])
        self.assertTrue(calls[1].startswith("-o DPkg::Lock::Timeout="), calls[1])
        self.assertIn(" install -y --no-install-recommends cmake ", calls[1])
        self.assertIn(" python3-torch ", calls[1] + " ")

    # (b) a lock held by another process: wait, say what for, then install
    def test_waits_for_a_held_lock_then_installs(self):
        self.hold_with_flock(self.other_lock, 2)
        p, took = self.run_script(missing="mypy", timeout="30")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertRegex(p.stdout, rf"waiting up to \d+ s more \(TMU_APT_LOCK_TIMEOUT=30\) for "
                                   rf"{re.escape(self.other_lock)}, held by pid \d+ \(")
        self.assertRegex(p.stdout, r"the dpkg/apt locks are free after \d+ s; installing mypy")
        self.assertGreaterEqual(took, 1.0)
        self.assertLess(took, 25)
        self.assertEqual(len(self.apt_calls()), 2)

    def test_held_past_the_timeout_exits_2(self):
        holder = self.hold_with_lockf(self.lock)
        p, took = self.run_script(missing="mypy", timeout="2")
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn(f"for {self.lock}, held by pid {holder.pid} (", p.stdout)
        self.assertIn(f"{self.lock} is still held by pid {holder.pid} (", p.stderr)
        self.assertIn("after 2 s", p.stderr)
        self.assertIn("nothing was installed", p.stderr)
        self.assertNotIn("Could not get lock", p.stdout + p.stderr)
        self.assertGreaterEqual(took, 2.0)
        self.assertEqual(self.apt_calls(), [])

    def test_bad_timeout_is_refused(self):
        p, _ = self.run_script(missing="mypy", timeout="soon")
        self.assertEqual(p.returncode, 2)
        self.assertIn("TMU_APT_LOCK_TIMEOUT must be a whole number of seconds", p.stderr)
        self.assertEqual(self.apt_calls(), [])


if __name__ == "__main__":
    unittest.main()

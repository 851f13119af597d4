"""data/slurm/lumen-batch.sbatch on a real one-node Slurm cluster that this test starts and
stops (Debian's slurm-wlm and munge, tests/batch/slurm-local.sh): an array of 3 tasks over
30 stacks gives a single process's outputs with disjoint journals; cancelling one task and
resubmitting the array finishes the batch; `develop` arrays split a folder of photos alike. SKIP (77) where Slurm is not installed."""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batchlib as bl  # noqa: E402
from batchlib import lt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SLURM_LOCAL = os.path.join(HERE, "slurm-local.sh")
SOURCE_ROOT = os.environ.get("LUMEN_SOURCE_ROOT", os.path.join(HERE, "..", ".."))
SBATCH_SCRIPT = os.path.join(SOURCE_ROOT, "data", "slurm", "lumen-batch.sbatch")
STACKS = 30
WAIT_S = 300


def skip_reason():
    missing = [p for p in ("slurmctld", "slurmd", "sbatch", "munged") if shutil.which(p) is None]
    if missing:
        return f"Slurm is not installed (no {', '.join(missing)}): apt-get install slurm-wlm munge"
    if os.geteuid() != 0:
        return "the one-node Slurm cluster needs root to start"
    return None


def free_port_pair():
    """A port P with P+1 free as well: slurmctld and slurmd of this test's own cluster."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port > 60000:
            continue
        try:
            with socket.socket() as s:
                s.bind(("127.0.0.1", port + 1))
            return port
        except OSError:
            continue
    return 6817


def stop_cluster(state, env):
    """Stops every daemon this test's cluster started (slurm-local.sh stop: TERM, then KILL);
    harmless when none runs."""
    if os.path.isdir(state):
        subprocess.run([SLURM_LOCAL, "stop", state], capture_output=True, env=env, timeout=120)


class Slurm(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="lumen-slurm-", dir="/tmp")  # short: a unix socket lives here
        os.chmod(cls.tmp, 0o755)  # munged refuses a socket folder that others cannot enter
        cls.state = os.path.join(cls.tmp, "sl")
        cls.env = dict(os.environ, SLURM_LOCAL_PORT=str(free_port_pair()), SLURM_LOCAL_MIN_JOB_AGE="4",
                       LC_ALL="C.UTF-8", LANGUAGE="")
        # Registered before anything starts: class cleanups run whatever fails after this,
        # in setUpClass too (tearDownClass would not), and a SIGTERM (meson's timeout) runs
        # them before the process ends.
        cls.addClassCleanup(shutil.rmtree, cls.tmp, ignore_errors=True)
        cls.addClassCleanup(stop_cluster, cls.state, cls.env)
        signal.signal(signal.SIGTERM, lambda *_: (stop_cluster(cls.state, cls.env),
                                                   shutil.rmtree(cls.tmp, ignore_errors=True),
                                                   os._exit(143)))
        start = subprocess.run([SLURM_LOCAL, "start", cls.state], capture_output=True, text=True,
                               env=cls.env, timeout=180)
        if start.returncode != 0 or "SLURM_CONF=" not in start.stdout:
            raise AssertionError(f"the local Slurm cluster did not start:\n{start.stderr}")
        cls.env["SLURM_CONF"] = start.stdout.strip().split("SLURM_CONF=", 1)[1]
        lt.say(f"cluster state: {cls.state}")
        if os.environ.get("LUMEN_TEST_FAIL_AFTER_START"):
            raise AssertionError("set-up failing on purpose after the cluster started")
        cls.stacks = os.path.join(cls.tmp, "stacks")
        cls.ids = bl.make_stacks(cls.stacks, STACKS)
        cls.reference = os.path.join(cls.tmp, "reference")
        proc = bl.batch(["--progress", "none", "-o", cls.reference, cls.stacks])
        if proc.returncode != 0:
            raise AssertionError(f"single-process run: {lt.describe(proc)}")

    def slurm(self, *args):
        proc = subprocess.run(list(args), capture_output=True, text=True, env=self.env, timeout=60)
        self.assertEqual(proc.returncode, 0, f"{' '.join(args)}: {proc.stderr}")
        return proc.stdout.strip()

    def submit(self, out, *flags):
        logs = os.path.join(self.tmp, "logs")
        os.makedirs(logs, exist_ok=True)
        env = dict(self.env, LUMEN_CLI=lt.lumen_cli())
        proc = subprocess.run(["sbatch", "--parsable", "--array=0-2", "-o", os.path.join(logs, "%A_%a.log"),
                               SBATCH_SCRIPT, *flags, "-o", out, self.stacks],
                              capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(proc.returncode, 0, f"sbatch: {proc.stderr}")
        return proc.stdout.strip().split(";")[0]

    def wait(self, job):
        deadline = time.time() + WAIT_S
        while self.slurm("squeue", "-h", "-j", job) and time.time() < deadline:
            time.sleep(0.5)
        self.assertEqual(self.slurm("squeue", "-h", "-j", job), "", f"job {job} still queued after {WAIT_S} s")

    def logs(self, job):
        d = os.path.join(self.tmp, "logs")
        text = ""
        for name in sorted(os.listdir(d)):
            if name.startswith(job + "_"):
                with open(os.path.join(d, name)) as f:
                    text += f.read()
        return text

    def check_shards(self, out, job):
        bl.assert_complete(self, out, self.reference, self.ids)
        by_journal = {}
        for name, sid in bl.journal_records(out):
            by_journal.setdefault(name, set()).add(sid)
        self.assertEqual(sorted(by_journal), [f"journal-{i}-of-3.tsv" for i in range(3)], self.logs(job))
        sets = list(by_journal.values())
        for i in range(3):
            for j in range(i + 1, 3):
                self.assertEqual(sets[i] & sets[j], set(), "two tasks did one stack")
        report = bl.batch(["--report", out])
        self.assertIn(f"stacks: {STACKS}\ndone: {STACKS}\nfailed: 0\nremaining: 0\n", report.stdout,
                      lt.describe(report))

    def test_array(self):
        out = os.path.join(self.tmp, "array")
        job = self.submit(out)
        self.wait(job)
        self.check_shards(out, job)
        self.assertEqual(self.logs(job).count(f"of {STACKS // 3} stacks done"), 3, self.logs(job))

    def test_develop_array(self):
        """`lumen-batch.sbatch develop` as an array of 3 tasks over a folder of photos: disjoint
        journals, every photo once, the bytes of a single process's run."""
        photos = os.path.join(self.tmp, "photos")
        os.makedirs(photos, exist_ok=True)
        corpus = lt.photos_dir()
        names = [n for n in sorted(os.listdir(corpus)) if n.endswith((".jpg", ".png"))][:3]
        ids = []
        for k in range(9):
            name = names[k % len(names)]
            sid = f"d{k}-{os.path.splitext(name)[0]}"
            os.symlink(os.path.join(corpus, name), os.path.join(photos, sid + os.path.splitext(name)[1]))
            ids.append(sid)
        reference = os.path.join(self.tmp, "develop-reference")
        proc = bl.batch(["develop", "--progress", "none", "--size", "200", "-o", reference, photos])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        out = os.path.join(self.tmp, "develop-array")
        logs = os.path.join(self.tmp, "logs")
        os.makedirs(logs, exist_ok=True)
        env = dict(self.env, LUMEN_CLI=lt.lumen_cli())
        proc = subprocess.run(["sbatch", "--parsable", "--array=0-2", "-o", os.path.join(logs, "%A_%a.log"),
                               SBATCH_SCRIPT, "develop", "--size", "200", "-o", out, photos],
                              capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(proc.returncode, 0, f"sbatch: {proc.stderr}")
        job = proc.stdout.strip().split(";")[0]
        self.wait(job)
        bl.assert_complete(self, out, reference, ids, ext="jpg")
        by_journal = {}
        for name, sid in bl.journal_records(out):
            by_journal.setdefault(name, set()).add(sid)
        self.assertEqual(sorted(by_journal), [f"journal-{i}-of-3.tsv" for i in range(3)], self.logs(job))
        sets = list(by_journal.values())
        for i in range(3):
            for j in range(i + 1, 3):
                self.assertEqual(sets[i] & sets[j], set(), "two tasks did one photo")
        self.assertEqual(self.logs(job).count("of 3 photos done"), 3, self.logs(job))

    def test_cancel_and_resubmit(self):
        out = os.path.join(self.tmp, "cancelled")
        # One stack at a time, so that task 1 is still working when it is cancelled.
        job = self.submit(out, "--in-flight", "1")
        journal = os.path.join(out, "journal-1-of-3.tsv")
        deadline = time.time() + WAIT_S
        while time.time() < deadline:
            if os.path.exists(journal) and any(name == "journal-1-of-3.tsv" for name, _ in bl.journal_records(out)):
                break
            time.sleep(0.1)
        self.slurm("scancel", f"{job}_1")
        self.wait(job)
        report = bl.batch(["--report", out])
        self.assertNotIn("remaining: 0\n", report.stdout, "task 1 finished before it was cancelled: "
                                                          + report.stdout)
        again = self.submit(out)
        self.wait(again)
        self.check_shards(out, again)


class Cleanup(unittest.TestCase):
    def test_failed_setup_stops_the_cluster(self):
        """A set-up that fails after the cluster started leaves no daemon and no folder."""
        env = dict(os.environ, LUMEN_TEST_FAIL_AFTER_START="1")
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "Slurm"], capture_output=True,
                              text=True, env=env, timeout=WAIT_S)
        self.assertNotEqual(proc.returncode, 0, "the set-up was to fail")
        states = [l.split("cluster state: ", 1)[1].strip() for l in proc.stdout.splitlines()
                  if "cluster state: " in l]
        self.assertEqual(len(states), 1, f"the cluster did not start:\n{proc.stdout}\n{proc.stderr}")
        alive = subprocess.run(["pgrep", "-af", states[0]], capture_output=True, text=True).stdout
        self.assertEqual(alive, "", "daemons left running")
        self.assertFalse(os.path.exists(os.path.dirname(states[0])), "temporary folder left")


if __name__ == "__main__":
    reason = skip_reason()
    if reason:
        print(f"SKIP: {reason}")
        sys.exit(77)
    unittest.main(verbosity=2)

"""Helpers of the batch tests: stack folders made of the shared HDR stacks (symlinks, so that
many stacks cost no disk), batch runs, and the checks every resumed batch must pass."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402,F401

HDR = os.path.join(lt.data_dir(), "hdr")
SCENES = sorted(d for d in os.listdir(HDR) if os.path.isfile(os.path.join(HDR, d, "exposures.txt"))) \
    if os.path.isdir(HDR) else []


def make_stacks(root, count):
    """COUNT stack folders in ROOT, named s000…, cycling through the shared scenes."""
    if not SCENES:
        raise SystemExit(f"no HDR stacks in {HDR}")
    os.makedirs(root, exist_ok=True)
    ids = []
    for k in range(count):
        sid = f"s{k:03d}-{SCENES[k % len(SCENES)]}"
        os.symlink(os.path.join(HDR, SCENES[k % len(SCENES)]), os.path.join(root, sid))
        ids.append(sid)
    return ids


def batch(args, env=None, timeout=600):
    full_env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    for k in ("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN",
              "SLURM_ARRAY_TASK_STEP", "JOB_COMPLETION_INDEX", "LUMEN_BATCH_CRASH_AT"):
        full_env.pop(k, None)
    full_env.update(env or {})
    return subprocess.run([lt.lumen_cli(), "batch"] + [str(a) for a in args], capture_output=True,
                          text=True, timeout=timeout, env=full_env, errors="replace")


def batch_guarded(args, env=None, max_seconds=60, max_mb=2048):
    """A batch run killed after MAX_SECONDS or once its resident memory passes MAX_MB (the
    machine's memory is not the test's to take); returns (exit status, stderr, seconds, the most
    resident memory seen in MB, sampled every 5 ms: wait4's figure would count this Python's
    memory from before the exec)."""
    full_env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    full_env.pop("LUMEN_BATCH_CRASH_AT", None)
    full_env.update(env or {})
    return lt.run_guarded(["batch"] + [str(a) for a in args], full_env, max_seconds, max_mb)


def journal_records(outdir, kind="done"):
    """(journal name, id) of every KIND record in OUTDIR's journals."""
    out = []
    for name in sorted(os.listdir(outdir)):
        if name.startswith("journal") and name.endswith(".tsv"):
            with open(os.path.join(outdir, name)) as f:
                for line in f:
                    fields = line.rstrip("\n").split("\t")
                    if fields[0] == kind:
                        out.append((name, fields[2]))
    return out


def temporaries(outdir):
    return [n for n in os.listdir(outdir) if lt.TMP_INFIX in n]


def failures(path):
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return dict(line.rstrip("\n").split("\t", 1) for line in f if line.strip())


def assert_complete(test, outdir, reference, ids, ext="hdr"):
    """OUTDIR holds exactly REFERENCE's outputs, byte for byte; each id is done once in the
    journals; no temporary is left."""
    test.assertEqual(temporaries(outdir), [], "temporary files left behind")
    for sid in ids:
        with open(os.path.join(outdir, f"{sid}.{ext}"), "rb") as a, \
                open(os.path.join(reference, f"{sid}.{ext}"), "rb") as b:
            test.assertTrue(a.read() == b.read(), f"{sid}.{ext} differs from the clean run's")
    done = [sid for _, sid in journal_records(outdir)]
    test.assertEqual(sorted(done), sorted(ids), "journals must list every stack exactly once")
    outputs = sorted(n for n in os.listdir(outdir) if n.endswith("." + ext))
    test.assertEqual(outputs, sorted(f"{sid}.{ext}" for sid in ids))


class OneSceneTest(unittest.TestCase):
    """Tests whose every stack is one scene's (SCENE, small: about 0.15 s a merge), merged once
    into a reference output that every output of theirs must equal, in a folder of the class's
    own (TMP_PREFIX)."""
    SCENE = "sunset-handheld"
    TMP_PREFIX = "lumen-batch-"

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix=cls.TMP_PREFIX)
        cls.addClassCleanup(shutil.rmtree, cls.tmp, ignore_errors=True)
        ref_stacks = os.path.join(cls.tmp, "ref-stacks")
        os.makedirs(ref_stacks)
        os.symlink(os.path.join(HDR, cls.SCENE), os.path.join(ref_stacks, "ref"))
        ref_out = os.path.join(cls.tmp, "ref-out")
        proc = batch(["--progress", "none", "-o", ref_out, ref_stacks])
        if proc.returncode != 0:
            raise AssertionError(f"reference run: {lt.describe(proc)}")
        cls.reference = lt.read_bytes(os.path.join(ref_out, "ref.hdr"))

    def fresh(self, name):
        path = os.path.join(self.tmp, name)
        shutil.rmtree(path, ignore_errors=True)
        return path

    def stacks(self, name, ids):
        """A folder of stack folders named IDS, each the scene's."""
        root = self.fresh(name)
        os.makedirs(root)
        for sid in ids:
            os.symlink(os.path.join(HDR, self.SCENE), os.path.join(root, sid))
        return root

    def done_run(self, name, ids):
        """The stacks IDS merged into a fresh OUTDIR: (their folder, OUTDIR)."""
        root = self.stacks(name, ids)
        out = self.fresh(name + "-out")
        proc = batch(["--progress", "none", "-o", out, root])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        return root, out

    def assert_reference(self, path):
        self.assertTrue(lt.read_bytes(path) == self.reference, f"{os.path.basename(path)[:40]}…: not the merge's bytes")

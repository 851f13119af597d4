"""lumen-cli batch: outputs equal `lumen-cli hdr`'s, kills at random moments and at each
commit step followed by reruns that finish the batch as a clean run would, bad stacks in
failed.tsv, shards that cover the list exactly once, a full disk, usage errors."""
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batchlib as bl  # noqa: E402
from batchlib import lt  # noqa: E402


class Batch(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="lumen-batch-")
        # Class cleanups run even when the rest of setUpClass fails; tearDownClass would not.
        cls.addClassCleanup(shutil.rmtree, cls.tmp, ignore_errors=True)
        cls.stacks = os.path.join(cls.tmp, "stacks")
        cls.ids = bl.make_stacks(cls.stacks, 24)
        # The clean, uninterrupted run every resumed run is compared with.
        cls.reference = os.path.join(cls.tmp, "reference")
        start = time.monotonic()
        proc = bl.batch(["--progress", "none", "-o", cls.reference, cls.stacks])
        cls.clean_seconds = time.monotonic() - start
        if proc.returncode != 0:
            raise AssertionError(f"clean run: {lt.describe(proc)}")

    def out(self, name):
        path = os.path.join(self.tmp, name)
        shutil.rmtree(path, ignore_errors=True)
        return path

    def test_equals_hdr_command(self):
        """Each output equals `lumen-cli hdr` on the same stack with the same flags."""
        cases = [([], "hdr", []),
                 (["--format", "jpg", "--tonemap", "reinhard", "--gamma-correction", "0.8"], "jpg",
                  ["--tonemap", "reinhard", "--gamma-correction", "0.8"]),
                 (["--format", "png", "--tonemap", "drago", "--bias", "0.8"], "png",
                  ["--tonemap", "drago", "--bias", "0.8"]),
                 (["--format", "tif", "--tonemap", "gamma", "--gamma", "2.2"], "tif",
                  ["--tonemap", "gamma", "--gamma", "2.2"]),
                 (["--method", "mertens", "--format", "jpg"], "jpg", ["--method", "mertens"]),
                 (["--method", "robertson", "--align", "--format", "png"], "png",
                  ["--method", "robertson", "--align"])]
        for batch_flags, ext, hdr_flags in cases:
            with self.subTest(flags=batch_flags):
                out = self.out("equal-" + "-".join(batch_flags))
                proc = bl.batch(batch_flags + ["--progress", "none", "-o", out, bl.HDR])
                self.assertEqual(proc.returncode, 0, lt.describe(proc))
                for scene in bl.SCENES:
                    single = os.path.join(out, f"single-{scene}.{ext}")
                    lt.run_ok(self, ["hdr"] + hdr_flags + ["--exposures", os.path.join(bl.HDR, scene, "exposures.txt"),
                                                           "-o", single])
                    self.assertEqual(lt.read_bytes(os.path.join(out, f"{scene}.{ext}")), lt.read_bytes(single),
                                     f"{scene}.{ext}: batch and `lumen-cli hdr` differ ({batch_flags})")

    def test_manifest_equals_folder(self):
        """A .tsv manifest of a stack gives the output of its folder; ids are the first column."""
        scene = bl.SCENES[0]
        manifest = os.path.join(self.tmp, "stacks.tsv")
        with open(manifest, "w") as f, open(os.path.join(bl.HDR, scene, "exposures.txt")) as listing:
            for line in listing:
                if line.strip():
                    name, seconds = line.split()
                    f.write(f"m-{scene}\t{os.path.join(bl.HDR, scene, name)}\t{seconds}\n")
        out = self.out("manifest")
        proc = bl.batch(["--progress", "none", "-o", out, manifest])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        ref = next(i for i in self.ids if i.endswith("-" + scene))
        self.assertEqual(lt.read_bytes(os.path.join(out, f"m-{scene}.hdr")),
                         lt.read_bytes(os.path.join(self.reference, f"{ref}.hdr")))

    def test_rerun_skips(self):
        out = self.out("rerun")
        shutil.copytree(self.reference, out)
        inode = {i: os.stat(os.path.join(out, f"{i}.hdr")).st_ino for i in self.ids}
        proc = bl.batch(["--progress", "none", "-o", out, self.stacks])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertIn("24 of 24 stacks done (0 now, 24 before)", proc.stdout)
        for i in self.ids:
            self.assertEqual(os.stat(os.path.join(out, f"{i}.hdr")).st_ino, inode[i], f"{i} was redone")
        bl.assert_complete(self, out, self.reference, self.ids)

    def test_kill_at_random_moments(self):
        """kill -9 at random moments, at least 5 times, then a rerun: as a clean run."""
        seed = int(os.environ.get("LUMEN_TEST_SEED", time.time()))
        rng = random.Random(seed)
        out = self.out("killed")
        env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
        kills = attempts = 0
        while kills < 5 and attempts < 40:
            attempts += 1
            proc = subprocess.Popen([lt.lumen_cli(), "batch", "--progress", "none", "-o", out, self.stacks],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
            # Within the first tenth of a clean run's time: five such runs leave work for a
            # sixth, however fast this machine merges.
            time.sleep(rng.uniform(0.02, 0.1) * self.clean_seconds)
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                kills += 1
            proc.wait()
            proc.stderr.close()
            if proc.returncode == 0:
                break
        self.assertGreaterEqual(kills, 5, f"only {kills} kills hit a running batch (seed {seed})")
        proc = bl.batch(["--progress", "none", "-o", out, self.stacks])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        bl.assert_complete(self, out, self.reference, self.ids)

    def test_crash_points(self):
        """Death at each commit step (the 3rd stack's), then a rerun: as a clean run. An output
        whose done record was written is not written again; the one renamed without it is
        (nothing proves it whole: a copy cut short looks the same)."""
        for step in ("after-temp-write", "after-rename", "after-journal"):
            with self.subTest(step=step):
                out = self.out("crash-" + step)
                proc = bl.batch(["--progress", "none", "--in-flight", "1", "-o", out, self.stacks],
                                env={"LUMEN_BATCH_CRASH_AT": step + ":3"})
                self.assertEqual(proc.returncode, -signal.SIGKILL, f"{step}: {lt.describe(proc)}")
                done = [i for _, i in bl.journal_records(out)]
                outputs = sorted(n[:-4] for n in os.listdir(out) if n.endswith(".hdr") and not n.startswith("."))
                if step == "after-temp-write":
                    self.assertEqual(len(bl.temporaries(out)), 1, "the complete temporary must be there")
                    self.assertEqual(len(outputs), 2)
                elif step == "after-rename":
                    self.assertEqual(len(outputs), 3)
                    self.assertEqual(len(done), 2, "killed between the rename and the journal")
                else:
                    self.assertEqual(len(done), 3)
                # Hard links outside OUTDIR keep each output's inode from being reused once it goes.
                witness = self.out("witness-" + step)
                os.makedirs(witness)
                for i in outputs:
                    os.link(os.path.join(out, f"{i}.hdr"), os.path.join(witness, i))
                proc = bl.batch(["--progress", "none", "-o", out, self.stacks])
                self.assertEqual(proc.returncode, 0, lt.describe(proc))
                for i in outputs:
                    kept = os.path.samefile(os.path.join(out, f"{i}.hdr"), os.path.join(witness, i))
                    if i in done:
                        self.assertTrue(kept, f"{i} redone")
                    else:
                        self.assertFalse(kept, f"{i}, renamed without its record, was kept")
                if step == "after-rename":
                    self.assertIn("with no whole done record", proc.stderr)
                    self.assertIn("merged again: 1", proc.stderr)
                bl.assert_complete(self, out, self.reference, self.ids)

    def test_bad_stacks(self):
        """Bad stacks fail with their reasons in failed.tsv; the good ones are done; exit 1."""
        root = os.path.join(self.tmp, "mixed")
        shutil.rmtree(root, ignore_errors=True)
        good = bl.make_stacks(root, 4)
        a = os.path.join(bl.HDR, bl.SCENES[0])
        other_size = os.path.join(lt.photos_dir(), "pier-fog.jpg")  # not the stack's size

        def stack(name, lines, files=()):
            d = os.path.join(root, name)
            os.makedirs(d)
            for src, dst in files:
                os.symlink(src, os.path.join(d, dst))
            with open(os.path.join(d, "exposures.txt"), "w") as f:
                f.write("".join(l + "\n" for l in lines))

        first = [os.path.join(a, n) for n in sorted(os.listdir(a)) if n != "exposures.txt"]
        stack("bad-missing", ["gone1.jpg 0.01", "gone2.jpg 0.1"])
        stack("bad-sizes", ["a.img 0.01", "b.jpg 0.1"], [(first[0], "a.img"), (other_size, "b.jpg")])
        stack("bad-times", ["x.jpg 0.01", "y.jpg 0.01"], [(first[0], "x.jpg"), (first[1], "y.jpg")])
        stack("bad-garbage", ["x.jpg 0.01", "y.jpg 0.1"], [(first[0], "x.jpg"),
                                                           (os.path.abspath(__file__), "y.jpg")])
        stack("bad-syntax", ["x.jpg soon"], [(first[0], "x.jpg")])
        os.makedirs(os.path.join(root, "bad-empty"))
        out = self.out("mixed-out")
        proc = bl.batch(["--progress", "none", "-o", out, root])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        failed = bl.failures(os.path.join(out, "failed.tsv"))
        expect = {"bad-missing": "gone1.jpg", "bad-sizes": "one size", "bad-times": "same exposure time",
                  "bad-garbage": "y.jpg", "bad-syntax": "line 1", "bad-empty": "at least two exposures"}
        self.assertEqual(sorted(failed), sorted(expect), proc.stdout + proc.stderr)
        for sid, words in expect.items():
            self.assertIn(words, failed[sid], f"{sid}: the reason should say {words!r}")
        for sid in good:
            self.assertEqual(lt.read_bytes(os.path.join(out, f"{sid}.hdr")),
                             lt.read_bytes(os.path.join(self.reference, f"{sid}.hdr")))
        self.assertEqual(bl.temporaries(out), [])
        report = bl.batch(["--report", out])
        self.assertIn("done: 4\nfailed: 6\nremaining: 0", report.stdout, lt.describe(report))

    def test_shards_cover_once(self):
        """Shards 0/3, 1/3, 2/3 (flag, Slurm and Kubernetes environments) cover every stack
        once; their journals are disjoint; the report counts each stack once."""
        out = self.out("shards")
        ways = [(["--shard", "0/3"], {}),
                ([], {"SLURM_ARRAY_TASK_ID": "11", "SLURM_ARRAY_TASK_MIN": "10",
                      "SLURM_ARRAY_TASK_COUNT": "3"}),
                (["--shard-count", "3"], {"JOB_COMPLETION_INDEX": "2"})]
        for flags, env in ways:
            proc = bl.batch(flags + ["--progress", "none", "-o", out, self.stacks], env=env)
            self.assertEqual(proc.returncode, 0, lt.describe(proc))
            self.assertIn("8 of 8 stacks done", proc.stdout)
        records = bl.journal_records(out)
        by_shard = {}
        for name, sid in records:
            by_shard.setdefault(name, set()).add(sid)
        self.assertEqual(sorted(by_shard), [f"journal-{i}-of-3.tsv" for i in range(3)])
        sets = list(by_shard.values())
        for i in range(3):
            for j in range(i + 1, 3):
                self.assertEqual(sets[i] & sets[j], set(), "shards' journals overlap")
        bl.assert_complete(self, out, self.reference, self.ids)
        report = bl.batch(["--report", out])
        self.assertIn("stacks: 24\ndone: 24\nfailed: 0\nremaining: 0", report.stdout, lt.describe(report))

    def test_full_disk(self):
        """ENOSPC stops the batch with one message; no stack is blamed; a rerun with space
        finishes it."""
        mnt = os.path.join(self.tmp, "small")
        os.makedirs(mnt, exist_ok=True)
        mount = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", mnt], capture_output=True,
                               text=True)
        if mount.returncode != 0:
            self.skipTest(f"cannot mount a small tmpfs to fill: {mount.stderr.strip()}")
        try:
            out = os.path.join(mnt, "out")
            proc = bl.batch(["--progress", "none", "-o", out, self.stacks])
            self.assertEqual(proc.returncode, 1, lt.describe(proc))
            lines = proc.stderr.strip().split("\n")
            self.assertEqual(len(lines), 1, f"one message expected: {proc.stderr!r}")
            self.assertIn("No space left on device", lines[0])
            self.assertIn("batch stopped", lines[0])
            self.assertEqual(bl.failures(os.path.join(out, "failed.tsv")), {})
            self.assertEqual(bl.temporaries(out), [])
            big = self.out("after-full")
            shutil.copytree(out, big)
            proc = bl.batch(["--progress", "none", "-o", big, self.stacks])
            self.assertEqual(proc.returncode, 0, lt.describe(proc))
            bl.assert_complete(self, big, self.reference, self.ids)
        finally:
            subprocess.run(["umount", mnt])

    def test_progress(self):
        out = self.out("progress")
        proc = bl.batch(["--progress", "bar", "--shard", "0/6", "-o", out, self.stacks])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertRegex(proc.stdout, r"batch: 4 of 4 stacks done \(4 now, 0 before\), 0 failed, 0 left; "
                                      r"[0-9.]+ stacks/s")
        self.assertIn("stacks/s", proc.stderr)
        proc = bl.batch(["--progress", "none", "--timings", "--shard", "1/6", "-o", out, self.stacks])
        self.assertEqual(proc.stderr, "")
        self.assertIn("decoder: libjpeg-turbo", proc.stdout)

    def test_usage_errors(self):
        out = self.out("usage")
        for flags in (["--shard", "3/3"], ["--shard", "x"], ["--format", "bmp"],
                      ["--tonemap", "reinhard"], ["--method", "nope"], ["--progress", "loud"],
                      ["--quality", "0"], ["--devices", "zero"]):
            with self.subTest(flags=flags):
                proc = bl.batch(flags + ["-o", out, self.stacks])
                self.assertEqual(proc.returncode, 2, lt.describe(proc))
                self.assertTrue(proc.stderr.startswith("lumen-cli: "), proc.stderr)
        proc = bl.batch(["-o", out, os.path.join(self.tmp, "nowhere")])
        self.assertEqual(proc.returncode, 2, lt.describe(proc))
        self.assertIn("nowhere", proc.stderr)
        proc = bl.batch(["--progress", "none", "-o", out, self.stacks],
                        env={"JOB_COMPLETION_INDEX": "1"})
        self.assertEqual(proc.returncode, 2, lt.describe(proc))
        self.assertIn("--shard-count", proc.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)

"""lumen-cli batch against hostile inputs and misuse (issue 13, item 3; issue 28): stack ids whose
names are too long for a temporary or for the output itself, or of 10,000 characters, a NUL
byte in a manifest, outputs cut short or changed after they were done, outputs and batch.lock
that are fifos or devices, an exposure of 10 GB, exposures whose profiles cannot be kept (the
notes list), two runs in one OUTDIR, absurd thread counts, one id for two stacks, journals
naming stacks the input does not have.
Journals that lie are test_journals.py's. Small stacks (the sunset's, about 0.15 s each), so
that the whole file takes seconds."""
import hashlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batchlib as bl  # noqa: E402
from batchlib import lt  # noqa: E402

SCENE = bl.OneSceneTest.SCENE


def exposures(scene):
    """(path, seconds) of SCENE's exposures."""
    folder = os.path.join(bl.HDR, scene)
    with open(os.path.join(folder, "exposures.txt")) as f:
        return [(os.path.join(folder, name), seconds) for name, seconds in (l.split() for l in f if l.strip())]


class Hostile(bl.OneSceneTest):
    TMP_PREFIX = "lumen-batch-hostile-"

    def test_long_ids(self):
        """Ids of 240 and 251 bytes (outputs of 244 and 255) are merged: their temporary names
        are shortened to fit; an id of 253 bytes, whose output's name (257 bytes) cannot exist,
        fails alone with the reason in failed.tsv; a rerun does the same and stops nowhere."""
        fits = ["a" * 240, "é" * 125 + "b"]  # 240 and 251 bytes
        too_long = "c" * 253
        root = self.stacks("long-ids", fits + [too_long, "short"])
        out = self.fresh("long-ids-out")
        for attempt in ("first run", "rerun"):
            with self.subTest(attempt=attempt):
                proc = bl.batch(["--progress", "none", "-o", out, root])
                self.assertEqual(proc.returncode, 1, lt.describe(proc))
                self.assertIn("3 of 4 stacks done", proc.stdout, lt.describe(proc))
                failed = bl.failures(os.path.join(out, "failed.tsv"))
                self.assertEqual(list(failed), [too_long], lt.describe(proc))
                self.assertIn("257 bytes", failed[too_long])
                self.assertIn("shorter id", failed[too_long])
                for sid in fits + ["short"]:
                    self.assert_reference(os.path.join(out, f"{sid}.hdr"))
                self.assertEqual(bl.temporaries(out), [])

    def test_very_long_id_quoted_short(self):
        """A stack id of 10,000 characters (20 KB) fails alone, and is quoted short: in
        failed.tsv its line holds the id's first 64 characters, "…", "~" and the first 16 hex
        digits of the id's SHA-256 (the hash its temporary names carry), and a reason that names
        the manifest's line; every other line the batch, --report and the manifest's refusals
        print stays short."""
        long_id = "é" * 10000
        short_form = "é" * 64 + "…~" + hashlib.sha256(long_id.encode()).hexdigest()[:16]
        manifest = os.path.join(self.tmp, "long.tsv")
        with open(manifest, "w") as f:
            f.write("".join(f"{sid}\t{p}\t{s}\n" for sid in (long_id, "ok") for p, s in exposures(SCENE)))
        out = self.fresh("very-long-out")
        proc = bl.batch(["--progress", "plain", "-o", out, manifest])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn("1 of 2 stacks done", proc.stdout)
        self.assert_reference(os.path.join(out, "ok.hdr"))
        with open(os.path.join(out, "failed.tsv"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertEqual(len(lines), 1, lines)
        sid, reason = lines[0].split("\t")
        self.assertEqual(sid, short_form)
        self.assertIn("long.tsv, line 1", reason)
        self.assertIn("shorter id", reason)
        self.assertLess(len(lines[0]), 600, lines[0][:200])
        report = bl.batch(["--report", out])
        self.assertIn("failed: 1\n", report.stdout, lt.describe(report))
        for line in (proc.stdout + proc.stderr + report.stdout + report.stderr).splitlines():
            self.assertLess(len(line), 300, line[:200])

        # The manifest's own refusals: the id again after another stack's lines, and in two manifests.
        again = os.path.join(self.tmp, "long-again.tsv")
        with open(again, "w") as f:
            f.write("".join(f"{sid}\t{p}\t{s}\n" for sid in (long_id, "ok", long_id) for p, s in exposures(SCENE)))
        other = os.path.join(self.tmp, "long-other.tsv")
        with open(other, "w") as f:
            f.write("".join(f"{long_id}\t{p}\t{s}\n" for p, s in exposures(SCENE)))
        # (Two inputs that give one id are a usage error: exit 2, and a line on --help.)
        for inputs, words, status in (([again], "line 11", 1), ([manifest, other], "given twice", 2)):
            with self.subTest(inputs=inputs):
                proc = bl.batch(["--progress", "none", "-o", self.fresh("long-refused-out")] + inputs)
                self.assertEqual(proc.returncode, status, lt.describe(proc))
                self.assertIn(words, proc.stderr)
                message = proc.stderr.strip().split("\n")[0]
                self.assertLess(len(message), 400, message[:300])

    def test_long_id_leftover_is_cleaned(self):
        """A run killed after writing the temporary of a long id's output leaves it under a
        shortened name; the rerun recognises it as its own, removes it and finishes."""
        long_id = "é" * 120  # 240 bytes
        root = self.stacks("long-leftover", [long_id])
        out = self.fresh("long-leftover-out")
        proc = bl.batch(["--progress", "none", "-o", out, root], env={"LUMEN_BATCH_CRASH_AT": "after-temp-write"})
        self.assertEqual(proc.returncode, -signal.SIGKILL, lt.describe(proc))
        self.assertEqual(len(bl.temporaries(out)), 1, os.listdir(out))
        proc = bl.batch(["--progress", "none", "-o", out, root])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertEqual(bl.temporaries(out), [])
        self.assert_reference(os.path.join(out, f"{long_id}.hdr"))

    def test_manifest_with_nul(self):
        """A NUL byte on a manifest's line 3 refuses the manifest, naming the file and the line,
        before anything is written (no line after it is silently dropped)."""
        lines = [f"m\t{path}\t{seconds}\n".encode() for path, seconds in exposures(SCENE)]
        manifest = os.path.join(self.tmp, "nul.tsv")
        with open(manifest, "wb") as f:
            f.write(lines[0] + lines[1] + b"n\t\0garbage\t1\n" + b"".join(lines[2:]))
        out = self.fresh("nul-out")
        proc = bl.batch(["--progress", "none", "-o", out, manifest])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertEqual(len(proc.stderr.strip().split("\n")), 1, proc.stderr)
        self.assertIn("nul.tsv: line 3", proc.stderr)
        self.assertIn("NUL", proc.stderr)
        self.assertFalse(os.path.exists(out), "nothing is written for a refused manifest")

    def test_damaged_outputs_are_merged_again(self):
        """Outputs cut to 0 and 100 bytes, and one with a byte changed, are not done: the
        rerun merges them again (a redo record each), keeps the intact one, and the report
        counts each stack once."""
        ids = ["s0", "s1", "s2", "s3"]
        root, out = self.done_run("damaged", ids)
        path = {sid: os.path.join(out, f"{sid}.hdr") for sid in ids}
        os.truncate(path["s0"], 0)
        os.truncate(path["s1"], 100)
        with open(path["s2"], "r+b") as f:
            f.seek(5000)
            byte = f.read(1)
            f.seek(5000)
            f.write(bytes([byte[0] ^ 0xFF]))
        intact = os.stat(path["s3"]).st_ino
        proc = bl.batch(["--progress", "none", "-o", out, root])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertIn("4 of 4 stacks done (3 now, 1 before)", proc.stdout)
        self.assertIn("merged again: 3", proc.stderr)
        for sid in ids:
            self.assert_reference(path[sid])
        self.assertEqual(os.stat(path["s3"]).st_ino, intact, "the intact output was redone")
        self.assertEqual(sorted(sid for _, sid in bl.journal_records(out, "redo")), ["s0", "s1", "s2"])
        report = bl.batch(["--report", out])
        self.assertIn("stacks: 4\ndone: 4\nfailed: 0\nremaining: 0\n", report.stdout, lt.describe(report))
        self.assertNotIn("more than once", report.stdout)

    def test_outputs_that_are_nodes(self):
        """A fifo and a device (the test's own, with /dev/null's numbers) under two stacks'
        output names: the resume's check read the fifo for ever, and the commit renamed over
        the device. Now each of those stacks fails, naming its output, the nodes stay nodes,
        and the third stack is merged."""
        ids = ["s0", "s1", "s2"]
        root = self.stacks("nodes-in", ids)
        out = self.fresh("nodes-out")
        os.makedirs(out)
        fifo, device = os.path.join(out, "s0.hdr"), os.path.join(out, "s1.hdr")
        os.mkfifo(fifo)
        try:
            os.mknod(device, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
        except PermissionError:
            device = None  # not root: the fifo alone
        proc = bl.batch(["--progress", "none", "-o", out, root], timeout=120)
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        failed = bl.failures(os.path.join(out, "failed.tsv"))
        self.assertIn("s0", failed)
        self.assertIn("s0.hdr", failed["s0"])
        self.assertRegex(failed["s0"], r"(?i)fifo|pipe|not a regular file")
        self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the fifo was replaced")
        if device:
            self.assertIn("s1", failed)
            self.assertTrue(stat.S_ISCHR(os.lstat(device).st_mode), "the device node was replaced")
        self.assert_reference(os.path.join(out, "s2.hdr"))
        self.assertEqual(bl.temporaries(out), [], "temporary files left behind")

    def test_output_nodes_are_never_opened(self):
        """An output's name that is not a regular file is refused by name, never opened: the
        resume read each present output back, and opened it before it looked at what it was
        (a link to a tape rewinds it, to /dev/watchdog arms it, as root). A fifo tells: a
        writer waiting in open() on it goes on only once someone opens it for reading."""
        ids = ["s0", "s1"]
        root = self.stacks("never-opened-in", ids)
        out = self.fresh("never-opened-out")
        os.makedirs(out)
        fifo = os.path.join(out, "s0.hdr")
        os.mkfifo(fifo)
        opened = threading.Event()

        def writer():
            os.close(os.open(fifo, os.O_WRONLY))
            opened.set()

        thread = threading.Thread(target=writer, daemon=True)
        thread.start()
        try:
            proc = bl.batch(["--progress", "none", "-o", out, root], timeout=120)
            time.sleep(0.05)  # a writer let go by the batch has set the event by now
            was_opened = opened.is_set()
        finally:
            if not opened.is_set():
                os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))  # lets the writer go
            thread.join(10)
        self.assertFalse(was_opened, "the batch opened the fifo under an output's name")
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn("s0.hdr", bl.failures(os.path.join(out, "failed.tsv")).get("s0", ""))
        self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the fifo was replaced")
        self.assert_reference(os.path.join(out, "s1.hdr"))

    def test_lock_file_that_is_not_a_file(self):
        """batch.lock that is a fifo or a link to a device was opened for writing and locked
        (opening a device can do something); now it is refused by name, with one line (exit 1),
        before any stack is touched, and stays what it was."""
        root = self.stacks("lock-file-in", ["s0"])
        for kind in ("fifo", "/dev/null"):
            with self.subTest(kind=kind):
                out = self.fresh("lock-file-out")
                os.makedirs(out)
                lock = os.path.join(out, "batch.lock")
                if kind == "fifo":
                    os.mkfifo(lock)
                else:
                    os.symlink(kind, lock)
                proc = bl.batch(["--progress", "none", "-o", out, root], timeout=60)
                self.assertEqual(proc.returncode, 1, lt.describe(proc))
                lines = proc.stderr.strip().split("\n")
                self.assertEqual(len(lines), 1, proc.stderr)
                self.assertIn("batch.lock: is not a regular file", lines[0])
                if kind == "fifo":
                    self.assertTrue(stat.S_ISFIFO(os.lstat(lock).st_mode), "the fifo was replaced")
                else:
                    self.assertEqual(os.readlink(lock), kind)
                self.assertEqual(sorted(os.listdir(out)), ["batch.lock"])

    def test_huge_sparse_exposure_is_not_read_whole(self):
        """An exposure of 10 GB (a hole: no disk) within the bound the memory budget sets on a
        file (LUMEN_MAX_PIXELS=1G: 16 GiB): the read stage copied every exposure whole into
        memory, 10 GB for this one before its decoder refused it. Now exposures are mapped and
        only their first pages read ahead: its stack fails alone, naming it, and the batch
        stays far below the file's size in memory, and quick."""
        root = self.stacks("sparse-in", ["s0"])
        stack = os.path.join(root, "s1")
        os.makedirs(stack)
        first, seconds = exposures(SCENE)[0]
        shutil.copyfile(first, os.path.join(stack, "e1.jpg"))
        huge = os.path.join(stack, "x.jpg")
        with open(huge, "wb") as f:
            try:
                f.truncate(10 << 30)
            except OSError as e:
                self.skipTest(f"this file system holds no sparse file of 10 GB: {e}")
        with open(os.path.join(stack, "exposures.txt"), "w") as f:
            f.write(f"e1.jpg {seconds}\nx.jpg {float(seconds) * 4}\n")
        out = self.fresh("sparse-out")
        rc, err, elapsed, peak_mb = bl.batch_guarded(["--progress", "none", "-o", out, root],
                                                     env={"LUMEN_MAX_PIXELS": "1G"}, max_mb=3072)
        lt.say(f"  exit {rc} in {elapsed:.2f} s, {peak_mb:.0f} MB at most")
        self.assertGreaterEqual(rc, 0, f"killed after {elapsed:.1f} s at {peak_mb:.0f} MB")
        self.assertEqual(rc, 1, err)
        self.assertLess(peak_mb, 1024, "an exposure was read whole into memory")
        self.assertLess(elapsed, 20)
        failed = bl.failures(os.path.join(out, "failed.tsv"))
        self.assertEqual(list(failed), ["s1"], err)
        self.assertIn(huge, failed["s1"])
        self.assert_reference(os.path.join(out, "s0.hdr"))

    def test_notes_of_loaders_and_writer(self):
        """What a loader or the writer could not keep (a profile) was said by lumen-cli and hdr,
        never by batch. Now each merged stack's notes go to notes.tsv, a line per file that has
        some (id, file, notes), and stderr says in one line how many stacks have notes. s1's
        first exposure carries a profile lcms2 cannot read; s2's first a 17 MB one, more than
        s2's JPEG output holds; s3's none. A rerun that merges nothing keeps the list as it is
        and says nothing."""
        try:
            from PIL import Image, ImageCms
        except ImportError:
            self.skipTest("Pillow (python3-pil) is not installed")
        srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
        big = bytearray(srgb) + bytes(17_000_000 - len(srgb))
        big[0:4] = len(big).to_bytes(4, "big")  # a profile lcms2 reads, as large as a printer's
        root = self.fresh("notes-in")
        firsts = {"s1": ("e0.jpg", {"icc_profile": b"junk" * 20}),
                  "s2": ("e0.webp", {"lossless": True, "icc_profile": bytes(big)}),
                  "s3": ("e0.png", {})}
        first_paths = {}
        for sid, (name, kwargs) in firsts.items():
            folder = os.path.join(root, sid)
            os.makedirs(folder)
            for k, level in enumerate((40, 110, 220)):
                ramp = np.clip(np.arange(16)[None, :, None] * 8 + level - 60, 0, 255)
                pixels = np.broadcast_to(ramp, (12, 16, 3)).astype(np.uint8)
                path = os.path.join(folder, name if k == 0 else f"e{k}.png")
                Image.fromarray(pixels, "RGB").save(path, **(kwargs if k == 0 else {}))
                if k == 0:
                    first_paths[sid] = path
        out = self.fresh("notes-out")
        args = ["--progress", "none", "--method", "mertens", "--format", "jpg", "-o", out, root]
        proc = bl.batch(args)
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        notes_path = os.path.join(out, "notes.tsv")
        self.assertEqual(proc.stderr.splitlines(),
                         [f"lumen-cli: note: 2 stacks merged with notes (what a loader or the writer could not "
                          f"keep as the files have it, such as an ICC profile): see {notes_path}"])
        with open(notes_path) as f:
            listed = f.read()
        lines = [line.split("\t") for line in listed.splitlines()]
        self.assertEqual(len(lines), 2, listed)
        self.assertEqual(lines[0], ["s1", first_paths["s1"],
                                    "its ICC profile cannot be read; colours are taken as sRGB"])
        self.assertEqual(lines[1][:2], ["s2", os.path.join(out, "s2.jpg")])
        self.assertRegex(lines[1][2], r"^its ICC profile \(17\.0\sMB\) is larger than a JPEG holds .*sRGB")

        proc = bl.batch(args)
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertIn("3 of 3 stacks done (0 now, 3 before)", proc.stdout, lt.describe(proc))
        self.assertEqual(proc.stderr, "")
        with open(notes_path) as f:
            self.assertEqual(f.read(), listed)

    def start_and_stop(self, args, out, journal_name):
        """A batch started and stopped (SIGSTOP) once it holds OUTDIR's lock (its journal has a
        start record): it keeps its locks, deterministically, while others try."""
        env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
        env.pop("LUMEN_BATCH_CRASH_AT", None)
        proc = subprocess.Popen([lt.lumen_cli(), "batch", "--progress", "none", "--in-flight", "1"] + args,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.addCleanup(self.reap, proc)
        journal = os.path.join(out, journal_name)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if os.path.exists(journal):
                with open(journal) as f:
                    if "start\t" in f.read():
                        break
            time.sleep(0.005)
        proc.send_signal(signal.SIGSTOP)
        self.assertIsNone(proc.poll(), "the first run ended before it could be stopped")
        return proc

    @staticmethod
    def reap(proc):
        if proc.poll() is None:
            proc.kill()
        proc.communicate()

    def assert_refused(self, args, holder):
        proc = bl.batch(["--progress", "none"] + args)
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn("another lumen-cli batch", proc.stderr)
        self.assertIn(holder, proc.stderr)

    def finish(self, proc):
        proc.send_signal(signal.SIGCONT)
        stdout, stderr = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 0, stdout + stderr)

    def test_one_batch_per_outdir(self):
        """While a run without shards works in OUTDIR, --shard 0/1 and another run without
        shards are refused (they would redo its stacks and delete its temporaries); while
        shard 0/3 works, shard 1/2 and a run without shards are refused but shard 1/3 runs; a
        killed holder's lock goes with it."""
        ids = [f"s{k}" for k in range(6)]
        root = self.stacks("lock", ids)
        out = self.fresh("lock-out")
        holder = self.start_and_stop(["-o", out, root], out, "journal.tsv")
        self.assert_refused(["--shard", "0/1", "-o", out, root], "without --shard")
        self.assert_refused(["-o", out, root], "without --shard")
        self.finish(holder)
        for sid in ids:
            self.assert_reference(os.path.join(out, f"{sid}.hdr"))
        self.assertEqual(bl.temporaries(out), [])

        out = self.fresh("lock-shards-out")
        holder = self.start_and_stop(["--shard", "0/3", "-o", out, root], out, "journal-0-of-3.tsv")
        self.assert_refused(["--shard", "1/2", "-o", out, root], "--shard I/3")
        self.assert_refused(["-o", out, root], "--shard I/3")
        proc = bl.batch(["--progress", "none", "--shard", "1/3", "-o", out, root])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.finish(holder)

        holder = self.start_and_stop(["--shard", "2/3", "-o", out, root], out, "journal-2-of-3.tsv")
        self.reap(holder)
        proc = bl.batch(["--progress", "none", "-o", out, root])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        for sid in ids:
            self.assert_reference(os.path.join(out, f"{sid}.hdr"))
        self.assertEqual(bl.temporaries(out), [])

    def test_thread_counts_bounded(self):
        """--jobs, --read-threads and --in-flight far past the machine are usage errors that
        say the bound, at once (not a GLib error after gigabytes, nor every stack read into
        memory ahead of the merge); --help gives the bounds."""
        root = self.stacks("threads", ["s0"])
        out = self.fresh("threads-out")
        for flag, value in (("--jobs", "100000"), ("--read-threads", "100000"), ("--in-flight", "100000000")):
            with self.subTest(flag=flag):
                start = time.monotonic()
                proc = bl.batch([flag, value, "-o", out, root], timeout=60)
                self.assertEqual(proc.returncode, 2, lt.describe(proc))
                self.assertIn(f"{flag} {value}: at most", proc.stderr)
                self.assertLess(time.monotonic() - start, 10)
                self.assertFalse(os.path.exists(out))
        help_text = bl.batch(["--help"]).stdout
        for flag in ("--jobs", "--read-threads", "--in-flight"):
            self.assertRegex(help_text, flag + r"=N .*at most")

    def test_one_id_for_two_stacks(self):
        """An id whose lines come back after another stack's (two stacks given one id) is
        refused with the id and both places, instead of one stack of both's exposures; an id
        in a manifest and a folder names both."""
        first = [f"a\t{p}\t{s}\n" for p, s in exposures(SCENE)]
        other = [f"b\t{p}\t{s}\n" for p, s in exposures(SCENE)]
        # The same images at other times: merged into one stack, 10 exposures all different.
        again = [f"a\t{p}\t{float(s) * 1.5}\n" for p, s in exposures(SCENE)]
        manifest = os.path.join(self.tmp, "twice.tsv")
        with open(manifest, "w") as f:
            f.write("".join(first + other + again))
        out = self.fresh("twice-out")
        proc = bl.batch(["--progress", "none", "-o", out, manifest])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn("twice.tsv: line 11", proc.stderr)
        self.assertIn("“a”", proc.stderr)
        self.assertIn("1–5", proc.stderr)
        self.assertFalse(os.path.exists(out))

        folder = self.stacks("twice-folder", ["b"])
        proc = bl.batch(["--progress", "none", "-o", out, self.one_block_manifest(), folder])
        self.assertNotEqual(proc.returncode, 0, lt.describe(proc))
        self.assertIn("given twice", proc.stderr)
        self.assertIn("once.tsv, line 1", proc.stderr)
        self.assertIn(os.path.join(folder, "b"), proc.stderr)

    def one_block_manifest(self):
        manifest = os.path.join(self.tmp, "once.tsv")
        with open(manifest, "w") as f:
            f.write("".join(f"b\t{p}\t{s}\n" for p, s in exposures(SCENE)))
        return manifest

    def test_report_counts_only_the_input(self):
        """Journal records of stacks the latest run does not have (an earlier batch in the same
        OUTDIR, a record of a stranger) are not counted by --report."""
        out = self.fresh("report-out")
        for name, ids in (("earlier", ["e0", "e1", "e2"]), ("latest", ["l0", "l1"])):
            root = self.stacks(name, ids)
            proc = bl.batch(["--progress", "none", "-o", out, root])
            self.assertEqual(proc.returncode, 0, lt.describe(proc))
        with open(os.path.join(out, "journal.tsv"), "a") as f:
            f.write("done\t1700000000000000\tstranger\t1.0\t10\t0badc0de\n")
        report = bl.batch(["--report", out])
        self.assertEqual(report.returncode, 0, lt.describe(report))
        self.assertIn("stacks: 2\ndone: 2\nfailed: 0\nremaining: 0\n", report.stdout)
        self.assertIn("not counted: 4 stacks", report.stdout)
        self.assertIn("unsharded: 2 of 2 done", report.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)

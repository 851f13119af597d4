"""lumen-cli batch against journals that lie (issue 28): a done record cut mid-line (bare, or
ended by a later run's newline, when it looks like a record of an earlier version), a NUL byte
mid-journal, outputs cut short under whole records and under none, done records of an earlier
version, record files (journals, stacks.txt, failed.tsv) that are pipes, devices, huge or
damaged, and a journal a record short of the bound a reader takes. No stack may count as done, on a rerun or in --report, unless a whole done record
gives its output's size (and, on a rerun, CRC-32) and the output has them. Small stacks (the
sunset's), so that the file takes seconds."""
import os
import stat
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batchlib as bl  # noqa: E402
from batchlib import lt  # noqa: E402

SCENE = bl.OneSceneTest.SCENE


class Journals(bl.OneSceneTest):
    TMP_PREFIX = "lumen-batch-journals-"

    @staticmethod
    def records(out):
        """The lines of OUTDIR/journal.tsv: the start record, and each stack's done record by id."""
        with open(os.path.join(out, "journal.tsv"), "rb") as f:
            lines = f.read().split(b"\n")
        start = next(l for l in lines if l.startswith(b"start\t"))
        done = {l.split(b"\t")[2].decode(): l for l in lines if l.startswith(b"done\t")}
        return start, done

    def cut_output(self, path):
        """PATH cut to half its size, as a copy that stopped there leaves it."""
        os.truncate(path, os.path.getsize(path) // 2)

    def witness(self, out, ids):
        """Hard links to the outputs of IDS outside OUTDIR: an output merged again is then
        another inode, never one reused from the file it replaced."""
        folder = self.fresh(os.path.basename(out) + "-witness")
        os.makedirs(folder)
        for sid in ids:
            os.link(os.path.join(out, f"{sid}.hdr"), os.path.join(folder, sid))
        return folder

    def assert_kept(self, out, witness):
        for sid in os.listdir(witness):
            self.assertTrue(os.path.samefile(os.path.join(out, f"{sid}.hdr"), os.path.join(witness, sid)),
                            f"{sid} was merged again")

    def report(self, out):
        proc = bl.batch(["--report", out])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        return proc.stdout

    def test_cut_record_and_cut_outputs(self):
        """The journal ends inside s3's done record, cut after its MS field and ended by a newline
        (as a later run's start leaves a cut record: it then looks like a record of an earlier
        version) or cut inside its CRC-32 without one; s4 and s5 have no record. Outputs s1
        (whole record), s3 (cut record) and s4 (none) are cut to half; s5 is intact but has no
        record. Neither --report nor the rerun counts any of them done; the rerun merges the
        four again, keeps s0 and s2, and then every stack is done once."""
        ids = [f"s{k}" for k in range(6)]
        for cut in ("after-ms-ended", "inside-crc"):
            with self.subTest(cut=cut):
                root, out = self.done_run("cut-" + cut, ids)
                start, done = self.records(out)
                fields = done["s3"].split(b"\t")
                if cut == "after-ms-ended":
                    tail = b"\t".join(fields[:4]) + b"\n"
                else:
                    tail = b"\t".join(fields[:5]) + b"\t" + fields[5][:5]
                with open(os.path.join(out, "journal.tsv"), "wb") as f:
                    f.write(b"".join(l + b"\n" for l in (start, done["s0"], done["s1"], done["s2"])) + tail)
                path = {sid: os.path.join(out, f"{sid}.hdr") for sid in ids}
                for sid in ("s1", "s3", "s4"):
                    self.cut_output(path[sid])
                kept = self.witness(out, ["s0", "s2"])

                report = self.report(out)
                self.assertIn("stacks: 6\ndone: 2\nfailed: 0\nremaining: 4\n", report)

                proc = bl.batch(["--progress", "none", "-o", out, root])
                self.assertEqual(proc.returncode, 0, lt.describe(proc))
                self.assertIn("6 of 6 stacks done (4 now, 2 before)", proc.stdout, lt.describe(proc))
                self.assertIn("merged again", proc.stderr)
                for sid in ids:
                    self.assert_reference(path[sid])
                self.assert_kept(out, kept)
                report = self.report(out)
                self.assertIn("stacks: 6\ndone: 6\nfailed: 0\nremaining: 0\n", report)
                self.assertNotIn("more than once", report)

    def test_nul_byte_mid_journal(self):
        """A NUL byte inside s1's done record, with s1's output cut to half: the line does not
        count (s1 is merged again), and the whole records after it (s2, s3) still do."""
        ids = ["s0", "s1", "s2", "s3"]
        root, out = self.done_run("nul", ids)
        start, done = self.records(out)
        poisoned = done["s1"][:-3] + b"\0" + done["s1"][-2:]
        with open(os.path.join(out, "journal.tsv"), "wb") as f:
            f.write(b"".join(l + b"\n" for l in (start, done["s0"], poisoned, done["s2"], done["s3"])))
        path = {sid: os.path.join(out, f"{sid}.hdr") for sid in ids}
        self.cut_output(path["s1"])
        kept = self.witness(out, ["s0", "s2", "s3"])

        report = self.report(out)
        self.assertIn("stacks: 4\ndone: 3\nfailed: 0\nremaining: 1\n", report)
        self.assertIn("journal.tsv: 1 line", report)

        proc = bl.batch(["--progress", "none", "-o", out, root])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertIn("4 of 4 stacks done (1 now, 3 before)", proc.stdout, lt.describe(proc))
        for sid in ids:
            self.assert_reference(path[sid])
        self.assert_kept(out, kept)

    def test_journal_of_an_earlier_version(self):
        """Done records without size and CRC-32 (an earlier version's, or a record cut after
        its MS field) prove nothing of their outputs, even whole ones: --report counts them
        not done and says why, and a rerun merges their stacks again, once."""
        ids = ["s0", "s1"]
        root, out = self.done_run("old-journal", ids)
        journal = os.path.join(out, "journal.tsv")
        with open(journal) as f:
            lines = [l.rstrip("\n").split("\t") for l in f]
        with open(journal, "w") as f:
            for fields in lines:
                f.write("\t".join(fields[:4] if fields[0] == "done" else fields) + "\n")
        os.unlink(os.path.join(out, "stacks.txt"))
        self.cut_output(os.path.join(out, "s1.hdr"))

        report = self.report(out)
        self.assertIn("done: 0\n", report)
        self.assertIn("2 done records cut short or of an earlier version", report)

        proc = bl.batch(["--progress", "none", "-o", out, root])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertIn("2 of 2 stacks done (2 now, 0 before)", proc.stdout, lt.describe(proc))
        for sid in ids:
            self.assert_reference(os.path.join(out, f"{sid}.hdr"))
        report = self.report(out)
        self.assertIn("stacks: 2\ndone: 2\nfailed: 0\nremaining: 0\n", report)
        self.assertNotIn("more than once", report)

    def assert_refused(self, args, name, words):
        proc = bl.batch(args, timeout=60)
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        lines = proc.stderr.strip().split("\n")
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertIn(name, lines[0])
        self.assertIn(words, lines[0])

    def test_record_files_that_are_not_files(self):
        """A journal, stacks.txt or failed.tsv that is a pipe or a device, and a journal larger
        than any real one (a sparse 2 GiB file), stop the batch and --report with one line that
        names the file (exit 1), without waiting on the pipe, reading the device or writing to
        the journal: skipping the file would count its stacks wrong."""
        not_regular = "not a regular file"
        cases = [("journal.tsv", "fifo", not_regular), ("journal.tsv", "/dev/zero", not_regular),
                 ("journal.tsv", "huge", "larger than"), ("stacks.txt", "fifo", not_regular),
                 ("stacks.txt", "/dev/zero", not_regular), ("failed.tsv", "fifo", not_regular)]
        for name, kind, words in cases:
            with self.subTest(name=name, kind=kind):
                root, out = self.done_run("records", ["s0"])
                path = os.path.join(out, name)
                os.unlink(path)
                if kind == "fifo":
                    os.mkfifo(path)
                elif kind == "huge":
                    with open(path, "wb") as f:
                        f.truncate(2 << 30)
                else:
                    os.symlink(kind, path)
                self.assert_refused(["--progress", "none", "-o", out, root], name, words)
                if name != "failed.tsv":  # the report reads no failure list
                    self.assert_refused(["--report", out], name, words)
                if kind == "fifo":
                    self.assertTrue(stat.S_ISFIFO(os.lstat(path).st_mode), "the pipe was replaced")
                elif kind == "huge":
                    self.assertEqual(os.path.getsize(path), 2 << 30, "the refused journal was written to")

    def test_full_journal_is_not_grown(self):
        """A journal a few bytes short of what a rerun reads (1 GiB, a sparse file here): the
        writer appended past the bound, after which every rerun and --report refused the
        journal with no way on. Now the record that would cross it is refused: the batch stops
        with one line naming the journal and the way on (a run under another shard count, whose
        journal is a new file), and the journal stays within the bound."""
        bound = 1 << 30
        root, out = self.done_run("full", ["s0", "s1"])
        journal = os.path.join(out, "journal.tsv")
        os.truncate(journal, bound - 8)
        proc = bl.batch(["--progress", "none", "-o", out, root], timeout=60)
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        lines = proc.stderr.strip().split("\n")
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertIn("journal.tsv: is full", lines[0])
        self.assertIn("--shard 0/1", lines[0])
        self.assertLessEqual(os.path.getsize(journal), bound)

    def test_stack_list_leftover_removed(self):
        """A run killed while it wrote stacks.txt leaves the atomic writer's temporary beside it
        (the list is then not the batch's): the next run, which writes the list again, removes
        it."""
        root = self.fresh("list-leftover")
        os.makedirs(root)
        os.symlink(os.path.join(bl.HDR, SCENE), os.path.join(root, "s0"))
        out = self.fresh("list-leftover-out")
        os.makedirs(out)
        with open(os.path.join(out, ".stacks.txt" + lt.TMP_INFIX + "Ab12Cd"), "w") as f:
            f.write("# lumen-cli batch: the stacks of")
        proc = bl.batch(["--progress", "none", "-o", out, root])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertEqual(bl.temporaries(out), [])
        self.assertIn("stacks: 1\ndone: 1\n", self.report(out))

    def test_stack_list_damaged_or_huge(self):
        """A stacks.txt whose ids no longer match its checksum (a line gone) or that is huge is
        refused by --report (it would count the wrong stacks), and replaced by a rerun, which
        writes it whole."""
        for kind in ("line-gone", "huge"):
            with self.subTest(kind=kind):
                root, out = self.done_run("stack-list", ["s0", "s1"])
                path = os.path.join(out, "stacks.txt")
                if kind == "huge":
                    with open(path, "r+b") as f:
                        f.truncate(2 << 30)
                    words = "larger than"
                else:
                    with open(path) as f:
                        lines = f.readlines()
                    with open(path, "w") as f:
                        f.write("".join(l for l in lines if l != "s1\n"))
                    words = "checksum"
                self.assert_refused(["--report", out], "stacks.txt", words)
                proc = bl.batch(["--progress", "none", "-o", out, root])
                self.assertEqual(proc.returncode, 0, lt.describe(proc))
                self.assertIn("2 of 2 stacks done (0 now, 2 before)", proc.stdout, lt.describe(proc))
                self.assertIn("stacks: 2\ndone: 2\n", self.report(out))
                self.assertLess(os.path.getsize(path), 4096)


if __name__ == "__main__":
    unittest.main(verbosity=2)

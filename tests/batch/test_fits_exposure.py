"""lumen-cli batch with one exposure that is a FITS file cut short, named .png (exposures are
known by their first bytes, not their names). cfitsio read such a file past its end in memory:
the crash took the whole run with it, and every rerun. Now that stack fails with the reason,
the others are merged, and a rerun does the same (issue 28). Small stacks (the sunset's)."""
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batchlib as bl  # noqa: E402
from batchlib import lt  # noqa: E402

SCENE = "sunset-handheld"


def fits_header_600mp():
    """A FITS header declaring 30000 × 20000 float pixels (2.4 GB), with nothing after it."""
    cards = [("SIMPLE", "T"), ("BITPIX", -32), ("NAXIS", 2), ("NAXIS1", 30000), ("NAXIS2", 20000)]
    text = "".join(f"{f'{k:<8}= {v:>20}':<80}" for k, v in cards) + f"{'END':<80}"
    return (text + " " * (-len(text) % 2880)).encode()


class CutFitsExposure(unittest.TestCase):
    def test_one_stack_fails_the_others_merge(self):
        tmp = tempfile.mkdtemp(prefix="lumen-batch-fits-")
        self.addCleanup(shutil.rmtree, tmp, ignore_errors=True)
        root = os.path.join(tmp, "stacks")
        os.makedirs(root)
        scene = os.path.abspath(os.path.join(bl.HDR, SCENE))
        for sid in ("a", "c"):
            os.symlink(scene, os.path.join(root, sid))
        bad = os.path.join(root, "b")
        os.makedirs(bad)
        with open(os.path.join(scene, "exposures.txt")) as f:
            lines = [line.split() for line in f if line.strip()]
        with open(os.path.join(bad, "exposures.txt"), "w") as f:
            for k, (name, seconds) in enumerate(lines):
                if k == 2:
                    name = "exposure03.png"
                    with open(os.path.join(bad, name), "wb") as cut:
                        cut.write(fits_header_600mp())
                else:
                    os.symlink(os.path.join(scene, name), os.path.join(bad, name))
                f.write(f"{name} {seconds}\n")

        out = os.path.join(tmp, "out")
        inodes = None
        for run in ("first", "rerun"):
            with self.subTest(run):
                proc = bl.batch(["--progress", "none", "-o", out, root], timeout=300)
                self.assertEqual(proc.returncode, 1, lt.describe(proc))
                failed = bl.failures(os.path.join(out, "failed.tsv"))
                self.assertEqual(sorted(failed), ["b"], lt.describe(proc))
                self.assertIn("exposure03.png", failed["b"])
                self.assertIn("truncated", failed["b"])
                merged = {sid: os.path.join(out, f"{sid}.hdr") for sid in ("a", "c")}
                self.assertEqual(lt.read_bytes(merged["a"]), lt.read_bytes(merged["c"]))
                self.assertFalse(os.path.exists(os.path.join(out, "b.hdr")))
                self.assertEqual(bl.temporaries(out), [])
                now = {sid: os.stat(path).st_ino for sid, path in merged.items()}
                if inodes is not None:
                    self.assertEqual(now, inodes, "the rerun merged the done stacks again")
                inodes = now


if __name__ == "__main__":
    unittest.main(verbosity=2)

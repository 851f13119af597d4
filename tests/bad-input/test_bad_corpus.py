"""The bad-input corpus (tests/data/bad/, its causes in EXPECTED.tsv): every file is refused
by lumen-cli with exit 1 and one line on stderr naming the file and the cause, writes no
output, and takes less than 10 s and 300 MB of resident memory (the process's own peak,
from wait4). The folder says how the file is given (EXPECTED.tsv's header)."""
import glob
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

MAX_SECONDS = 10
MAX_RSS_MB = 300
BUDGET = "50M"  # pixels: 200 MB as 8-bit RGBA
# Under AddressSanitizer the shadow memory and quarantine count as resident too.
if os.environ.get("ASAN_OPTIONS") is not None or "asan" in lt.lumen_cli():
    MAX_RSS_MB = 600


def bad_dir():
    return os.path.join(lt.data_dir(), "bad")


def expected():
    cases = []
    with open(os.path.join(bad_dir(), "EXPECTED.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, cause = line.rstrip("\n").split("\t")
                cases.append((name, cause))
    return cases


def command(name, out_dir):
    """lumen-cli's arguments for the corpus file NAME, and the output it must not write."""
    path = os.path.join(bad_dir(), name)
    kind = name.split("/")[0]
    photo = os.path.join(lt.photos_dir(), "camera-gray.png")
    forest = os.path.join(lt.data_dir(), "hdr", "forest", "exposures.txt")
    out = os.path.join(out_dir, "out.png")
    if kind == "images":
        return ["-o", out, path], out
    if kind == "sidecars":
        return ["--params", path, "-o", out, photo], out
    if kind == "exposures":
        out = os.path.join(out_dir, "out.hdr")
        return ["hdr", "--exposures", path, "-o", out], out
    if kind == "responses":
        out = os.path.join(out_dir, "out.hdr")
        return ["hdr", "--exposures", forest, "--response-in", path, "-o", out], out
    if kind == "manifests":
        out = os.path.join(out_dir, "batch")
        return ["batch", "-o", out, path], out
    if kind == "stacks":
        out = os.path.join(out_dir, "out.hdr")
        return ["hdr", "--times", "0.01,0.1", "-o", out] + sorted(glob.glob(os.path.join(path, "*"))), out
    if kind == "xmp-sidecars":
        # The sidecar copied beside a photo of its name; it must stay as it was (check()).
        sidecar = os.path.join(out_dir, os.path.basename(path))
        shutil.copyfile(path, sidecar)
        shutil.copyfile(photo, sidecar[:-len(".xmp")])
        return ["tags", "--rating", "3", sidecar[:-len(".xmp")]], out
    raise AssertionError(f"{name}: no rule for the folder {kind}/")


class BadCorpus(unittest.TestCase):
    def test_at_least_fifty_files(self):
        self.assertGreaterEqual(len(expected()), 50)

    def test_every_file_is_listed(self):
        listed = {name.rstrip("/") for name, _ in expected()}
        on_disk = set()
        for kind in os.listdir(bad_dir()):
            folder = os.path.join(bad_dir(), kind)
            if os.path.isdir(folder):
                for n in os.listdir(folder):
                    on_disk.add(f"{kind}/{n}")
        self.assertEqual(sorted(on_disk - listed), [], "files without an expected cause")
        self.assertEqual(sorted(listed - on_disk), [], "causes without a file")

    def test_each_refused(self):
        for name, cause in expected():
            with self.subTest(name):
                self.check(name.rstrip("/"), cause)

    def check(self, name, cause):
        out_dir = tempfile.mkdtemp(prefix="lumen-bad-")
        self.addCleanup(shutil.rmtree, out_dir, True)
        args, out = command(name, out_dir)
        # A fixed memory budget, not the machine's: some formats may legitimately expand a few
        # bytes into any size (lossless WebP, run-length BMP), so that only the budget bounds
        # what a damaged one of them costs before its damage shows.
        code, message, seconds, rss_mb = lt.run_measured(args, {"LUMEN_MAX_PIXELS": BUDGET}, MAX_SECONDS)
        lines = message.strip().splitlines()
        self.assertEqual(code, 1, f"{name}: exit {code}: {message}")
        self.assertEqual(len(lines), 1, f"{name}: not one line: {message!r}")
        self.assertIn(os.path.basename(name), lines[0], f"{name}: the message does not name it")
        self.assertRegex(lines[0], re.compile(cause, re.I))
        self.assertFalse(os.path.exists(out), f"{name}: {out} was written")
        self.assertEqual(lt.leftovers(out_dir), [])
        if name.startswith("xmp-sidecars/"):
            self.assertEqual(lt.read_bytes(os.path.join(out_dir, os.path.basename(name))),
                             lt.read_bytes(os.path.join(bad_dir(), name)), f"{name}: the sidecar was changed")
        self.assertLess(seconds, MAX_SECONDS)
        self.assertLess(rss_mb, MAX_RSS_MB, f"{name}: {rss_mb:.0f} MB resident")


if __name__ == "__main__":
    unittest.main(verbosity=2)

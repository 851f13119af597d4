"""lumen-cli tags: star ratings, rejects and colour labels in photo.ext.xmp, read back by
exiftool and by darktable's own sidecar reader (darktable-cli imports a folder, reading each
photo's sidecar, and copies what it read into its exports' XMP), and sidecars written by
exiftool read by Lumen. The peers' tests are skipped, with a message, where the peer is not
installed."""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

EXIFTOOL = shutil.which("exiftool")
DARKTABLE_CLI = shutil.which("darktable-cli")


def exiftool_tags(*paths):
    """Path → the rating and label keys exiftool reads (-n: numbers as stored)."""
    proc = subprocess.run([EXIFTOOL, "-j", "-n", "-XMP:Rating", "-XMP:Label", "-XMP-digiKam:PickLabel",
                           "-XMP-darktable:ColorLabels", *paths], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return {os.path.basename(r["SourceFile"]): r for r in json.loads(proc.stdout)}


def color_labels(record):
    """darktable:colorlabels as a list, as exiftool gives it (a lone item is a number)."""
    value = record.get("ColorLabels", record.get("Colorlabels"))
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


class TagsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def photo(self, name="photo.jpg"):
        path = os.path.join(self.dir, name)
        cv2.imwrite(path, np.full((48, 64, 3), 90, np.uint8))
        return path

    def tags(self, *args):
        return lt.run_ok(self, ["tags", *args]).stdout


class CliTest(TagsTest):
    def test_print_set_toggle_clear(self):
        p = self.photo()
        original = lt.read_bytes(p)
        self.assertEqual(self.tags(p), f"{p}: rating 0, labels none\n")
        self.assertFalse(os.path.exists(p + ".xmp"), "printing wrote a sidecar")
        self.assertEqual(self.tags(p, "--rating", "3", "--label", "red,Blue"), f"{p}: rating 3, labels red,blue\n")
        self.assertEqual(self.tags(p, "--toggle-label", "blue,green"), f"{p}: rating 3, labels red,green\n")
        self.assertEqual(self.tags(p, "--reject"), f"{p}: rejected, labels red,green\n")
        self.assertEqual(self.tags(p, "--clear-labels", "--rating", "5"), f"{p}: rating 5, labels none\n")
        self.assertEqual(self.tags(p), f"{p}: rating 5, labels none\n")
        self.assertEqual(lt.read_bytes(p), original, "the photo itself changed")

    def test_several_photos(self):
        a, b = self.photo("a.jpg"), self.photo("b.png")
        out = self.tags(a, b, "--label", "purple")
        self.assertEqual(out, f"{a}: rating 0, labels purple\n{b}: rating 0, labels purple\n")

    def test_usage_errors(self):
        p = self.photo()
        for args, word in ((["--rating", "6"], "--rating"), (["--rating", "2.5"], "--rating"),
                           (["--rating", "3", "--reject"], "--reject"), (["--label", "pink"], "pink"),
                           (["--label", "red", "--clear-labels"], "--clear-labels"), ([], "photo")):
            proc = lt.run(["tags", *args] + ([p] if args else []))
            self.assertEqual(proc.returncode, 2, lt.describe(proc))
            self.assertIn(word, proc.stderr.splitlines()[0])
            self.assertFalse(os.path.exists(p + ".xmp"))

    def assert_refused(self, photo, sidecar, *words):
        for args in ([], ["--rating", "2"]):
            proc = lt.run(["tags", photo, *args], timeout=20)
            self.assertEqual(proc.returncode, 1, lt.describe(proc))
            lines = proc.stderr.splitlines()
            self.assertEqual(len(lines), 1, proc.stderr)
            self.assertIn(sidecar, lines[0])
            for word in words:
                self.assertIn(word, lines[0])
            self.assertEqual(proc.stdout, "")

    def test_unusable_sidecars(self):
        p = self.photo()
        xmp = p + ".xmp"
        os.mkdir(xmp)
        self.assert_refused(p, xmp, "folder")
        os.rmdir(xmp)
        os.mkfifo(xmp)
        self.assert_refused(p, xmp)  # no hang: a fifo without a writer is never opened
        self.assertTrue(stat.S_ISFIFO(os.lstat(xmp).st_mode))
        os.unlink(xmp)
        broken = b"<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF>"
        with open(xmp, "wb") as f:
            f.write(broken)
        self.assert_refused(p, xmp, "XMP")
        self.assertEqual(lt.read_bytes(xmp), broken)
        self.assertEqual(lt.leftovers(self.dir), [])

    def test_missing_photo(self):
        missing = os.path.join(self.dir, "nothing.jpg")
        proc = lt.run(["tags", missing, "--rating", "1"])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn(missing, proc.stderr)
        self.assertFalse(os.path.exists(missing + ".xmp"))


@unittest.skipIf(EXIFTOOL is None, "exiftool is not installed (libimage-exiftool-perl)")
class ExiftoolTest(TagsTest):
    def test_exiftool_reads_lumen(self):
        cases = {"a.jpg": (["--rating", "4", "--label", "red"], 4, "Red", None, [0]),
                 "b.jpg": (["--reject", "--label", "green,blue"], -1, None, 1, [2, 3]),
                 "c.jpg": (["--rating", "0"], 0, None, None, []),
                 "d.jpg": (["--rating", "5", "--label", "purple"], 5, "Purple", None, [4])}
        for name, (args, *_rest) in cases.items():
            self.tags(self.photo(name), *args)
        read = exiftool_tags(*(os.path.join(self.dir, n + ".xmp") for n in cases))
        for name, (_args, rating, label, pick, labels) in cases.items():
            r = read[name + ".xmp"]
            self.assertEqual(r.get("Rating"), rating, name)
            self.assertEqual(r.get("Label"), label, name)
            self.assertEqual(r.get("PickLabel"), pick, name)
            self.assertEqual(color_labels(r), labels, name)

    def test_lumen_reads_exiftool(self):
        p = self.photo()
        xmp = p + ".xmp"
        subprocess.run([EXIFTOOL, "-q", "-XMP-xmp:Rating=-1", "-XMP-xmp:Label=Blue", "-XMP-dc:Subject=kept",
                        "-o", xmp, p], check=True)
        self.assertEqual(self.tags(p), f"{p}: rejected, labels blue\n")
        # Lumen's edit keeps what exiftool wrote besides, and exiftool reads Lumen's values.
        self.tags(p, "--rating", "2", "--label", "yellow")
        proc = subprocess.run([EXIFTOOL, "-j", "-n", "-XMP:Rating", "-XMP:Label", "-XMP-dc:Subject", xmp],
                              capture_output=True, text=True, check=True)
        r = json.loads(proc.stdout)[0]
        self.assertEqual((r.get("Rating"), r.get("Label"), r.get("Subject")), (2, "Yellow", "kept"))

    def test_photo_xmp_read(self):
        """photo.xmp (Lightroom's, digiKam's other name) read when photo.ext.xmp is absent."""
        p = self.photo("IMG_7.jpg")
        subprocess.run([EXIFTOOL, "-q", "-XMP-xmp:Rating=3", "-o", os.path.join(self.dir, "IMG_7.xmp"), p],
                       check=True)
        self.assertEqual(self.tags(p), f"{p}: rating 3, labels none\n")


@unittest.skipIf(DARKTABLE_CLI is None or EXIFTOOL is None,
                 "darktable-cli or exiftool is not installed: darktable's reading of Lumen's sidecars untested")
class DarktableTest(TagsTest):
    def test_darktable_reads_lumen(self):
        """darktable imports the folder (reading each photo.ext.xmp) and exports every photo with
        the XMP it read: rating, reject and the whole label set as Lumen wrote them."""
        src = os.path.join(self.dir, "in")
        os.mkdir(src)
        cases = {"a": (["--rating", "4", "--label", "red"], 4, [0]),
                 "b": (["--reject", "--label", "green,blue"], -1, [2, 3]),
                 "c": (["--rating", "1", "--label", "red,yellow,purple"], 1, [0, 1, 4]),
                 "d": (["--rating", "0"], 0, [])}
        for name, (args, _r, _l) in cases.items():
            self.tags(self.photo(os.path.join("in", name + ".jpg")), *args)
        # darktable's reading order, which decides Lumen's xmp:Label: where xmp:Label is there,
        # darktable takes it and not its colorlabels.
        label_first = self.photo(os.path.join("in", "e.jpg"))
        self.tags(label_first, "--label", "green,blue")
        subprocess.run([EXIFTOOL, "-q", "-overwrite_original", "-XMP-xmp:Label=Red", label_first + ".xmp"],
                       check=True)
        out = os.path.join(self.dir, "out")
        home = os.path.join(self.dir, "home")
        env = dict(os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, "cache"),
                   XDG_CONFIG_HOME=os.path.join(home, "config"), LC_ALL="C.UTF-8")
        proc = subprocess.run([DARKTABLE_CLI, src, os.path.join(out, "$(FILE_NAME).jpg"), "--core",
                               "--library", ":memory:", "--configdir", os.path.join(home, "dt"),
                               "--cachedir", os.path.join(home, "dtcache"), "--disable-opencl"],
                              capture_output=True, text=True, env=env, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        read = exiftool_tags(*(os.path.join(out, n + ".jpg") for n in "abcde"))
        for name, (_args, rating, labels) in cases.items():
            r = read[name + ".jpg"]
            self.assertEqual(r.get("Rating"), rating, name)
            self.assertEqual(color_labels(r), labels, name)
        self.assertEqual(read["b.jpg"].get("PickLabel"), 1)  # a foreign key darktable keeps
        self.assertEqual(color_labels(read["e.jpg"]), [0], "darktable read colorlabels despite xmp:Label")


if __name__ == "__main__":
    unittest.main(verbosity=2)

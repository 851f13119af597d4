"""lumen-cli on a camera raw (tests/data/raw/forest.dng): the .exr is the developed scene and
--raw-exposure is a gain on it (+1 EV doubles it, to half-float rounding); the preset written
with --params-out keeps the raw stage ([raw]) and gives the same photo back through --params;
a JPEG input cannot be written as .exr by this command; the tone mapping's flags spell "_" as
"-"; an undeveloped mosaic is never what is written (the PNG is colour, not one plane); a raw
bracketed with a photo is refused by lumen-cli hdr rather than merged as a mosaic (raw brackets
themselves: test_raw_merge.py)."""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
os.environ.setdefault("OPENCV_IO_ENABLE_OPENEXR", "1")
import cv2  # noqa: E402
import lumen_testlib as lt  # noqa: E402

DNG = os.path.join(os.environ.get("LUMEN_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "data")),
                   "raw", "forest.dng")


def run(*args):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    return subprocess.run([lt.lumen_cli(), *[str(a) for a in args]], capture_output=True, text=True, env=env,
                          timeout=120)


class CliRaw(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-raw-")
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def out(self, name):
        return os.path.join(self.d, name)

    def test_exposure_is_a_gain_on_the_scene(self):
        r = run("--backend", "cpu", "-o", self.out("a.exr"), DNG)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = run("--backend", "cpu", "--raw-exposure", "1", "-o", self.out("b.exr"), DNG)
        self.assertEqual(r.returncode, 0, r.stderr)
        a = cv2.imread(self.out("a.exr"), cv2.IMREAD_UNCHANGED).astype(np.float64)
        b = cv2.imread(self.out("b.exr"), cv2.IMREAD_UNCHANGED).astype(np.float64)
        lit = a > 1e-3
        ratio = b[lit] / a[lit]
        # Half floats: 11 bits, a relative step of 2^-11 at most on each side.
        self.assertLess(np.abs(ratio - 2).max(), 2 * 2 ** -10)

    def test_preset_round_trip(self):
        preset = self.out("look.lumen")
        r = run("--backend", "cpu", "--raw-wb", "daylight", "--raw-highlights", "clip", "--tonemap-contrast", "1.5",
                "--params-out", preset, "-o", self.out("a.png"), DNG)
        self.assertEqual(r.returncode, 0, r.stderr)
        text = open(preset).read()
        self.assertIn("[raw]", text)
        self.assertIn("wb=daylight", text)
        self.assertIn("kind=sigmoid", text)
        r = run("--backend", "cpu", "--params", preset, "-o", self.out("b.png"), DNG)
        self.assertEqual(r.returncode, 0, r.stderr)
        a = cv2.imread(self.out("a.png"), cv2.IMREAD_UNCHANGED)
        b = cv2.imread(self.out("b.png"), cv2.IMREAD_UNCHANGED)
        np.testing.assert_array_equal(a, b)
        self.assertEqual(a.dtype, np.uint16)
        self.assertEqual(a.ndim, 3)  # developed colour, not the sensor's one plane
        r = run("--backend", "cpu", "-o", self.out("c.png"), DNG)
        c = cv2.imread(self.out("c.png"), cv2.IMREAD_UNCHANGED)
        self.assertGreater(np.abs(a.astype(int) - c).max(), 1000)  # the preset changed the look

    def test_photo_is_no_scene(self):
        photo = os.path.join(os.path.dirname(DNG), "..", "photos", "chelsea.png")
        r = run("-o", self.out("x.exr"), photo)
        self.assertEqual(r.returncode, 1)
        self.assertIn("x.exr", r.stderr)
        self.assertFalse(os.path.exists(self.out("x.exr")))

    def test_a_photos_look_keeps_the_raws_tone_mapping(self):
        """A JPEG's preset (its [tonemap] is Reinhard's defaults) brings its edits to a raw, not
        its tone mapping; --raw-* flags on a JPEG leave no [raw] in its preset."""
        photo = os.path.join(os.path.dirname(DNG), "..", "photos", "chelsea.png")
        preset = self.out("jpeg.lumen")
        r = run("--exposure", "0.3", "--raw-exposure", "1", "--params-out", preset, "-o", self.out("j.png"), photo)
        self.assertEqual(r.returncode, 0, r.stderr)
        text = open(preset).read()
        self.assertIn("kind=reinhard", text)
        self.assertNotIn("[raw]", text)
        r = run("--backend", "cpu", "--params", preset, "-o", self.out("a.png"), DNG)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = run("--backend", "cpu", "--exposure", "0.3", "-o", self.out("b.png"), DNG)
        self.assertEqual(r.returncode, 0, r.stderr)
        a = cv2.imread(self.out("a.png"), cv2.IMREAD_UNCHANGED)
        b = cv2.imread(self.out("b.png"), cv2.IMREAD_UNCHANGED)
        np.testing.assert_array_equal(a, b)

    def test_hdr_is_no_raw_scene(self):
        """A .hdr cannot say its primaries: a raw's scene goes to .exr, said before any work."""
        r = run("-o", self.out("s.hdr"), DNG)
        self.assertEqual(r.returncode, 1)
        self.assertIn("s.hdr", r.stderr)
        self.assertIn(".exr", r.stderr)
        self.assertFalse(os.path.exists(self.out("s.hdr")))

    def test_raw_with_photo_refused(self):
        """A raw merges developed, a photo as it is: one stack is not both."""
        photo = os.path.join(os.path.dirname(DNG), "..", "photos", "forest-path.jpg")
        r = run("hdr", "--times", "0.01,0.02", "-o", self.out("m.jpg"), DNG, photo)
        self.assertEqual(r.returncode, 1)
        self.assertIn("camera raw", r.stderr)
        self.assertIn("forest-path.jpg", r.stderr)
        self.assertFalse(os.path.exists(self.out("m.jpg")))

    def test_tone_flags_spelt_with_hyphens(self):
        r = run("--backend", "cpu", "--tonemap", "reinhard", "--tonemap-light-adapt", "0.5", "-o", self.out("r.jpg"),
                DNG)
        self.assertEqual(r.returncode, 0, r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)

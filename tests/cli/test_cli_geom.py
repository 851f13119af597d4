"""lumen-cli's geometry flags: --rotate, --rotate-flip, --straighten, --crop, --crop-ratio,
--resize, --resize-mode. Sizes come from the contract (the issue's rules, worked out here),
pixels from OpenCV; bad values are usage errors (exit 2) naming what was wrong, a bad value in
a sidecar an error (exit 1).
"""
import math
import os
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

PHOTO = os.path.join(lt.photos_dir(), "forest-path.jpg")  # 2560 × 1600
SMALL = os.path.join(lt.photos_dir(), "chelsea.png")      # 451 × 300


def straighten_size(angle, w, h):
    """The largest upright rectangle in W × H turned by ANGLE degrees, in whole pixels."""
    a = math.radians(abs(angle))
    s, c = math.sin(a), math.cos(a)
    if s == 0:
        return w, h
    if min(w, h) <= 2 * s * c * max(w, h) or abs(s - c) < 1e-10:
        x = 0.5 * min(w, h)
        rw, rh = (x / s, x / c) if w >= h else (x / c, x / s)
    else:
        rw, rh = (w * c - h * s) / (c * c - s * s), (h * c - w * s) / (c * c - s * s)
    return math.floor(rw + 1e-6), math.floor(rh + 1e-6)


class Geometry(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-geom-")
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def render(self, name, *flags, src=PHOTO):
        out = os.path.join(self.dir, name + ".png")
        lt.run_ok(self, list(flags) + ["-o", out, src])
        return lt.imread(out)

    def test_issue_command(self):
        """The issue's example: rotate, straighten, crop with a ratio, resize, in that order."""
        got = self.render("all", "--rotate", "90", "--straighten", "-1.5", "--crop", "10,10,300,200",
                          "--crop-ratio", "3:2", "--resize", "200x0")
        h, w = lt.imread(PHOTO).shape[:2]
        sw, sh = straighten_size(-1.5, h, w)  # sides swapped by the quarter turn
        lt.say(f"  rotate 90: {h}×{w}; straighten -1.5: {sw}×{sh}; crop 300×200 (already 3:2); "
               f"resize 200x0: 200×{round(200 * 200 / 300)}")
        self.assertGreaterEqual(sw, 310)
        self.assertGreaterEqual(sh, 210)
        self.assertEqual(got.shape[:2], (133, 200))

    def test_order_is_the_pipeline_s(self):
        """The crop's rectangle is in the rotated image, whatever the flags' order: both runs
        are the slice of cv2.rotate's quarter turn."""
        want = cv2.rotate(lt.imread(PHOTO, cv2.IMREAD_COLOR), cv2.ROTATE_90_CLOCKWISE)[10:210, 20:320]
        a = self.render("a", "--rotate", "90", "--crop", "20,10,300,200")
        b = self.render("b", "--crop", "20,10,300,200", "--rotate", "90")
        self.assertEqual(lt.diff(a, want)[0], 0)
        self.assertEqual(lt.diff(b, want)[0], 0)

    def test_resize_sizes(self):
        """451 × 300: 200x0 → 200 × 133; 0x100 → 150 × 100; 200x200 fit → 200 × 133; exact →
        200 × 200; no resize → the photo's size."""
        cases = [(["--resize", "200x0"], (133, 200)), (["--resize", "0x100"], (100, 150)),
                 (["--resize", "200x200"], (133, 200)),
                 (["--resize", "200x200", "--resize-mode", "exact"], (200, 200)),
                 (["--resize", "200"], (133, 200)), ([], (300, 451))]
        for flags, shape in cases:
            with self.subTest(flags=flags):
                self.assertEqual(self.render("r", *flags, src=SMALL).shape[:2], shape)

    def test_sidecar(self):
        """[crop] and [rotate] groups in a sidecar do what the flags do."""
        side = os.path.join(self.dir, "edit.lumen")
        with open(side, "w") as f:
            f.write("[rotate]\nenabled=true\nangle=180\nflip=horizontal\n\n"
                    "[crop]\nenabled=true\nx=10\ny=20\nwidth=100\nheight=50\n")
        got = self.render("side", "--params", side, src=SMALL)
        want = cv2.flip(lt.imread(SMALL, cv2.IMREAD_COLOR), 0)[20:70, 10:110]  # 180° + mirror = flip up-down
        self.assertEqual(lt.diff(got, want)[0], 0)

    def test_bad_values(self):
        out = os.path.join(self.dir, "out.png")
        cases = [
            (["--rotate", "45"], "45"),
            (["--rotate-flip", "diagonal"], "diagonal"),
            (["--straighten", "50"], "50"),
            (["--straighten", "level"], "level"),
            (["--crop", "1,2,3,4,5"], "1,2,3,4,5"),
            (["--crop", "1,x"], "x"),
            (["--crop", "-1,0"], "-1"),
            (["--crop-ratio", "5:4"], "5:4"),
            (["--resize", "10x10x10"], "10x10x10"),
            (["--resize", "100xwide"], "wide"),
            (["--resize", "70000x0"], "70000"),
            (["--resize-mode", "stretch"], "stretch"),
        ]
        for flags, word in cases:
            with self.subTest(flags=flags):
                proc = lt.run(flags + ["-o", out, SMALL])
                self.assertEqual(proc.returncode, 2, lt.describe(proc))
                lines = proc.stderr.splitlines()
                self.assertTrue(lines and lines[0].startswith("lumen-cli: "), proc.stderr)
                self.assertIn(word, lines[0])
                self.assertFalse(os.path.exists(out))
        side = os.path.join(self.dir, "bad.lumen")
        with open(side, "w") as f:
            f.write("[rotate]\nenabled=true\nangle=45\n")
        proc = lt.run(["--params", side, "-o", out, SMALL])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn("45", proc.stderr)
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)

"""lumen-cli detect-objects --draw and --blur-detected, on test_cascade_opencv's mosaic of four
astronauts (the corpus's astronaut.tif, scikit-image's, public domain), with known answers:

- --draw: each box's outline, a band of max(short side / 400, 2) pixels inside it, is pure
  green; every other pixel is the photo's (PNG in, PNG out: lossless).
- --blur-detected: every pixel outside the boxes is the photo's; each pixel inside exactly one
  box is within 1 level of OpenCV's GaussianBlur of the whole photo (reflect-101 border,
  OpenCV's kernel size for 8-bit) with σ = the box's longer side / 8, from 2 to 200.
- a 16-bit photo gives the boxes of its 8-bit rounding, and is drawn on in 16 bits;
- outputs that cannot be written are refused before the detection runs, leaving none.
"""
import csv
import os
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402
from test_cascade_opencv import mosaic  # noqa: E402


class Annotate(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.isdir("/usr/share/opencv4"):
            raise unittest.SkipTest("/usr/share/opencv4 absent: install opencv-data")
        cls.tmp = tempfile.TemporaryDirectory(prefix="lumen-annotate-")
        t = cls.tmp.name
        cls.photo = os.path.join(t, "mosaic.png")
        mosaic(cls.photo)
        cls.img = cv2.imread(cls.photo)
        cls.csv, cls.drawn, cls.blurred = (os.path.join(t, n) for n in ("boxes.csv", "drawn.png", "blurred.png"))
        code, message, _, _ = lt.run_measured(["detect-objects", "--model", "faces", "-o", cls.csv, "--draw",
                                               cls.drawn, "--blur-detected", cls.blurred, cls.photo], max_seconds=60)
        if code != 0:
            raise AssertionError(f"detect-objects failed: {message}")
        with open(cls.csv, newline="") as f:
            cls.boxes = [(int(r["x"]), int(r["y"]), int(r["width"]), int(r["height"])) for r in csv.DictReader(f)]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def coverage(self):
        """How many boxes cover each pixel."""
        n = np.zeros(self.img.shape[:2], np.int32)
        for x, y, w, h in self.boxes:
            n[y:y + h, x:x + w] += 1
        return n

    def test_faces_found(self):
        self.assertGreaterEqual(len(self.boxes), 3, self.boxes)

    def test_draw(self):
        out = cv2.imread(self.drawn)
        h, w = self.img.shape[:2]
        line = max(min(w, h) // 400, 2)
        band = np.zeros((h, w), bool)
        for x, y, bw, bh in self.boxes:
            box = np.zeros((h, w), bool)
            box[y:y + bh, x:x + bw] = True
            inner = np.zeros((h, w), bool)
            inner[y + line:y + bh - line, x + line:x + bw - line] = True
            band |= box & ~inner
        self.assertTrue((out[band] == (0, 255, 0)).all(), "the outline is not pure green")
        self.assertTrue((out[~band] == self.img[~band]).all(), "pixels off the outlines changed")

    def test_blur(self):
        out = cv2.imread(self.blurred).astype(np.int32)
        cover = self.coverage()
        self.assertTrue((out[cover == 0] == self.img[cover == 0]).all(), "pixels outside the boxes changed")
        for x, y, bw, bh in self.boxes:
            sigma = min(max(max(bw, bh) / 8.0, 2.0), 200.0)
            k = int(round(6 * sigma + 1)) | 1
            want = cv2.GaussianBlur(self.img, (k, k), sigma, borderType=cv2.BORDER_REFLECT_101).astype(np.int32)
            only = np.zeros(cover.shape, bool)
            only[y:y + bh, x:x + bw] = True
            only &= cover == 1
            d = np.abs(out[only] - want[only])
            lt.say(f"box {x},{y} {bw}×{bh}, σ {sigma:.2f}: max |Δ| {d.max()} against GaussianBlur")
            self.assertLessEqual(d.max(), 1)
            # Detail gone: the Laplacian (edges, texture) at most a quarter of the photo's, away
            # from the seams with what is not this box's blur.
            lap = lambda a: np.abs(cv2.Laplacian(cv2.cvtColor(a.astype(np.uint8), cv2.COLOR_BGR2GRAY), cv2.CV_32F))
            inner = cv2.erode(only.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)
            self.assertLess(lap(out)[inner].mean(), 0.25 * lap(self.img)[inner].mean(), "hardly blurred")

    def test_sixteen_bits(self):
        """A 16-bit photo (the 8-bit one × 257) is looked at in 8 bits: the same boxes; its
        drawing keeps 16 bits, the outline at 65535 green."""
        t = self.tmp.name
        photo16, boxes16, drawn16 = (os.path.join(t, n) for n in ("mosaic16.png", "boxes16.csv", "drawn16.png"))
        cv2.imwrite(photo16, self.img.astype(np.uint16) * 257)
        lt.run_ok(self, ["detect-objects", "--model", "faces", "-o", boxes16, "--draw", drawn16, photo16])
        with open(boxes16, newline="") as f:
            found = [(int(r["x"]), int(r["y"]), int(r["width"]), int(r["height"])) for r in csv.DictReader(f)]
        self.assertEqual(found, self.boxes)
        out = cv2.imread(drawn16, cv2.IMREAD_UNCHANGED)
        self.assertEqual(out.dtype, np.uint16)
        x, y, _, _ = self.boxes[0]
        self.assertEqual(tuple(out[y, x]), (0, 65535, 0))

    def test_unwritable_output_leaves_none(self):
        t = self.tmp.name
        boxes = os.path.join(t, "refused.csv")
        missing = os.path.join(t, "no-such-folder", "drawn.png")
        code, message, _, _ = lt.run_measured(["detect-objects", "--model", "faces", "-o", boxes, "--draw", missing,
                                               self.photo])
        self.assertEqual(code, 1, message)
        self.assertIn("no-such-folder", message)
        self.assertFalse(os.path.exists(boxes), "the boxes were written although the drawing could not be")


if __name__ == "__main__":
    unittest.main(verbosity=2)

"""Stacks at the edges of what can be merged: exposures that do not tell the response's slope
(aligned crops of one picture: every sample has the same level in every exposure), fusion
without exposure times, and gray and colour exposures mixed.

The first is where OpenCV's CalibrateDebevec system is rank-deficient: one singular value is
zero up to rounding. Lumen solves it with OpenCV's rule (singular values ≤ 2ε·Σσ count as
zero) and must return the minimum-norm least-squares curve, which numpy's lstsq (whose cutoff
drops the same value) computes here in double precision; inverting the rounding noise instead
had sent the curve to 0 and ∞ ("the response is not positive at level 0")."""
import os
import unittest

import cv2
import numpy as np

from hdrlib import HdrTest, debevec_system, lt, opencv_aligned, opencv_shifts

TIMES = [0.01, 0.02, 0.04]
# Offsets of three 301×257 crops of chelsea.png: what --align (and cv2.AlignMTB) undo.
OFFSETS = [(3, 1), (0, 0), (-2, 5)]


def chelsea_crops():
    img = lt.imread(os.path.join(lt.photos_dir(), "chelsea.png"), cv2.IMREAD_COLOR)
    w, h = 301, 257
    x0, y0 = (img.shape[1] - w) // 2, (img.shape[0] - h) // 2
    return [img[y0 + dy:y0 + dy + h, x0 + dx:x0 + dx + w].copy() for dx, dy in OFFSETS]


class Stacks(HdrTest):
    def write(self, images, prefix):
        files = []
        for i, im in enumerate(images):
            files.append(self.path(f"{prefix}{i}.png"))
            cv2.imwrite(files[-1], im)
        return files

    def check_response(self, label, aligned):
        ours = np.log(np.loadtxt(self.path("r.resp")))[:, ::-1]  # to BGR
        exact, ranks = debevec_system(aligned, TIMES, ranks=True)
        theirs = cv2.createCalibrateDebevec().process(aligned, np.array(TIMES, np.float32))[:, 0, :]
        lt.say(f"{label}: ranks {ranks}; max |Δ ln response| against the minimum-norm solution "
               f"{np.abs(ours - exact).max():.2e}; cv2.createCalibrateDebevec's curve (single precision) "
               f"spans {theirs.min():.3g}..{theirs.max():.3g}")
        # The case this guards: the system lacks one rank, as the file's name says.
        self.assertTrue(all(r == n - 1 for r, n in ranks), ranks)
        self.assertTrue(np.isfinite(ours).all())
        self.assertLess(np.abs(ours - exact).max(), 1e-4)

    def test_debevec_aligned_copies(self):
        """--align on shifted crops of one picture, and OpenCV's aligned cut of them merged
        without --align: both calibrate, to the minimum-norm curve."""
        crops = chelsea_crops()
        shifts = opencv_shifts(crops)
        self.assertEqual(shifts, [(3, 1), (0, 0), (-2, 5)])
        aligned = [np.ascontiguousarray(a) for a in opencv_aligned(crops, shifts)]
        times = ",".join(map(str, TIMES))

        files = self.write(crops, "crop")
        lt.run_ok(self, ["hdr", "--align", "--times", times, "--response-out", self.path("r.resp"),
                         "-o", self.path("x.hdr"), *files])
        self.check_response("--align", aligned)

        files = self.write(aligned, "cut")
        lt.run_ok(self, ["hdr", "--times", times, "--response-out", self.path("r.resp"),
                         "-o", self.path("y.hdr"), *files])
        self.check_response("OpenCV's cut", aligned)
        self.assertTrue(np.isfinite(lt.imread(self.path("y.hdr"))).all())

    def test_mertens_needs_no_times(self):
        """PNGs carry no EXIF times: fusion goes on without any (and without --times), the
        radiance methods ask for them."""
        files = self.write(chelsea_crops(), "crop")
        lt.run_ok(self, ["hdr", "--method", "mertens", "--align", "-o", self.path("fused.png"), *files])
        self.assertEqual(lt.imread(self.path("fused.png")).shape[:2], (252, 296))
        self.assertRefused(files, "exposure time")

    def test_gray_and_colour(self):
        """A gray exposure among colour ones (or the reverse) is refused by every method,
        naming both files."""
        crops = chelsea_crops()
        colour = self.write(crops, "colour")
        gray = self.path("gray1.png")
        cv2.imwrite(gray, cv2.cvtColor(crops[1], cv2.COLOR_BGR2GRAY))
        self.assertTrue(lt.is_gray_file(gray))
        times = ["--times", "0.01,0.02,0.04"]
        for method in ("debevec", "robertson", "mertens"):
            with self.subTest(method=method):
                m = ["--method", method]
                out = "out.png" if method == "mertens" else "out.hdr"
                self.assertRefused([*m, *times, colour[0], gray, colour[2]], "gray1.png", "colour0.png",
                                   "gray", "colour", out=out, codes=(1,))
                self.assertRefused([*m, *times, gray, colour[0], colour[2]], "gray1.png", "colour0.png",
                                   "gray", "colour", out=out, codes=(1,))


if __name__ == "__main__":
    unittest.main(verbosity=2)

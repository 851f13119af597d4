"""lumen-cli hdr --method mertens against cv2.MergeMertens (contrast, saturation and
well-exposedness weighted 1) on every stack of the shared data: both ×255, clipped, 8-bit:
mean |Δ| ≤ 1, max ≤ 8. No exposure times are given: fusion needs none."""
import unittest

import numpy as np

from hdrlib import HdrTest, STACKS, lt, opencv_mertens, stack


class Mertens(HdrTest):
    def test_against_opencv(self):
        for name in STACKS:
            with self.subTest(stack=name):
                _, files, _ = stack(name)
                out = self.path(name + ".png")
                lt.run_ok(self, ["hdr", "--method", "mertens", "-o", out, *files])
                ours = lt.imread(out)
                ref = opencv_mertens([lt.imread(f) for f in files])
                mx, mean, n = lt.diff(ours, ref)
                lt.say(f"{name}: fusion against MergeMertens: mean |Δ| {mean:.4f}, max {mx}, "
                       f"{n / ours.size:.2%} of the values differ")
                self.assertLessEqual(mean, 1.0)
                self.assertLessEqual(mx, 8)

    def test_radiance_output(self):
        """Written as .hdr the fused image keeps its values (within the format's 8-bit
        mantissas): the same image as the 8-bit one. The fusion dips below 0 near strong
        edges (the Laplacian pyramid overshoots, in OpenCV's too); Radiance HDR cannot hold
        a negative value, so the file must hold 0 there, not a wrapped-around mantissa."""
        name = STACKS[0]
        _, files, _ = stack(name)
        lt.run_ok(self, ["hdr", "--method", "mertens", "-o", self.path("f.hdr"), *files])
        lt.run_ok(self, ["hdr", "--method", "mertens", "-o", self.path("f.png"), *files])
        as_float = np.clip(np.round(lt.imread(self.path("f.hdr")) * 255.0), 0, 255)
        mx, mean, _ = lt.diff(as_float, lt.imread(self.path("f.png")))
        lt.say(f"{name}: .hdr against .png: mean |Δ| {mean:.4f}, max {mx}")
        self.assertLessEqual(mx, 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)

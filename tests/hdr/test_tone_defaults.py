"""The default look of a merge: `lumen-cli hdr -o out.png` with no tone-mapping flag, on every
bracketed stack (the corpus's, and ../shared/data's when present), must be a picture, not a
grey veil: the luma's (BT.601, numpy percentiles of OpenCV's BGR2GRAY) 1st percentile in the
shadows, its 99th near white, its median around middle gray (118: 18 % through sRGB), and no
area pinned at 0 or 255. OpenCV's defaults gave 16..154 with a median of 35..52 (gamma 1), and
the window's gamma 2.2 gave 63..208, flat.

`lumen-cli batch` reads the same defaults (app/cli-tone.c, from tone mapping's one table): its
PNGs of the corpus's stacks are the hdr command's, byte for byte. The window starts its tone
mapping panel from the same list (LM_TONEMAP_PARAMS, core/hdr/tonemap.h)."""
import os
import unittest

import cv2
import numpy as np

from hdrlib import HDR, CORPUS_STACKS, HdrTest, STACKS, exposures_file, lt

P1_MAX, P99_MIN = 48, 228        # of 255
MEDIAN = (95, 145)
PINNED_MAX = 0.005               # share of pixels whose luma is 0, or 255


class ToneDefaults(HdrTest):
    def default_png(self, name):
        out = self.path(f"{name}.png")
        lt.run_ok(self, ["hdr", "--exposures", exposures_file(name), "-o", out])
        return out

    def test_spread(self):
        for name in STACKS:
            with self.subTest(stack=name):
                luma = cv2.cvtColor(cv2.imread(self.default_png(name)), cv2.COLOR_BGR2GRAY).astype(np.float64)
                p1, p50, p99 = np.percentile(luma, [1, 50, 99])
                black, white = np.mean(luma <= 0), np.mean(luma >= 255)
                lt.say(f"{name}: luma percentiles 1st {p1:.0f}, 50th {p50:.0f}, 99th {p99:.0f}; "
                       f"at 0 {black:.2%}, at 255 {white:.2%}")
                self.assertLessEqual(p1, P1_MAX)
                self.assertGreaterEqual(p99, P99_MIN)
                self.assertTrue(MEDIAN[0] <= p50 <= MEDIAN[1], p50)
                self.assertLessEqual(black, PINNED_MAX)
                self.assertLessEqual(white, PINNED_MAX)

    def test_batch_has_the_same_defaults(self):
        out = self.path("batch")
        proc = lt.run(["batch", "--format", "png", "--progress", "none", "-o", out, HDR])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        for name in CORPUS_STACKS:
            with self.subTest(stack=name):
                self.assertEqual(lt.read_bytes(os.path.join(out, f"{name}.png")),
                                 lt.read_bytes(self.default_png(name)))


if __name__ == "__main__":
    unittest.main(verbosity=2)

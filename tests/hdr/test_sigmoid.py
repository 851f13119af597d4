"""`lumen-cli hdr --tonemap sigmoid`: the sigmoid display transform (core/hdr/sigmoid-math.h)
end to end, against its formula written out here in numpy (y = v^c / (v^c + K),
v = x · 2^EV / 0.18, c = contrast / 0.82, K = 0.82 / 0.18; the middle channel put back where the
scene's ratio puts it between the largest and smallest; sRGB's encoding), applied to the same
merge's radiance read from Lumen's OpenEXR output (half floats, so within half's rounding).
Its flags come from tone mapping's list: out of range they are usage errors naming the flag.
Skips the comparison when the build has no OpenEXR."""
import os
import unittest

os.environ["OPENCV_IO_ENABLE_OPENEXR"] = "1"  # before cv2 is imported: OpenCV reads EXR only then

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from hdrlib import CORPUS_STACKS, HdrTest, exposures_file, lt  # noqa: E402
from test_exr import build_writes_exr  # noqa: E402

GREY = 0.18


def sigmoid(rgb, exposure, contrast, hue):
    """Scene RGB (float, H×W×3) to sRGB-encoded display values, 0..1, in double."""
    c, k = contrast / (1 - GREY), (1 - GREY) / GREY

    def curve(x):
        v = np.maximum(x, 0) * 2.0 ** exposure / GREY
        with np.errstate(divide="ignore"):
            return np.where(v > 0, 1 / (1 + k * np.power(np.maximum(v, 1e-300), -c)), 0.0)

    y = curve(rgb)
    hi, lo = rgb.max(axis=2, keepdims=True), rgb.min(axis=2, keepdims=True)
    at = np.where(hi > lo, (rgb - lo) / np.where(hi > lo, hi - lo, 1), 0)
    kept = at * curve(hi) + (1 - at) * curve(lo)
    y = np.where(hi > lo, y + hue * (kept - y), y)
    return np.where(y <= 0.0031308, y * 12.92, 1.055 * np.power(y, 1 / 2.4) - 0.055)


class Sigmoid(HdrTest):
    @unittest.skipUnless(build_writes_exr(), "this build has no OpenEXR")
    def test_formula(self):
        name = CORPUS_STACKS[0]
        lt.run_ok(self, ["hdr", "--exposures", exposures_file(name), "-o", self.path("r.exr")])
        radiance = cv2.imread(self.path("r.exr"), cv2.IMREAD_UNCHANGED)[:, :, 2::-1].astype(np.float64)
        for exposure, contrast, hue in ((-6.0, 1.2, 1.0), (-4.5, 2.0, 0.0), (-7.0, 0.8, 0.5)):
            with self.subTest(exposure=exposure, contrast=contrast, hue=hue):
                out = self.path("s.png")
                lt.run_ok(self, ["hdr", "--exposures", exposures_file(name), "--tonemap", "sigmoid",
                                 "--exposure", exposure, "--contrast", contrast, "--hue-preservation", hue,
                                 "--depth", "16", "-o", out])
                got = cv2.imread(out, cv2.IMREAD_UNCHANGED)[:, :, ::-1].astype(np.float64)
                want = 65535 * sigmoid(radiance, exposure, contrast, hue)
                err = np.abs(got - want)
                lt.say(f"{name} ev {exposure} c {contrast} h {hue}: |Δ| median {np.median(err):.2f}, "
                       f"99th {np.percentile(err, 99):.1f}, max {err.max():.1f} of 65535")
                # The radiance read back is rounded to half (2^-11 relative): at most a slope of
                # about 0.7 (encoded per unit of ln x) times that, 0.035 % of white.
                self.assertLessEqual(np.percentile(err, 99), 0.00035 * 65535)
                self.assertLessEqual(err.max(), 0.0005 * 65535)
                self.assertLessEqual(np.median(err), 4)
                # Hue preservation moves colours: the per-channel result differs.
                if hue > 0:
                    self.assertGreater(np.abs(want - 65535 * sigmoid(radiance, exposure, contrast, 0)).max(), 1000)

    def test_flags_checked(self):
        name = CORPUS_STACKS[0]
        for flag, value in (("--exposure", "11"), ("--contrast", "0.1"), ("--hue-preservation", "1.5"),
                            ("--contrast", "nan")):
            with self.subTest(flag=flag, value=value):
                self.assertRefused(["--exposures", exposures_file(name), "--tonemap", "sigmoid", flag, value],
                                   flag, out="out.png", codes=(2,))
        self.assertRefused(["--exposures", exposures_file(name), "--tonemap", "sigmoidal"], "sigmoid",
                           out="out.png", codes=(2,))


if __name__ == "__main__":
    unittest.main(verbosity=2)

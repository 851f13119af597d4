"""The edits that act on scene light (README, "Camera raw"): on a raw, lumen-cli's --exposure,
--wb and --blur run before the display transform, so the developed scene (.exr) holds them:
--exposure 1 doubles the scene; --wb T,0 multiplies it by the gains of light at T K in linear
Rec. 2020, computed here from the CIE loci (lumen_testlib.illuminant_xy) and the Rec. 2020 primaries; --blur σ is OpenCV's
Gaussian of the scene (BORDER_REFLECT_101, round(6σ+1)|1 taps). The 16-bit TIFF of --exposure
equals that of the raw stage's own exposure, a gain on the same light. The edits that act after
the display transform are named in the .exr's note; the scene ones are not."""
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

# XYZ → linear Rec. 2020 (ITU-R BT.2020 primaries, D65) and its luminance row.
XYZ_TO_REC2020 = np.linalg.inv(np.array([[0.636958, 0.144617, 0.168881],
                                         [0.262700, 0.677998, 0.059302],
                                         [0.000000, 0.028073, 1.060985]]))
LUMINANCE = np.array([0.262700, 0.677998, 0.059302])


def white_rgb(t):
    x, y = lt.illuminant_xy(t)
    return XYZ_TO_REC2020 @ np.array([x / y, 1.0, (1 - x - y) / y])


def wb_gains(t):
    g = white_rgb(6500) / white_rgb(t)
    return g / (LUMINANCE @ g)


def run(*args):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    return subprocess.run([lt.lumen_cli(), "--backend", "cpu", *[str(a) for a in args]], capture_output=True,
                          text=True, env=env, timeout=120)


class SceneEdits(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="lumen-scene-edits-")
        cls.scene = cls.exr(cls, "plain.exr")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def exr(self, name, *flags):
        path = os.path.join(self.tmp.name, name)
        r = run(*flags, "-o", path, DNG)
        if r.returncode != 0:
            raise AssertionError(r.stderr)
        self.notes = r.stderr
        img = cv2.imread(path, cv2.IMREAD_UNCHANGED)
        assert img is not None and img.dtype == np.float32, path
        return img[..., 2::-1].astype(np.float64)  # RGB

    def assertClose(self, got, want, rel):
        err = np.abs(got - want) / np.maximum(np.abs(want), 1e-3)
        self.assertLess(np.percentile(err, 99.9), rel, "99.9th percentile of the relative error")

    def test_exposure_doubles_the_scene(self):
        got = self.exr("ev.exr", "--exposure", "1")
        self.assertGreater(self.scene.mean(), 0.01)
        # ×2 is exact in half floats but for the subnormals' last bit (below 6·10⁻⁸)
        np.testing.assert_allclose(got, 2 * self.scene, rtol=0, atol=6e-8)

    def test_white_balance_is_a_gain_in_rec2020(self):
        got = self.exr("wb.exr", "--wb", "3200,0")
        want = self.scene * wb_gains(3200.0)
        self.assertClose(got, want, 2e-3)  # half floats: 2⁻¹¹ each way
        self.assertGreater(np.abs(got - self.scene).mean(), 0.01 * self.scene.mean())

    def test_blur_is_opencvs_gaussian_of_the_scene(self):
        sigma = 2.0
        got = self.exr("blur.exr", "--blur", str(sigma))
        taps = int(round(6 * sigma + 1)) | 1
        want = cv2.GaussianBlur(self.scene.astype(np.float32), (taps, taps), sigma,
                                borderType=cv2.BORDER_REFLECT_101).astype(np.float64)
        # The .exr clamps negatives (out-of-gamut camera colours) to 0 where the blur saw them:
        # compared where no tap reached a clamped value.
        unclamped = cv2.erode((self.scene.min(axis=2) > 0).astype(np.uint8), np.ones((taps, taps), np.uint8),
                              borderType=cv2.BORDER_REFLECT_101).astype(bool)
        self.assertGreater(unclamped.sum(), 10000)
        self.assertClose(got[unclamped], want[unclamped], 3e-3)
        self.assertGreater(np.abs(want - self.scene).mean(), 0.02 * self.scene.mean())

    def test_edits_after_the_display_transform_are_named(self):
        self.exr("mixed.exr", "--exposure", "0.5", "--blur", "1", "--contrast", "0.2")
        self.assertIn("contrast", self.notes)
        self.assertNotIn("blur", self.notes)
        self.assertNotIn("exposure", self.notes)

    def test_exposure_acts_before_the_display_transform(self):
        paths = [os.path.join(self.tmp.name, n) for n in ("edit.tiff", "raw.tiff")]
        for flags, path in ((("--exposure", "1"), paths[0]), (("--raw-exposure", "1"), paths[1])):
            r = run(*flags, "-o", path, DNG)
            self.assertEqual(r.returncode, 0, r.stderr)
        a, b = (cv2.imread(p, cv2.IMREAD_UNCHANGED).astype(np.int64) for p in paths)
        self.assertEqual(a.dtype, b.dtype)
        self.assertLessEqual(np.abs(a - b).max(), 1)


if __name__ == "__main__":
    unittest.main()

"""lumen-cli --params with a version 2 sidecar: operation instances.

Two exposure instances (+0.5 EV, then -1.2 EV) are applied one after the other in linear light,
unrounded between them (one fused pass), so the photo must match a NumPy exposure of -0.7 EV
within one level; with the second instance off, +0.5 EV alone. A mask on the crop (which
changes the image's size) and a file whose instance is not in its order are refused with one
line naming the file.
"""
import os
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

TWO = """[lumen]
version=2
order=rotate,straighten,crop,wb,exposure,exposure#64,contrast,curve,saturation,gray,equalize,blur,resize

[exposure]
enabled=true
ev=0.5

[exposure#64]
name=Darker
enabled={enabled}
ev=-1.2
"""


def srgb_exposure(bgr, ev):
    """Exposure as its definition says: sRGB decoded, times 2^EV, encoded, clipped, rounded."""
    v = bgr.astype(np.float64) / 255.0
    lin = np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4) * 2.0 ** ev
    enc = np.where(lin <= 0.0031308, lin * 12.92, 1.055 * np.power(np.maximum(lin, 0), 1 / 2.4) - 0.055)
    return np.clip(np.floor(enc * 255.0 + 0.5), 0, 255).astype(np.uint8)


class Instances(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-instances-")
        self.dir = self._tmp.name
        # A photo of every level in each channel, without an ICC profile (sRGB's curve applies).
        x = np.arange(256, dtype=np.uint8)
        self.bgr = np.stack([np.tile(x, (24, 1)), np.tile(x[::-1], (24, 1)), np.tile((x * 7) % 256, (24, 1))],
                            axis=2).astype(np.uint8)
        self.photo = self.path("levels.png")
        cv2.imwrite(self.photo, self.bgr)

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def sidecar(self, name, text):
        p = self.path(name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def render(self, params):
        out = self.path("out.png")
        lt.run_ok(self, ["--params", params, "-o", out, self.photo])
        return lt.imread(out)

    def assert_close(self, got, want, what):
        diff = np.abs(got.astype(int) - want.astype(int))
        self.assertLessEqual(int(diff.max()), 1, f"{what}: off by {diff.max()} at {np.argwhere(diff > 1)[:3]}")

    def test_two_exposures(self):
        got = self.render(self.sidecar("two.lumen", TWO.format(enabled="true")))
        self.assert_close(got, srgb_exposure(self.bgr, -0.7), "+0.5 EV then -1.2 EV")
        # Not the first instance alone: the second is applied.
        self.assertGreater(int(np.abs(got.astype(int) - srgb_exposure(self.bgr, 0.5).astype(int)).max()), 50)
        off = self.render(self.sidecar("off.lumen", TWO.format(enabled="false")))
        self.assert_close(off, srgb_exposure(self.bgr, 0.5), "+0.5 EV, the second off")

    def test_params_out_keeps_instances(self):
        two = self.sidecar("two.lumen", TWO.format(enabled="true"))
        preset = self.path("preset.lumen")
        lt.run_ok(self, ["--params", two, "--params-out", preset])
        with open(preset) as f:
            text = f.read()
        self.assertIn("version=2\n", text)
        self.assertIn("[exposure#64]\nname=Darker\nenabled=true\nev=-1.2\n", text)
        self.assertTrue(np.array_equal(self.render(preset), self.render(two)))

    def test_refused(self):
        cases = {
            "masked-crop.lumen": (TWO.format(enabled="true") + "\n[crop]\nenabled=true\nwidth=10\n[crop mask]\n"
                                  "shape1=radial add centre=0.5,0.5 radii=0.2,0.2 angle=0 softness=1\n",
                                  "cannot have a mask"),
            "unordered.lumen": (TWO.format(enabled="true") + "\n[blur#65]\nenabled=true\n",
                                "[blur#65] is not in [lumen] order"),
        }
        for name, (text, cause) in cases.items():
            out = self.path("refused.png")
            proc = lt.run(["--params", self.sidecar(name, text), "-o", out, self.photo])
            self.assertEqual(proc.returncode, 1, lt.describe(proc))
            self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
            self.assertIn(cause, proc.stderr)
            self.assertFalse(os.path.exists(out))
        self.assertIn("unordered.lumen", proc.stderr)


if __name__ == "__main__":
    unittest.main()

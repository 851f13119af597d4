"""lumen-cli --vignette against its closed form in NumPy (core/ops/vignette-math.h), in double:
for pixel (x, y) of the W × H crop, c = ((W−1)/2, (H−1)/2), R = ½√(W² + H²),
a = (1 − ρ)·(W, H)/√2 + ρ·R, d = |((x, y) − c)/a|, e = smoothstep(m − f/2, m + f/2, d), and
each channel's linear light (the sRGB curve: the photos carry no profile) times 2^(amount·e),
encoded and rounded half up once. Lumen interpolates 2^x in a table and rounds through
the curve's decision points in float: within 1 step at 8 bits and 1 u16 at 16 bits.

Photos of tests/data (an RGB one, one with transparency, a gray one), each also widened to 16
bits, with a crop before (the vignette is the crop's: its centre and corners)."""
import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import lumen_testlib as lt  # noqa: E402

PHOTOS = ("chelsea.png", "coffee-alpha.png", "camera-gray.png")
SETS = ((-1.0, 0.5, 0.5, 0.0), (2.0, 0.2, 1.0, 1.0), (-3.0, 0.7, 0.1, 0.5))
CROP = (37, 21, 301, 203)  # x, y, width, height


def vignette(img, amount, midpoint, feather, roundness):
    """The definition in double, rounded half up to IMG's depth."""
    n = 65535.0 if img.dtype == np.uint16 else 255.0
    h, w = img.shape[:2]
    r = 0.5 * np.hypot(w, h)
    ax = (1 - roundness) * w / np.sqrt(2) + roundness * r
    ay = (1 - roundness) * h / np.sqrt(2) + roundness * r
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    d = np.hypot((x - (w - 1) / 2) / ax, (y - (h - 1) / 2) / ay)
    t = np.clip((d - (midpoint - feather / 2)) / feather, 0, 1)
    gain = 2.0 ** (amount * t * t * (3 - 2 * t))
    out = img.astype(np.int64).copy()
    colour = img[..., None] if img.ndim == 2 else img[..., :3]
    lin = lt.srgb_decode(colour / n) * gain[..., None]
    coded = lt.quantize(lt.srgb_encode(lin) * n, n)
    if img.ndim == 2:
        return coded[..., 0]
    out[..., :3] = coded
    return out


class Vignette(lt.RenderTest):
    def test_photos(self):
        x, y, w, h = CROP
        for name in PHOTOS:
            raw = lt.imread_rgb(os.path.join(lt.photos_dir(), name))
            for img in (raw, lt.widen(raw)):
                deep = img.dtype == np.uint16
                cropped = img[y:y + h, x:x + w]
                for amount, midpoint, feather, roundness in SETS:
                    got = self.render(img, ["--crop", f"{x},{y},{w},{h}", "--vignette", str(amount),
                                            "--vignette-midpoint", str(midpoint), "--vignette-feather", str(feather),
                                            "--vignette-roundness", str(roundness)])
                    want = vignette(cropped, amount, midpoint, feather, roundness)
                    if got.ndim == 3 and got.shape[2] == 3 and want.ndim == 3 and want.shape[2] == 4:
                        want = want[..., :3]  # an opaque result comes back RGB
                    self.assertEqual(got.shape, want.shape)
                    d = np.abs(got.astype(np.int64) - want)
                    moved = int((got.astype(np.int64) != cropped.astype(np.int64)[..., :got.shape[-1]]
                                 if got.ndim == 3 else got != cropped).sum())
                    what = (f"{name} {'16' if deep else '8'}-bit amount {amount} midpoint {midpoint} "
                            f"feather {feather} roundness {roundness}")
                    lt.say(f"{what}: max |Δ| {d.max()} {'u16' if deep else 'steps'}, {int((d > 0).sum())} samples "
                           f"differ; {moved} moved")
                    self.assertLessEqual(int(d.max()), 1, what)
                    self.assertGreater(moved, d.size // 20, f"{what}: barely changed")

    def test_refused(self):
        for flags in (["--vignette", "-4"], ["--vignette-feather", "0"], ["--vignette-midpoint", "2"],
                      ["--vignette-roundness", "1.5"]):
            lt.assert_usage_error(self, self.folder, flags, "vignette", "outside")


if __name__ == "__main__":
    unittest.main(verbosity=2)

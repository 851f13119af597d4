"""lumen-cli --sharpen against the unsharp mask written in NumPy/SciPy from its definition
(core/ops/sharpen-math.h): Y = 0.2126 R + 0.7152 G + 0.0722 B (BT.709: the photos carry no
profile, so sRGB's primaries), B = Y through a Gaussian of OpenCV's size (round(6σ+1) | 1 taps)
along the rows and the columns with scipy.ndimage.correlate1d(mode='mirror'), which is
reflect-101, D' = D softly thresholded, and R, G, B + amount·D', in double and rounded half up
once. Lumen computes in float32: within 1 step at 8 bits and 1 u16 at 16 bits.

Photos of tests/data: an RGB one, one with transparency (alpha must come back as it was) and a
gray one, central 256×192 crops, each also widened to 16 bits (v·257 plus a smooth term, so
that an operation that drops to 8 bits fails). Also: parameters out of range are refused by
lumen-cli in one line naming the flag (exit status 2, a usage error), with no output file."""
import os
import sys
import unittest

import numpy as np
from scipy import ndimage

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import lumen_testlib as lt  # noqa: E402

PHOTOS = ("chelsea.png", "coffee-alpha.png", "camera-gray.png")
SETS = ((0.5, 1.0, 1.0), (1.5, 0.4, 0.0), (5.0, 7.5, 8.0))


def load_rgb(name):
    raw = lt.imread_rgb(os.path.join(lt.photos_dir(), name))
    h, w = raw.shape[:2]
    x0, y0 = (w - 256) // 2, (h - 192) // 2
    return np.ascontiguousarray(raw[y0:y0 + 192, x0:x0 + 256])


def gaussian_taps(sigma):
    radius = (int(np.rint(sigma * 6.0 + 1.0)) | 1) // 2
    i = np.arange(-radius, radius + 1, dtype=np.float64)
    w = np.exp(-i * i / (2.0 * sigma * sigma))
    return w / w.sum()


def sharpen(img, amount, sigma, threshold):
    """The definition, in double; the result unrounded on the 0..255 scale."""
    scale = 257.0 if img.dtype == np.uint16 else 1.0
    v = img.astype(np.float64) / scale
    y = v if v.ndim == 2 else 0.2126 * v[..., 0] + 0.7152 * v[..., 1] + 0.0722 * v[..., 2]
    k = gaussian_taps(sigma)
    b = ndimage.correlate1d(ndimage.correlate1d(y, k, axis=1, mode="mirror"), k, axis=0, mode="mirror")
    d = y - b
    d = np.sign(d) * np.maximum(np.abs(d) - threshold, 0.0)
    if v.ndim == 2:
        return v + amount * d
    out = v.copy()
    for c in range(3):
        out[..., c] += amount * d
    return out


class Sharpen(lt.RenderTest):
    def test_photos(self):
        worst = {}
        for name in PHOTOS:
            img8 = load_rgb(name)
            for img in (img8, lt.widen(img8)):
                deep = img.dtype == np.uint16
                for amount, sigma, threshold in SETS:
                    got = self.render(img, ["--sharpen", str(amount), "--sharpen-radius", str(sigma),
                                            "--sharpen-threshold", str(threshold)])
                    want = sharpen(img, amount, sigma, threshold)
                    if img.ndim == 3 and img.shape[2] == 4:
                        self.assertTrue(np.array_equal(got[..., 3], img[..., 3]), f"{name}: alpha changed")
                        got, want = got[..., :3], want[..., :3]
                    scale = 257.0 if deep else 1.0
                    d = np.abs(got.astype(np.int64) - lt.quantize(want * scale, 255.0 * scale))
                    moved = np.abs(got.astype(np.int64) - img[..., :3].astype(np.int64) if img.ndim == 3
                                   else got.astype(np.int64) - img.astype(np.int64))
                    what = f"{name} {'16' if deep else '8'}-bit amount {amount} σ {sigma} threshold {threshold}"
                    lt.say(f"{what}: max |Δ| {d.max()} {'u16' if deep else 'steps'}, "
                           f"{int((d > 0).sum())} samples differ; the mask moved {int((moved > 0).sum())} samples")
                    self.assertLessEqual(int(d.max()), 1, what)
                    self.assertGreater(int((moved > 0).sum()), d.size // 20, f"{what}: barely sharpened")
                    worst[deep] = max(worst.get(deep, 0), int(d.max()))
        lt.say(f"worst: 8-bit {worst[False]} step(s), 16-bit {worst[True]} u16")

    def test_refused(self):
        for flags in (["--sharpen", "-1"], ["--sharpen", "6"], ["--sharpen-radius", "0.1"],
                      ["--sharpen-threshold", "40"]):
            lt.assert_usage_error(self, self.folder, flags, "sharpen", "outside")


if __name__ == "__main__":
    unittest.main(verbosity=2)

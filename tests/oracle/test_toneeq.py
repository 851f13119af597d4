"""The tone equalizer (lumen-cli --toneeq) against its definition written here in NumPy/SciPy,
float64, from the steps of core/ops/toneeq-math.h: sRGB decoded, ℓ = log2 of the BT.709
luminance, block means, the guided filter's boxes (scipy.ndimage.uniform_filter divided by
the same filter of ones: the mean over the window clipped to the grid), bilinear
coefficients, the gain 2^G with G scipy's PchipInterpolator through the nine zones, encoded
and rounded. Lumen tabulates 2^G (8193 entries, < 1e-6 EV off) and computes in its own
order: within 1 level at 8 and 16 bits, on the corpus's photos (colour, gray, alpha) as 8-bit
and as 16-bit PNG (v·257 plus a smooth term, so that every bit varies). Bad values are
refused as usage errors (one line naming the flag and the cause, exit 2), no file
written.
"""
import os
import sys
import unittest

import numpy as np
from scipy.interpolate import PchipInterpolator
from scipy.ndimage import uniform_filter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

ZONES = ["blacks", "deep_shadows", "shadows", "light_shadows", "midtones", "dark_highlights",
         "highlights", "whites", "speculars"]

# (zones, smoothing %, edges EV², mask exposure EV)
SETTINGS = [
    ([0.0, 0.8, 1.2, 0.6, 0.2, 0.0, -0.3, -0.6, -1.0], 5.0, 0.1, 0.0),
    ([2.0, -2.0, 1.5, 0.0, -1.0, 2.0, 0.5, -2.0, 1.0], 2.3, 0.01, 1.5),
    ([-1.0, -1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.5], 20.0, 4.0, -2.0),
]


def f32(x):
    """A parameter as Lumen holds it: a float."""
    return float(np.float32(x))


def box(x, rs):
    ones = np.ones_like(x)
    size = 2 * rs + 1
    return (uniform_filter(x, size, mode="constant", cval=0.0)
            / uniform_filter(ones, size, mode="constant", cval=0.0))


def bilinear_axis(n_px, s, n):
    f = (np.arange(n_px) + 0.5) / s - 0.5
    i = np.floor(f)
    t = f - i
    i = i.astype(np.int64)
    return np.clip(i, 0, n - 1), np.clip(i + 1, 0, n - 1), t


def toneeq(img, maxcode, zones, smoothing, edges, mask_exposure):
    """IMG (H×W gray, or H×W×C RGB(A) in R, G, B order, integer codes) through the
    definition; alpha kept."""
    v = img.astype(np.float64) / maxcode
    if img.ndim == 2:
        lin = lt.srgb_decode(v)
        y = lin
    else:
        lin = lt.srgb_decode(v[..., :3])
        y = 0.2126 * lin[..., 0] + 0.7152 * lin[..., 1] + 0.0722 * lin[..., 2]
    ell = np.log2(np.maximum(y, 2.0 ** -16)) + f32(mask_exposure)
    h, w = ell.shape
    r = f32(smoothing) / 100.0 * max(w, h)
    s = max(1, int(np.floor(r / 16.0 + 0.5)))
    rs = int(np.floor(r / s + 0.5))
    ny, nx = -(-h // s), -(-w // s)
    padded = np.full((ny * s, nx * s), np.nan)
    padded[:h, :w] = ell
    ls = np.nanmean(padded.reshape(ny, s, nx, s), axis=(1, 3))
    mu = box(ls, rs)
    var = box(ls * ls, rs) - mu * mu
    a = var / (var + f32(edges))
    b = mu - a * mu
    abar, bbar = box(a, rs), box(b, rs)
    x0, x1, tx = bilinear_axis(w, s, nx)
    y0, y1, ty = bilinear_axis(h, s, ny)

    def at(p):
        top = p[y0][:, x0] + tx * (p[y0][:, x1] - p[y0][:, x0])
        bottom = p[y1][:, x0] + tx * (p[y1][:, x1] - p[y1][:, x0])
        return top + ty[:, None] * (bottom - top)

    m = at(abar) * ell + at(bbar)
    g = PchipInterpolator(np.arange(-8.0, 1.0), [f32(z) for z in zones])(np.clip(m, -8.0, 0.0))
    gain = np.exp2(g)
    out = img.copy()
    scaled = lin * (gain if img.ndim == 2 else gain[..., None])
    codes = lt.quantize(lt.srgb_encode(np.clip(scaled, 0.0, 1.0)) * maxcode, maxcode).astype(img.dtype)
    if img.ndim == 2:
        return codes
    out[..., :3] = codes
    return out


def flags(zones, smoothing, edges, mask_exposure):
    return ["--toneeq", ",".join(f"{z:g}" for z in zones), "--toneeq-smoothing", f"{smoothing:g}",
            "--toneeq-edges", f"{edges:g}", "--toneeq-mask-exposure", f"{mask_exposure:g}"]


class ToneeqOracle(lt.RenderTest):
    def check(self, name, img, settings):
        if not settings:
            return
        maxcode = 65535 if img.dtype == np.uint16 else 255
        src = os.path.join(self.folder, f"{name}.png")
        lt.imwrite_rgb(src, img)
        for k, setting in enumerate(settings):
            with self.subTest(photo=name, setting=k):
                out = os.path.join(self.folder, f"{name}-{k}.png")
                lt.run_ok(self, [src, *flags(*setting), "-o", out])
                got = lt.imread_rgb(out)
                want = toneeq(img, maxcode, *setting)
                self.assertEqual(got.dtype, img.dtype)
                delta = np.abs(got.astype(np.int64) - want.astype(np.int64))
                moved = np.abs(want.astype(np.int64) - img.astype(np.int64))
                lt.say(f"{name} setting {k}: max |Δ| {delta.max()} of {maxcode}, "
                       f"{np.count_nonzero(delta)} values differ; the edit moves values by up to {moved.max()}")
                self.assertLessEqual(int(delta.max()), 1)
                # else a do-nothing op would pass a setting that does nothing
                self.assertGreater(int(moved.max()), maxcode // 20)

    def test_photos(self):
        # every setting on the colour photo at 16 bits, one at 8 bits and one on each of the
        # others: seconds in all
        for photo, at8, at16 in [("chelsea.png", SETTINGS[:1], SETTINGS), ("camera-gray.png", [], SETTINGS[1:2]),
                                 ("coffee-alpha.png", [], SETTINGS[2:])]:
            img8 = lt.imread_rgb(os.path.join(lt.photos_dir(), photo))
            name = os.path.splitext(photo)[0]
            self.check(name + "-8", img8, at8)
            self.check(name + "-16", lt.widen(img8), at16)

    def test_bad_values_refused(self):
        src = os.path.join(lt.photos_dir(), "chelsea.png")
        for args, word in [(["--toneeq", "2.5"], "2.5"), (["--toneeq-edges", "0"], "edges"),
                           (["--toneeq-smoothing", "nan"], "nan"),
                           (["--toneeq", "0,0,0,0,0,0,0,0,0,0"], "values")]:
            with self.subTest(args=args):
                out = os.path.join(self.folder, "refused.png")
                proc = lt.run(args + [src, "-o", out])
                # a usage error, as every flag's: its one line, then the hint to --help
                self.assertEqual(proc.returncode, 2, lt.describe(proc))
                lines = proc.stderr.strip().splitlines()
                self.assertEqual(len(lines), 2, proc.stderr)
                self.assertIn(word, lines[0])
                self.assertIn("toneeq", lines[0])
                self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main(verbosity=2)

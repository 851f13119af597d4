"""Local contrast (lumen-cli --localcontrast) against its definition in NumPy, float64, written
from core/ops/localcontrast-math.h's steps 1-5 one by one (the fast local Laplacian on log2
luminance), on photos of the corpus scaled down to at most 320×240: within 1 u16 on 16-bit PNGs
(v·257 plus a smooth term, so every bit varies) and within 1 level on 8-bit ones. Clarity 0
is held to the input itself: within 1.

Lumen computes in float32 with its own log2/exp2 polynomials (~1e-7 relative); the oracle in
float64 with numpy's. Both are continuous in every input (the interpolation weights and the
remapping are), so the difference stays far below a u16; measured figures are printed.
"""
import math
import os
import sys
import unittest

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import lumen_testlib as lt  # noqa: E402

MAX_SIDE = (320, 240)


# The definition ------------------------------------------------------------------------------

F = np.array([1, 4, 6, 4, 1]) / 16.0


def reduce(p):
    """Step 2: (1 4 6 4 1)/16 both ways, reflect-101, even samples; sizes ceil(n/2)."""
    h, w = p.shape
    ch, cw = (h + 1) // 2, (w + 1) // 2
    cols = np.arange(cw)
    rows = np.arange(ch)
    tmp = sum(F[a] * p[:, lt.reflect101(2 * cols + a - 2, w)] for a in range(5))
    return sum(F[b] * tmp[lt.reflect101(2 * rows + b - 2, h), :] for b in range(5))


def expand_1d(c, n, axis):
    """Expand along AXIS to N samples: even x = 2i from i-1, i, i+1 by (1 6 1)/8 (reflect-101),
    odd x = 2i+1 from i, i+1 by 1/2 (i+1 clamped to the last sample)."""
    m = c.shape[axis]
    x = np.arange(n)
    i = x // 2
    even = (x % 2) == 0
    take = lambda idx: np.take(c, idx, axis=axis)  # noqa: E731
    e = 0.125 * take(lt.reflect101(i - 1, m)) + 0.75 * take(i) + 0.125 * take(lt.reflect101(i + 1, m))
    o = 0.5 * take(i) + 0.5 * take(np.minimum(i + 1, m - 1))
    shape = [1, 1]
    shape[axis] = n
    return np.where(even.reshape(shape), e, o)


def expand(c, h, w):
    return expand_1d(expand_1d(c, w, 1), h, 0)


def levels_of(radius):
    levels = 1
    while levels < 11 and 2 ** (levels - 1) < radius:
        levels += 1
    return levels


def gaussian(p, levels):
    pyr = [p]
    for _ in range(1, levels):
        pyr.append(reduce(pyr[-1]))
    return pyr


def remap(i, gamma, sigma, amount):
    """Step 3's r_γ: γ + σ(t + a·t(1 − |t|)²) for |t| ≤ 1, else i."""
    t = (i - gamma) / sigma
    u = 1 - np.abs(t)
    return np.where(np.abs(t) <= 1, gamma + sigma * (t + amount * t * u * u), i)


def weight(g, k, step):
    q = g / step
    k0 = np.floor(q)
    frac = q - k0
    return np.where(k0 == k, 1 - frac, np.where(k0 + 1 == k, frac, 0.0))


def local_contrast(rgb, amount, sigma, radius):
    """RGB: linear light, H×W×3 (or H×W for gray). Returns the gain 2^(ℓ' − ℓ) per pixel."""
    if rgb.ndim == 2:
        y = rgb
    else:
        y = 0.2126 * rgb[..., 0] + 0.7152 * rgb[..., 1] + 0.0722 * rgb[..., 2]
    ell = np.log2(np.maximum(y, 2.0 ** -16))  # step 1
    levels = levels_of(radius)
    G = gaussian(ell, levels)  # step 2
    step = sigma / 4
    lo = min(g.min() for g in G)
    hi = max(g.max() for g in G)
    O = [np.zeros_like(g) for g in G]
    for k in range(int(math.floor(lo / step)), int(math.floor(hi / step)) + 2):  # step 3
        R = gaussian(remap(ell, k * step, sigma, amount), levels)
        for l in range(levels - 1):
            lap = R[l] - expand(R[l + 1], *R[l].shape)
            O[l] += weight(G[l], k, step) * lap
    out = G[-1]  # step 4
    for l in range(levels - 2, -1, -1):
        out = O[l] + expand(out, *O[l].shape)
    return np.exp2(out - ell)  # step 5's gain


# The test ------------------------------------------------------------------------------------

def photo(name):
    """The corpus's photo NAME in R, G, B order (alpha dropped), scaled down to MAX_SIDE."""
    img = lt.imread_rgb(os.path.join(lt.photos_dir(), name))
    img = img if img.ndim == 2 else img[..., :3]
    h, w = img.shape[:2]
    scale = min(MAX_SIDE[0] / w, MAX_SIDE[1] / h, 1.0)
    if scale < 1:
        img = cv2.resize(img, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(img)


class LocalContrast(lt.RenderTest):
    def lumen(self, img, amount, sigma, radius):
        flags = ["--localcontrast", amount, "--localcontrast-range", sigma, "--localcontrast-radius", radius]
        got = self.render(img, flags)
        self.assertEqual(got.shape, img.shape)
        return got.astype(np.int64)

    def check(self, name, bits, amount, sigma, radius):
        img8 = photo(name)
        img = lt.widen(img8) if bits == 16 else img8
        top = 65535.0 if bits == 16 else 255.0
        lin = lt.srgb_decode(img.astype(np.float64) / top)
        gain = local_contrast(lin, amount, sigma, radius)
        if lin.ndim == 3:
            gain = gain[..., None]
        want = lt.quantize(lt.srgb_encode(lin * gain) * top, top)
        got = self.lumen(img, amount, sigma, radius)
        d = np.abs(got - want)
        moved = np.abs(got - img.astype(np.int64)).max()
        lt.say(f"{name} {bits}-bit, clarity {amount} range {sigma} radius {radius}: "
               f"max |Δ| to the definition {d.max()} ({np.count_nonzero(d)} of {d.size} samples differ); "
               f"largest change of the photo {moved}")
        self.assertLessEqual(int(d.max()), 1)
        if amount != 0:
            self.assertGreater(int(moved), 4 * (257 if bits == 16 else 1))  # the photo did change
        else:
            self.assertLessEqual(int(moved), 1)

    def test_chelsea_16(self):
        self.check("chelsea.png", 16, 0.8, 1.0, 32)

    def test_forest_16_negative(self):
        self.check("forest-path.jpg", 16, -1.0, 1.5, 32)

    def test_chelsea_8(self):
        self.check("chelsea.png", 8, 1.0, 2.0, 64)

    def test_gray_16(self):
        self.check("camera-gray.png", 16, 0.5, 1.0, 8)

    def test_identity_16(self):
        self.check("chelsea.png", 16, 0, 1.0, 32)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=2)

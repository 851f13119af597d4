"""Lumen's noise reduction (core/ops/denoise-math.h) written again from its definition in
NumPy, float32, every sum in the order the definition gives, for the oracle test and the
bench. RGB in and out on the 0..255 scale (H×W×3 float32).

1. Y = ((R+G)+B)/√3, U = (R−B)/√2, V = ((R+B)−2G)/√6.
2. À-trous B3 [1 4 6 4 1]/16 with taps 2^j apart, rows then columns, reflect-101, 5 levels;
   w_j = c_j − c_{j+1}.
3. E = (7×7 box of w_j², rows then columns, left to right / top to bottom) / 49;
   s2 = (k·(σ·G_j))²; g = max(d, 1 − s2/E) where E > s2, else d; acc = Σ g·w_j.
4. out = Mᵀ (c_5 + acc).
σ when not given: on Y, pixels whose c_2 in R, G and B lies in [4, 251]; e = 9×9 mean of
(c_1 − c_2)²; a joint histogram of e (quarter-octave bins from 2^-8, by the float's bits) and
|w_0| (1/32 level bins, 2048); the e bins of the flattest 10 % (the last whole); the median of
|w_0| there, interpolated in its bin, / 0.6745 / G_0.
"""
import numpy as np

from lumen_testlib import reflect101  # the caller puts tests/ on sys.path

F = np.float32
LEVELS = 5
GAINS = [F(0.8908), F(0.2007), F(0.0855), F(0.0412), F(0.0204)]
A3, A2, A6 = F(0.577350269), F(0.707106781), F(0.408248290)
B0, B1, B2 = F(0.0625), F(0.25), F(0.375)
E_BINS, W_BINS, W_SCALE = 128, 2048, F(32.0)


def _taps(x, axis, offsets):
    n = x.shape[axis]
    idx = np.arange(n)
    return [np.take(x, reflect101(idx + o, n), axis=axis) for o in offsets]


def b3(x, axis, step):
    a, b, c, d, e = _taps(x, axis, [-2 * step, -step, 0, step, 2 * step])
    s = B0 * a
    s = s + B1 * b
    s = s + B2 * c
    s = s + B1 * d
    s = s + B0 * e
    return s


def level(c, j):
    return b3(b3(c, 1, 1 << j), 0, 1 << j)


def box(x, axis, r):
    taps = _taps(x, axis, range(-r, r + 1))
    s = taps[0]
    for t in taps[1:]:
        s = s + t
    return s


def to_yuv(rgb):
    r, g, b = (rgb[..., i].astype(F) for i in range(3))
    return [((r + g) + b) * A3, (r - b) * A2, ((r + b) - (g + g)) * A6]


def to_rgb(y, u, v):
    ys, us, vs = y * A3, u * A2, v * A6
    return np.stack([(ys + us) + vs, ys - (vs + vs), (ys - us) + vs], axis=-1)


def e_bin(e):
    bits = e.astype(F).view(np.uint32).astype(np.int64)
    b = (bits >> 21) - (119 << 2) + 1
    b = np.minimum(b, E_BINS - 1)
    return np.where(e >= F(0.00390625), b, 0)


def estimate(rgb):
    """σ of RGB (H×W×3 float32, 0..255) by the definition's histograms."""
    yuv = to_yuv(rgb)
    c1 = [level(p, 0) for p in yuv]
    c2 = [level(p, 1) for p in c1]
    coarse = to_rgb(*c2)
    ok = np.all((coarse >= F(4.0)) & (coarse <= F(251.0)), axis=-1)
    d = c1[0] - c2[0]
    e = box(d * d, 1, 4)
    e = box(e, 0, 4) / F(81.0)
    w = np.abs(yuv[0] - c1[0]) * W_SCALE
    wb = np.where(w < F(W_BINS - 1), w, F(W_BINS - 1)).astype(np.int64)
    eb = e_bin(e)
    hist = np.zeros((E_BINS, W_BINS), np.int64)
    np.add.at(hist, (eb[ok], wb[ok]), 1)
    totals = hist.sum(axis=1)
    want = 0.1 * float(totals.sum())
    sel, last = 0, 0
    while last < E_BINS - 1 and sel + totals[last] < want:
        sel += int(totals[last])
        last += 1
    sel += int(totals[last])
    counts = hist[: last + 1].sum(axis=0)
    half, cum = 0.5 * sel, 0
    for b, n in enumerate(counts):
        n = int(n)
        if n > 0 and cum + n >= half:
            med = (b + (half - cum) / n) / float(W_SCALE)
            return med / 0.6745 / float(GAINS[0])
        cum += n
    return 0.0


def shrink(c0, k, d, sigma):
    cur, acc = c0, None
    for j in range(LEVELS):
        nxt = level(cur, j)
        w = cur - nxt
        e = box(box(w * w, 1, 3), 0, 3) / F(49.0)
        s = F(k) * (F(sigma) * GAINS[j])
        s2 = s * s
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.where(e > s2, np.maximum(F(d), F(1.0) - s2 / e), F(d)).astype(F)
        acc = g * w if acc is None else acc + g * w
        cur = nxt
    return cur + acc


def denoise(rgb, luma=1.2, chroma=1.5, luma_detail=0.0, chroma_detail=0.0, noise=0.0):
    """RGB (H×W×3, 0..255) denoised, float32; and the σ used."""
    rgb = rgb.astype(F)
    sigma = F(noise) if noise > 0 else F(estimate(rgb))
    y, u, v = to_yuv(rgb)
    if luma > 0:
        y = shrink(y, luma, luma_detail, sigma)
    if chroma > 0:
        u = shrink(u, chroma, chroma_detail, sigma)
        v = shrink(v, chroma, chroma_detail, sigma)
    return to_rgb(y, u, v), float(sigma)


def quantize_u16(x):
    s = x.astype(F) * F(257.0)
    s = np.clip(s, F(0.0), F(65535.0))
    return (s + F(0.5)).astype(np.int64).astype(np.uint16)


def quantize_u8(x):
    s = np.clip(x.astype(F), F(0.0), F(255.0))
    return (s + F(0.5)).astype(np.int64).astype(np.uint8)

"""Masks (core/ops/mask.c) against their definitions written out in NumPy, in float64
(docs: ISSUE-32-MASKS §2.3, §2.5): one brush stroke and one linear gradient, then the
guided-filter feather (He, Sun and Tang) with box means from integral images, which share
nothing with Lumen's sliding segments.

The photo and the scene are made here; tests/oracle/mask-dump (LUMEN_MASK_DUMP) renders them
with the CPU reference and writes its float32 planes."""
import os
import subprocess
import tempfile
import unittest

import numpy as np

W, H = 160, 120
LONG = max(W, H)
STROKE = dict(size=0.12, hardness=0.4, opacity=0.9,
              points=[(0.15, 0.60), (0.30, 0.45), (0.45, 0.55), (0.60, 0.40), (0.62, 0.42)])
LINEAR = (0.80, 0.10, 0.55, 0.35)  # fully on at (x0, y0), off at (x1, y1)


def photo():
    """A bright disc on a darker ground with noise: an edge for the feather to follow."""
    rng = np.random.default_rng(5)
    y, x = np.mgrid[0:H, 0:W]
    disc = (x - 95.0) ** 2 + (y - 60.0) ** 2 < 40.0 ** 2
    rgb = np.where(disc[..., None], 180.0, 50.0) + rng.integers(0, 30, (H, W, 3)) + np.array([0, 10, 20])
    rgba = np.concatenate([rgb, np.full((H, W, 1), 255.0)], axis=2)
    return rgba.astype(np.uint8)


def falloff(t, h):
    s = np.clip((t - h) / (1.0 - h), 0.0, 1.0) if h < 1 else (t >= 1).astype(float)
    return np.where(t >= 1, 0.0, np.where(t <= h, 1.0, 1.0 - s * s * (3.0 - 2.0 * s)))


def drawn():
    j, i = np.mgrid[0:H, 0:W].astype(np.float64)
    u, v = (i + 0.5) / LONG, (j + 0.5) / LONG
    pts = np.array(STROKE["points"])
    d = np.full((H, W), np.inf)
    for (x0, y0), (x1, y1) in zip(pts[:-1], pts[1:]):
        dx, dy = x1 - x0, y1 - y0
        t = np.clip(((u - x0) * dx + (v - y0) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
        d = np.minimum(d, np.hypot(u - x0 - t * dx, v - y0 - t * dy))
    brush = STROKE["opacity"] * falloff(2.0 * d / STROKE["size"], STROKE["hardness"])
    x0, y0, x1, y1 = LINEAR
    t = ((u - x0) * (x1 - x0) + (v - y0) * (y1 - y0)) / ((x1 - x0) ** 2 + (y1 - y0) ** 2)
    t = np.clip(t, 0.0, 1.0)
    gradient = 1.0 - t * t * (3.0 - 2.0 * t)
    return np.maximum(brush, gradient)


def box_mean(a, r):
    """Mean over the (2r + 1)² window clipped to the image, from an integral image."""
    s = np.zeros((a.shape[0] + 1, a.shape[1] + 1))
    s[1:, 1:] = a.cumsum(0).cumsum(1)
    y, x = np.mgrid[0:a.shape[0], 0:a.shape[1]]
    y0, y1 = np.clip(y - r, 0, a.shape[0]), np.clip(y + r + 1, 0, a.shape[0])
    x0, x1 = np.clip(x - r, 0, a.shape[1]), np.clip(x + r + 1, 0, a.shape[1])
    total = s[y1, x1] - s[y0, x1] - s[y1, x0] + s[y0, x0]
    return total / ((y1 - y0) * (x1 - x0))


def guided(guide, p, r, eps):
    mi, mp = box_mean(guide, r), box_mean(p, r)
    var = np.maximum(box_mean(guide * guide, r) - mi * mi, 0.0)
    a = (box_mean(guide * p, r) - mi * mp) / (var + eps)
    b = mp - a * mi
    return np.clip(box_mean(a, r) * guide + box_mean(b, r), 0.0, 1.0)


class MaskOracle(unittest.TestCase):
    def render(self, feather, detail):
        exe = os.environ["LUMEN_MASK_DUMP"]
        with tempfile.TemporaryDirectory() as tmp:
            spec = os.path.join(tmp, "spec")
            with open(spec, "w") as f:
                f.write(f"frame {W} {H}\n")
                pts = " ".join(f"{x} {y}" for x, y in STROKE["points"])
                f.write(f"stroke {STROKE['size']} {STROKE['hardness']} {STROKE['opacity']} 0 {pts}\n")
                f.write("linear " + " ".join(map(str, LINEAR)) + "\n")
                f.write(f"feather {feather} {detail}\n")
            path = os.path.join(tmp, "photo.rgba")
            photo().tofile(path)
            out = subprocess.run([exe, spec, path, os.path.join(tmp, "drawn"), os.path.join(tmp, "final")],
                                 capture_output=True, text=True, timeout=60)
            self.assertEqual(out.returncode, 0, out.stderr)
            planes = [np.fromfile(os.path.join(tmp, n), dtype="<f4").reshape(H, W) for n in ("drawn", "final")]
            return int(out.stdout.split()[1]), planes[0], planes[1]

    def test_brush_and_gradient(self):
        radius, got, final = self.render(0.0, 0.0)
        want = drawn()
        err = np.abs(got - want).max()
        print(f"brush + linear gradient: max |Δ| {err:.2e} against float64")
        self.assertLess(err, 1e-5)
        # The scene has all of it: full, empty and every falloff between.
        self.assertGreater(((want > 0.05) & (want < 0.95)).mean(), 0.1)
        self.assertEqual(radius, 0)
        np.testing.assert_array_equal(final, got)

    def test_guided_feather(self):
        radius, m0, got = self.render(6.0 / LONG, 0.1)
        self.assertEqual(radius, 6)
        rgb = photo()[..., :3].astype(np.float64)
        guide = (0.2126 * rgb[..., 0] + 0.7152 * rgb[..., 1] + 0.0722 * rgb[..., 2]) / 255.0
        want = guided(guide, m0.astype(np.float64), 6, 0.01)
        err = np.abs(got - want).max()
        print(f"guided filter, r = 6, eps = 0.01: max |Δ| {err:.2e} against float64; "
              f"it moves the mask by up to {np.abs(want - m0).max():.3f}")
        self.assertLess(err, 1e-4)
        self.assertGreater(np.abs(want - m0).max(), 0.05)


if __name__ == "__main__":
    unittest.main(verbosity=2)

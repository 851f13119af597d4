"""The geometry operations against OpenCV and against double-precision references, on real
photos: test_oracle_geom.py corpus|extra [PHOTO…] (as test_oracle.py: `extra` is skipped, exit
77, when the larger data is absent).

- rotate: bit-identical to cv2.rotate / cv2.flip (an index move);
- crop: bit-identical to the numpy slice of the rectangle;
- straighten: within 1 of the same definition computed here in double precision (OpenCV's
  cubic kernel, a = -0.75, replicated border, the largest upright rectangle); against
  cv2.warpAffine (INTER_CUBIC, BORDER_REPLICATE, the same matrix and output rectangle) the
  distance is measured and bounded by what OpenCV's fixed point allows (see
  opencv_cubic_bound);
- resize: area averaging within 1 of cv2.resize INTER_AREA for shrinks of 2 or more (the same
  weights; the two round their float sums differently); Lanczos-3 has no OpenCV peer, so it is
  held within 1 of a numpy implementation of the same kernel in double precision, over the
  whole image: at the border the taps outside the image are left out and the others
  renormalised (Pillow's and ImageMagick's rule, not OpenCV's replicated edge). Synthetic
  images with sharp content up to the border (8- and 16-bit, gray and colour, up and down)
  check the border itself.

Every comparison prints max |Δ|, mean |Δ| and the share of values off by more than 1.
"""
import math
import os
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402
import oracle_main  # noqa: E402

# --rotate and --rotate-flip, and the OpenCV calls that do the same.
ROTATIONS = [
    ("90", "none", lambda im: cv2.rotate(im, cv2.ROTATE_90_CLOCKWISE)),
    ("180", "none", lambda im: cv2.rotate(im, cv2.ROTATE_180)),
    ("270", "none", lambda im: cv2.rotate(im, cv2.ROTATE_90_COUNTERCLOCKWISE)),
    ("0", "horizontal", lambda im: cv2.flip(im, 1)),
    ("90", "vertical", lambda im: cv2.flip(cv2.rotate(im, cv2.ROTATE_90_CLOCKWISE), 0)),
]

# OpenCV's cubic kernel (imgwarp.cpp interpolateCubic).
CUBIC_A = -0.75


def cubic_weights(t):
    """The four weights (offsets -1, 0, 1, 2) for fractional positions T (any shape)."""
    a = CUBIC_A
    k0 = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a
    k1 = ((a + 2) * t - (a + 3)) * t * t + 1
    k2 = ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1
    return [k0, k1, k2, 1 - k0 - k1 - k2]


def kernel_constants():
    """K0 = max over t of Σ|k_i(t)| and K1 = max of Σ|k_i'(t)|: how much the interpolant can
    grow and how steep it can be per unit of its neighbourhood's range."""
    t = np.linspace(0.0, 1.0, 100001)
    k = np.array(cubic_weights(t))
    dk = np.gradient(k, t, axis=1)
    return float(np.abs(k).sum(0).max()), float(np.abs(dk).sum(0).max()) * 1.001


def straighten_rect(angle, w, h):
    """The largest upright rectangle inside W × H turned by ANGLE degrees (real sides),
    written out here independently of Lumen's header."""
    a = math.radians(abs(angle))
    s, c = math.sin(a), math.cos(a)
    if s == 0:
        return float(w), float(h)
    longer, shorter = max(w, h), min(w, h)
    if shorter <= 2 * s * c * longer or abs(s - c) < 1e-10:
        x = 0.5 * shorter
        return (x / s, x / c) if w >= h else (x / c, x / s)
    cos2a = c * c - s * s
    return (w * c - h * s) / cos2a, (h * c - w * s) / cos2a


def straighten_size(angle, w, h):
    rw, rh = straighten_rect(angle, w, h)
    return (min(w, max(1, math.floor(rw + 1e-6))), min(h, max(1, math.floor(rh + 1e-6))))


def straighten_positions(angle, w, h):
    """Output size and each output pixel's source position (double)."""
    ow, oh = straighten_size(angle, w, h)
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    dy, dx = np.mgrid[0:oh, 0:ow].astype(np.float64)
    dx -= (ow - 1) / 2
    dy -= (oh - 1) / 2
    cx, cy = (w - 1) / 2, (h - 1) / 2
    return (ow, oh), cx + (c * dx - s * dy), cy + (s * dx + c * dy)


def straighten_reference(img, sx, sy):
    """Lumen's definition in double: bicubic at positions (SX, SY), replicated border;
    unrounded."""
    h, w = img.shape[:2]
    fx, fy = np.floor(sx), np.floor(sy)
    kx, ky = cubic_weights(sx - fx), cubic_weights(sy - fy)
    fx, fy = fx.astype(np.int64), fy.astype(np.int64)
    src = img.astype(np.float64)
    acc = 0.0
    for j in range(4):
        yi = np.clip(fy - 1 + j, 0, h - 1)
        row = 0.0
        for i in range(4):
            xi = np.clip(fx - 1 + i, 0, w - 1)
            wx = kx[i] if img.ndim == 2 else kx[i][..., None]
            row = row + wx * src[yi, xi]
        acc = acc + (ky[j] if img.ndim == 2 else ky[j][..., None]) * row
    return acc


def neighbourhood_range(img, sx, sy, slack):
    """Per output value: max - min of the source values any position within SLACK of
    (sx, sy) can weigh (the union of the 4 × 4 neighbourhoods: up to 5 × 5)."""
    h, w = img.shape[:2]
    x_lo = np.floor(sx - slack).astype(np.int64) - 1
    x_hi = np.floor(sx + slack).astype(np.int64) + 2
    y_lo = np.floor(sy - slack).astype(np.int64) - 1
    y_hi = np.floor(sy + slack).astype(np.int64) + 2
    lo = hi = None
    for j in range(5):
        yi = np.clip(np.minimum(y_lo + j, y_hi), 0, h - 1)
        for i in range(5):
            xi = np.clip(np.minimum(x_lo + i, x_hi), 0, w - 1)
            v = img[yi, xi]
            lo = v if lo is None else np.minimum(lo, v)
            hi = v if hi is None else np.maximum(hi, v)
    return hi.astype(np.float64) - lo.astype(np.float64)


def opencv_cubic_bound(img, sx, sy):
    """How far cv2.warpAffine's INTER_CUBIC may lie from Lumen on 8-bit data, per value.

    OpenCV rounds each source position to 1/32 pixel (INTER_BITS = 5: |δ| ≤ 1/64 per axis;
    Lumen's float positions add < 1e-3 here) and applies the 16 weights as 15-bit fixed point
    (each within 2^-15, summing exactly to 1). On a neighbourhood of range R the interpolant's
    slope per axis is at most K0·K1·R/2 (its weights along the other axis sum in absolute
    value to at most K0, the derivatives along this one to at most K1, and both sum to a
    constant, so only deviations from the mid-range count), so the two real values differ by
    at most E = R/2·(K0·K1·2·(1/64 + 1e-3) + 16·2^-15); each side then rounds once: |Δ| ≤ 1 + E.
    At a sharp edge (R = 255) E reaches about 8.5: exact agreement is not possible there."""
    k0, k1 = kernel_constants()
    slack = 1 / 64 + 1e-3
    r = neighbourhood_range(img, sx, sy, slack)
    return 1.0 + r / 2 * (k0 * k1 * 2 * slack + 16 * 2.0 ** -15)


def lanczos3(x):
    return np.where(np.abs(x) < 3, np.sinc(x) * np.sinc(x / 3), 0.0)


def lanczos_taps(n_in, n_out):
    """Lumen's Lanczos-3 axis in double: for each output pixel its source indices and weights
    (N_OUT × taps, padded with zero weights). Centres (i + 0.5)·f - 0.5, the kernel stretched
    by f when shrinking, taps strictly inside the window; those outside the image are left
    out, the rest normalised to 1."""
    f = n_in / n_out
    stretch = max(f, 1.0)
    radius = 3 * stretch
    taps = int(2 * radius) + 2
    idx = np.zeros((n_out, taps), np.int64)
    wts = np.zeros((n_out, taps))
    for i in range(n_out):
        c = (i + 0.5) * f - 0.5
        js = np.arange(math.floor(c - radius) + 1, math.ceil(c + radius))
        js = js[(js >= 0) & (js < n_in)]
        w = lanczos3((js - c) / stretch)
        idx[i, :len(js)] = js
        wts[i, :len(js)] = w / w.sum()
    return idx, wts


def lanczos_reference(img, ow, oh):
    """IMG resampled to OW × OH, x then y, in double; unrounded."""
    src = img.astype(np.float64)
    if src.ndim == 2:
        src = src[..., None]
    idx, wts = lanczos_taps(src.shape[1], ow)
    tmp = sum(wts[:, t][None, :, None] * src[:, idx[:, t]] for t in range(idx.shape[1]))
    idx, wts = lanczos_taps(src.shape[0], oh)
    out = sum(wts[:, t][:, None, None] * tmp[idx[:, t]] for t in range(idx.shape[1]))
    return out[..., 0] if img.ndim == 2 else out


class GeomOracle(unittest.TestCase):
    PHOTO = None  # set in each photo's subclass
    EXTRA = False  # the larger photos: the index moves (rotate, crop) are exact on the corpus

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="lumen-oracle-geom-")
        raw = lt.imread(cls.PHOTO, cv2.IMREAD_UNCHANGED)
        if raw.dtype != np.uint8:
            raise unittest.SkipTest(f"{cls.PHOTO} is not 8-bit")
        alpha = raw.ndim == 3 and raw.shape[2] == 4 and bool((raw[..., 3] != 255).any())
        if raw.ndim == 2:
            cls.ref = lt.imread(cls.PHOTO, cv2.IMREAD_GRAYSCALE)
        elif alpha:
            cls.ref = raw  # BGRA: Lumen keeps the alpha
        else:
            cls.ref = lt.imread(cls.PHOTO, cv2.IMREAD_COLOR)  # EXIF orientation applied, as Lumen does
        cls.h, cls.w = cls.ref.shape[:2]
        # Lossless either way; TIFF is written much faster, but OpenCV reads a TIFF's
        # (unassociated) alpha back changed, so photos with alpha go through PNG.
        cls.ext = ".png" if alpha else ".tif"
        lt.say(f"photo {os.path.basename(cls.PHOTO)}: {cls.w}×{cls.h}")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def lumen(self, name, *flags):
        """lumen-cli FLAGS on the photo, written losslessly and read back unchanged."""
        out = os.path.join(self.tmp.name, name + self.ext)
        lt.run_ok(self, list(flags) + ["-o", out, self.PHOTO])
        return lt.imread(out)

    def report(self, what, got, want):
        """Prints and returns max |Δ|; WANT may be float (an unrounded reference)."""
        self.assertEqual(got.shape, want.shape, what)
        d = np.abs(got.astype(np.float64) - want)
        over = float(np.mean(d > 1.0))
        lt.say(f"  {what}: max |Δ| {d.max():.3f}, mean |Δ| {d.mean():.4f}, "
               f"{100 * over:.4f} % of values off by more than 1")
        return float(d.max())

    def test_a_rotate(self):
        """Quarter turns and mirrors are cv2.rotate / cv2.flip exactly."""
        if self.EXTRA:
            self.skipTest("index moves: checked exactly on the corpus")
        for angle, flip, ref in ROTATIONS:
            with self.subTest(angle=angle, flip=flip):
                out = self.lumen(f"rotate-{angle}-{flip}", "--rotate", angle, "--rotate-flip", flip)
                self.assertEqual(self.report(f"--rotate {angle} --rotate-flip {flip} vs OpenCV", out,
                                             ref(self.ref)), 0)

    def test_b_crop(self):
        """A crop is the slice of its rectangle (here shrunk to 3:2 about its centre)."""
        if self.EXTRA:
            self.skipTest("index moves: checked exactly on the corpus")
        x, y, w, h = self.w // 7, self.h // 5, self.w // 2, self.h // 2
        out = self.lumen("crop", "--crop", f"{x},{y},{w},{h}", "--crop-ratio", "3:2")
        if w > h * 1.5:
            nw, nh = int(math.floor(h * 1.5 + 0.5)), h
        else:
            nw, nh = w, int(math.floor(w / 1.5 + 0.5))
        x0, y0 = x + (w - nw) // 2, y + (h - nh) // 2
        self.assertEqual(self.report("--crop with 3:2 vs the numpy slice", out,
                                     self.ref[y0:y0 + nh, x0:x0 + nw]), 0)

    def test_c_straighten(self):
        """Within 1 of the definition in double; against warpAffine within its bound."""
        for angle in (-1.5, 12.0):
            with self.subTest(angle=angle):
                out = self.lumen(f"straighten-{angle}", "--straighten", str(angle))
                (ow, oh), sx, sy = straighten_positions(angle, self.w, self.h)
                self.assertEqual(out.shape[:2], (oh, ow), "output size")
                # Above 0.25 MP, every STEP-th row: the references in double cost minutes on
                # two cores at full size, and every row crosses the whole photo anyway.
                step = max(1, math.ceil(ow * oh / 2.5e5))
                sx, sy, out = sx[::step], sy[::step], out[::step]
                exact = straighten_reference(self.ref, sx, sy)
                mx = self.report(f"--straighten {angle} vs double-precision bicubic", out,
                                 np.clip(exact, 0, 255))
                self.assertLessEqual(mx, 1.0)

                cx, cy = (self.w - 1) / 2, (self.h - 1) / 2
                m = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
                m[0, 2] -= cx - (ow - 1) / 2
                m[1, 2] -= cy - (oh - 1) / 2
                cv = cv2.warpAffine(self.ref, m, (ow, oh), flags=cv2.INTER_CUBIC,
                                    borderMode=cv2.BORDER_REPLICATE)[::step]
                self.report(f"--straighten {angle} vs cv2.warpAffine INTER_CUBIC", out, cv)
                bound = opencv_cubic_bound(self.ref, sx, sy)
                d = np.abs(out.astype(np.float64) - cv.astype(np.float64))
                lt.say(f"    bound 1 + E: largest {bound.max():.2f}; worst |Δ| - bound "
                       f"{(d - bound).max():.3f}")
                self.assertTrue(bool((d <= bound + 1e-9).all()), "beyond OpenCV's fixed-point bound")

    def test_d_resize_area(self):
        """Shrinks of 2 or more (exactly 2, and about 3.3) within 1 of INTER_AREA."""
        cases = [("exact2", f"{self.w // 2}x{self.h // 2}", "exact"),
                 ("by3.3", f"{max(1, round(self.w / 3.3))}x0", "fit")]
        for name, size, mode in cases:
            with self.subTest(size=size):
                out = self.lumen(f"resize-{name}", "--resize", size, "--resize-mode", mode)
                oh, ow = out.shape[:2]
                if mode == "fit":  # the height from the aspect ratio
                    self.assertEqual(oh, max(1, math.floor(self.h * ow / self.w + 0.5)))
                self.assertGreaterEqual(self.w / ow, 2)
                self.assertGreaterEqual(self.h / oh, 2)
                want = cv2.resize(self.ref, (ow, oh), interpolation=cv2.INTER_AREA)
                self.assertLessEqual(self.report(f"--resize {size} vs cv2.resize INTER_AREA", out, want), 1)

    def test_e_resize_lanczos(self):
        """Lanczos-3 up (on a crop: --crop then --resize in one run) and down by 1.5, within 1
        of the double-precision definition."""
        cw, ch = min(self.w, 400), min(self.h, 300)
        up_w = round(cw * 1.37)
        out = self.lumen("lanczos-up", "--crop", f"0,0,{cw},{ch}", "--resize", f"{up_w}x0")
        oh, ow = out.shape[:2]
        self.assertEqual(ow, up_w)
        exact = lanczos_reference(self.ref[:ch, :cw], ow, oh)
        self.assertLessEqual(self.report(f"--crop 0,0,{cw},{ch} --resize {up_w}x0 vs Lanczos-3 in double", out,
                                         np.clip(exact, 0, 255)), 1)

        # Down on a crop of at most 900×600: the reference in double over a whole 15 MP photo
        # costs minutes, and the kernel is the same everywhere.
        cw, ch = min(self.w, 900), min(self.h, 600)
        down_w, down_h = round(cw / 1.5), round(ch / 1.5)
        out = self.lumen("lanczos-down", "--crop", f"0,0,{cw},{ch}", "--resize", f"{down_w}x{down_h}",
                         "--resize-mode", "exact")
        exact = lanczos_reference(self.ref[:ch, :cw], down_w, down_h)
        self.assertLessEqual(self.report(f"--crop 0,0,{cw},{ch} --resize {down_w}x{down_h} vs Lanczos-3 in double",
                                         out, np.clip(exact, 0, 255)), 1)


class LanczosBorder(unittest.TestCase):
    """Sharp content up to the border (random black and white pixels, a one-pixel frame),
    8- and 16-bit, gray and colour, up by 1.41 and 2.3 and down by 1.3 and 1.9: within 1 level
    of the double-precision definition over the whole image, border included (16-bit: within
    1.5 u16, rounding and the float sums' error on the 0..255 scale)."""

    SIZES = [(113, 85), (184, 138), (62, 46), (42, 32)]  # from 80 × 60

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="lumen-lanczos-border-")
        rng = np.random.default_rng(29)
        noise = (rng.random((60, 80, 3)) > 0.5).astype(np.uint8) * 255
        frame = np.full((60, 80, 3), 40, np.uint8)
        frame[0, :], frame[-1, :], frame[:, 0], frame[:, -1] = 250, 230, 220, 255
        frame[1:-1, 1] = 0
        cls.images = {"noise": noise, "frame": frame}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_border(self):
        for name, img8 in self.images.items():
            for channels in (1, 3):
                for depth in (8, 16):
                    src = img8[..., 0] if channels == 1 else img8
                    scale = 257 if depth == 16 else 1
                    src = src.astype(np.uint16) * 257 if depth == 16 else src
                    path = os.path.join(self.tmp.name, f"{name}-{channels}-{depth}.png")
                    self.assertTrue(cv2.imwrite(path, src))
                    for ow, oh in self.SIZES:
                        with self.subTest(image=name, channels=channels, depth=depth, size=f"{ow}x{oh}"):
                            out_path = os.path.join(self.tmp.name, f"out-{name}-{channels}-{depth}-{ow}.png")
                            lt.run_ok(self, ["--resize", f"{ow}x{oh}", "--resize-mode", "exact", "-o", out_path,
                                             path])
                            out = lt.imread(out_path).astype(np.float64)
                            want = np.clip(lanczos_reference(src.astype(np.float64) / scale, ow, oh), 0, 255) * scale
                            self.assertEqual(out.shape, want.shape)
                            d = np.abs(out - want)
                            border = np.ones(d.shape[:2], bool)
                            border[7:-7, 7:-7] = False
                            lt.say(f"  {name} {channels} ch {depth}-bit → {ow}×{oh}: max |Δ| {d.max():.3f} "
                                   f"(within 7 px of the border {d[border].max():.3f}, inside {d[~border].max():.3f})"
                                   f"{' u16' if depth == 16 else ''}")
                            self.assertLessEqual(float(d.max()), 1.0 if depth == 8 else 1.5)


def suite_for(paths, extra):
    suite = unittest.TestSuite()
    if not extra:
        suite.addTests(unittest.TestLoader().loadTestsFromTestCase(LanczosBorder))
    suite.addTests(oracle_main.photo_suite(GeomOracle, "Geom_", paths, EXTRA=extra))
    return suite


if __name__ == "__main__":
    sys.exit(oracle_main.main(sys.argv[1:], "test_oracle_geom.py", suite_for))

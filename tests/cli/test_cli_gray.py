"""Gray in, gray out: a one-channel photo (8- and 16-bit, PNG and TIFF) edited with the point
operations through lumen-cli is written as one channel, on the CPU and (where there is one) on
the GPU, with the values of each operation's definition computed here in numpy (float64):

- exposure: 255·enc(dec(v/255)·2^EV), sRGB's transfer function;
- contrast and levels: ((v - black)·255/(white - black) - 127.5)·(1 + contrast) + 127.5;
- curves: Fritsch–Carlson's monotone cubic through the points, flat beyond the ends; on a gray
  image the master curve alone, in either mode (the luma of a gray pixel is its value);
- white balance, the red/green/blue curves and saturation act on colour, which a gray image has
  none of: they leave it unchanged (and gray).

A gray photo with alpha is read as RGBA (R = G = B), so the pass cannot know it is gray: the edits
that do not act on colour keep R = G = B there, with the same values, and the alpha as it was.
Channel counts are read with OpenCV (IMREAD_UNCHANGED) and, for PNG, from the header's colour
type.
"""
import os
import shutil
import struct
import sys
import tempfile
import unittest
import zlib

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

GRAY = os.path.join(lt.photos_dir(), "camera-gray.png")


def srgb_decode(v):
    a = np.abs(v)
    lin = np.where(a <= 0.04045, a / 12.92, ((a + 0.055) / 1.055) ** 2.4)
    return np.sign(v) * lin


def srgb_encode(lin):
    a = np.abs(lin)
    v = np.where(a <= 0.0031308, a * 12.92, 1.055 * a ** (1 / 2.4) - 0.055)
    return np.sign(lin) * v


def exposure(v, ev):
    return 255.0 * srgb_encode(srgb_decode(v / 255.0) * 2.0 ** ev)


def contrast(v, c, black=0.0, white=255.0):
    return ((v - black) * 255.0 / (white - black) - 127.5) * (1.0 + c) + 127.5


def monotone_cubic(points, v):
    """Fritsch & Carlson (1980): secant slopes, tangents the mean of neighbouring secants (0 at
    a change of sign), scaled into the circle of radius 3; Hermite segments; flat beyond."""
    x = np.array([p[0] for p in points], float)
    y = np.array([p[1] for p in points], float)
    d = np.diff(y) / np.diff(x)
    m = np.empty(len(x))
    m[0], m[-1] = d[0], d[-1]
    for k in range(1, len(x) - 1):
        m[k] = (d[k - 1] + d[k]) / 2 if d[k - 1] * d[k] > 0 else 0.0
    for k in range(len(d)):
        if d[k] == 0:
            m[k] = m[k + 1] = 0.0
            continue
        r = np.hypot(m[k] / d[k], m[k + 1] / d[k])
        if r > 3:
            m[k] *= 3 / r
            m[k + 1] *= 3 / r
    v = np.asarray(v, float)
    k = np.clip(np.searchsorted(x, v, side="right") - 1, 0, len(x) - 2)
    h = x[k + 1] - x[k]
    t = (v - x[k]) / h
    out = ((2 * t**3 - 3 * t**2 + 1) * y[k] + (t**3 - 2 * t**2 + t) * h * m[k]
           + (-2 * t**3 + 3 * t**2) * y[k + 1] + (t**3 - t**2) * h * m[k + 1])
    return np.where(v <= x[0], y[0], np.where(v >= x[-1], y[-1], out))


MASTER = [(0, 10), (80, 60), (160, 190), (255, 245)]
CURVE_TEXT = ",".join(f"{a}:{b}" for a, b in MASTER)

# (name, flags, the definition on a gray value v of the 0..255 scale, whether it acts on colour)
EDITS = [
    ("exposure", ["--exposure", "0.7"], lambda v: exposure(v, 0.7), False),
    ("exposure-down", ["--exposure", "-1.3"], lambda v: exposure(v, -1.3), False),
    ("contrast", ["--contrast", "0.35", "--contrast-black", "12", "--contrast-white", "240"],
     lambda v: contrast(v, 0.35, 12, 240), False),
    ("curve", ["--curve", CURVE_TEXT], lambda v: monotone_cubic(MASTER, v), False),
    ("curve-red", ["--curve", CURVE_TEXT, "--curve-red", "0:0,100:160,255:255"],
     lambda v: monotone_cubic(MASTER, v), True),
    ("curve-luma", ["--curve", CURVE_TEXT, "--curve-mode", "luma", "--curve-blue", "0:40,255:200"],
     lambda v: monotone_cubic(MASTER, v), True),
    ("wb", ["--wb", "3200,+20"], lambda v: v, True),
    ("saturation", ["--saturation", "0.8", "--saturation-vibrance", "0.5"], lambda v: v, True),
    ("all", ["--wb", "9000,-30", "--exposure", "0.4", "--contrast", "0.2", "--curve", CURVE_TEXT,
             "--saturation", "-0.5"],
     lambda v: monotone_cubic(MASTER, contrast(exposure(v, 0.4), 0.2)), True),
]


def widen(img8):
    """IMG8 as 16 bits with every low byte: v·257 less a smooth term of 0..256, clipped."""
    h, w = img8.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    smooth = (xx * 37 + yy * 91) % 257
    return np.clip(img8.astype(np.int64) * 257 - smooth, 0, 65535).astype(np.uint16)


def png_gray_alpha(path, gray, alpha):
    """A PNG of colour type 4 (gray + alpha), 8 or 16 bits, written here: OpenCV writes no
    such PNG."""
    depth = 16 if gray.dtype == np.uint16 else 8
    ga = np.stack([gray, alpha], axis=-1).astype(">u2" if depth == 16 else np.uint8)
    raw = b"".join(b"\0" + row.tobytes() for row in ga.reshape(gray.shape[0], -1))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", gray.shape[1], gray.shape[0], depth, 4, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw))
                + chunk(b"IEND", b""))


def png_colour_type(path):
    with open(path, "rb") as f:
        head = f.read(26)
    return head[25]


def backends():
    found = ["cpu"]
    if lt.build_has_cuda() is not False and lt.has_gpu():
        found.append("cuda")
    return found


class GrayStaysGray(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="lumen-gray-")
        gray8 = lt.imread(GRAY, cv2.IMREAD_UNCHANGED)[:256, :384]
        assert gray8.ndim == 2
        cls.values = {8: gray8, 16: widen(gray8)}
        cls.sources = {}
        for depth, img in cls.values.items():
            for ext in ("png", "tif"):
                path = os.path.join(cls.tmp, f"gray{depth}.{ext}")
                assert cv2.imwrite(path, img), path
                cls.sources[depth, ext] = path
        yy, xx = np.mgrid[0:gray8.shape[0], 0:gray8.shape[1]]
        cls.alpha8 = ((xx * 3 + yy) % 256).astype(np.uint8)
        cls.alpha8[:, :8] = 255
        for depth in (8, 16):
            alpha = cls.alpha8 if depth == 8 else cls.alpha8.astype(np.uint16) * 257
            path = os.path.join(cls.tmp, f"gray-alpha{depth}.png")
            png_gray_alpha(path, cls.values[depth], alpha)
            cls.sources[depth, "alpha"] = path

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_edit(self, src, flags, backend, name):
        out = os.path.join(self.tmp, f"{name}-{backend}{os.path.splitext(src)[1] or '.png'}")
        lt.run_ok(self, ["--backend", backend, *flags, "-o", out, src])
        return out, lt.imread(out, cv2.IMREAD_UNCHANGED)

    def check_values(self, what, got, want_fn, src_values, depth):
        scale = 257.0 if depth == 16 else 1.0
        want = np.clip(want_fn(src_values.astype(np.float64) / scale), 0, 255) * scale
        d = np.abs(got.astype(np.float64) - want)
        lt.say(f"  {what}: max |Δ| {d.max():.3f}{' u16' if depth == 16 else ''}")
        # Rounding, and the float pass's error on the 0..255 scale (at most 0.51 u16 measured).
        self.assertLess(float(d.max()), 1.0 if depth == 8 else 1.5, what)

    def test_gray_files(self):
        """Every edit on 8- and 16-bit gray PNG and TIFF: one channel out, of the source's
        depth, with the definition's values."""
        for backend in backends():
            for (depth, ext), src in self.sources.items():
                if ext == "alpha":
                    continue
                for name, flags, fn, _ in EDITS:
                    with self.subTest(backend=backend, depth=depth, ext=ext, edit=name):
                        path, got = self.run_edit(src, flags, backend, f"{name}{depth}")
                        what = f"{backend} {depth}-bit .{ext} {' '.join(flags)}"
                        self.assertEqual(got.ndim, 2, f"{what}: written with shape {got.shape}, not one channel")
                        self.assertEqual(got.dtype, np.uint16 if depth == 16 else np.uint8, what)
                        if ext == "png":
                            self.assertEqual(png_colour_type(path), 0, f"{what}: PNG colour type")
                        self.check_values(what, got, fn, self.values[depth], depth)

    def test_gray_with_alpha(self):
        """Gray with alpha: the edits keep R = G = B, with the gray definition's values, and
        the alpha; no more channels than the unedited photo is written with."""
        for (depth, ext), src in self.sources.items():
            if ext != "alpha":
                continue
            _, plain = self.run_edit(src, [], "cpu", f"plain-alpha{depth}")
            for name, flags, fn, colour in EDITS:
                if colour:
                    continue  # read as RGBA (core/io), the photo is not known to be gray there
                with self.subTest(depth=depth, edit=name):
                    _, got = self.run_edit(src, flags, "cpu", f"{name}-alpha{depth}")
                    what = f"{depth}-bit gray+alpha {' '.join(flags)}"
                    self.assertEqual(got.shape, plain.shape, what)
                    self.assertEqual(got.shape[2:], (4,), f"{what}: the alpha lost")
                    self.assertTrue(bool((got[..., 0] == got[..., 1]).all() and (got[..., 1] == got[..., 2]).all()),
                                    f"{what}: coloured")
                    self.assertEqual(lt.diff(got[..., 3], plain[..., 3])[0], 0, f"{what}: alpha changed")
                    self.check_values(what, got[..., 0], fn, self.values[depth], depth)


if __name__ == "__main__":
    unittest.main(verbosity=2)

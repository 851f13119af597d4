"""lumen-cli --depth 16 on an 8-bit photo: the edits render at 16 bits, so the gradations an
edit makes between the photo's 256 levels survive in a 16-bit PNG or TIFF; --depth 8 (the
default) is the 8-bit export as before; JPEG and radiance outputs refuse 16.

The photo is a banded ramp: levels 0..63, each 16 pixels wide. +2 EV then a blur of σ 6 make
of it a smooth slope; in 8 bits that slope has at most 256 levels (here about 130), at 16 bits
thousands. The reference is the same edit in double in NumPy: the exposure in linear light
(sRGB's curve, docs/numerics.md), then Lumen's blur kernel (round(6σ+1)|1 taps of
exp(-x²/2σ²), normalised, mirrored at the edges without repeating them), rounded once.
Bounds: 16 bits within 2 u16 (the exposure's result is stored in 16 bits before the blur,
½ u16, and the float arithmetic, far below one); 8 bits within 1 level (the same in 8 bits,
the stored exposure's ½ level spread by the blur's weights that sum to 1).
"""
import os
import sys
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

EV = 2.0
SIGMA = 6.0
FLAGS = ["--exposure", str(EV), "--blur", str(SIGMA)]


def ramp():
    x = np.arange(1024)
    row = (x // 16).astype(np.uint8)
    img = np.repeat(row[None, :], 8, axis=0)
    return np.repeat(img[..., None], 3, axis=2)


def reference(img8, top):
    """The edit of IMG8 in double on the 0..TOP scale, before rounding."""
    lin = lt.srgb_decode(img8.astype(np.float64) / 255.0) * 2.0 ** EV
    exposed = np.clip(lt.srgb_encode(lin), 0.0, 1.0) * top
    taps = int(np.rint(SIGMA * 6 + 1)) | 1
    r = taps // 2
    w = np.exp(-0.5 * np.arange(-r, r + 1) ** 2 / SIGMA ** 2)
    w /= w.sum()
    h, width = exposed.shape[:2]
    cols = lt.reflect101(np.arange(width)[:, None] + np.arange(-r, r + 1)[None, :], width)
    across = np.einsum("hwkc,k->hwc", exposed[:, cols, :], w)
    rows = lt.reflect101(np.arange(h)[:, None] + np.arange(-r, r + 1)[None, :], h)
    return np.einsum("hwkc,k->hwc", np.transpose(across[rows, :, :], (0, 2, 1, 3)), w)


class ExportDepthTest(lt.RenderTest):
    def export(self, ext, depth=None):
        src = os.path.join(self.folder, "ramp.png")
        lt.imwrite_rgb(src, ramp())
        out = os.path.join(self.folder, f"out-{depth}.{ext}")
        flags = FLAGS + (["--depth", str(depth)] if depth else [])
        lt.run_ok(self, flags + [src, "-o", out])
        return lt.imread_rgb(out)

    def test_16_bits_keep_the_gradations(self):
        want = lt.quantize(reference(ramp(), 65535.0), 65535)
        for ext in ("png", "tif"):
            with self.subTest(ext=ext):
                got = self.export(ext, 16)
                self.assertEqual(got.dtype, np.uint16)
                levels = len(np.unique(got[..., 0]))
                err = np.abs(got.astype(np.int64) - want).max()
                print(f"{ext}: {levels} levels at 16 bits, max |Δ| {err} u16 from the reference")
                self.assertGreater(levels, 256)
                self.assertLessEqual(err, 2)

    def test_8_bits_as_before(self):
        want = lt.quantize(reference(ramp(), 255.0), 255)
        for depth in (None, 8):
            with self.subTest(depth=depth):
                got = self.export("png", depth)
                self.assertEqual(got.dtype, np.uint8)
                err = np.abs(got.astype(np.int64) - want).max()
                print(f"--depth {depth}: {len(np.unique(got[..., 0]))} levels, max |Δ| {err} from the reference")
                self.assertLessEqual(err, 1)
                self.assertLessEqual(len(np.unique(got[..., 0])), 256)
        # The 16-bit export is the 8-bit one with its fractions kept: round(v / 257) within 1.
        deep = self.export("png", 16)
        shallow = self.export("png", 8)
        narrowed = (deep.astype(np.int64) + 128) // 257
        self.assertLessEqual(np.abs(narrowed - shallow).max(), 1)

    def test_refused(self):
        src = os.path.join(self.folder, "small.png")
        lt.imwrite_rgb(src, ramp())
        for flags, out, word in ((["--depth", "16"], "x.jpg", "JPEG"), (["--depth", "12"], "x.png", "8 or 16"),
                                 (["--depth", "16"], "x.hdr", ".hdr")):
            with self.subTest(flags=flags, out=out):
                path = os.path.join(self.folder, out)
                proc = lt.run(flags + ["-o", path, src])
                self.assertEqual(proc.returncode, 2, lt.describe(proc))
                self.assertIn(word, proc.stderr.splitlines()[0])
                self.assertFalse(os.path.exists(path))


if __name__ == "__main__":
    unittest.main(verbosity=2)

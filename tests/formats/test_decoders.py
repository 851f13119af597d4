"""GIF, WebP and BMP read by lumen-cli: pixels compared with known answers (GIFs written byte by
byte here) and with OpenCV (WebP, BMP), through `lumen-cli -o out.png IN` with no operation,
which writes the decoded pixels as they are."""
import os
import shutil
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import giflib_writer as gw  # noqa: E402
import lumen_testlib as lt  # noqa: E402

PALETTE = [(i, 255 - i, (i * 7) % 256) for i in range(256)]


def indices(width, height, seed=0):
    return np.fromfunction(lambda y, x: (x * 3 + y * 11 + seed) % 256, (height, width),
                           dtype=np.int64).astype(np.uint8)


def expected_rgba(index_rows, palette=PALETTE, transparent=None):
    rgb = np.array(palette, dtype=np.uint8)[index_rows]
    alpha = np.full(index_rows.shape, 255, np.uint8)
    if transparent is not None:
        alpha[index_rows == transparent] = 0
        rgb[index_rows == transparent] = 0
    return np.dstack([rgb, alpha])


class Decoders(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="lumen-formats-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def decode(self, name, data):
        """lumen-cli's pixels of the file DATA, as RGBA (alpha 255 where the output has none)."""
        src = self.path(name)
        with open(src, "wb") as f:
            f.write(data)
        out = self.path(name + ".png")
        lt.run_ok(self, ["-o", out, src], timeout=60)
        img = lt.imread(out)
        if img.ndim == 2:
            img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        if img.shape[2] == 3:
            img = np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])
        return cv2.cvtColor(img, cv2.COLOR_BGRA2RGBA)

    def assert_pixels(self, got, want):
        self.assertEqual(got.shape, want.shape)
        self.assertEqual(lt.diff(got, want)[0], 0, "pixels differ from the known answer")

    # --- GIF: known answers ------------------------------------------------------------------

    def test_gif_every_pixel(self):
        rows = indices(37, 21)
        data = gw.gif(37, 21, [gw.frame(37, 21, rows.ravel().tolist())], PALETTE)
        self.assert_pixels(self.decode("plain.gif", data), expected_rgba(rows))

    def test_gif_interlaced_with_transparency(self):
        rows = indices(29, 23, seed=5)
        order = gw.interlace_order(23)
        data = gw.gif(29, 23, [gw.frame(29, 23, rows[order].ravel().tolist(), interlaced=True,
                                        transparent=7)], PALETTE)
        want = expected_rgba(rows, transparent=7)
        self.assertGreater(int((want[..., 3] == 0).sum()), 0)
        self.assert_pixels(self.decode("interlaced.gif", data), want)

    def test_gif_local_colour_table_and_first_frame_only(self):
        local = [(255 - r, g, b) for r, g, b in PALETTE]
        first, second = indices(16, 12, seed=1), indices(16, 12, seed=2)
        data = gw.gif(16, 12, [gw.frame(16, 12, first.ravel().tolist(), local_palette=local),
                               gw.frame(16, 12, second.ravel().tolist())], PALETTE)
        self.assert_pixels(self.decode("animated.gif", data), expected_rgba(first, local))

    def test_gif_frame_smaller_than_its_screen_is_read_at_its_own_size(self):
        """A 30000² logical screen around a 9×7 frame: the frame is the picture; no canvas of the
        screen's size is allocated (gdk-pixbuf allocated it: 3.6 GB)."""
        rows = indices(9, 7)
        data = gw.gif(30000, 30000, [gw.frame(9, 7, rows.ravel().tolist(), left=100, top=50)],
                      PALETTE)
        self.assert_pixels(self.decode("screen.gif", data), expected_rgba(rows))

    def test_gif_index_past_the_colour_table_is_black(self):
        rows = indices(8, 8)
        data = bytearray(gw.gif(8, 8, [gw.frame(8, 8, rows.ravel().tolist())], PALETTE[:4]))
        # A 4-entry table: rewrite the global table's size field (2^(n+1) entries).
        data[10] = 0x80 | 1
        data = bytes(data[:13]) + gw.palette_bytes(PALETTE[:4])[:12] + bytes(data[13 + 768:])
        want = expected_rgba(rows, PALETTE[:4] + [(0, 0, 0)] * 252)
        self.assert_pixels(self.decode("short-table.gif", data), want)

    def test_truncated_gif_is_refused(self):
        rows = indices(40, 30)
        data = gw.gif(40, 30, [gw.frame(40, 30, rows.ravel().tolist())], PALETTE)
        src = self.path("cut.gif")
        with open(src, "wb") as f:
            f.write(data[:len(data) // 2])
        proc = lt.run(["-o", self.path("cut.png"), src], timeout=30)
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertRegex(proc.stderr, r"cut\.gif: .*truncated")
        self.assertFalse(os.path.exists(self.path("cut.png")))

    # --- WebP and BMP: OpenCV as the oracle --------------------------------------------------

    def photo(self):
        img = lt.imread(os.path.join(lt.photos_dir(), "chelsea.png"), cv2.IMREAD_COLOR)
        return img[:120, :160]

    def test_webp_lossless_and_lossy(self):
        for name, quality in (("lossless.webp", 101), ("lossy.webp", 80)):
            with self.subTest(name):
                ok, enc = cv2.imencode(".webp", self.photo(), [cv2.IMWRITE_WEBP_QUALITY, quality])
                self.assertTrue(ok)
                want = cv2.cvtColor(cv2.imdecode(enc, cv2.IMREAD_UNCHANGED), cv2.COLOR_BGR2RGBA)
                got = self.decode(name, enc.tobytes())
                self.assertEqual(got.shape, want.shape)
                self.assertLessEqual(lt.diff(got, want)[0], 0 if quality > 100 else 1)

    def test_bmp(self):
        ok, enc = cv2.imencode(".bmp", self.photo())
        self.assertTrue(ok)
        want = cv2.cvtColor(self.photo(), cv2.COLOR_BGR2RGBA)
        self.assert_pixels(self.decode("photo.bmp", enc.tobytes()), want)


if __name__ == "__main__":
    unittest.main(verbosity=2)

"""16-bit files through lumen-cli: 16-bit PNG and TIFF (colour, gray, alpha) come out exactly as
they went in when nothing is edited, read back by OpenCV (IMREAD_UNCHANGED reads 16 bits); a
JPEG of a 16-bit photo is the JPEG of its 8-bit rounding round(v / 257); EXIF orientation turns
a 16-bit TIFF; an edit either keeps 16 bits or is refused with a message, never a crash.

The 16-bit sources are made here from the corpus' 8-bit photos: v·257 minus a smooth term that
takes every value of 0..256, so that every bit of the low byte varies and a path that drops to 8
bits anywhere fails.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

PHOTOS = {
    "colour": "chelsea.png",
    "gray": "camera-gray.png",
    "alpha": "coffee-alpha.png",
}


def widen(img8):
    """IMG8 (uint8) as uint16: v·257 less a smooth term of 0..256, clipped at 0."""
    h, w = img8.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    smooth = ((xx * 37 + yy * 91) % 257).astype(np.int64)
    if img8.ndim == 3:
        smooth = smooth[..., None]
    return np.clip(img8.astype(np.int64) * 257 - smooth, 0, 65535).astype(np.uint16)


def narrow(img16):
    """round(v / 257): no v is a tie, 257 being odd."""
    return ((img16.astype(np.uint32) + 128) // 257).astype(np.uint8)


class Depth16Test(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="lumen-depth16-")
        cls.sources = {}
        for kind, name in PHOTOS.items():
            img = lt.imread(os.path.join(lt.photos_dir(), name), cv2.IMREAD_UNCHANGED)
            wide = widen(img)
            for ext in ("png", "tif"):
                path = os.path.join(cls.tmp, f"{kind}16.{ext}")
                assert cv2.imwrite(path, wide), path
                cls.sources[kind, ext] = path
            cls.sources[kind] = wide

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def out(self, name):
        return os.path.join(self.tmp, name)

    def test_sources_use_all_16_bits(self):
        # Else the round trips below could pass on a path that keeps 8 bits.
        for kind in PHOTOS:
            low = self.sources[kind] & 0xFF
            self.assertEqual(len(np.unique(low)), 256, kind)

    def test_round_trip_is_exact(self):
        for kind in PHOTOS:
            for src_ext in ("png", "tif"):
                src = self.sources[kind, src_ext]
                for out_ext in ("png", "tif"):
                    with self.subTest(kind=kind, src=src_ext, out=out_ext):
                        out = self.out(f"rt-{kind}-{src_ext}.{out_ext}")
                        lt.run_ok(self, [src, "-o", out])
                        got = lt.imread(out, cv2.IMREAD_UNCHANGED)
                        want = self.sources[kind]
                        self.assertEqual(got.dtype, np.uint16)
                        self.assertEqual(got.shape, want.shape)
                        self.assertTrue(np.array_equal(got, want),
                                        f"max |Δ| {lt.diff(got, want)}")

    def test_jpeg_is_the_8_bit_rounding(self):
        # The JPEG of the 16-bit photo is byte for byte that of round(v / 257) as an 8-bit PNG.
        for kind in ("colour", "gray"):
            with self.subTest(kind=kind):
                eight = self.out(f"{kind}8.png")
                cv2.imwrite(eight, narrow(self.sources[kind]))
                a, b = self.out(f"{kind}-from16.jpg"), self.out(f"{kind}-from8.jpg")
                lt.run_ok(self, [self.sources[kind, "png"], "-o", a])
                lt.run_ok(self, [eight, "-o", b])
                self.assertEqual(lt.read_bytes(a), lt.read_bytes(b))

    def test_8_bit_files_stay_8_bit(self):
        for kind, name in PHOTOS.items():
            src = os.path.join(lt.photos_dir(), name)
            want = lt.imread(src, cv2.IMREAD_UNCHANGED)
            for ext in ("png", "tif"):
                with self.subTest(kind=kind, out=ext):
                    out = self.out(f"eight-{kind}.{ext}")
                    lt.run_ok(self, [src, "-o", out])
                    if kind == "alpha" and ext == "tif":
                        # OpenCV premultiplies an 8-bit TIFF's straight alpha on reading:
                        # read it back through Lumen's own reader instead.
                        back = self.out("eight-alpha-back.png")
                        lt.run_ok(self, [out, "-o", back])
                        out = back
                    got = lt.imread(out, cv2.IMREAD_UNCHANGED)
                    self.assertEqual(got.dtype, np.uint8)
                    self.assertTrue(np.array_equal(got, want))

    def test_orientation_turns_a_16_bit_tiff(self):
        exiftool = shutil.which("exiftool")
        if exiftool is None:
            self.skipTest("exiftool is not installed (libimage-exiftool-perl)")
        src = self.out("turned16.tif")
        shutil.copy(self.sources["colour", "tif"], src)
        subprocess.run([exiftool, "-q", "-overwrite_original", "-Orientation#=6", src], check=True)
        out = self.out("turned16-out.png")
        lt.run_ok(self, [src, "-o", out])
        got = lt.imread(out, cv2.IMREAD_UNCHANGED)
        want = cv2.rotate(self.sources["colour"], cv2.ROTATE_90_CLOCKWISE)
        self.assertEqual(got.dtype, np.uint16)
        self.assertTrue(np.array_equal(got, want))

    def test_an_edit_keeps_16_bits_or_says_why(self):
        # Operations on 16-bit sources are another part of the work: until an operation takes
        # them it must refuse with a message (exit 1), not crash or quietly write 8 bits.
        for flags in (["--exposure", "0.5"], ["--gray", "luminosity"]):
            with self.subTest(flags=flags):
                out = self.out("edited.png")
                proc = lt.run(flags + [self.sources["colour", "png"], "-o", out])
                self.assertIn(proc.returncode, (0, 1), lt.describe(proc))
                if proc.returncode == 1:
                    self.assertIn("16-bit", proc.stderr)
                    self.assertFalse(os.path.exists(out))
                else:
                    got = lt.imread(out, cv2.IMREAD_UNCHANGED)
                    self.assertEqual(got.dtype, np.uint16)
                    self.assertGreater(len(np.unique(got & 0xFF)), 128)
                    os.remove(out)


if __name__ == "__main__":
    unittest.main()

"""The PNG encoder (core/io/png-deflate.c): rows deflated in parallel runs that concatenate into
one zlib stream. Every level and every layout (gray, RGB, RGBA; 8 and 16 bits) must decode to
the exact pixels given, in OpenCV and Pillow; the stream itself is checked here chunk by chunk
(CRCs, one zlib stream whose Adler-32 and length are right), and the bytes must not depend on
the number of threads. Inputs are a real photo (chelsea.png) resized, with 16-bit low bytes and
an alpha ramp made from it."""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

import cv2
import numpy as np
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402
import pixel_layouts  # noqa: E402

LEVELS = range(10)
SOME_LEVELS = (0, 1, 2, 6, 9)


def layouts(width, height):
    return pixel_layouts.layouts(width, height, 16)


def chunks(data):
    """(type, payload) of each chunk of the PNG DATA, every CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "no PNG signature"
    at, out = 8, []
    while at < len(data):
        (n,) = struct.unpack(">I", data[at:at + 4])
        kind, payload = data[at + 4:at + 8], data[at + 8:at + 8 + n]
        (crc,) = struct.unpack(">I", data[at + 8 + n:at + 12 + n])
        assert zlib.crc32(kind + payload) == crc, f"bad CRC in {kind!r}"
        out.append((kind, payload))
        at += 12 + n
    return out


class PngEncoder(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="lumen-png-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def source(self, name, pixels):
        src = self.path(name + ".src.png")
        self.assertTrue(cv2.imwrite(src, pixels))
        return src

    def encode(self, src, level, name, threads=None):
        out = self.path(f"{name}.{level}.{threads}.png")
        args = ["-o", out, src] + ([] if level is None else ["--png-level", str(level)])
        if threads is None:
            lt.run_ok(self, args, timeout=120)
        else:
            env = dict(os.environ, LC_ALL="C.UTF-8", OMP_NUM_THREADS=str(threads))
            proc = subprocess.run([lt.lumen_cli()] + args, capture_output=True, text=True, env=env, timeout=120)
            self.assertEqual(proc.returncode, 0, lt.describe(proc))
        return out

    def check_stream(self, out, pixels, level):
        """The file's own structure: one zlib stream over the IDATs, whole, of the right size."""
        parts = chunks(lt.read_bytes(out))
        kinds = [k for k, _ in parts]
        self.assertEqual(kinds[0], b"IHDR")
        self.assertEqual(kinds[-1], b"IEND")
        idat = [i for i, k in enumerate(kinds) if k == b"IDAT"]
        self.assertEqual(idat, list(range(idat[0], idat[-1] + 1)), "IDAT chunks must be consecutive")
        stream = b"".join(p for k, p in parts if k == b"IDAT")
        d = zlib.decompressobj()
        raw = d.decompress(stream)  # checks the header and the Adler-32
        self.assertTrue(d.eof, "the zlib stream does not end")
        self.assertEqual(d.unused_data, b"", "bytes after the zlib stream")
        h, w = pixels.shape[:2]
        channels = 1 if pixels.ndim == 2 else pixels.shape[2]
        self.assertEqual(len(raw), h * (1 + w * channels * pixels.itemsize))
        if level == 0:
            self.assertLess(len(stream), len(raw) * 1.01 + 64, "level 0 stores")

    def check_pixels(self, out, pixels, name):
        got = lt.imread(out)
        self.assertEqual(got.dtype, pixels.dtype, name)
        self.assertEqual(got.shape, pixels.shape, name)
        self.assertEqual(lt.diff(got, pixels)[2], 0, f"{name}: OpenCV decodes other pixels")
        with Image.open(out) as im:
            im.verify()
        with Image.open(out) as im:
            if name in ("gray8", "rgb8", "rgba8"):
                want = pixels if pixels.ndim == 2 else cv2.cvtColor(
                    pixels, cv2.COLOR_BGR2RGB if pixels.shape[2] == 3 else cv2.COLOR_BGRA2RGBA)
                self.assertEqual(lt.diff(np.asarray(im), want)[2], 0, f"{name}: Pillow decodes other pixels")
            elif name == "gray16":
                self.assertEqual(lt.diff(np.asarray(im).astype(np.uint16), pixels)[2], 0,
                                 f"{name}: Pillow decodes other pixels")
            else:
                im.load()  # Pillow reduces 16-bit colour to 8 bits: decoding through is the check

    def test_every_level_and_layout(self):
        # 640×480: two or three runs (of 1 MiB of filtered rows) in the wider layouts.
        for name, pixels in layouts(640, 480).items():
            src = self.source(name, pixels)
            # Every level on three layouts; under the sanitizers (CI's time) the levels differ
            # only in zlib's parameter, so a few of them.
            every = name in ("gray8", "rgba16", "rgb8") and os.environ.get("ASAN_OPTIONS") is None
            levels = LEVELS if every else SOME_LEVELS
            for level in levels:
                with self.subTest(layout=name, level=level):
                    out = self.encode(src, level, name)
                    self.check_stream(out, pixels, level)
                    self.check_pixels(out, pixels, name)

    def test_many_runs_in_several_waves(self):
        # 1500×1000 RGBA16: 12 MB of rows, 12 runs: more than one wave of runs on 2 cores.
        pixels = layouts(1500, 1000)["rgba16"]
        src = self.source("big", pixels)
        for level in (1, 6):
            with self.subTest(level=level):
                out = self.encode(src, level, "big")
                self.check_stream(out, pixels, level)
                self.check_pixels(out, pixels, "rgba16")

    def test_bytes_do_not_depend_on_threads(self):
        pixels = layouts(1200, 800)["rgb16"]
        src = self.source("threads", pixels)
        for level in (1, 4):
            with self.subTest(level=level):
                outs = [lt.read_bytes(self.encode(src, level, "threads", threads=t)) for t in (1, 2, 3)]
                self.assertEqual(outs[0], outs[1], "1 and 2 threads write other bytes")
                self.assertEqual(outs[0], outs[2], "1 and 3 threads write other bytes")

    def test_default_level_is_1(self):
        src = self.source("default", layouts(320, 240)["rgb8"])
        self.assertEqual(lt.read_bytes(self.encode(src, None, "default")),
                         lt.read_bytes(self.encode(src, 1, "default")))

    def test_higher_levels_compress_more(self):
        pixels = layouts(640, 480)["rgb8"]
        src = self.source("sizes", pixels)
        size = {lv: os.path.getsize(self.encode(src, lv, "sizes")) for lv in (0, 1, 6, 9)}
        self.assertGreater(size[0], size[1])
        self.assertGreater(size[1], size[6])
        self.assertGreaterEqual(size[6], size[9])

    def test_level_out_of_range_is_a_usage_error(self):
        src = self.source("usage", layouts(32, 16)["rgb8"])
        for bad in ("10", "-1", "2.5", "fast"):
            with self.subTest(level=bad):
                proc = lt.run(["-o", self.path("usage.png"), src, "--png-level", bad])
                self.assertEqual(proc.returncode, 2, lt.describe(proc))
                self.assertIn("--png-level", proc.stderr)
                self.assertFalse(os.path.exists(self.path("usage.png")))

    def test_metadata_chunks_come_before_the_image_data(self):
        # The ICC profile of a photo that has one, and EXIF, written by libpng ahead of the IDATs.
        src = os.path.join(lt.photos_dir(), "forest-path.jpg")
        out = self.path("meta.png")
        lt.run_ok(self, ["-o", out, src, "--png-level", "1"])
        kinds = [k for k, _ in chunks(lt.read_bytes(out))]
        first_idat = kinds.index(b"IDAT")
        for k in set(kinds) - {b"IDAT", b"IEND"}:
            self.assertLess(kinds.index(k), first_idat, f"{k!r} after the image data")


if __name__ == "__main__":
    unittest.main()

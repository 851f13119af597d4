"""The TIFF codec (core/io/tiff-encode.c, tiff-decode.c): strips compressed in parallel by
libtiff's own codec (LZW with the horizontal predictor) and put into the file in order, and
strips or tiles decoded in parallel, each thread through a handle of its own. Lumen's files
must decode to the exact pixels given in OpenCV, Pillow and Lumen itself, for every layout
(gray, gray + alpha, RGB, RGBA; 8 and 16 bits) with a last strip shorter than the others, and
the bytes must not depend on the number of threads; files of other writers in strips and in
tiles (libtiff through ctypes, Pillow, OpenCV) must decode as OpenCV's imread decodes them; a
strip cut short is an error naming the file. Orientation turns every reading path alike; float
samples are radiance; samples Lumen would misread are refused by name, and strip or tile tables
shorter than the image as damaged. Inputs are a real photo (chelsea.png) resized, with 16-bit
low bytes and an alpha ramp made from it."""
import ctypes
import ctypes.util
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

import cv2
import numpy as np
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402
import pixel_layouts  # noqa: E402


def layouts(width, height):
    return pixel_layouts.layouts(width, height, 17)


def to_rgb(pixels):
    """OpenCV's order to the file's (RGB(A))."""
    if pixels.ndim == 2:
        return pixels
    return pixels[..., [2, 1, 0, 3][:pixels.shape[2]]]


class LibTiff:
    """libtiff itself through ctypes: a writer of strips and tiles with the layout asked for."""

    def __init__(self):
        name = ctypes.util.find_library("tiff") or "libtiff.so.6"
        self.lib = ctypes.CDLL(name)
        self.lib.TIFFOpen.restype = ctypes.c_void_p
        self.lib.TIFFOpen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        self.lib.TIFFClose.argtypes = [ctypes.c_void_p]
        for f in ("TIFFWriteEncodedStrip", "TIFFWriteEncodedTile"):
            getattr(self.lib, f).argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_ssize_t]
            getattr(self.lib, f).restype = ctypes.c_ssize_t

    def write(self, path, rgb, compression=5, predictor=2, tile=None, rows_per_strip=None,
              extra=None, orientation=1, photometric=None, planar=1, colormap=None, sample_format=1):
        """RGB (H×W×C or H×W, of any numpy type: its width is BitsPerSample) into PATH in strips
        of ROWS_PER_STRIP rows or tiles of TILE = (width, height); EXTRA: the ExtraSamples value
        of a last channel; PLANAR 2 stores each channel in strips of its own; COLORMAP: the
        3 × 2^bits uint16 of a palette image (photometric 3)."""
        h, w = rgb.shape[:2]
        c = 1 if rgb.ndim == 2 else rgb.shape[2]
        tif = self.lib.TIFFOpen(path.encode(), b"w")
        assert tif, "TIFFOpen failed"
        s = lambda tag, *v: self.lib.TIFFSetField(ctypes.c_void_p(tif), ctypes.c_uint32(tag), *v)
        i = ctypes.c_int
        s(256, ctypes.c_uint32(w))
        s(257, ctypes.c_uint32(h))
        s(258, i(8 * rgb.itemsize))
        s(277, i(c))
        s(262, i(photometric if photometric is not None else 1 if c <= 2 else 2))
        s(284, i(planar))
        s(274, i(orientation))
        s(259, i(compression))
        s(339, i(sample_format))
        if predictor != 1:
            s(317, i(predictor))
        if extra is not None:
            values = (ctypes.c_uint16 * 1)(extra)
            s(338, i(1), values)
        if colormap is not None:
            maps = [np.ascontiguousarray(m, np.uint16) for m in colormap]
            s(320, *(m.ctypes.data_as(ctypes.c_void_p) for m in maps))
        px = np.ascontiguousarray(rgb.reshape(h, w, c))
        planes = [px] if planar == 1 else [np.ascontiguousarray(px[..., k:k + 1]) for k in range(c)]
        if tile is None:
            rps = rows_per_strip or h
            s(278, ctypes.c_uint32(rps))
            per_plane = (h + rps - 1) // rps
            for p, plane in enumerate(planes):
                for k, y in enumerate(range(0, h, rps)):
                    part = np.ascontiguousarray(plane[y:y + rps])
                    n = self.lib.TIFFWriteEncodedStrip(tif, p * per_plane + k, part.ctypes.data, part.nbytes)
                    assert n >= 0, "TIFFWriteEncodedStrip failed"
        else:
            assert planar == 1
            tw, th = tile
            s(322, ctypes.c_uint32(tw))
            s(323, ctypes.c_uint32(th))
            across = (w + tw - 1) // tw
            for ty in range(0, h, th):
                for tx in range(0, w, tw):
                    part = np.zeros((th, tw, c), px.dtype)
                    block = px[ty:ty + th, tx:tx + tw]
                    part[:block.shape[0], :block.shape[1]] = block
                    k = (ty // th) * across + tx // tw
                    n = self.lib.TIFFWriteEncodedTile(tif, k, part.ctypes.data, part.nbytes)
                    assert n >= 0, "TIFFWriteEncodedTile failed"
        self.lib.TIFFClose(ctypes.c_void_p(tif))


def upright(stored, orientation):
    """What TIFF's ORIENTATION (EXIF's meaning) shows of the STORED pixels: numpy's own turns."""
    return np.ascontiguousarray({
        1: stored, 2: stored[:, ::-1], 3: stored[::-1, ::-1], 4: stored[::-1],
        5: stored.swapaxes(0, 1), 6: np.rot90(stored, -1), 7: np.rot90(stored, -1)[::-1], 8: np.rot90(stored, 1),
    }[orientation])


def with_entry(tiff, tag, count=None, value=None):
    """The little-endian TIFF file TIFF (bytes) with the entry of TAG in its first IFD given
    another COUNT (its values stay where they were) or an inline VALUE (a SHORT)."""
    data = bytearray(tiff)
    assert bytes(data[:4]) == b"II*\0"
    (ifd,) = struct.unpack_from("<I", data, 4)
    (n,) = struct.unpack_from("<H", data, ifd)
    for k in range(n):
        at = ifd + 2 + 12 * k
        if struct.unpack_from("<H", data, at)[0] == tag:
            if count is not None:
                struct.pack_into("<I", data, at + 4, count)
            if value is not None:
                struct.pack_into("<H", data, at + 8, value)
            return bytes(data)
    raise AssertionError(f"no tag {tag}")


class TiffCodec(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="lumen-tiff-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def lumen(self, src, out, threads=None):
        env = dict(os.environ, LC_ALL="C.UTF-8")
        if threads is not None:
            env["OMP_NUM_THREADS"] = str(threads)
        proc = subprocess.run([lt.lumen_cli(), "-o", out, src], capture_output=True, text=True,
                              env=env, timeout=120)
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        return out

    def encode(self, name, pixels, threads=None):
        src = self.path(name + ".src.png")
        self.assertTrue(cv2.imwrite(src, pixels))
        return self.lumen(src, self.path(f"{name}.{threads}.tif"), threads)

    def decoded_by_lumen(self, tif, name):
        """TIF through Lumen's decoder, written as PNG (lossless, every depth) and read back."""
        return lt.imread(self.lumen(tif, self.path(name + ".back.png")))

    def assert_same(self, got, want, what):
        self.assertEqual(got.dtype, want.dtype, what)
        self.assertEqual(got.shape, want.shape, what)
        self.assertEqual(lt.diff(got, want)[2], 0, f"{what}: other pixels")

    def check_readers(self, out, pixels, name):
        # Lumen's own decoder, byte-exact.
        self.assert_same(self.decoded_by_lumen(out, name), pixels, f"{name}: Lumen reading its file")
        # OpenCV reads 4-channel TIFFs through libtiff's RGBA interface, which premultiplies
        # straight alpha: the colour is checked without it.
        got = lt.imread(out)
        if name.startswith("rgba"):
            self.assertEqual(got.shape[:2], pixels.shape[:2], name)
            self.assert_same(got[..., 3], pixels[..., 3] if name == "rgba8" else (pixels[..., 3] >> 8).astype(np.uint8)
                             if got.dtype == np.uint8 else pixels[..., 3], f"{name}: OpenCV's alpha")
        else:
            self.assert_same(got, pixels, f"{name}: OpenCV")
        with Image.open(out) as im:
            if name in ("gray8", "rgb8", "rgba8"):
                self.assert_same(np.asarray(im), to_rgb(pixels), f"{name}: Pillow")
            elif name == "gray16":
                self.assert_same(np.asarray(im).astype(np.uint16), pixels, f"{name}: Pillow")
            else:
                im.load()  # Pillow reduces 16-bit colour: decoding it through is the check
        tiffinfo = shutil.which("tiffinfo")
        if tiffinfo:
            proc = subprocess.run([tiffinfo, "-D", out], capture_output=True, text=True, timeout=60)
            self.assertEqual(proc.returncode, 0, lt.describe(proc))
            self.assertEqual(proc.stderr.strip(), "", f"{name}: tiffinfo warns")

    def test_every_layout_round_trips(self):
        # 333×517: an odd height, so that the last strip is short; the wider layouts need
        # several jobs of 1 MiB of rows.
        for name, pixels in layouts(333, 517).items():
            with self.subTest(layout=name):
                out = self.encode(name, pixels)
                with Image.open(out) as im:
                    strips = im.tag_v2.get(273)
                    self.assertGreater(len(strips), 1, f"{name}: one strip")
                    self.assertEqual(im.tag_v2.get(259), 5, f"{name}: not LZW")
                    self.assertEqual(im.tag_v2.get(317), 2, f"{name}: no horizontal predictor")
                self.check_readers(out, pixels, name)

    def test_bytes_do_not_depend_on_threads(self):
        # 1000×701 RGB16: 4.2 MB of rows, 5 jobs of 1 MiB: two waves on one thread (4 jobs a
        # thread), one on three.
        pixels = layouts(1000, 701)["rgb16"]
        outs = [self.encode("threads", pixels, threads=t) for t in (1, 3)]
        self.assertEqual(lt.read_bytes(outs[0]), lt.read_bytes(outs[1]), "1 and 3 threads write other bytes")
        self.assert_same(self.decoded_by_lumen(outs[0], "threads"), pixels, "Lumen reading its file")

    def test_files_of_other_writers(self):
        """Strips and tiles of libtiff, Pillow and OpenCV decoded as OpenCV's imread decodes
        them (4-channel files: their alpha, and the colour through Pillow where it can)."""
        lib = LibTiff()
        ly = layouts(203, 157)
        cases = {
            "libtiff lzw strips of 10 rows rgb8": (ly["rgb8"], dict(rows_per_strip=10)),
            "libtiff deflate strips of 7 rows rgb16": (ly["rgb16"], dict(compression=8, rows_per_strip=7)),
            "libtiff uncompressed strips gray16": (ly["gray16"], dict(compression=1, predictor=1, rows_per_strip=3)),
            "libtiff lzw tiles of 64×32 rgb8": (ly["rgb8"], dict(tile=(64, 32))),
            "libtiff deflate tiles of 32×48 rgb16": (ly["rgb16"], dict(compression=8, tile=(32, 48))),
            "libtiff tiles of 16×16 gray8": (ly["gray8"], dict(compression=1, predictor=1, tile=(16, 16))),
            "libtiff lzw tiles rgba8 straight alpha": (ly["rgba8"], dict(tile=(48, 64), extra=2)),
        }
        for name, (pixels, kw) in cases.items():
            with self.subTest(case=name):
                path = self.path(name.replace(" ", "-").replace("×", "x") + ".tif")
                lib.write(path, to_rgb(pixels), **kw)
                got = self.decoded_by_lumen(path, "other")
                if pixels.ndim == 3 and pixels.shape[2] == 4:
                    self.assert_same(got, pixels, name)  # straight alpha stays straight
                else:
                    self.assert_same(got, lt.imread(path), name + ": against OpenCV")
                    self.assert_same(got, pixels, name)
        # Pillow's and OpenCV's own strips.
        pil = self.path("pillow.tif")
        Image.fromarray(to_rgb(ly["rgb8"])).save(pil, compression="tiff_lzw")
        self.assert_same(self.decoded_by_lumen(pil, "pillow"), lt.imread(pil), "Pillow's LZW")
        ocv = self.path("opencv.tif")
        self.assertTrue(cv2.imwrite(ocv, ly["rgb16"], [cv2.IMWRITE_TIFF_COMPRESSION, 8]))
        self.assert_same(self.decoded_by_lumen(ocv, "opencv"), lt.imread(ocv), "OpenCV's deflate")

    def test_orientation_of_tiles(self):
        """Orientation 6 (rotate 90° clockwise to view) applied to a tiled file's pixels."""
        pixels = layouts(150, 97)["rgb8"]
        path = self.path("oriented.tif")
        LibTiff().write(path, to_rgb(pixels), tile=(32, 32), orientation=6)
        self.assert_same(self.decoded_by_lumen(path, "oriented"), np.ascontiguousarray(np.rot90(pixels, -1)),
                         "orientation 6")

    def test_strip_cut_short(self):
        """A multi-strip file whose middle strip runs past the end of the file (its offset
        moved so): exit 1, a message naming the file, no output."""
        pixels = layouts(400, 300)["rgb8"]
        whole = self.path("whole.tif")
        LibTiff().write(whole, to_rgb(pixels), compression=1, predictor=1, rows_per_strip=16)
        data = bytearray(lt.read_bytes(whole))
        self.assertEqual(bytes(data[:4]), b"II*\0")
        (ifd,) = struct.unpack("<I", data[4:8])
        (n,) = struct.unpack("<H", data[ifd:ifd + 2])
        entries = {}
        for k in range(n):
            tag, kind, count, value = struct.unpack("<HHII", data[ifd + 2 + 12 * k:][:12])
            entries[tag] = (kind, count, value)
        kind, count, offsets = entries[273]
        self.assertEqual((kind, count), (4, 19), "StripOffsets: 19 LONGs")
        middle = offsets + 4 * 9
        struct.pack_into("<I", data, middle, len(data) - 400 * 3 * 16 // 2)
        cut = self.path("cut.tif")
        with open(cut, "wb") as f:
            f.write(data)
        out = self.path("cut.png")
        proc = lt.run(["-o", out, cut])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn("cut.tif", proc.stderr)
        self.assertRegex(proc.stderr.lower(), "read error|truncated|damaged")
        self.assertFalse(os.path.exists(out), "an output of a damaged file")


    def test_orientation_on_every_path(self):
        """Each of the 8 orientations turns the picture upright on each reading path: palette
        and separate planes (libtiff's RGBA reader), 8-bit gray in strips (read in pieces),
        16-bit RGB in one strip (row by row); the truth is numpy's turn of the stored pixels."""
        lib = LibTiff()
        ly = layouts(23, 17)
        index = ly["gray8"]
        # 16-bit entries whose high byte is the colour: libtiff's RGBA reader takes that byte.
        colormap = np.stack([np.arange(256), 255 - np.arange(256), (np.arange(256) * 7) % 256]).astype(np.uint16)
        palette_bgr = colormap[::-1].T[index].astype(np.uint8)
        cases = {
            "palette": (index, palette_bgr, dict(photometric=3, colormap=colormap * 257, rows_per_strip=5)),
            "planar": (to_rgb(ly["rgb8"]), ly["rgb8"], dict(planar=2, rows_per_strip=4)),
            "gray8 strips": (ly["gray8"], ly["gray8"], dict(rows_per_strip=3)),
            "rgb16 one strip": (to_rgb(ly["rgb16"]), ly["rgb16"], dict(compression=8)),
        }
        for name, (stored, shown, kw) in cases.items():
            for orientation in range(1, 9):
                with self.subTest(layout=name, orientation=orientation):
                    path = self.path(f"{name.replace(' ', '-')}-{orientation}.tif")
                    lib.write(path, stored, orientation=orientation, **kw)
                    got = self.decoded_by_lumen(path, "turned")
                    self.assert_same(got, upright(shown, orientation), f"{name}, orientation {orientation}")

    def test_float_samples_are_radiance(self):
        """Float TIFFs (halves, floats, doubles; gray and RGB(A); Pillow's and libtiff's) load
        as linear radiance, which lumen-cli's photo operations refuse as they refuse a .hdr:
        never integers read from the floats' bytes (their values: tests/unit/test-io16.c).
        OpenCV's float TIFFs are LogLuv, whose SampleFormat describes the codec's encoding:
        libtiff still turns those into 8-bit RGB, with lumen-cli's note saying so."""
        lib = LibTiff()
        rgb = layouts(31, 19)["rgb8"].astype(np.float32) / 64.0
        files = {"pillow-gray.tif": self.path("pillow-gray.tif")}
        Image.fromarray(rgb[..., 1]).save(files["pillow-gray.tif"])
        for name, pixels, kw in (("half-rgb.tif", to_rgb(rgb).astype(np.float16), dict(rows_per_strip=4)),
                                 ("half-gray-alpha.tif", np.dstack([rgb[..., 0], rgb[..., 2] / 4]).astype(np.float16),
                                  dict(compression=8, predictor=1, extra=2)),
                                 ("float-rgba-tiles.tif", np.dstack([to_rgb(rgb), rgb[..., 0] / 4]),
                                  dict(tile=(16, 16), compression=8, predictor=3, extra=1)),
                                 ("double-gray.tif", rgb[..., 0].astype(np.float64), dict(predictor=1))):
            files[name] = self.path(name)
            lib.write(files[name], pixels, sample_format=3, **kw)
        for name, path in files.items():
            with self.subTest(name):
                if "half" not in name:  # OpenCV 4.6 reads no halves
                    self.assertEqual(lt.imread(path).dtype.kind, "f", f"{name}: not floats to OpenCV")
                out = self.path(name + ".png")
                proc = lt.run(["-o", out, path])
                self.assertEqual(proc.returncode, 1, lt.describe(proc))
                self.assertIn(f"{path}: is an HDR radiance map", proc.stderr)
                self.assertFalse(os.path.exists(out))
        luv = self.path("opencv-logluv.tif")
        self.assertTrue(cv2.imwrite(luv, rgb))
        proc = lt.run(["-o", self.path("logluv.png"), luv])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertIn("Lumen reads this kind of file as 8 bits", proc.stderr)

    def test_sample_formats_refused_by_name(self):
        """Signed, complex, 24-bit float and float layouts Lumen does not read are refused with
        their cause, exit 1, no output: not read as unsigned integers."""
        lib = LibTiff()
        gray = layouts(20, 12)["gray8"]
        rgb = to_rgb(layouts(20, 12)["rgb8"])
        cases = {
            "signed16.tif": (gray.astype(np.int16) - 128, dict(sample_format=2), "signed samples are not supported"),
            "signed8-rgb.tif": (rgb.astype(np.int8), dict(sample_format=2), "signed samples are not supported"),
            "signed16-planar.tif": (rgb.astype(np.int16), dict(sample_format=2, planar=2),
                                    "signed samples are not supported"),
            "complex.tif": (gray.astype(np.complex64), dict(sample_format=6, predictor=1, compression=1),
                            "complex samples are not supported"),
            "float24.tif": (np.dstack([gray, gray, gray]).astype(np.uint8), dict(sample_format=3, predictor=1),
                            "24-bit floating-point samples are not supported"),
            "float-planar.tif": (rgb.astype(np.float32), dict(sample_format=3, planar=2, predictor=1),
                                 "floating-point samples in separate planes are not supported"),
            "float-white-is-zero.tif": (gray.astype(np.float32), dict(sample_format=3, predictor=1, photometric=0),
                                       "floating-point samples are supported in gray and RGB images"),
        }
        for name, (pixels, kw, cause) in cases.items():
            with self.subTest(name):
                path = self.path(name)
                lib.write(path, pixels, **kw)
                if name == "float24.tif":  # written as 8-bit RGB, then said to be 24-bit gray
                    data = with_entry(lt.read_bytes(path), 277, value=1)
                    data = with_entry(with_entry(data, 262, value=1), 258, count=1, value=24)
                    with open(path, "wb") as f:
                        f.write(data)
                out = self.path(name + ".png")
                proc = lt.run(["-o", out, path])
                self.assertEqual(proc.returncode, 1, lt.describe(proc))
                line = proc.stderr.strip()
                self.assertEqual(len(line.splitlines()), 1, line)
                self.assertIn(f"{path}: {cause}", line)
                self.assertFalse(os.path.exists(out))

    def test_short_strip_and_tile_tables(self):
        """A StripOffsets, StripByteCounts, TileOffsets or TileByteCounts with fewer entries than
        the image has strips or tiles (libtiff pads it with zeros, which would read rows from
        the file's header) is refused as damaged, naming the file and the table, on every
        reading path: strips in pieces, one strip row by row, tiles, the RGBA reader."""
        lib = LibTiff()
        ly = layouts(40, 30)
        palette = np.stack([np.arange(256)] * 3).astype(np.uint16) * 257
        sources = {
            "pieces": (to_rgb(ly["rgb8"]), dict(rows_per_strip=4)),  # 8 strips
            "one strip": (ly["gray8"], dict()),
            "tiles": (to_rgb(ly["rgb16"]), dict(tile=(16, 16))),  # 3 × 2 tiles
            "rgba reader": (ly["gray8"], dict(photometric=3, colormap=palette, rows_per_strip=4)),
        }
        cases = [("pieces", 273, 5, "StripOffsets"), ("pieces", 279, 5, "StripByteCounts"),
                 ("one strip", 273, 0, "StripOffsets"), ("tiles", 324, 4, "TileOffsets"),
                 ("tiles", 325, 3, "TileByteCounts"), ("rgba reader", 273, 6, "StripOffsets")]
        for source, tag, count, name in cases:
            with self.subTest(source=source, table=name):
                pixels, kw = sources[source]
                whole = self.path(source.replace(" ", "-") + ".tif")
                lib.write(whole, pixels, compression=1, predictor=1, **kw)
                lt.run_ok(self, ["-o", self.path("whole.png"), whole])
                short = self.path(f"short-{source.replace(' ', '-')}-{name}.tif")
                with open(short, "wb") as f:
                    f.write(with_entry(lt.read_bytes(whole), tag, count=count))
                out = self.path("short.png")
                proc = lt.run(["-o", out, short])
                self.assertEqual(proc.returncode, 1, lt.describe(proc))
                line = proc.stderr.strip()
                self.assertEqual(len(line.splitlines()), 1, line)
                self.assertIn(os.path.basename(short), line)
                self.assertRegex(line, f"damaged: its {name} give nothing for (strip|tile) {count + 1} of")
                self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()

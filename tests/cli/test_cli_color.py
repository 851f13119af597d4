"""lumen-cli and ICC profiles: --to-srgb against Pillow's ImageCms (lcms2 driven by another
program) on Adobe RGB and ProPhoto RGB photos; the source's profile kept byte for byte without
it; the operations that use the photo's primaries (luminosity, exposure, white balance) against
the published colorimetry of Adobe RGB (1998) and ProPhoto RGB; and sRGB photos computed by
sRGB's formulas, as before profiles were read.

The photos are made at test time from tests/data with Pillow, the profiles are colord's
(colord-data). Expected values are written out here, never taken from an earlier run.
"""
import ctypes
import ctypes.util
import io
import math
import os
import re
import struct
import sys
import tempfile
import time
import unittest
import zlib

import cv2
import numpy as np

try:
    from PIL import Image, ImageCms
except ImportError:  # pragma: no cover - the Makefile installs python3-pil
    Image = ImageCms = None

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

COLORD = "/usr/share/color/icc/colord"
PHOTO = os.path.join(lt.photos_dir(), "chelsea.png")  # 451 × 300 colour, no profile
ADOBE_GAMMA = 563.0 / 256.0

# Adobe RGB (1998) Color Image Encoding 4.3.4.1: linear RGB → XYZ (D65); row Y.
ADOBE_M = np.array([[0.57667, 0.18556, 0.18823],
                    [0.29734, 0.62736, 0.07529],
                    [0.02703, 0.07069, 0.99134]])
# ProPhoto RGB (ROMM RGB): the luminances of its primaries.
PROPHOTO_Y = np.array([0.2880402, 0.7118741, 0.0000857])


def icc(name):
    path = os.path.join(COLORD, name)
    if not os.path.exists(path):
        raise unittest.SkipTest(f"{path} is missing (apt-get install colord-data)")
    with open(path, "rb") as f:
        return f.read()


def load(path):
    """The image at PATH, read whole and its file closed."""
    with Image.open(path) as img:
        img.load()
        return img


def srgb_decode(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def srgb_encode(l):
    return np.where(l <= 0.0031308, l * 12.92, 1.055 * np.maximum(l, 0) ** (1 / 2.4) - 0.055)


def assert_rounds(test, exact, got, label):
    """GOT (8-bit) is EXACT (float, before rounding) rounded half up, clipped to 0..255, except
    where EXACT lies within 10⁻³ of a half (then either neighbour)."""
    exact = np.clip(exact, 0, 255)
    near_half = np.abs(exact - np.floor(exact) - 0.5) < 1e-3
    want = np.floor(exact + 0.5)
    bad = (got != want) & ~near_half
    test.assertFalse(bad.any(), f"{label}: {int(bad.sum())} values differ, e.g. exact "
                     f"{exact[bad][:5]} got {got[bad][:5]}")


def lcms2():
    """lcms2 through ctypes, or None where it cannot be loaded."""
    name = ctypes.util.find_library("lcms2")
    if name is None:
        return None
    lib = ctypes.CDLL(name)
    lib.cmsOpenProfileFromMem.restype = ctypes.c_void_p
    lib.cmsOpenProfileFromMem.argtypes = [ctypes.c_char_p, ctypes.c_uint32]
    lib.cmsCreate_sRGBProfile.restype = ctypes.c_void_p
    lib.cmsCreateTransform.restype = ctypes.c_void_p
    lib.cmsCreateTransform.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32,
                                       ctypes.c_uint32, ctypes.c_uint32]
    lib.cmsDoTransform.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32]
    lib.cmsDeleteTransform.argtypes = [ctypes.c_void_p]
    lib.cmsCloseProfile.argtypes = [ctypes.c_void_p]
    return lib


# lcms2.h: FLOAT_SH(1) | COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | BYTES_SH(0)
TYPE_RGB_DBL = (1 << 22) | (4 << 16) | (3 << 3)
INTENT_PERCEPTUAL, CMS_FLAGS_NOOPTIMIZE = 0, 0x0100


def exact_to_srgb(profile, rgb):
    """RGB (floats 0…1, N × 3) from PROFILE to sRGB in double precision, lcms2's pipeline
    evaluated as it stands (no optimisation into tables), clipped to 0…1."""
    lib = lcms2()
    if lib is None:
        raise unittest.SkipTest("lcms2 cannot be loaded through ctypes")
    src = lib.cmsOpenProfileFromMem(profile, len(profile))
    dst = lib.cmsCreate_sRGBProfile()
    t = lib.cmsCreateTransform(src, TYPE_RGB_DBL, dst, TYPE_RGB_DBL, INTENT_PERCEPTUAL, CMS_FLAGS_NOOPTIMIZE)
    lib.cmsCloseProfile(src)
    lib.cmsCloseProfile(dst)
    if not t:
        raise AssertionError("lcms2 made no transform")
    inp = np.ascontiguousarray(rgb, dtype=np.float64)
    out = np.empty_like(inp)
    lib.cmsDoTransform(t, inp.ctypes.data, out.ctypes.data, len(inp))
    lib.cmsDeleteTransform(t)
    return np.clip(out, 0.0, 1.0)


def png16_with_profile(path, rgb16, profile):
    """RGB16 (H × W × 3 uint16) as a 16-bit PNG with PROFILE in its iCCP chunk (Pillow writes no
    16-bit colour PNG)."""
    h, w, _ = rgb16.shape
    rows = b"".join(b"\0" + rgb16[y].astype(">u2").tobytes() for y in range(h))
    data = (b"\x89PNG\r\n\x1a\n" + lt.png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0))
            + lt.png_chunk(b"iCCP", b"profile\0\0" + zlib.compress(profile))
            + lt.png_chunk(b"IDAT", zlib.compress(rows)) + lt.png_chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(data)


def dark_saturated_grid():
    """Every combination of 20 levels per channel, dense in the darks (0 … 1/16 of the range):
    the dark saturated colours where a table-based transform is worst, 100 × 80 pixels."""
    levels = np.array([0, 16, 64, 128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288,
                       16384, 24576, 32768, 49152, 65535], np.uint16)
    r, g, b = np.meshgrid(levels, levels, levels, indexing="ij")
    return np.stack([r.ravel(), g.ravel(), b.ravel()], axis=1).reshape(80, 100, 3)


@unittest.skipIf(Image is None, "Pillow (python3-pil) is not installed")
class ColourCli(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-colour-")
        self.addCleanup(self._tmp.cleanup)
        self.dir = self._tmp.name

    def path(self, name):
        return os.path.join(self.dir, name)

    def tagged(self, profile, name="in.png", pixels=None):
        """The photo (or PIXELS, uint8 H × W × 3) saved as NAME with PROFILE's bytes embedded."""
        img = load(PHOTO).convert("RGB") if pixels is None else Image.fromarray(pixels, "RGB")
        data = icc(profile) if profile else None
        out = self.path(name)
        if data:
            img.save(out, icc_profile=data)
        else:
            img.save(out)
        return out, img, data

    def cli(self, src, out_name, *flags):
        out = self.path(out_name)
        lt.run_ok(self, list(flags) + ["-o", out, src])
        return out

    def test_to_srgb_matches_pillow(self):
        """--to-srgb: within 1 of ImageCms.profileToProfile (perceptual) from the embedded
        profile to sRGB, PNG and TIFF; the output carries an sRGB profile; the values did move
        (a conversion that does nothing fails)."""
        srgb = ImageCms.createProfile("sRGB")
        for profile in ["AdobeRGB1998.icc", "ProPhotoRGB.icc"]:
            src, img, data = self.tagged(profile)
            want = np.asarray(ImageCms.profileToProfile(img, ImageCms.ImageCmsProfile(io.BytesIO(data)), srgb,
                                                        renderingIntent=0)).astype(int)
            for ext in ["png", "tif"]:
                with self.subTest(profile=profile, ext=ext):
                    out = load(self.cli(src, "srgb." + ext, "--to-srgb"))
                    got = np.asarray(out.convert("RGB")).astype(int)
                    self.assertLessEqual(int(np.abs(got - want).max()), 1)
                    self.assertGreater(int(np.abs(got - np.asarray(img).astype(int)).max()), 10)
                    embedded = out.info.get("icc_profile")
                    self.assertTrue(embedded, "no ICC profile in the output")
                    self.assertNotEqual(embedded, data)
                    desc = ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(embedded)))
                    self.assertIn("sRGB", desc)
        # A JPEG output is converted too (its pixels are the encoder's; the profile tells).
        out = load(self.cli(src, "srgb.jpg", "--to-srgb"))
        self.assertIn("sRGB", ImageCms.getProfileDescription(
            ImageCms.ImageCmsProfile(io.BytesIO(out.info["icc_profile"]))))

    def test_to_srgb_16_bit_is_exact(self):
        """--to-srgb of 16-bit ProPhoto and Adobe RGB PNGs and TIFFs, dark saturated colours among
        them: no further from lcms2's double-precision transform (no optimisation) than the
        8-bit path is on the same colours, nor than 0.7 8-bit level (the 8-bit path's bound
        elsewhere). lcms2's optimised 16-bit transform (a 3-D table) was 8 levels off on this
        grid in ProPhoto, 1.6 in Adobe RGB."""
        grid = dark_saturated_grid()
        for profile in ["ProPhotoRGB.icc", "AdobeRGB1998.icc"]:
            data = icc(profile)
            src16 = self.path("grid16.png")
            png16_with_profile(src16, grid, data)
            exact16 = exact_to_srgb(data, grid.reshape(-1, 3) / 65535.0).reshape(grid.shape) * 255.0
            grid8 = np.floor(grid / 257.0 + 0.5).astype(np.uint8)
            src8, _, _ = self.tagged(profile, "grid8.png", grid8)
            exact8 = exact_to_srgb(data, grid8.reshape(-1, 3) / 255.0).reshape(grid.shape) * 255.0
            got8 = cv2.imread(self.cli(src8, "srgb8.png", "--to-srgb"), cv2.IMREAD_UNCHANGED)[..., 2::-1]
            error8 = float(np.abs(got8 - exact8).max())
            lt.say(f"{profile}: 8-bit path within {error8:.3f} level")
            for ext in ["png", "tif"]:
                with self.subTest(profile=profile, ext=ext):
                    out = cv2.imread(self.cli(src16, "srgb16." + ext, "--to-srgb"), cv2.IMREAD_UNCHANGED)
                    self.assertEqual(out.dtype, np.uint16)
                    got = out[..., 2::-1] / 257.0
                    error = np.abs(got - exact16)
                    worst = np.unravel_index(int(np.argmax(error)), error.shape)
                    lt.say(f"{profile} {ext}: 16-bit path within {float(error.max()):.3f} level")
                    self.assertLessEqual(float(error.max()), min(error8, 0.7),
                                         f"source {grid[worst[:2]]}: exact {exact16[worst[:2]]}, got {got[worst[:2]]}")

    def test_to_srgb_same_bytes_every_time(self):
        """Two --to-srgb exports of one photo, seconds apart (two processes), are the same
        bytes: the sRGB profile embedded carries no time of its own making (lcms2 stamps the
        time it made the profile, which made the GPU's and the CPU's writers' files differ)."""
        src, _, _ = self.tagged("AdobeRGB1998.icc")
        for ext in ["png", "tif", "jpg"]:
            with self.subTest(ext=ext):
                first = lt.read_bytes(self.cli(src, "first." + ext, "--to-srgb"))
                time.sleep(1.1)
                self.assertEqual(lt.read_bytes(self.cli(src, "second." + ext, "--to-srgb")), first)

    def test_to_srgb_untagged_photo(self):
        """A photo without a profile is sRGB already: the pixels stay, an sRGB profile comes."""
        src, img, _ = self.tagged(None)
        out = load(self.cli(src, "untagged.png", "--to-srgb"))
        self.assertEqual(np.abs(np.asarray(out.convert("RGB")).astype(int) - np.asarray(img).astype(int)).max(), 0)
        self.assertIn("icc_profile", out.info)

    def test_profile_kept_by_default(self):
        """Without --to-srgb, PNG, TIFF and JPEG outputs carry the source's profile, byte for
        byte, edited or not, and the values are the source's where nothing is edited."""
        src, img, data = self.tagged("AdobeRGB1998.icc")
        for ext in ["png", "tif", "jpg"]:
            for flags in [[], ["--exposure", "0.5"]]:
                with self.subTest(ext=ext, flags=flags):
                    out = load(self.cli(src, "kept." + ext, *flags))
                    self.assertEqual(out.info.get("icc_profile"), data)
                    if not flags and ext != "jpg":
                        self.assertEqual(np.abs(np.asarray(out.convert("RGB")).astype(int)
                                                - np.asarray(img).astype(int)).max(), 0)

    def test_luminosity_uses_the_primaries(self):
        """--gray luminosity on Adobe RGB and ProPhoto RGB photos weighs R, G, B with the
        luminances of their primaries (the specifications' figures: within a level where the
        sum lies near a half), not BT.709's, which would differ on most pixels."""
        for profile, weights in [("AdobeRGB1998.icc", ADOBE_M[1]), ("ProPhotoRGB.icc", PROPHOTO_Y)]:
            with self.subTest(profile=profile):
                src, img, _ = self.tagged(profile)
                got = np.asarray(load(self.cli(src, "gray.png", "--gray", "luminosity"))).astype(float)
                self.assertEqual(got.ndim, 2)
                rgb = np.asarray(img).astype(float)
                exact = rgb @ weights
                self.assertLess(float(np.abs(got - exact).max()), 0.56)
                bt709 = np.floor(rgb @ np.array([0.2126, 0.7152, 0.0722]) + 0.5)
                self.assertGreater(float(np.mean(got != bt709)), 0.3)

    def ramp(self):
        """Every 8-bit value in each channel, in differing orders: 16 × 16 × 3."""
        v = np.arange(256, dtype=np.uint8).reshape(16, 16)
        return np.dstack([v, 255 - v, v.T]).copy()

    def test_exposure_adobe_rgb(self):
        """+1 EV on an Adobe RGB photo doubles the light decoded with its gamma 563/256."""
        pixels = self.ramp()
        src, _, _ = self.tagged("AdobeRGB1998.icc", pixels=pixels)
        got = lt.imread(self.cli(src, "ev.png", "--exposure", "1"))[..., ::-1].astype(float)
        v = pixels.astype(float) / 255.0
        exact = 255.0 * (2.0 * v ** ADOBE_GAMMA) ** (1.0 / ADOBE_GAMMA)
        assert_rounds(self, exact, got, "exposure +1 EV, Adobe RGB")

    def test_wb_adobe_rgb(self):
        """--wb 3200 on an Adobe RGB photo: the gains of 3200 K light's white (CIE daylight
        locus above 4000 K, Kim et al.'s Planckian fit below) in Adobe RGB's linear RGB, over
        those of 6500 K, normalised to Adobe RGB luminance 1, applied to the light decoded
        with gamma 563/256. Within a level (the specification's matrix against the
        profile's)."""
        def rgb(t):
            x, y = lt.illuminant_xy(t)
            return np.linalg.solve(ADOBE_M, np.array([x / y, 1.0, (1 - x - y) / y]))

        gains = rgb(6500) / rgb(3200)
        gains /= ADOBE_M[1] @ gains
        pixels = self.ramp()
        src, _, _ = self.tagged("AdobeRGB1998.icc", pixels=pixels)
        got = lt.imread(self.cli(src, "wb.png", "--wb", "3200"))[..., ::-1].astype(float)
        lin = (pixels.astype(float) / 255.0) ** ADOBE_GAMMA * gains
        exact = np.clip(255.0 * np.clip(lin, 0, None) ** (1.0 / ADOBE_GAMMA), 0, 255)
        self.assertLessEqual(float(np.abs(got - exact).max()), 1.0)
        # sRGB's matrix, weights and curve would miss by more than that.
        srgb_inv = np.array([[3.2404542, -1.5371385, -0.4985314], [-0.9692660, 1.8760108, 0.0415560],
                             [0.0556434, -0.2040259, 1.0572252]])

        def srgb_rgb(t):
            x, y = lt.illuminant_xy(t)
            return srgb_inv @ np.array([x / y, 1.0, (1 - x - y) / y])

        g = srgb_rgb(6500) / srgb_rgb(3200)
        g /= np.array([0.2126, 0.7152, 0.0722]) @ g
        as_srgb = 255.0 * srgb_encode(srgb_decode(pixels / 255.0) * g)
        self.assertGreater(float(np.abs(got - np.clip(as_srgb, 0, 255)).max()), 3.0)

    def test_srgb_photos_unchanged(self):
        """An sRGB-tagged photo (colord's sRGB.icc) is computed with sRGB's formulas, written
        out here: luminosity with BT.709's weights in single precision, +1 EV through the
        sRGB curve; and it gives the bytes of the same photo without a profile."""
        pixels = self.ramp()
        tagged, _, _ = self.tagged("sRGB.icc", name="srgb.png", pixels=pixels)
        plain, _, _ = self.tagged(None, name="plain.png", pixels=pixels)
        f = pixels.astype(np.float32)
        lum = (np.float32(0.2126) * f[..., 0] + np.float32(0.7152) * f[..., 1]) + np.float32(0.0722) * f[..., 2]
        got = lt.imread(self.cli(tagged, "lum.png", "--gray", "luminosity")).astype(float)
        assert_rounds(self, lum.astype(float), got, "luminosity, sRGB")
        got = lt.imread(self.cli(tagged, "ev.png", "--exposure", "1"))[..., ::-1].astype(float)
        exact = 255.0 * srgb_encode(2.0 * srgb_decode(pixels / 255.0))
        assert_rounds(self, exact, got, "exposure, sRGB")
        flags = ["--wb", "3200,10", "--exposure", "0.3", "--gray", "luminosity", "--gray-amount", "0.5"]
        a = lt.read_bytes(self.cli(tagged, "a.png", *flags))
        b = lt.read_bytes(self.cli(plain, "b.png", *flags))
        self.assertEqual(np.abs(lt.imread(self.path("a.png")).astype(int)
                                - lt.imread(self.path("b.png")).astype(int)).max(), 0, (len(a), len(b)))

    def test_unusable_profile_is_a_note(self):
        """A profile lcms2 cannot read: the photo is taken as sRGB, with a note naming it.
        (A TIFF: libpng drops such a profile itself.)"""
        src = self.path("junk.tif")
        Image.fromarray(self.ramp(), "RGB").save(src, icc_profile=b"not an ICC profile" * 10)
        out = self.path("junk-out.png")
        proc = lt.run(["--gray", "luminosity", "-o", out, src])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertIn("junk.tif", proc.stderr)
        self.assertIn("sRGB", proc.stderr)
        self.assertTrue(os.path.exists(out))


def padded(profile, size):
    """PROFILE grown to SIZE bytes past its tags, its header's size saying so: a profile lcms2
    and Pillow read, as large as a printer's tables make one."""
    data = bytearray(profile) + bytes(size - len(profile))
    data[0:4] = size.to_bytes(4, "big")
    return bytes(data)


def jpeg_with_app2(jpeg, payloads):
    """JPEG with APP2 segments of PAYLOADS inserted after SOI."""
    segments = b"".join(b"\xff\xe2" + (len(p) + 2).to_bytes(2, "big") + p for p in payloads)
    return jpeg[:2] + segments + jpeg[2:]


def embedded_profile(path):
    """The ICC profile a file carries (Pillow's reading of PNG, JPEG and TIFF), or None."""
    with Image.open(path) as img:
        return img.info.get("icc_profile") or (img.tag_v2.get(34675) if hasattr(img, "tag_v2") else None)


@unittest.skipIf(Image is None, "Pillow (python3-pil) is not installed")
class ProfileNotUsed(unittest.TestCase):
    """Whenever a profile is not used, stderr says so, naming the file; a profile lcms2 cannot
    read is never embedded in an export."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-profile-")
        self.addCleanup(self._tmp.cleanup)
        self.dir = self._tmp.name
        self.pixels = np.dstack([np.arange(48, dtype=np.uint8).reshape(6, 8) * 5] * 3).copy()

    def path(self, name):
        return os.path.join(self.dir, name)

    def notes(self, src, out, *flags):
        """Runs lumen-cli; checks it succeeded and wrote OUT; returns its stderr's lines."""
        proc = lt.run(list(flags) + ["-o", out, src])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertTrue(os.path.exists(out))
        return proc.stderr.splitlines()

    def test_profile_too_large_for_jpeg(self):
        """A 17 MB profile (a WebP source's) is more than JPEG's 255 APP2 chunks hold: the JPEG
        is written without it and stderr says so, naming the output; a PNG keeps it, silently."""
        big = padded(icc("AdobeRGB1998.icc"), 17_000_000)
        src = self.path("big-profile.webp")
        Image.fromarray(self.pixels, "RGB").save(src, lossless=True, icc_profile=big)
        out = self.path("out.jpg")
        lines = self.notes(src, out)
        self.assertEqual(len(lines), 1, lines)
        self.assertRegex(lines[0], r"^lumen-cli: note: .*out\.jpg: its ICC profile \(17\.0\sMB\) is larger "
                                   r"than a JPEG holds \(16\.7\sMB\).*sRGB")
        self.assertIsNone(embedded_profile(out))
        self.assertFalse(any(m == 0xE2 for m, _, _ in lt.jpeg_segments(lt.read_bytes(out))))
        png = self.path("out.png")
        self.assertEqual(self.notes(src, png), [])
        data = lt.read_bytes(png)  # Pillow refuses an iCCP chunk this large: read by hand
        at = data.index(b"iCCP")
        n = int.from_bytes(data[at - 4:at], "big")
        keyword_end = data.index(b"\0", at + 4)
        self.assertEqual(zlib.decompress(data[keyword_end + 2:at + 4 + n]), big)

    def test_profile_libpng_refuses(self):
        """An RGB PNG carrying a gray profile: libpng drops it; stderr says so and why."""
        gray = bytearray(icc("sRGB.icc"))
        gray[16:20] = b"GRAY"
        src = self.path("refused.png")
        Image.fromarray(self.pixels, "RGB").save(src, icc_profile=bytes(gray))
        out = self.path("refused-out.tif")
        lines = self.notes(src, out)
        self.assertEqual(len(lines), 1, lines)
        self.assertRegex(lines[0], r"^lumen-cli: note: .*refused\.png: its ICC profile was refused by libpng "
                                   r"\(.*Gray color space not permitted on RGB PNG\); colours are taken as sRGB$")
        self.assertIsNone(embedded_profile(out))

    def test_profile_chunks_libjpeg_refuses(self):
        """A JPEG whose profile's APP2 chunks say 1 of 2 and 1 of 2 again: libjpeg cannot put
        them together; stderr says so."""
        plain = self.path("plain.jpg")
        Image.fromarray(self.pixels, "RGB").save(plain, quality=95)
        profile = icc("AdobeRGB1998.icc")
        half = len(profile) // 2
        chunk = b"ICC_PROFILE\0\x01\x02"
        src = self.path("chunks.jpg")
        with open(src, "wb") as f:
            f.write(jpeg_with_app2(lt.read_bytes(plain), [chunk + profile[:half], chunk + profile[half:]]))
        out = self.path("chunks-out.png")
        lines = self.notes(src, out)
        self.assertEqual(len(lines), 1, lines)
        self.assertRegex(lines[0], r"^lumen-cli: note: .*chunks\.jpg: its ICC profile is damaged .*; colours are "
                                   r"taken as sRGB$")
        self.assertIsNone(embedded_profile(out))

    def test_unreadable_profile_never_embedded(self):
        """A profile lcms2 cannot read, in a WebP and in a JPEG: one note on stderr, and no
        export of the photo (PNG, JPEG, TIFF) carries it."""
        junk = b"not an ICC profile" * 20
        webp = self.path("junk.webp")
        Image.fromarray(self.pixels, "RGB").save(webp, lossless=True, icc_profile=junk)
        jpeg = self.path("junk.jpg")
        Image.fromarray(self.pixels, "RGB").save(jpeg, quality=95, icc_profile=junk)
        tiff = self.path("junk.tif")
        Image.fromarray(self.pixels, "RGB").save(tiff, icc_profile=junk)
        for src in (webp, jpeg, tiff):
            for ext in ("png", "jpg", "tif"):
                with self.subTest(source=os.path.basename(src), output=ext):
                    out = self.path("junk-out." + ext)
                    lines = self.notes(src, out, "--exposure", "0.2")
                    self.assertEqual(len(lines), 1, lines)
                    self.assertRegex(lines[0], r"^lumen-cli: note: .*%s: its ICC profile cannot be read; colours "
                                               r"are taken as sRGB$" % os.path.basename(src))
                    self.assertIsNone(embedded_profile(out))

    def test_profile_of_another_colour_space(self):
        """A CMYK profile on an RGB TIFF: lcms2 reads it, but it does not describe the pixels;
        it is left out with a note, not embedded in the export."""
        cmyk = bytearray(icc("sRGB.icc"))
        cmyk[16:20] = b"CMYK"
        src = self.path("cmyk-profile.tif")
        Image.fromarray(self.pixels, "RGB").save(src, icc_profile=bytes(cmyk))
        out = self.path("cmyk-out.png")
        lines = self.notes(src, out)
        self.assertEqual(len(lines), 1, lines)
        self.assertRegex(lines[0], r"^lumen-cli: note: .*cmyk-profile\.tif: its ICC profile describes neither RGB "
                                   r"nor gray data, and the pixels are read as RGB; colours are taken as sRGB$")
        self.assertIsNone(embedded_profile(out))

    def test_profile_of_the_other_channel_count(self):
        """An RGB profile on a gray JPEG and a gray TIFF, a gray one on an RGB TIFF: none
        describes the pixels as read. Each is said and left out of every export (a JPEG or TIFF
        export embedded Adobe RGB on gray pixels, and PNG's writer dropped it silently)."""
        gray_profile = bytearray(icc("sRGB.icc"))
        gray_profile[16:20] = b"GRAY"
        adobe = icc("AdobeRGB1998.icc")
        cases = (
            ("gray.jpg", "L", {"quality": 95, "icc_profile": adobe}, "describes RGB data, and the pixels are gray"),
            ("gray.tif", "L", {"icc_profile": adobe}, "describes RGB data, and the pixels are gray"),
            ("rgb.tif", "RGB", {"icc_profile": bytes(gray_profile)},
             "describes gray data, and the pixels are read as RGB"),
        )
        for name, mode, save, cause in cases:
            src = self.path(name)
            Image.fromarray(self.pixels[..., 0] if mode == "L" else self.pixels, mode).save(src, **save)
            for ext in ("png", "jpg", "tif"):
                with self.subTest(source=name, output=ext):
                    out = self.path(name.replace(".", "-") + "." + ext)
                    lines = self.notes(src, out)
                    self.assertEqual(len(lines), 1, lines)
                    self.assertRegex(lines[0], r"^lumen-cli: note: .*%s: its ICC profile %s; colours are taken as "
                                               r"sRGB$" % (re.escape(name), cause))
                    self.assertIsNone(embedded_profile(out))

    def test_readable_profile_travels_silently(self):
        """The profiles that are fine still travel from JPEG, PNG and WebP sources, with no note."""
        profile = icc("AdobeRGB1998.icc")
        for ext, kwargs in (("jpg", {"quality": 95}), ("png", {}), ("webp", {"lossless": True}), ("tif", {})):
            with self.subTest(source=ext):
                src = self.path("adobe." + ext)
                Image.fromarray(self.pixels, "RGB").save(src, icc_profile=profile, **kwargs)
                out = self.path("adobe-out.png")
                self.assertEqual(self.notes(src, out), [])
                self.assertEqual(embedded_profile(out), profile)

    def test_hdr_says_what_its_output_left_out(self):
        """lumen-cli hdr: the merge carries the first exposure's profile; a 17 MB one does not fit
        the JPEG written, and stderr says so as process does."""
        big = padded(icc("AdobeRGB1998.icc"), 17_000_000)
        srcs = []
        for k, level in enumerate((40, 110, 220)):
            src = self.path(f"exposure{k}.webp")
            Image.fromarray(np.full((12, 16, 3), level, np.uint8), "RGB").save(src, lossless=True, icc_profile=big)
            srcs.append(src)
        out = self.path("merged.jpg")
        proc = lt.run(["hdr", "--method", "mertens", "-o", out] + srcs)
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertRegex(proc.stderr, r"lumen-cli: note: .*merged\.jpg: its ICC profile \(17\.0\sMB\) is larger "
                                      r"than a JPEG holds")
        self.assertIsNone(embedded_profile(out))

    def test_hdr_says_which_exposure_lost_its_profile(self):
        """lumen-cli hdr names each exposure whose profile it could not use, as process does."""
        srcs = []
        for k, level in enumerate((40, 110, 220)):
            src = self.path(f"junk{k}.png")
            Image.fromarray(np.full((12, 16, 3), level, np.uint8), "RGB").save(src)
            srcs.append(src)
        tiff = self.path("junk1.tif")
        Image.fromarray(np.full((12, 16, 3), 110, np.uint8), "RGB").save(tiff, icc_profile=b"not a profile" * 20)
        srcs[1] = tiff
        out = self.path("merged.png")
        proc = lt.run(["hdr", "--method", "mertens", "-o", out] + srcs)
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertEqual(proc.stderr.splitlines(),
                         [f"lumen-cli: note: {tiff}: its ICC profile cannot be read; colours are taken as sRGB"])
        self.assertIsNone(embedded_profile(out))


if __name__ == "__main__":
    unittest.main()

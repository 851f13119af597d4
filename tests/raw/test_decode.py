"""What the raw loader (core/io/raw.c, LibRaw) reads: DNGs written here by dng.py with a known
truth (samples, every CFA phase, X-Trans, LinearRaw, monochrome, block black levels, white,
white balance, matrices, orientation, shooting data), and the Canon EOS 30D CR2 of Debian's
rawtran-doc against LibRaw's own tools (raw-identify, unprocessed_raw, dcraw_emu).

tests/raw/raw-dump (LUMEN_RAW_DUMP) loads a file through lm_io_load and prints its LmRawInfo as
JSON, the samples to a file."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import dng  # noqa: E402

CR2 = "/usr/share/doc/rawtran/IMG_5952.CR2"
CHANNELS = {"cfa16": 1, "gray16": 1, "rgba16": 4}


def raw_dump():
    path = os.environ.get("LUMEN_RAW_DUMP")
    if not path or not os.access(path, os.X_OK):
        raise SystemExit(f"LUMEN_RAW_DUMP is not set to raw-dump (got {path!r}); run through `meson test`")
    return path


class Loaded:
    def __init__(self, info, samples):
        self.info = info
        self.samples = samples


def load(path):
    """(LmRawInfo and image fields as a dict, samples as H × W [× C] uint16)."""
    samples = path + ".u16"
    r = subprocess.run([raw_dump(), path, samples], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE=""))
    if r.returncode != 0:
        raise AssertionError(f"raw-dump {path}: exit {r.returncode}: {r.stderr.strip()}")
    info = json.loads(r.stdout)
    c = CHANNELS[info["format"].lower()]
    a = np.fromfile(samples, dtype="<u2").reshape(info["height"], info["width"], c)
    return Loaded(info, a[..., 0] if c == 1 else a)


def refused(path):
    r = subprocess.run([raw_dump(), path], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE=""))
    return r


def cfa_of(info):
    return np.array(info["cfa"]).reshape(info["cfa_h"], info["cfa_w"])


def black_of(info):
    return np.array(info["black"]).reshape(info["black_h"], info["black_w"])


def tiled(table, h, w):
    th, tw = table.shape
    yy, xx = np.mgrid[:h, :w]
    return table[yy % th, xx % tw]


class DngTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="lumen-raw-")
        self.rng = np.random.default_rng(31)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, data, **kw):
        path = os.path.join(self.dir, name)
        dng.write(path, data, **kw)
        return path

    # LibRaw takes no image smaller than 22 × 22 for a raw.
    def mosaic(self, h=24, w=36, lo=600, hi=16000):
        return self.rng.integers(lo, hi, size=(h, w), dtype=np.uint16)

    def test_bayer_phases_and_samples(self):
        for name, colours in dng.BAYER.items():
            with self.subTest(cfa=name):
                data = self.mosaic()
                got = load(self.write(name + ".dng", data, cfa=name, white=16383))
                self.assertEqual(got.info["format"].lower(), "cfa16")
                self.assertEqual(got.info["layout"], "bayer")
                np.testing.assert_array_equal(got.samples, data)
                cfa = cfa_of(got.info)
                self.assertEqual(cfa.shape, (2, 2))
                # LibRaw's 3 is the second green: folded into 1 it is the written pattern.
                np.testing.assert_array_equal(np.where(cfa == 3, 1, cfa).ravel(), colours)
                self.assertEqual(sorted(cfa.ravel()), [0, 1, 2, 3])
                self.assertEqual(got.info["white"], [16383] * 4)

    def test_block_black(self):
        data = self.mosaic()
        got = load(self.write("b.dng", data, black=(512, 520, 530, 540), black_dim=(2, 2), white=16383))
        np.testing.assert_array_equal(black_of(got.info), [[512, 520], [530, 540]])
        # A 4 × 2 block over a Bayer array: its own period, in visible coordinates.
        block = (500, 501, 502, 503, 504, 505, 506, 507)
        got = load(self.write("b4.dng", data, black=block, black_dim=(4, 2), white=16383))
        np.testing.assert_array_equal(tiled(black_of(got.info), 4, 2), np.reshape(block, (4, 2)))
        # One value for every site: a 1 × 1 table.
        got = load(self.write("b1.dng", data, black=(256,), white=16383))
        np.testing.assert_array_equal(black_of(got.info), [[256]])

    def test_black_period_too_long_is_refused(self):
        data = self.mosaic(h=34)
        r = refused(self.write("b17.dng", data, black=tuple(range(100, 117)), black_dim=(17, 1), white=16383))
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("b17.dng", r.stderr)
        self.assertIn("black level", r.stderr)

    def test_xtrans(self):
        data = self.mosaic(h=30, w=36)
        got = load(self.write("x.dng", data, cfa="XTRANS", black=(256,), white=16383))
        self.assertEqual(got.info["layout"], "xtrans")
        self.assertEqual(got.info["format"].lower(), "cfa16")
        np.testing.assert_array_equal(cfa_of(got.info).ravel(), dng.XTRANS)
        np.testing.assert_array_equal(got.samples, data)

    def test_linear_raw(self):
        data = self.rng.integers(0, 16000, size=(24, 30, 3), dtype=np.uint16)
        got = load(self.write("l.dng", data, cfa=None, white=16383))
        self.assertEqual(got.info["layout"], "linear")
        self.assertEqual(got.info["format"].lower(), "rgba16")
        np.testing.assert_array_equal(got.samples[..., :3], data)
        self.assertTrue((got.samples[..., 3] == 65535).all())

    def test_monochrome(self):
        data = self.mosaic(h=24, w=32)
        got = load(self.write("m.dng", data, cfa=None, black=(64,), white=4095 * 4))
        self.assertEqual(got.info["layout"], "mono")
        self.assertEqual(got.info["format"].lower(), "gray16")
        np.testing.assert_array_equal(got.samples, data)
        self.assertEqual(black_of(got.info).tolist(), [[64]])
        self.assertEqual(cfa_of(got.info).tolist(), [[1]])  # green's levels and balance
        self.assertEqual(got.info["as_shot"], [0, 0, 0, 0])

    def test_orientation_turns_the_mosaic(self):
        """The mosaic loads upright, every site with its colour: the pattern turns with it."""
        data = self.mosaic(h=24, w=30)
        (ph, pw), colours = dng.pattern('RGGB')
        yy, xx = np.mgrid[:24, :30]
        stored_colour = np.asarray(colours).reshape(ph, pw)[yy % ph, xx % pw]
        # Where EXIF's orientation O puts the stored pixels (out[y][x] = stored[sy][sx]).
        turns = {1: lambda a: a, 2: lambda a: a[:, ::-1], 3: lambda a: a[::-1, ::-1],
                 4: lambda a: a[::-1, :], 5: lambda a: a.T, 6: lambda a: np.rot90(a, -1),
                 7: lambda a: a.T[::-1, ::-1], 8: lambda a: np.rot90(a, 1)}
        for o in range(1, 9):
            with self.subTest(orientation=o):
                got = load(self.write(f"o{o}.dng", data, orientation=o, white=16383))
                self.assertEqual(got.info["orientation"], 1)
                np.testing.assert_array_equal(got.samples, turns[o](data))
                cfa = cfa_of(got.info)
                h, w = got.samples.shape
                yy, xx = np.mgrid[:h, :w]
                loaded_colour = cfa[yy % cfa.shape[0], xx % cfa.shape[1]]
                loaded_colour = np.where(loaded_colour == 3, 1, loaded_colour)
                np.testing.assert_array_equal(loaded_colour, turns[o](stored_colour))
                # Exports are of the upright development: their EXIF says 1.
                self.assertEqual(got.info["exif_orientation"], 1)

    def test_colour_data(self):
        cm1 = [[0.6722, -0.0635, -0.0963], [-0.4287, 1.2460, 0.2028], [-0.0908, 0.2162, 0.5668]]
        cm2 = [[0.7100, -0.1000, -0.0500], [-0.4000, 1.2000, 0.1500], [-0.0800, 0.2000, 0.6000]]
        fm1 = [[0.7976, 0.1351, 0.0316], [0.2880, 0.7119, 0.0001], [0.0000, 0.0000, 0.8249]]
        data = self.mosaic()
        got = load(self.write("c.dng", data, white=16383, color_matrix=cm1, illuminant=21,
                              color_matrix2=cm2, illuminant2=17, as_shot_neutral=(0.5, 1.0, 0.7),
                              baseline_exposure=0.35, make="Lumen", model="Test Camera",
                              exposure_time=1 / 250))
        i = got.info
        self.assertEqual(i["matrix_source"], "dng")
        self.assertEqual(i["n_matrices"], 2)
        np.testing.assert_allclose(np.reshape(i["xyz_to_cam"], (2, 3, 3)), [cm1, cm2], atol=1e-6)
        self.assertEqual(i["illuminant"], [21, 17])
        self.assertFalse(i["has_forward"])
        np.testing.assert_allclose(i["as_shot"], [2.0, 1.0, 1 / 0.7, 1.0], rtol=1e-5)
        self.assertAlmostEqual(i["baseline_exposure"], 0.35, places=5)
        self.assertEqual((i["make"], i["model"]), ("Lumen", "Test Camera"))
        self.assertAlmostEqual(i["exposure_s"], 1 / 250, places=7)
        self.assertAlmostEqual(i["exif_exposure_s"], 1 / 250, places=7)
        self.assertAlmostEqual(i["file_exposure_s"], 1 / 250, places=7)

        got = load(self.write("f.dng", data, white=16383, color_matrix=cm1, forward_matrix=fm1))
        self.assertTrue(got.info["has_forward"])
        self.assertEqual(got.info["n_matrices"], 1)
        np.testing.assert_allclose(np.reshape(got.info["forward"], (2, 3, 3))[0], fm1, atol=1e-6)

    def test_active_area_and_default_crop(self):
        """ActiveArea (top, left, bottom, right) is the visible area LibRaw gives and the loader
        loads, its CFA and black pattern counted from its corner; DefaultCrop is the maker's
        crop, in those coordinates."""
        data = self.mosaic(h=40, w=50)
        area = (4, 6, 38, 46)  # even: LibRaw moves an odd corner to keep the CFA's phase
        got = load(self.write("a.dng", data, cfa="RGGB", black=(500, 501, 502, 503), black_dim=(2, 2),
                              white=16383, extra_tags=[(50829, "I", 4, area, True),
                                                       (50719, "I", 2, (2, 4), True),
                                                       (50720, "I", 2, (30, 26), True)]))
        np.testing.assert_array_equal(got.samples, data[4:38, 6:46])
        np.testing.assert_array_equal(black_of(got.info), [[500, 501], [502, 503]])
        self.assertEqual(np.where(cfa_of(got.info) == 3, 1, cfa_of(got.info)).ravel().tolist(), [0, 1, 1, 2])
        self.assertEqual(got.info["crop"], [2, 4, 30, 26])

    def test_cancelled_load_stops(self):
        """A load on a thread whose current cancellable is cancelled (the window pushes its
        open's) stops with LM_ERROR_CANCELLED (raw-dump's exit 3), not an image."""
        path = self.write("c.dng", self.mosaic(), white=16383)
        r = subprocess.run([raw_dump(), "--cancelled", path], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("c.dng", r.stderr)

    def test_no_colour_data(self):
        got = load(self.write("n.dng", self.mosaic(), white=16383))
        self.assertEqual(got.info["matrix_source"], "none")
        self.assertEqual(got.info["n_matrices"], 0)
        self.assertEqual(got.info["as_shot"], [0, 0, 0, 0])
        self.assertEqual(got.info["analog_balance"], [1, 1, 1])
        self.assertEqual(got.info["baseline_exposure"], 0)
        self.assertIsNotNone(got.info["file_exposure_error"])


def identify(path):
    """raw-identify -v's lines as (key, value)."""
    r = subprocess.run(["raw-identify", "-v", path], capture_output=True, text=True, timeout=60)
    return r.stdout


def numbers(text):
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", text)]


@unittest.skipUnless(os.path.exists(CR2) and shutil.which("raw-identify") and shutil.which("dcraw_emu")
                     and shutil.which("unprocessed_raw"),
                     f"{CR2} or LibRaw's tools are missing (make test-deps installs rawtran-doc and libraw-bin)")
class Cr2Test(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="lumen-cr2-")
        cls.cr2 = os.path.join(cls.dir, "IMG_5952.CR2")
        os.symlink(CR2, cls.cr2)
        cls.got = load(cls.cr2)
        cls.text = identify(CR2)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def line(self, key):
        m = re.search(r"^" + re.escape(key) + r"\s*(.*)$", self.text, re.M)
        self.assertIsNotNone(m, key)
        return m.group(1)

    def test_metadata_as_raw_identify_says(self):
        i = self.got.info
        w, h = numbers(self.line("Image size:"))
        self.assertEqual((i["width"], i["height"]), (w, h))
        self.assertEqual(i["orientation"], {0: 1, 3: 3, 5: 8, 6: 6}[int(numbers(self.line("Image flip:"))[0])])
        shot = numbers(re.search(r"As shot\s+(.*)", self.text).group(1))[:4]
        np.testing.assert_allclose(i["as_shot"], [shot[0] / shot[1], 1, shot[2] / shot[1], 1], rtol=1e-6)
        day = numbers(self.line("Derived D65 multipliers:"))
        np.testing.assert_allclose(i["daylight"][:3], [day[0] / day[1], 1, day[2] / day[1]], rtol=1e-5)
        rows = self.text.split("XYZ->CamRGB matrix:")[1].strip().splitlines()[:3]
        np.testing.assert_allclose(np.reshape(i["xyz_to_cam"], (2, 3, 3))[0], [numbers(r) for r in rows], atol=1e-4)
        self.assertEqual((i["matrix_source"], i["illuminant"][0]), ("table", 21))
        self.assertEqual(i["iso"], numbers(self.line("ISO speed:"))[0])
        self.assertAlmostEqual(i["exposure_s"], 1 / numbers(self.line("Shutter:"))[1], places=7)
        self.assertAlmostEqual(i["f_number"], numbers(self.line("Aperture:"))[0], places=4)
        self.assertAlmostEqual(i["focal_mm"], numbers(self.line("Focal length:"))[0], places=4)
        self.assertEqual(f"{i['make']} {i['model']}", self.line("Camera:").split(" ID:")[0])
        self.assertEqual(i["lens"], re.search(r"^\tLens: (.+)$", self.text, re.M).group(1))
        self.assertTrue(i["preview_jpeg"])
        self.assertEqual(i["preview_len"] > 0, True)
        self.assertAlmostEqual(i["file_exposure_s"], i["exposure_s"], places=7)

    @unittest.skipUnless(shutil.which("exiftool"), "exiftool is missing (make test-deps installs it)")
    def test_exif_for_export_as_exiftool_reads_it(self):
        """The EXIF block made for exports, read back by exiftool: the shooting data LibRaw read
        (raw-identify's), Orientation 1 as the development turns the pixels."""
        r = subprocess.run(["exiftool", "-j", "-n", self.cr2 + ".u16.exif"], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        tags = json.loads(r.stdout)[0]
        self.assertEqual((tags["Make"], tags["Model"]), ("Canon", "EOS 30D"))
        self.assertEqual(tags["ISO"], numbers(self.line("ISO speed:"))[0])
        self.assertAlmostEqual(tags["ExposureTime"], 1 / numbers(self.line("Shutter:"))[1], places=7)
        self.assertAlmostEqual(tags["FNumber"], numbers(self.line("Aperture:"))[0], places=4)
        self.assertAlmostEqual(tags["FocalLength"], numbers(self.line("Focal length:"))[0], places=4)
        self.assertEqual(tags["LensModel"], re.search(r"^\tLens: (.+)$", self.text, re.M).group(1))
        self.assertEqual(tags["Orientation"], 1)
        # raw-identify prints the time as ctime does, in the local time zone, as the EXIF has it.
        stamp = self.line("Timestamp:")
        import time
        self.assertEqual(tags["DateTimeOriginal"],
                         time.strftime("%Y:%m:%d %H:%M:%S", time.strptime(stamp, "%a %b %d %H:%M:%S %Y")))

    def test_samples_and_crop_as_unprocessed_raw_gives(self):
        r = subprocess.run(["unprocessed_raw", "-T", self.cr2], capture_output=True, text=True, timeout=120,
                           cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        import tifffile
        sensor = tifffile.imread(self.cr2 + ".tiff")
        top, left = (int(v) for v in re.search(r"Margins: top=(\d+), left=(\d+)", r.stdout).groups())
        h, w = self.got.samples.shape
        np.testing.assert_array_equal(self.got.samples, sensor[top:top + h, left:left + w])
        cw, ch, cl, ct = numbers(self.line("Raw inset, width x height:"))
        self.assertEqual(self.got.info["crop"], [cl - left, ct - top, cw, ch])

    def test_levels_as_dcraw_emu_scales(self):
        """LibRaw's development without white balance, demosaic or colour scales each site by
        65535 / (white − common black) after taking its own black away: the loader's table and
        white must give the same values (within LibRaw's rounding)."""
        out = os.path.join(self.dir, "levels.tiff")
        r = subprocess.run(["dcraw_emu", "-4", "-T", "-disinterp", "-o", "0", "-r", "1", "1", "1", "1",
                            "-c", "0", "-Z", out, self.cr2], capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        import tifffile
        scaled = tifffile.imread(out).astype(np.float64)
        i = self.got.info
        h, w = self.got.samples.shape
        cfa = tiled(cfa_of(i), h, w)
        black = tiled(black_of(i), h, w)
        white = np.asarray(i["white"])[cfa]
        channel = np.where(cfa == 3, 1, cfa)
        site = np.take_along_axis(scaled, channel[..., None], axis=2)[..., 0]
        want = np.clip((self.got.samples - black) * 65535.0 / (white - black.min()), 0, 65535)
        self.assertLessEqual(np.abs(site - want).max(), 1.0)


if __name__ == "__main__":
    unittest.main(verbosity=2)

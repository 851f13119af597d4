"""FITS through cfitsio (core/astro/fits.c) against astropy, and the catalogue and label-image
writers (core/astro/catalogue-*.c) read back with astropy.

astropy.io.fits writes the inputs here at test time; tests/formats/fits-dump (LUMEN_FITS_DUMP)
loads them with lm_fits_load and writes the floats it got. The expected values are astropy's
raw integers scaled in float64 and rounded to float32, the FITS standard's physical value."""
import csv
import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import warnings

import numpy as np
from astropy.io import fits
from astropy.table import Table

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

warnings.simplefilter("ignore", category=fits.verify.VerifyWarning)

COLUMNS = ("id,x,y,x_fits,y_fits,flux,flux_raw,background,peak,peak_x,peak_y,area,xmin,ymin,"
           "xmax,ymax,x2,y2,xy,a,b,theta,fwhm").split(",")


def fits_dump():
    path = os.environ.get("LUMEN_FITS_DUMP")
    if not path or not os.access(path, os.X_OK):
        raise SystemExit(f"LUMEN_FITS_DUMP is not set to fits-dump (got {path!r}); run through `meson test`")
    return path


def dump(args, numeric=None):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    if numeric:
        env.pop("LC_ALL")
        env.update(LC_MESSAGES="C.UTF-8", LC_NUMERIC=numeric)
    return subprocess.run([fits_dump()] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=60, env=env)


def physical(raw, bscale=1.0, bzero=0.0, blank=None):
    """The FITS standard's value of RAW stored integers, as cfitsio computes it: in float64, rounded
    once to float32; BLANK → NaN."""
    out = (raw.astype(np.float64) * bscale + bzero).astype(np.float32)
    if blank is not None:
        out[raw == blank] = np.nan
    return out


def locale_exists(name):
    r = subprocess.run(["locale", "-a"], capture_output=True, text=True)
    have = {n.lower().replace("-", "") for n in r.stdout.split()}
    return name.lower().replace("-", "") in have


class FitsRead(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="lumen-fits-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.rng = np.random.default_rng(17)

    def path(self, name):
        return os.path.join(self.dir, name)

    def load(self, spec):
        """(info fields, float32 pixels) of SPEC through lm_fits_load."""
        raw = self.path("out.raw")
        r = dump([spec, raw])
        self.assertEqual(r.returncode, 0, f"fits-dump {spec}: {r.stderr}")
        w, h, bitpix, hdu, n_blank, bscale, bzero = r.stdout.split()[:7]
        pixels = np.fromfile(raw, dtype="<f4")
        self.assertEqual(pixels.size, int(w) * int(h))
        info = dict(bitpix=int(bitpix), hdu=int(hdu), n_blank=int(n_blank), bscale=float(bscale),
                    bzero=float(bzero))
        return info, pixels.reshape(int(h), int(w))

    def assert_same(self, got, want):
        self.assertEqual(got.shape, want.shape)
        self.assertEqual(got.dtype, np.float32)
        same = (got == want) | (np.isnan(got) & np.isnan(want))
        self.assertTrue(same.all(), f"{(~same).sum()} pixels differ, e.g. got {got[~same][:3]} "
                        f"want {want[~same][:3]}")

    def write_raw(self, name, raw, **header):
        """RAW stored as it is (no scaling by astropy), with HEADER's keys."""
        hdu = fits.PrimaryHDU(raw)
        for key, value in header.items():
            hdu.header[key] = value
        path = self.path(name)
        hdu.writeto(path)
        return path

    def test_every_bitpix(self):
        shape = (37, 53)
        cases = {
            8: self.rng.integers(0, 256, shape).astype(np.uint8),
            16: self.rng.integers(-32768, 32768, shape).astype(np.int16),
            32: self.rng.integers(-2**31, 2**31, shape).astype(np.int32),
            64: self.rng.integers(-2**53, 2**53, shape).astype(np.int64),
            -32: self.rng.normal(0, 1e3, shape).astype(np.float32),
            -64: self.rng.normal(0, 1e30, shape).astype(np.float64),
        }
        for bitpix, raw in cases.items():
            with self.subTest(bitpix=bitpix):
                path = self.write_raw(f"b{bitpix}.fits", raw)
                info, got = self.load(path)
                self.assertEqual((info["bitpix"], info["hdu"], info["n_blank"]), (bitpix, 1, 0))
                self.assert_same(got, raw.astype(np.float64).astype(np.float32))

    def test_bscale_bzero_and_unsigned(self):
        shape = (29, 31)
        raw16 = self.rng.integers(-32768, 32768, shape).astype(np.int16)
        raw32 = self.rng.integers(-2**31, 2**31, shape).astype(np.int32)
        cases = [
            ("scaled16", raw16, 0.037, -12.5),
            ("unsigned16", raw16, 1.0, 32768.0),
            ("unsigned32", raw32, 1.0, 2.0**31),
            ("scaled32", raw32, 1.0 / 3, 1e5),
        ]
        for name, raw, bscale, bzero in cases:
            with self.subTest(name):
                path = self.write_raw(name + ".fits", raw, BSCALE=bscale, BZERO=bzero)
                info, got = self.load(path)
                self.assertEqual((info["bscale"], info["bzero"]), (bscale, bzero))
                self.assert_same(got, physical(raw, bscale, bzero))
        # astropy reads BZERO 32768 as uint16 and 2^31 as uint32: the same values.
        got = self.load(self.path("unsigned16.fits"))[1]
        self.assert_same(got, fits.getdata(self.path("unsigned16.fits")).astype(np.float32))

    def test_blank_and_nan(self):
        raw = self.rng.integers(-1000, 1000, (20, 24)).astype(np.int16)
        raw[3, 4] = raw[19, 23] = raw[0, 0] = -32768
        path = self.write_raw("blank.fits", raw, BLANK=-32768, BSCALE=2.0, BZERO=1.0)
        info, got = self.load(path)
        self.assertEqual(info["n_blank"], 3)
        self.assert_same(got, physical(raw, 2.0, 1.0, blank=-32768))
        data = self.rng.normal(size=(20, 24)).astype(np.float32)
        data[5, :] = np.nan
        info, got = self.load(self.write_raw("nan.fits", data))
        self.assertEqual(info["n_blank"], 24)
        self.assert_same(got, data)

    def extensions(self):
        a = self.rng.normal(size=(11, 13)).astype(np.float32)
        b = self.rng.integers(0, 1000, (7, 9)).astype(np.int32)
        table = fits.BinTableHDU.from_columns([fits.Column(name="v", format="E", array=np.ones(4))],
                                              name="TAB")
        path = self.path("ext.fits")
        fits.HDUList([fits.PrimaryHDU(), fits.ImageHDU(a, name="SCI"), fits.ImageHDU(b, name="ERR"),
                      table]).writeto(path)
        return path, a, b

    def test_hdu_selection(self):
        path, a, b = self.extensions()
        # No HDU named: the first 2-D image, behind the empty primary.
        info, got = self.load(path)
        self.assertEqual(info["hdu"], 2)
        self.assert_same(got, a)
        info, got = self.load(path + "[2]")
        self.assertEqual(info["hdu"], 3)
        self.assert_same(got, b.astype(np.float32))
        info, got = self.load(path + "[ERR]")
        self.assert_same(got, b.astype(np.float32))
        self.assert_same(self.load(path + "[SCI]")[1], a)
        r = dump(["--cards", path + "[ERR]"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("EXTNAME = 'ERR", r.stdout)

    def test_gzip(self):
        data = self.rng.normal(size=(40, 30)).astype(np.float32)
        path = self.path("z.fits.gz")
        fits.PrimaryHDU(data).writeto(path)
        with open(path, "rb") as f:
            self.assertEqual(f.read(2), b"\x1f\x8b")
        self.assert_same(self.load(path)[1], data)

    def test_common_loader(self):
        """lm_io_load sniffs FITS and returns its first image as GRAY_F32."""
        path, a, _ = self.extensions()
        raw = self.path("io.raw")
        r = dump(["--io", path, raw])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.split(), ["13", "11", "gray-f32"])
        self.assert_same(np.fromfile(raw, dtype="<f4").reshape(a.shape), a)

    def test_real_star_field(self):
        """The corpus's HST crop (tests/data/astro, SOURCES.md): gzip, image in extension 1."""
        path = os.path.join(lt.data_dir(), "astro", "j8bt06nyq_sci_512.fits.gz")
        info, got = self.load(path)
        self.assertEqual((info["bitpix"], info["hdu"], info["n_blank"]), (-32, 2, 0))
        want = fits.getdata(path, extname="SCI")
        self.assert_same(got, want.astype(np.float32))
        self.assertEqual(got.shape, (512, 512))
        r = dump(["--cards", path + "[SCI]"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("HISTORY Lumen test data", r.stdout)

    def assert_refused(self, spec, *words):
        r = dump([spec])
        self.assertEqual(r.returncode, 1, f"{spec}: exit {r.returncode}, stderr {r.stderr!r}")
        message = r.stderr.strip()
        self.assertIn(os.path.basename(spec), message)
        for w in words:
            self.assertIn(w, message)
        return message

    def test_bad_inputs(self):
        empty = self.path("empty.fits")
        open(empty, "wb").close()
        self.assert_refused(empty, "empty")
        text = self.path("text.fits")
        with open(text, "w") as f:
            f.write("not FITS at all\n" * 20)
        self.assert_refused(text, "not a FITS file")
        self.assert_refused(self.path("missing.fits"), "no such file")

        whole = self.write_raw("whole.fits", np.ones((200, 300), np.float32))
        with open(whole, "rb") as f:
            head = f.read()
        truncated = self.path("truncated.fits")
        with open(truncated, "wb") as f:
            f.write(head[:2880 + 5000])
        self.assert_refused(truncated, "truncated")

        path, _, _ = self.extensions()
        self.assert_refused(path + "[3]", "table")
        self.assert_refused(path + "[9]", "no such HDU")
        self.assert_refused(path + "[NOPE]", "no such HDU")
        cube = self.path("cube.fits")
        fits.PrimaryHDU(np.zeros((3, 4, 5), np.float32)).writeto(cube)
        self.assert_refused(cube, "cube", "NAXIS3 = 3")
        # A cube of one plane is an image.
        plane = self.path("plane.fits")
        fits.PrimaryHDU(np.arange(20, dtype=np.float32).reshape(1, 4, 5)).writeto(plane)
        self.assert_same(self.load(plane)[1], np.arange(20, dtype=np.float32).reshape(4, 5))

        # A header declaring 2^20 × 2^20 float pixels (4 TiB) over one block of data: refused
        # before anything of that size is allocated.
        forged = self.path("forged.fits")
        with open(whole, "rb") as f:
            hdr = bytearray(f.read(2880))
        for key, value in ((b"NAXIS1  =", 1 << 20), (b"NAXIS2  =", 1 << 20)):
            at = hdr.index(key)
            hdr[at:at + 30] = key + f"{value:>21d}".encode()
        with open(forged, "wb") as f:
            f.write(bytes(hdr) + bytes(2880))
        self.assert_refused(forged, "1048576")


class CatalogueWriters(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="lumen-catalogue-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, csv_path="-", fits_path="-", labels_path="-", numeric=None):
        raw = self.path("truth.raw")
        r = dump(["--catalogue", csv_path, fits_path, labels_path, raw], numeric)
        return r, raw

    def truth(self, raw, n, w, h):
        values = np.fromfile(raw, dtype="<f8", count=n * len(COLUMNS)).reshape(n, len(COLUMNS))
        labels = np.fromfile(raw, dtype="<u4", offset=values.nbytes).reshape(h, w)
        return values, labels

    def test_csv_fits_and_labels_read_back_exactly(self):
        paths = [self.path("cat.csv"), self.path("cat.fits"), self.path("labels.fits")]
        # A decimal comma where the system has one changes nothing: the writer uses the C form.
        comma = next((loc for loc in ("de_DE.UTF-8", "fr_FR.UTF-8") if locale_exists(loc)), None)
        if comma is None:
            lt.say("no locale with a decimal comma installed: the CSV is written in C.UTF-8 only")
        r, raw = self.write(*paths, numeric=comma)
        self.assertEqual(r.returncode, 0, r.stderr)
        n, w, h = map(int, r.stdout.split())
        values, labels = self.truth(raw, n, w, h)

        with open(paths[0], newline="") as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows[0], COLUMNS)
        got = np.array([[float(v) for v in row] for row in rows[1:]])
        self.assertEqual(got.shape, values.shape)
        self.assertTrue(np.array_equal(got.view(np.int64), values.view(np.int64)),
                        "CSV values differ from the written doubles (bit for bit)")

        table = Table.read(paths[1], hdu="CATALOGUE")
        self.assertEqual(table.colnames, COLUMNS)
        self.assertEqual(str(table["x"].unit), "pix")
        for c, name in enumerate(COLUMNS):
            col = np.asarray(table[name]).astype(np.float64)
            self.assertTrue(np.array_equal(col.view(np.int64), values[:, c].view(np.int64)), name)
        self.assertEqual(table["peak"].dtype, np.dtype(">f4"))
        self.assertEqual(table["id"].dtype.kind, "i")

        with fits.open(paths[2]) as hdul:
            self.assertEqual(hdul[0].header["EXTNAME"], "LABELS")
            self.assertEqual(hdul[0].header["BITPIX"], 32)
            self.assertTrue(np.array_equal(hdul[0].data, labels))
        # And Lumen's own reader agrees.
        rl = dump([paths[2] + "[LABELS]", self.path("l.raw")])
        self.assertEqual(rl.returncode, 0, rl.stderr)
        self.assertTrue(np.array_equal(np.fromfile(self.path("l.raw"), "<f4").reshape(h, w), labels))

    def assert_nothing_left(self, folder, name):
        left = [n for n in os.listdir(folder) if name in n or lt.TMP_INFIX in n]
        self.assertEqual(left, [], f"left behind in {folder}")

    def test_failed_writes_leave_no_file(self):
        for kind, index in (("csv", 0), ("fits", 1), ("labels", 2)):
            with self.subTest(kind):
                # No such folder.
                paths = ["-", "-", "-"]
                paths[index] = self.path(f"nowhere/{kind}.out")
                r, _ = self.write(*paths)
                self.assertEqual(r.returncode, 1)
                self.assertIn("nowhere", r.stderr)
                self.assertFalse(os.path.exists(self.path("nowhere")))
                # The destination is a folder: the rename fails, and the temporary goes.
                target = self.path(f"{kind}-is-a-folder")
                os.mkdir(target)
                paths[index] = target
                r, _ = self.write(*paths)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertEqual(os.listdir(target), [])
                self.assert_nothing_left(self.dir, lt.TMP_INFIX)
                # A folder that cannot be written in (not for root, who writes anyway).
                if os.geteuid() != 0:
                    locked = self.path(f"locked-{kind}")
                    os.mkdir(locked, 0o555)
                    paths[index] = os.path.join(locked, "out")
                    r, _ = self.write(*paths)
                    self.assertEqual(r.returncode, 1)
                    self.assertEqual(os.listdir(locked), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)

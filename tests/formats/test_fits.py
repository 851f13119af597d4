"""FITS through cfitsio (core/io/fits.c) against astropy, and the catalogue and label-image
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
        # before anything of that size is allocated, as the truncated file it is.
        forged = self.path("forged.fits")
        with open(whole, "rb") as f:
            hdr = bytearray(f.read(2880))
        for key, value in ((b"NAXIS1  =", 1 << 20), (b"NAXIS2  =", 1 << 20)):
            at = hdr.index(key)
            hdr[at:at + 30] = key + f"{value:>21d}".encode()
        with open(forged, "wb") as f:
            f.write(bytes(hdr) + bytes(2880))
        self.assert_refused(forged, "4398046511104", "truncated")
        # Whole (a sparse file of 16 GiB), 2^16 × 2^16 pixels are refused for their number.
        hdr = lt.fits_header(("SIMPLE", True), ("BITPIX", -32), ("NAXIS", 2), ("NAXIS1", 1 << 16), ("NAXIS2", 1 << 16))
        sparse = self.path("sparse.fits")
        with open(sparse, "wb") as f:
            f.write(hdr)
            f.truncate(len(hdr) + (1 << 34))
        self.assert_refused(sparse, "65536", "budget")


def padded(data):
    return data + bytes(-len(data) % 2880)


class FitsHostile(unittest.TestCase):
    """Files that lie about their data, and shapes that cost cfitsio one call a row. A file whose
    data ends before its header says is refused as truncated, naming the file, on every path:
    lm_fits_load (the window, lumen-cli detect), lm_io_load (lumen-cli -o, hdr, batch: the
    bytes in memory, where cfitsio's memory driver read past their end) and gzip."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="lumen-fits-hostile-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.rng = np.random.default_rng(28)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, data):
        path = self.path(name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def image_file(self, name, data, **kw):
        path = self.path(name)
        fits.PrimaryHDU(data).writeto(path, **kw)
        with open(path, "rb") as f:
            return path, f.read()

    def refused(self, path, *words, spec=None):
        """PATH (SPEC on the disk path) refused by lm_fits_load and by lm_io_load, each with one
        line that names the file and holds WORDS."""
        for args, name in (([spec or path], spec or path), (["--io", path], path)):
            r = dump(args)
            self.assertEqual(r.returncode, 1, f"fits-dump {args}: exit {r.returncode}, stderr {r.stderr!r}")
            lines = r.stderr.splitlines()
            self.assertEqual(len(lines), 1, r.stderr)
            self.assertTrue(lines[0].startswith(name + ": "), lines[0])
            for w in words:
                self.assertIn(w, lines[0])

    def loads(self, path, want, spec=None):
        """PATH (SPEC on the disk path) read as WANT by both loaders."""
        for args in ([spec or path, self.path("got.raw")], ["--io", path, self.path("got.raw")]):
            r = dump(args)
            self.assertEqual(r.returncode, 0, f"fits-dump {args}: {r.stderr}")
            got = np.fromfile(self.path("got.raw"), dtype="<f4").reshape(want.shape)
            self.assertTrue(np.array_equal(got, want, equal_nan=True), f"{args}: other pixels")

    def test_cut_data(self):
        """Half the data; 2,400 bytes of it missing; an extension header with no data after it;
        a 600-megapixel header with nothing after it. Plain and gzip-compressed."""
        _, whole = self.image_file("whole.fits", self.rng.normal(size=(200, 300)).astype(np.float32))
        _, small = self.image_file("small.fits", self.rng.normal(size=(32, 40)).astype(np.float32))
        ext = fits.HDUList([fits.PrimaryHDU(), fits.ImageHDU(np.ones((100, 100), np.float32))])
        ext.writeto(self.path("ext.fits"))
        with open(self.path("ext.fits"), "rb") as f:
            ext_header = f.read(3 * 2880)[:2 * 2880]
        assert ext_header[2880:2888] == b"XTENSION"
        cases = {
            "half.fits": whole[:len(whole) // 2],
            "short2400.fits": small[:2880 + 32 * 40 * 4 - 2400],
            "ext-no-data.fits": ext_header,
        }
        for name, data in cases.items():
            with self.subTest(name):
                self.refused(self.write(name, data), "truncated")
                self.refused(self.write(name + ".gz", gzip.compress(data)), "truncated")
        big = lt.fits_header(("SIMPLE", True), ("BITPIX", -32), ("NAXIS", 2), ("NAXIS1", 30000), ("NAXIS2", 20000))
        self.refused(self.write("600mp.fits", big), "2400000000 bytes", "truncated")

    def test_padding_alone_missing(self):
        """The last block's padding is all that is missing: the data is whole, and read."""
        data = self.rng.normal(size=(32, 40)).astype(np.float32)
        _, whole = self.image_file("whole.fits", data)
        self.loads(self.write("unpadded.fits", whole[:2880 + data.nbytes]), data)
        self.loads(self.write("unpadded.fits.gz", gzip.compress(whole[:2880 + data.nbytes])), data)

    def test_cut_after_the_image(self):
        """The HDUs up to the one read must be whole, not those after it: a table cut short
        behind the image leaves the image readable, and is refused when asked for."""
        a = self.rng.normal(size=(11, 13)).astype(np.float32)
        table = fits.BinTableHDU.from_columns([fits.Column(name="v", format="E", array=np.ones(5000))])
        path = self.path("full.fits")
        fits.HDUList([fits.PrimaryHDU(), fits.ImageHDU(a, name="SCI"), table]).writeto(path)
        with open(path, "rb") as f:
            data = f.read()
        cut = self.write("cut.fits", data[:len(data) - 8000])
        self.loads(cut, a)
        self.loads(cut, a, spec=cut + "[SCI]")
        r = dump([cut + "[2]"])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("truncated", r.stderr)

    def test_gzip_hdus(self):
        """A .fits.gz is inflated by Lumen, with HDUs chosen as in a plain file; filters and
        image sections, which only cfitsio's own reading of a file has, are refused by name."""
        a = self.rng.normal(size=(11, 13)).astype(np.float32)
        b = self.rng.integers(0, 1000, (7, 9)).astype(np.int32)
        plain = self.path("ext.fits")
        fits.HDUList([fits.PrimaryHDU(), fits.ImageHDU(a, name="SCI"), fits.ImageHDU(b, name="ERR")]).writeto(plain)
        with open(plain, "rb") as f:
            packed = self.write("ext.fits.gz", gzip.compress(f.read()))
        for spec, want in (("", a), ("[1]", a), ("[2]", b), ("[SCI]", a), ("[err]", b)):
            with self.subTest(spec):
                r = dump([packed + spec, self.path("got.raw")])
                self.assertEqual(r.returncode, 0, r.stderr)
                got = np.fromfile(self.path("got.raw"), dtype="<f4").reshape(want.shape)
                self.assertTrue(np.array_equal(got, want.astype(np.float32)))
        r = dump(["--cards", packed + "[ERR]"])
        self.assertIn("EXTNAME = 'ERR", r.stdout)
        r = dump([packed + "[3]"])
        self.assertEqual(r.returncode, 1)
        self.assertIn("no such HDU", r.stderr)
        r = dump([packed + "[1][1:5,1:3]"])
        self.assertEqual(r.returncode, 1)
        self.assertIn("decompress", r.stderr)

    def test_sections(self):
        """cfitsio's image sections still work on a plain file, walked whole first; not on a file
        holding tile-compressed images, which cfitsio would decompress before Lumen's checks."""
        a = self.rng.normal(size=(6, 8)).astype(np.float32)
        path = self.path("plain.fits")
        fits.HDUList([fits.PrimaryHDU(), fits.ImageHDU(a)]).writeto(path)
        r = dump([path + "[1][2:5,3:4]", self.path("got.raw")])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(np.array_equal(np.fromfile(self.path("got.raw"), "<f4").reshape(2, 4), a[2:4, 1:5]))
        with open(path, "rb") as f:
            data = f.read()
        r = dump([self.write("cut.fits", data[:-2000]) + "[1][2:5,3:4]"])
        self.assertEqual(r.returncode, 1)
        self.assertIn("truncated", r.stderr)
        packed = self.path("rice.fits")
        fits.HDUList([fits.PrimaryHDU(), fits.CompImageHDU(a, compression_type="RICE_1")]).writeto(packed)
        r = dump([packed + "[1][2:5,3:4]"])
        self.assertEqual(r.returncode, 1)
        self.assertIn("tile-compressed", r.stderr)

    def test_one_pixel_wide(self):
        """A 1 × N image costs what its N × 1 transpose does: cfitsio reads runs of values, not
        one call a row (N calls: 0.3 s of CPU for 4M rows, against 0.05 s in runs)."""
        n = 1 << 22
        values = self.rng.normal(size=n).astype(np.float32)
        cpu = {}
        for name, shape in (("wide", (1, n)), ("tall", (n, 1))):
            path, _ = self.image_file(name + ".fits", values.reshape(shape))
            proc = subprocess.Popen([fits_dump(), path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            self.assertEqual(proc.returncode, 0, proc.stderr.read())
            self.assertEqual(proc.stdout.read().split()[:2], [str(shape[1]).encode(), str(shape[0]).encode()])
            proc.stdout.close()
            proc.stderr.close()
            cpu[name] = usage.ru_utime
        lt.say(f"  CPU (user): 1 × {n} {cpu['tall']:.3f} s, {n} × 1 {cpu['wide']:.3f} s")
        self.assertLess(cpu["tall"], 0.12 + 3 * cpu["wide"])
        # And its values, on a smaller one.
        path, _ = self.image_file("tall-small.fits", values[:5000].reshape(5000, 1))
        self.loads(path, values[:5000].reshape(5000, 1))

    def cube(self, name, axes, behind_primary=False):
        """An image of AXES (NAXIS1 first), its values counting up; in the primary HDU, or
        in an extension behind an empty one."""
        data = np.arange(np.prod(axes), dtype=">f4")
        first = [("XTENSION", "IMAGE")] if behind_primary else [("SIMPLE", True)]
        cards = first + [("BITPIX", -32), ("NAXIS", len(axes))] + [(f"NAXIS{i + 1}", n) for i, n in enumerate(axes)]
        if behind_primary:
            cards += [("PCOUNT", 0), ("GCOUNT", 1)]
        body = lt.fits_header(*cards) + padded(data.tobytes())
        if behind_primary:
            body = lt.fits_header(("SIMPLE", True), ("BITPIX", 8), ("NAXIS", 0), ("EXTEND", True)) + body
        return self.write(name, body), data.astype(np.float32)

    def test_cubes_of_any_naxis(self):
        """Axes beyond the second must all be 1, whatever NAXIS (up to 999): a 10-axis cube was
        read as its first plane; the axis that is not 1 is named."""
        for naxis, odd, hint in ((3, 3, "[*,*,1]"), (4, 4, "[*,*,1,1]"), (5, 5, "4 axes at most"),
                                 (10, 10, "4 axes at most"), (10, 4, "4 axes at most"),
                                 (99, 99, "4 axes at most")):
            with self.subTest(naxis=naxis, odd=odd):
                axes = [5, 4] + [1] * (naxis - 2)
                axes[odd - 1] = 2
                path, _ = self.cube(f"cube{naxis}-{odd}.fits", axes)
                self.refused(path, f"cube of {naxis} axes", f"NAXIS{odd} = 2", hint)
        for naxis in (10, 99):
            path, data = self.cube(f"plane{naxis}.fits", [5, 4] + [1] * (naxis - 2))
            self.loads(path, data.reshape(4, 5))
        # cfitsio keeps 99 axes of an image and writes past them: more are refused before it
        # reads the header, in any HDU it would pass on its way.
        path, _ = self.cube("axes100.fits", [5, 4] + [1] * 98)
        self.refused(path, "100 axes", "99 axes at most")
        path, _ = self.cube("axes999.fits", [5, 4] + [1] * 997)
        self.refused(path, "999 axes", "99 axes at most")
        path, _ = self.cube("deep999.fits", [5, 4] + [1] * 997, behind_primary=True)
        self.refused(path, "HDU 2 (extension 1)", "999 axes")

    def test_tile_compressed(self):
        """Tile-compressed images (fpack's) are refused by name, whichever HDU they are in and
        whether or not one is named: cfitsio 4.2's reading of them crashed on damaged files
        (divisions by zero and a buffer overflow in its keyword parsing, reads out of bounds in
        its Rice decoder, huge allocations), and it parses them on its way to any later HDU."""
        raw = self.rng.integers(0, 500, (16, 16)).astype(np.int16)
        for kind in ("RICE_1", "GZIP_1"):
            with self.subTest(compression=kind):
                path = self.path(f"{kind}.fits")
                fits.HDUList([fits.PrimaryHDU(), fits.CompImageHDU(raw, compression_type=kind),
                              fits.ImageHDU(raw)]).writeto(path)
                for spec in (path, path + "[1]", path + "[2]"):
                    self.refused(path, "HDU 2 (extension 1) is a tile-compressed image", "funpack", spec=spec)
        # A plain image before it is read: cfitsio never meets the compressed one.
        path = self.path("plain-first.fits")
        fits.HDUList([fits.PrimaryHDU(raw), fits.CompImageHDU(raw, compression_type="RICE_1")]).writeto(path)
        self.loads(path, raw.astype(np.float32))

    def test_damaged_headers(self):
        """Headers that do not say how much data follows are refused by name."""
        base = [("SIMPLE", True), ("BITPIX", -32), ("NAXIS", 2), ("NAXIS1", 4), ("NAXIS2", 3)]
        for name, cards, word in (("bitpix.fits", [base[0], ("BITPIX", 12)] + base[2:], "BITPIX"),
                                  ("naxis2.fits", base[:4] + [("NAXIS2", -3)], "NAXIS2"),
                                  ("pcount.fits", base + [("PCOUNT", -1)], "PCOUNT"),
                                  ("overflow.fits", base[:3] + [("NAXIS1", 1 << 62), ("NAXIS2", 1 << 62)],
                                   "more data than a file can hold")):
            with self.subTest(name):
                self.refused(self.write(name, lt.fits_header(*cards) + bytes(2880)), word)
        # cfitsio reads on after a table's NAXIS2 it cannot read, with a column count it never
        # set (a calloc of garbage): refused first.
        primary = lt.fits_header(("SIMPLE", True), ("BITPIX", 8), ("NAXIS", 0), ("EXTEND", True))
        table = [("XTENSION", "BINTABLE"), ("BITPIX", 8), ("NAXIS", 2), ("NAXIS1", 4), ("NAXIS2", 2),
                 ("PCOUNT", 0), ("GCOUNT", 1), ("TFIELDS", 1), ("TFORM1", "1E")]
        unquoted = lt.fits_card("NAXIS2", "two").replace(b"'", b" ")
        bad = lt.fits_header(*table).replace(lt.fits_card("NAXIS2", 2), unquoted)
        self.refused(self.write("table.fits", primary + bad + bytes(2880)), "NAXIS2")
        # An END card with more than blanks after END ends the header for cfitsio: for the
        # walker too, or the two would see other HDUs.
        data = self.rng.normal(size=(3, 4)).astype(np.float32)
        image = lt.fits_header(("XTENSION", "IMAGE"), ("BITPIX", -32), ("NAXIS", 2), ("NAXIS1", 4), ("NAXIS2", 3),
                       ("PCOUNT", 0), ("GCOUNT", 1)) + padded(data.astype(">f4").tobytes())
        junk = primary.replace(lt.fits_card("END"), f"{'END  junk':<80}".encode())
        self.loads(self.write("end-junk.fits", junk + image), data)


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

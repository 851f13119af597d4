"""lumen-cli detect: sources found where a synthetic field put them (Gaussian and Moffat stars
on a sloped background with Gaussian and Poisson noise), at the right positions and fluxes;
the CSV and FITS catalogues the same table; --labels the label image that scipy.ndimage.label
makes of the pixels over the threshold (from the maps --background writes); usage errors
(exit 2), bad inputs (exit 1, naming the file, no output left behind).

The truth is the field's model, never Lumen: positions are the stars' centres, fluxes the
noiseless model summed over each source's own pixels (the isophotal flux a perfect
measurement gives; the wings below the threshold are not in any isophotal flux)."""
import os
import re
import stat
import subprocess
import sys
import tempfile
import unittest

import numpy as np
from astropy.io import fits
from astropy.stats import sigma_clipped_stats
from astropy.table import Table
from scipy import ndimage

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

TRY_HELP = "Try “lumen-cli --help” for the options.\n"
COLUMNS = ["id", "x", "y", "x_fits", "y_fits", "flux", "flux_raw", "background", "peak", "peak_x",
           "peak_y", "area", "xmin", "ymin", "xmax", "ymax", "x2", "y2", "xy", "a", "b", "theta",
           "fwhm"]
STRUCTURES = {4: ndimage.generate_binary_structure(2, 1), 8: np.ones((3, 3), bool)}


STAMP = 24  # half side of a star's stamp: its wings beyond are below 1e-5 of its peak


def stamp(shape, x0, y0):
    """The box around (X0, Y0) a star is drawn in, and the squared distances of its pixels."""
    box = (slice(max(int(y0) - STAMP, 0), min(int(y0) + STAMP + 1, shape[0])),
           slice(max(int(x0) - STAMP, 0), min(int(x0) + STAMP + 1, shape[1])))
    y, x = np.mgrid[box]
    return box, (x - x0) ** 2 + (y - y0) ** 2


def gaussian_star(shape, x0, y0, flux, sigma):
    box, r2 = stamp(shape, x0, y0)
    return box, flux / (2 * np.pi * sigma ** 2) * np.exp(-r2 / (2 * sigma ** 2))


def moffat_star(shape, x0, y0, flux, alpha, beta):
    box, r2 = stamp(shape, x0, y0)
    return box, flux * (beta - 1) / (np.pi * alpha ** 2) * (1 + r2 / alpha ** 2) ** -beta


def star_field(size=384, spacing=48, seed=17, read_noise=5.0):
    """A SIZE² field: a star every SPACING px (alternately Gaussian and Moffat, sub-pixel
    offsets, fluxes 3e4 … 3e5 e⁻), on a sloped sky of ~100 e⁻, with Poisson noise of the
    whole (gain 1) and Gaussian read noise. Returns (data float32, stars), each star a dict
    with x, y, flux, box and model (its noiseless image in the slices BOX)."""
    rng = np.random.default_rng(seed)
    shape = (size, size)
    y, x = np.indices(shape, dtype=np.float64)
    sky = 100.0 + 0.08 * x + 0.05 * y
    stars = []
    total = sky.copy()
    for i, cy in enumerate(range(spacing // 2, size - spacing // 3, spacing)):
        for j, cx in enumerate(range(spacing // 2, size - spacing // 3, spacing)):
            x0, y0 = cx + rng.uniform(-0.5, 0.5), cy + rng.uniform(-0.5, 0.5)
            flux = float(np.exp(rng.uniform(np.log(3e4), np.log(3e5))))
            if (i + j) % 2 == 0:
                box, model = gaussian_star(shape, x0, y0, flux, rng.uniform(1.3, 2.2))
            else:
                box, model = moffat_star(shape, x0, y0, flux, rng.uniform(2.0, 3.0), 3.5)
            stars.append(dict(x=x0, y=y0, flux=flux, box=box, model=model))
            total[box] += model
    data = rng.poisson(total).astype(np.float64) + rng.normal(0.0, read_noise, shape)
    return data.astype(np.float32), stars


def write_fits(path, data, empty_primary=False):
    if empty_primary:
        fits.HDUList([fits.PrimaryHDU(), fits.ImageHDU(data, name="SCI")]).writeto(path)
    else:
        fits.PrimaryHDU(data).writeto(path)


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
    table = np.genfromtxt(path, delimiter=",", skip_header=1, ndmin=2)
    return header, {name: table[:, k] for k, name in enumerate(header)}


def nearest(cat, x, y):
    d2 = (cat["x"] - x) ** 2 + (cat["y"] - y) ** 2
    k = int(np.argmin(d2))
    return k, float(np.sqrt(d2[k]))


class DetectTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="lumen-detect-")
        cls.dir = cls._tmp.name
        cls.data, cls.stars = star_field()
        cls.field = os.path.join(cls.dir, "field.fits")
        write_fits(cls.field, cls.data)

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def detect(self, *args, expect=0):
        proc = lt.run(["detect", "--backend", "cpu", *args])
        self.assertEqual(proc.returncode, expect, lt.describe(proc))
        return proc


class KnownTruth(DetectTest):
    """Every star found once, where it is and as bright as it is."""

    def test_stars(self):
        out, labels, back = self.path("stars.csv"), self.path("stars-labels.fits"), self.path("stars-back.fits")
        proc = self.detect("-o", out, "--labels", labels, "--background", back, self.field)
        self.assertRegex(proc.stderr, r"^lumen-cli: field\.fits: \d+ sources; background [0-9.e+-]+, "
                                      r"σ [0-9.e+-]+ \(κ-σ clipped, \d+ passes\)\n$")
        header, cat = read_csv(out)
        self.assertEqual(header, COLUMNS)
        self.assertEqual(len(cat["id"]), len(self.stars), "one source a star, no spurious ones")
        self.assertEqual(list(cat["id"]), list(range(1, len(self.stars) + 1)))
        np.testing.assert_array_equal(cat["x_fits"], cat["x"] + 1)
        np.testing.assert_array_equal(cat["y_fits"], cat["y"] + 1)
        label_image = fits.getdata(labels)
        sky = fits.getdata(back, 0)
        errors, ratios = [], []
        for s in self.stars:
            k, d = nearest(cat, s["x"], s["y"])
            errors.append(d)
            own = label_image == cat["id"][k]
            self.assertEqual(int(own.sum()), int(cat["area"][k]))
            # The truth of an isophotal flux: the star's model over the source's pixels.
            self.assertEqual(int(own[s["box"]].sum()), int(own.sum()), "a source beyond its star's stamp")
            ratios.append(cat["flux"][k] / s["model"][own[s["box"]]].sum())
            # flux + background = flux_raw, and the background is the map's over the pixels.
            self.assertAlmostEqual(cat["flux_raw"][k], cat["flux"][k] + cat["background"][k],
                                   delta=1e-6 * abs(cat["flux_raw"][k]))
            self.assertAlmostEqual(cat["background"][k], float(sky[own].astype(np.float64).sum()),
                                   delta=1e-5 * abs(cat["background"][k]))
        errors, ratios = np.array(errors), np.array(ratios)
        rms = float(np.sqrt(np.mean(errors ** 2)))
        lt.say(f"{len(self.stars)} stars: position error rms {rms:.4f} px, max {errors.max():.4f}; "
               f"flux / truth: {ratios.min():.4f} … {ratios.max():.4f}")
        self.assertLess(rms, 0.05)
        np.testing.assert_array_less(np.abs(ratios - 1), 0.01)

    def test_fits_catalogue_is_the_csv(self):
        csv, table = self.path("same.csv"), self.path("same.fits")
        self.detect("--mesh", "0", "-o", csv, self.field)
        self.detect("--mesh", "0", "-o", table, self.field)
        header, cat = read_csv(csv)
        t = Table.read(table, hdu=1)
        self.assertEqual(t.colnames, COLUMNS)
        # The same doubles (CSV writes 17 digits), whatever the column's type in the table.
        for name in COLUMNS:
            np.testing.assert_array_equal(np.asarray(t[name], np.float64), cat[name], err_msg=name)
        via_astropy = Table.read(csv, format="ascii.csv")
        np.testing.assert_array_equal(np.asarray(via_astropy["x"], np.float64), cat["x"])


class Labels(DetectTest):
    """--labels is scipy.ndimage.label of the pixels over THRESHOLD × noise above the
    background (the maps --background wrote), with the sources under --min-area dropped."""

    def check(self, connectivity, extra=()):
        labels, back = self.path(f"l{connectivity}.fits"), self.path(f"b{connectivity}.fits")
        threshold, min_area = 3.0, 4
        self.detect("--threshold", str(threshold), "--min-area", str(min_area), "--connectivity",
                    str(connectivity), *extra, "--labels", labels, "--background", back,
                    "-o", self.path(f"c{connectivity}.csv"), self.field)
        got = fits.getdata(labels)
        sky, noise = fits.getdata(back, 0), fits.getdata(back, "NOISE")
        over = self.data.astype(np.float64) - sky
        limit = threshold * noise.astype(np.float64)
        # Pixels within rounding of the threshold may go either way (float against double).
        near = np.abs(over - limit) <= 1e-5 * np.abs(limit)
        want, n = ndimage.label(over > limit, structure=STRUCTURES[connectivity])
        sizes = ndimage.sum_labels(np.ones_like(want), want, np.arange(1, n + 1))
        keep = np.concatenate([[0], np.cumsum(sizes >= min_area) * (sizes >= min_area)])
        want = keep[want]
        lt.say(f"connectivity {connectivity}: {want.max()} sources, {int(near.sum())} pixels at the threshold")
        self.assertEqual(got.dtype.kind, "i")
        if near.any():
            self.skipTest("pixels exactly at the threshold: the comparison would not be exact")
        np.testing.assert_array_equal(got, want)
        # and the image is its own labelling: numbered in raster order of first pixels
        again, _ = ndimage.label(got > 0, structure=STRUCTURES[connectivity])
        np.testing.assert_array_equal(got, again)

    def test_connectivity_4(self):
        self.check(4)

    def test_connectivity_8_global_background(self):
        self.check(8, ("--mesh", "0"))

    def test_global_background_is_astropys(self):
        """With --mesh 0 the background and σ are sigma_clipped_stats' (κ 3, 10 passes)."""
        back = self.path("global.fits")
        self.detect("--mesh", "0", "--background", back, "-o", self.path("global.csv"), self.field)
        _, median, std = sigma_clipped_stats(self.data, sigma=3, maxiters=10, cenfunc="median",
                                             stdfunc="std")
        np.testing.assert_allclose(fits.getdata(back, 0), median, rtol=1e-6)
        np.testing.assert_allclose(fits.getdata(back, "NOISE"), std, rtol=1e-6)


def steep_noise_field(size=256, low=2.0, high=30.0, ramp=64.0, seed=3):
    """A SIZE² field whose noise σ is HIGH inside and falls smoothly (a smoothstep over RAMP
    px) to LOW at the edges, lowest at the corners: the mesh's σ then falls so steeply towards
    the corners that the bicubic spline through the box centres goes on falling past the last
    centres, to 0 and below. Nine Gaussian stars, none within 48 px of a corner. Returns
    (data float32, σ, stars as (x, y))."""
    rng = np.random.default_rng(seed)
    y, x = np.indices((size, size), dtype=np.float64)

    def rise(v):
        d = np.clip(np.minimum(v, size - 1 - v) / ramp, 0.0, 1.0)
        return d * d * (3 - 2 * d)

    sigma = low + (high - low) * rise(x) * rise(y)
    total = 1000.0 + sigma * rng.standard_normal((size, size))
    stars = [(64.3, 128.6), (128.2, 64.7), (128.5, 128.5), (192.6, 128.1), (128.4, 192.2),
             (12.4, 128.3), (128.7, 12.2), (243.6, 127.5), (127.3, 243.8)]
    for x0, y0 in stars:
        box, model = gaussian_star((size, size), x0, y0, 2e4, 1.5)
        total[box] += model
    return total.astype(np.float32), sigma, stars


class NoiseOvershoot(DetectTest):
    """Where the noise falls steeply towards the edges the bicubic noise map overshot to 0 and
    below, and the noise itself crossed the threshold: the corners came out as the largest
    sources. The noise map stays positive, and only the real sources are found."""

    def test_steep_noise_towards_the_corners(self):
        data, sigma, stars = steep_noise_field()
        src, back, cat = self.path("steep.fits"), self.path("steep-back.fits"), self.path("steep.csv")
        write_fits(src, data)
        self.detect("--background", back, "-o", cat, src)
        _, cols = read_csv(cat)
        for x, y, area in zip(cols["x"], cols["y"], cols["area"]):
            d = min(np.hypot(x - x0, y - y0) for x0, y0 in stars)
            self.assertLess(d, 0.5, f"a source of {int(area)} px at ({x:.1f}, {y:.1f}) where no star is")
        for x0, y0 in stars:
            _, d = nearest(cols, x0, y0)
            self.assertLess(d, 0.5, f"star at ({x0}, {y0}): nearest source {d:.2f} px away")
        self.assertEqual(len(cols["x"]), len(stars))
        # positive, and never below the field's least σ: the truth, not a figure of Lumen's
        noise = fits.getdata(back, "NOISE")
        self.assertGreaterEqual(float(noise.min()), 0.9 * sigma.min())

    def test_real_frame_noise_stays_positive(self):
        """A 256² cutout of the HST frame whose mesh σ falls towards two corners: the noise map
        is nowhere below the least κ-σ clipped σ of its 64² boxes (astropy's), where it reached
        −132 and both corners were sources."""
        frame = fits.getdata(os.path.join(lt.data_dir(), "astro", "j8bt06nyq_sci_512.fits.gz"))
        cut = np.array(frame[0:256, 128:384], dtype=np.float32)
        src, back = self.path("cut.fits"), self.path("cut-back.fits")
        write_fits(src, cut)
        self.detect("--background", back, "-o", self.path("cut.csv"), src)
        least = min(sigma_clipped_stats(cut[y:y + 64, x:x + 64], sigma=3, maxiters=10, cenfunc="median",
                                        stdfunc="std")[2] for y in range(0, 256, 64) for x in range(0, 256, 64))
        self.assertGreaterEqual(float(fits.getdata(back, "NOISE").min()), least * (1 - 1e-4))


class Options(DetectTest):
    def test_timings(self):
        proc = self.detect("--timings", "--filter", "1.5", "-o", self.path("t.csv"), self.field)
        labels = re.findall(r"^\s+(\S+)\s+[0-9.]+ ms$", proc.stdout, re.M)
        self.assertEqual(labels, ["load", "background", "filter", "segment", "label", "measure", "write",
                                  "total"], proc.stdout)
        self.assertRegex(proc.stdout, r"(?m)^image: 384×384 ")

    def test_hdu(self):
        """The first HDU holding an image by default; --hdu N as IN.fits[N]."""
        path = self.path("ext.fits")
        write_fits(path, self.data, empty_primary=True)
        outs = [self.path(f"hdu{k}.csv") for k in range(3)]
        self.detect("-o", outs[0], path)
        self.detect("--hdu", "1", "-o", outs[1], path)
        self.detect("-o", outs[2], path + "[1]")
        first = lt.read_bytes(outs[0])
        self.assertEqual(lt.read_bytes(outs[1]), first)
        self.assertEqual(lt.read_bytes(outs[2]), first)
        proc = self.detect("--hdu", "4", "-o", self.path("none.csv"), path, expect=1)
        self.assertIn("ext.fits", proc.stderr)
        self.assertFalse(os.path.exists(self.path("none.csv")))


class Usage(DetectTest):
    def usage(self, args, message):
        out = self.path("u.csv")
        proc = self.detect(*args, expect=2)
        self.assertEqual(proc.stderr, f"lumen-cli: {message}\n" + TRY_HELP, lt.describe(proc))
        self.assertFalse(os.path.exists(out))

    def test_usage_errors(self):
        out, f = self.path("u.csv"), self.field
        self.usage(["-o", out], "no input image given")
        self.usage([f], "no output: give -o CATALOGUE")
        self.usage(["-o", out, f, f], "give one input image")
        self.usage(["--connectivity", "6", "-o", out, f], "--connectivity must be 4 or 8")
        self.usage(["--connectivity", "4.5", "-o", out, f], "--connectivity: “4.5” is not a whole number")
        self.usage(["--kappa", "-1", "-o", out, f], "--kappa: -1 is outside 0..100")
        self.usage(["--mesh-filter", "100", "-o", out, f], "--mesh-filter: 100 is outside 1..99")
        self.usage(["--min-area", "0", "-o", out, f], "--min-area: 0 is outside 1..100000")
        self.usage(["--backend", "tpu", "-o", out, f], "--backend: unknown backend “tpu” (auto, cpu or cuda)")
        self.usage(["-o", self.path("u.txt"), f],
                   f"{self.path('u.txt')}: unknown catalogue format; use a name ending in .csv or .fits")
        self.usage(["--labels", self.path("l.png"), "-o", out, f],
                   f"--labels: {self.path('l.png')} writes a FITS image; use a name ending in .fits")
        for flag in ("--kappa", "--threshold", "--filter"):
            proc = self.detect(flag, "nan", "-o", out, f, expect=2)
            self.assertIn(flag, proc.stderr)

    def test_params_check(self):
        """What lm_detect_params_check refuses within the flags' ranges is a usage error too."""
        for flag, value, word in (("--kappa", "0", "κ"), ("--mesh", "1", "mesh")):
            proc = self.detect(flag, value, "-o", self.path("u.csv"), self.field, expect=2)
            self.assertTrue(proc.stderr.endswith(TRY_HELP), lt.describe(proc))
            self.assertIn(word, proc.stderr)


class BadInput(DetectTest):
    def bad(self, path, *more):
        out = self.path("bad.csv")
        labels = self.path("bad-labels.fits")
        proc = self.detect("-o", out, "--labels", labels, *more, path, expect=1)
        self.assertTrue(proc.stderr.startswith("lumen-cli: ") and proc.stderr.count("\n") == 1,
                        lt.describe(proc))
        self.assertIn(os.path.basename(path).split("[")[0], proc.stderr)
        self.assertFalse(os.path.exists(out))
        self.assertFalse(os.path.exists(labels))
        self.assertEqual(lt.leftovers(self.dir), [])
        return proc

    def test_bad_inputs(self):
        self.bad(self.path("missing.fits"))
        text = self.path("notes.fits")
        with open(text, "w") as f:
            f.write("not a FITS file\n" * 300)
        self.bad(text)
        whole = lt.read_bytes(self.field)
        cut = self.path("cut.fits")
        with open(cut, "wb") as f:
            f.write(whole[: len(whole) // 2])
        self.bad(cut)
        table = self.path("table.fits")
        fits.HDUList([fits.PrimaryHDU(), fits.BinTableHDU(Table({"a": [1, 2]}))]).writeto(table)
        self.bad(table + "[1]")

    def test_unwritable(self):
        """An output in a folder that does not exist fails before the work."""
        proc = lt.run(["detect", "--backend", "cpu", "-o", self.path("no/such/c.csv"), self.field])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn("c.csv", proc.stderr)

    def test_cuda_without_device(self):
        """--backend cuda where no device is usable: one line saying why, exit 1, no file."""
        if lt.has_gpu() and lt.build_has_cuda():
            self.skipTest("a CUDA device is usable here")
        out = self.path("cuda.csv")
        proc = lt.run(["detect", "--backend", "cuda", "-o", out, self.field])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertRegex(proc.stderr, r"^lumen-cli: CUDA backend unavailable: .+\n$")
        self.assertFalse(os.path.exists(out))


class OutputsTogether(DetectTest):
    """The catalogue, the label image and the background map are committed together or not at
    all: a failure on the last leaves neither a new catalogue nor an old one replaced."""

    def detect_into(self, folder, env=None):
        cat, labels, maps = (os.path.join(folder, n) for n in ("c.csv", "l.fits", "b.fits"))
        proc = subprocess.run([lt.lumen_cli(), "detect", "--backend", "cpu", "-o", cat, "--labels", labels,
                               "--background", maps, self.field], capture_output=True, text=True,
                              env=dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="", **(env or {})), timeout=120)
        return proc, (cat, labels, maps)

    def small_disk(self, size):
        """A tmpfs of SIZE (root, as in CI; skipped elsewhere), unmounted at the test's end."""
        mnt = tempfile.mkdtemp(dir=self.dir)
        mount = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", mnt], capture_output=True,
                               text=True)
        if mount.returncode != 0:
            self.skipTest(f"cannot mount a small tmpfs to fill: {mount.stderr.strip()}")
        self.addCleanup(subprocess.run, ["umount", mnt], check=False)
        return mnt

    def write_old(self, paths):
        """Old outputs at PATHS; their bytes and inodes."""
        before = {}
        for p in paths:
            with open(p, "wb") as f:
                f.write(b"old " + os.path.basename(p).encode())
            before[p] = (lt.read_bytes(p), os.stat(p).st_ino)
        return before

    def assert_as_before(self, before):
        for p, (data, inode) in before.items():
            self.assertEqual(lt.read_bytes(p), data, f"{p} was replaced")
            self.assertEqual(os.stat(p).st_ino, inode, f"{p} is another file now")

    def test_full_disk(self):
        """Room for the catalogue (~20 KB) but not the label image (590 KB): exit 1 naming the
        labels and the full disk, and no output at all; old outputs stay as they were. The
        catalogue used to be committed before the labels failed."""
        mnt = self.small_disk("256k")
        proc, paths = self.detect_into(mnt)
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertRegex(proc.stderr, r"^lumen-cli: [^\n]*\.fits: [^\n]*(?i:no space left on device)\n$")
        self.assertEqual(os.listdir(mnt), [])
        before = self.write_old(paths)
        proc, _ = self.detect_into(mnt)
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assert_as_before(before)
        self.assertEqual(sorted(os.listdir(mnt)), ["b.fits", "c.csv", "l.fits"])

    def test_rename_fails(self):
        """The third rename fails (LUMEN_ATOMIC_FAIL_AT, the test hook of core/io/atomic-group.h)
        after two were done: those two are put back, the old files under their old inodes, and
        new outputs are removed; with hard links made to fail, the kept copies come back."""
        for fail in ("rename:3", "link,rename:3", "rename:2"):
            with self.subTest(fail=fail):
                folder = tempfile.mkdtemp(dir=self.dir)
                proc, paths = self.detect_into(folder, {"LUMEN_ATOMIC_FAIL_AT": fail})
                self.assertEqual(proc.returncode, 1, lt.describe(proc))
                self.assertEqual(proc.stderr.count("\n"), 1, lt.describe(proc))
                self.assertEqual(os.listdir(folder), [])
                before = self.write_old(paths)
                proc, _ = self.detect_into(folder, {"LUMEN_ATOMIC_FAIL_AT": fail})
                self.assertEqual(proc.returncode, 1, lt.describe(proc))
                if fail.startswith("link"):  # copies come back: the bytes, not the inodes
                    before = {p: (v[0], os.stat(p).st_ino) for p, v in before.items()}
                self.assert_as_before(before)
                self.assertEqual(sorted(os.listdir(folder)), ["b.fits", "c.csv", "l.fits"])
                proc, _ = self.detect_into(folder)
                self.assertEqual(proc.returncode, 0, lt.describe(proc))
                self.assertGreater(read_csv(paths[0])[1]["id"].size, 0)
                self.assertEqual(sorted(os.listdir(folder)), ["b.fits", "c.csv", "l.fits"])

    def test_output_is_a_node(self):
        """An output named by a fifo, a character device or a link to one is refused before the
        work, by name, and stays what it was; no other output is written either. The device is
        the test's own (/dev/full's numbers): a link to the real /dev/full would have it
        replaced wherever the defect is back, on the machine that runs the tests."""
        nodes = {"fifo.fits": stat.S_ISFIFO, "to-fifo.fits": stat.S_ISLNK}
        os.mkfifo(self.path("fifo.fits"))
        os.symlink("fifo.fits", self.path("to-fifo.fits"))
        try:
            os.mknod(self.path("full.fits"), 0o600 | stat.S_IFCHR, os.makedev(1, 7))
            os.symlink(self.path("full.fits"), self.path("to-full.fits"))
            nodes.update({"full.fits": stat.S_ISCHR, "to-full.fits": stat.S_ISLNK})
        except PermissionError:
            lt.say("  not root: no character device of our own")
        for flag in ("--labels", "--background", "-o"):
            for name, is_kind in nodes.items():
                with self.subTest(flag=flag, node=name):
                    out = self.path("node-cat.csv")
                    args = ["-o", self.path(name) if flag == "-o" else out]
                    if flag != "-o":
                        args += [flag, self.path(name)]
                    proc = self.detect(*args, self.field, expect=1)
                    self.assertRegex(proc.stderr, r"^lumen-cli: [^\n]*" + re.escape(name)
                                     + r": cannot write: [^\n]*not a regular file\n$")
                    self.assertTrue(is_kind(os.lstat(self.path(name)).st_mode))
                    self.assertFalse(os.path.exists(out))
        for name in nodes:
            self.assertFalse(stat.S_ISREG(os.stat(self.path(name)).st_mode), name)
        self.assertEqual(lt.leftovers(self.dir), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)

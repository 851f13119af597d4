"""The CPU reference of source detection (core/astro) against its oracles, step by step,
through tests/astro/detect-dump (LUMEN_DETECT_DUMP):

- lm_clip_stats against astropy.stats.sigma_clipped_stats (1e-6 relative) and SigmaClip's
  kept count, on several distributions;
- lm_label against scipy.ndimage.label, bit for bit, both structures, on the pipeline's masks
  and on random masks; lm_label_min_area against photutils' detect_sources;
- lm_measure against center_of_mass and sum_labels (1e-6 relative), maximum, find_objects
  and the moments computed with NumPy;
- the global background (MESH 0) against sigma_clipped_stats, the mesh background against
  sep.Background (a bound in units of the noise: the statistics and the spline differ, see
  core/astro/background.c);
- the whole pipeline against the truth of synthetic fields (tests/astro/fields.py).
Fields are at most 512² (most 384²), for CI's time.
"""
import os
import subprocess
import sys
import tempfile
import unittest
import warnings

import numpy as np
from scipy import ndimage

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fields  # noqa: E402

SOURCE_COLUMNS = ["label", "x", "y", "flux", "flux_raw", "background", "peak", "peak_x", "peak_y",
                  "area", "xmin", "ymin", "xmax", "ymax", "x2", "y2", "xy", "a", "b", "theta", "fwhm"]
STRUCTURES = {4: ndimage.generate_binary_structure(2, 1), 8: np.ones((3, 3), bool)}


def dump_program():
    path = os.environ.get("LUMEN_DETECT_DUMP")
    if not path or not os.access(path, os.X_OK):
        raise SystemExit("LUMEN_DETECT_DUMP is not set; run through `meson test`")
    return path


def rel_err(got, want, floor=0.0):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return np.max(np.abs(got - want) / np.maximum(np.abs(want), floor)) if got.size else 0.0


class Dump:
    """What detect-dump wrote for DATA with PARAMS."""

    def __init__(self, data, **params):
        data = np.ascontiguousarray(data, np.float32)
        self.data = data
        h, w = data.shape
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "in.f32")
            data.tofile(path)
            args = [dump_program(), path, str(w), str(h), tmp] + [f"{k}={v}" for k, v in params.items()]
            run = subprocess.run(args, capture_output=True, text=True)
            if run.returncode != 0:
                raise AssertionError(f"detect-dump failed: {run.stderr}")
            self.log = run.stderr.strip()

            def raw(name, dtype):
                return np.fromfile(os.path.join(tmp, name), dtype).reshape(h, w)

            self.background = raw("background.f32", np.float32)
            self.noise = raw("noise.f32", np.float32)
            self.mask = raw("mask.u8", np.uint8)
            self.labels_all = raw("labels.u32", np.uint32)
            self.labels = raw("labels-min.u32", np.uint32)
            with open(os.path.join(tmp, "stats.txt")) as f:
                s = f.read().split()
            self.mean, self.median, self.std = map(float, s[:3])
            self.count, self.iterations, self.n_all, self.n = map(int, s[3:])
            self.sources = self._table(os.path.join(tmp, "sources.txt"))
            self.detected = self._table(os.path.join(tmp, "detect.txt"))

    @staticmethod
    def _table(path):
        rows = np.loadtxt(path, ndmin=2) if os.path.getsize(path) else np.zeros((0, len(SOURCE_COLUMNS)))
        return {c: rows[:, i] for i, c in enumerate(SOURCE_COLUMNS)}


def clip(values, kappa=3.0, iterations=10):
    values = np.ascontiguousarray(values, np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "v.f32")
        values.tofile(path)
        out = subprocess.run([dump_program(), "clip", path, str(values.size), repr(kappa), str(iterations)],
                             capture_output=True, text=True, check=True).stdout.split()
    if out == ["none"]:
        return None
    return float(out[0]), float(out[1]), float(out[2]), int(out[3]), int(out[4])


class ClipTest(unittest.TestCase):
    def check(self, values, kappa=3.0, iterations=10):
        from astropy.stats import SigmaClip, sigma_clipped_stats
        got = clip(values, kappa, iterations)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mean, median, std = sigma_clipped_stats(values, sigma=kappa, maxiters=iterations,
                                                    cenfunc="median", stdfunc="std")
            clipper = SigmaClip(sigma=kappa, maxiters=iterations, cenfunc="median", stdfunc="std")
            kept = clipper(values, masked=False, axis=None)
        self.assertIsNotNone(got)
        scale = max(abs(float(median)), float(std), 1e-30)
        for name, g, w in (("mean", got[0], mean), ("median", got[1], median), ("std", got[2], std)):
            self.assertLessEqual(abs(g - float(w)), 1e-6 * max(abs(float(w)), 1e-3 * scale),
                                 f"{name}: {g!r} against astropy's {float(w)!r}")
        self.assertEqual(got[3], kept.size)
        self.assertEqual(got[4], clipper._niterations)

    def test_gaussian_with_outliers(self):
        rng = np.random.default_rng(1)
        v = rng.normal(1000.0, 10.0, 200_000).astype(np.float32)
        v[rng.integers(0, v.size, 2000)] += rng.uniform(50, 5000, 2000).astype(np.float32)
        self.check(v)
        self.check(v, kappa=2.5, iterations=3)

    def test_poisson(self):
        # Integers: many ties at the bounds, where the inclusive comparisons matter.
        rng = np.random.default_rng(2)
        self.check(rng.poisson(20.0, 100_001).astype(np.float32))
        self.check(rng.poisson(3.0, 50_000).astype(np.float32), kappa=2.0)

    def test_nans(self):
        rng = np.random.default_rng(3)
        v = rng.normal(0.0, 1.0, 10_000).astype(np.float32)
        v[::7] = np.nan
        v[5] = np.inf
        self.check(v)

    def test_tiny_and_equal(self):
        self.check(np.array([5.0], np.float32))
        self.check(np.array([1.0, 2.0], np.float32))
        self.check(np.array([1.0, 2.0, 100.0], np.float32))
        self.check(np.array([3.0, 1.0, 2.0, 1000.0, 2.5], np.float32), kappa=1.0)
        self.check(np.full(1000, 7.25, np.float32))
        self.assertIsNone(clip(np.full(10, np.nan, np.float32)))


class LabelTest(unittest.TestCase):
    def test_random_masks(self):
        rng = np.random.default_rng(4)
        for density in (0.45, 0.6):
            data = (rng.random((301, 257)) < density).astype(np.float32) * 100.0
            for conn in (4, 8):
                d = Dump(data, mesh=0, threshold=0.5, min_area=1, connectivity=conn)
                want, n = ndimage.label(d.mask, STRUCTURES[conn])
                self.assertEqual(d.n_all, n)
                np.testing.assert_array_equal(d.labels_all, want)

    def test_field_and_min_area(self):
        from photutils.segmentation import detect_sources
        f = fields.star_field(512, 384, n_stars=40, seed=5)
        for conn in (4, 8):
            d = Dump(f.data, mesh=64, connectivity=conn, min_area=5, threshold=3)
            want, n = ndimage.label(d.mask, STRUCTURES[conn])
            self.assertEqual(d.n_all, n)
            np.testing.assert_array_equal(d.labels_all, want)
            residual = f.data - d.background
            # photutils compares in double; our mask rounds threshold × σ to float.
            threshold = (np.float32(3) * d.noise.astype(np.float64)).astype(np.float32).astype(np.float64)
            segm = detect_sources(residual, threshold, npixels=5, connectivity=conn)
            np.testing.assert_array_equal(d.labels, segm.data)
            self.assertGreaterEqual(d.n, 35)


class MeasureTest(unittest.TestCase):
    def test_against_scipy(self):
        f = fields.star_field(384, 384, n_stars=40, seed=6, psf="moffat")
        for params in ({"mesh": 64}, {"mesh": 0, "connectivity": 8, "filter": 1.5}):
            d = Dump(f.data, **params)
            self.assertGreater(d.n, 30)
            index = np.arange(1, d.n + 1)
            residual = f.data - d.background
            s = d.sources
            np.testing.assert_array_equal(s["label"], index)
            com = np.array(ndimage.center_of_mass(residual, d.labels, index))
            self.assertLess(rel_err(s["y"], com[:, 0]), 1e-6)
            self.assertLess(rel_err(s["x"], com[:, 1]), 1e-6)
            self.assertLess(rel_err(s["flux"], ndimage.sum_labels(residual, d.labels, index)), 1e-6)
            self.assertLess(rel_err(s["flux_raw"], ndimage.sum_labels(f.data, d.labels, index)), 1e-6)
            self.assertLess(rel_err(s["background"], ndimage.sum_labels(d.background, d.labels, index)), 1e-6)
            np.testing.assert_array_equal(s["peak"].astype(np.float32),
                                          ndimage.maximum(residual, d.labels, index).astype(np.float32))
            np.testing.assert_array_equal(s["area"], ndimage.sum_labels(np.ones_like(residual), d.labels, index))
            for i, sl in enumerate(ndimage.find_objects(d.labels)):
                self.assertEqual((s["ymin"][i], s["ymax"][i]), (sl[0].start, sl[0].stop - 1))
                self.assertEqual((s["xmin"][i], s["xmax"][i]), (sl[1].start, sl[1].stop - 1))
                ys, xs = np.nonzero(d.labels == i + 1)
                v = residual[ys, xs].astype(np.float64)
                x2 = np.sum(v * (xs - s["x"][i]) ** 2) / v.sum()
                xy = np.sum(v * (xs - s["x"][i]) * (ys - s["y"][i])) / v.sum()
                self.assertLess(abs(s["x2"][i] - x2), 1e-6 * max(x2, 1.0))
                self.assertLess(abs(s["xy"][i] - xy), 1e-6 * max(abs(x2), 1.0))
            # lm_detect (padded rows, the CPU backend) gives the same sources as the steps.
            for c in SOURCE_COLUMNS:
                np.testing.assert_array_equal(d.detected[c], s[c])


class BackgroundTest(unittest.TestCase):
    def test_global(self):
        from astropy.stats import sigma_clipped_stats
        f = fields.star_field(256, 256, n_stars=20, seed=7, slope=(0.0, 0.0))
        d = Dump(f.data, mesh=0)
        mean, median, std = sigma_clipped_stats(f.data, sigma=3, maxiters=10)
        self.assertLess(rel_err(d.median, median), 1e-6)
        self.assertLess(rel_err(d.std, std), 1e-6)
        self.assertTrue(np.all(d.background == np.float32(d.median)))
        self.assertTrue(np.all(d.noise == np.float32(d.std)))

    def test_mesh_against_sep(self):
        import sep
        f = fields.star_field(512, 512, n_stars=60, seed=8, slope=(0.05, -0.03))
        d = Dump(f.data, mesh=64, mesh_filter=3)
        bkg = sep.Background(f.data.astype(np.float64), bw=64, bh=64, fw=3, fh=3)
        sigma = float(np.median(bkg.rms()))
        back_diff = np.max(np.abs(d.background - bkg.back())) / sigma
        rms_diff = np.max(np.abs(d.noise - bkg.rms()) / bkg.rms())
        truth_diff = np.max(np.abs(d.background - f.background)) / sigma
        print(f"mesh background against sep: back max |Δ| {back_diff:.4f} σ, rms max rel {rms_diff:.4f};"
              f" against the true sky {truth_diff:.4f} σ", file=sys.stderr)
        self.assertLess(back_diff, 0.05)
        self.assertLess(rms_diff, 0.05)
        self.assertLess(truth_diff, 0.3)


class TruthTest(unittest.TestCase):
    def check_truth(self, f, **params):
        d = Dump(f.data, **params)
        found = list(zip(d.sources["x"], d.sources["y"], d.sources["flux"]))
        pairs = fields.match(found, f.truth)
        self.assertEqual(len(pairs), len(f.truth))
        dx = np.array([found[j][0] - f.truth[i][0] for i, j in pairs])
        dy = np.array([found[j][1] - f.truth[i][1] for i, j in pairs])
        df = np.array([found[j][2] / f.truth[i][2] - 1 for i, j in pairs])
        rms = float(np.sqrt(np.mean(dx ** 2 + dy ** 2)))
        print(f"{len(pairs)} stars: position rms {rms:.4f} px, flux max |rel| {np.max(np.abs(df)):.4f}",
              file=sys.stderr)
        self.assertLess(rms, 0.05)
        self.assertLess(np.max(np.abs(df)), 0.01)

    def test_gaussian_stars(self):
        # S/N ≥ 50 throughout; threshold 3σ keeps the isophote's lost wings under 1 %.
        f = fields.star_field(384, 384, n_stars=30, seed=9, flux=(3e4, 1e5), noise_sigma=3.0, poisson=False)
        self.check_truth(f, threshold=3, mesh=64)

    def test_delta_grid(self):
        f = fields.delta_grid(384, 384, spacing=32, flux=1e4, sigma=1.5, level=50.0, noise_sigma=1.0)
        self.check_truth(f, threshold=3, mesh=0)


if __name__ == "__main__":
    unittest.main(verbosity=2)

"""lumen-cli detect on a real image of 2048² pixels: the ThAr arc thar5s.fit (4007×2671, BITPIX
16, ESO's MIDAS test data; its emission lines are thousands of compact sources), read through
cfitsio's image section [1:2048,1:2048] (the whole arc is the GPU parity's, for CI's time on
2 cores). Held against SciPy on the maps Lumen wrote: the label image is
scipy.ndimage.label of (data − background) > 5 σ (in detect.h's float arithmetic) with
8-connectivity and the small sources dropped, bit for bit; each source's centroid and fluxes are center_of_mass and sum_labels
within 1e-6 relative. Skipped, saying so, where eso-midas-testdata is not installed.
"""
import os
import sys
import tempfile
import unittest

import numpy as np
from astropy.io import fits
from scipy import ndimage

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "cli"))
import lumen_testlib as lt  # noqa: E402
import test_cli_detect as cli  # noqa: E402

ARC = "/usr/lib/eso-midas/22FEB/test/prim/thar5s.fit"
SECTION = "[1:2048,1:2048]"  # FITS counts from 1, x first
THRESHOLD, MIN_AREA = 5.0, 5


class Arc(unittest.TestCase):
    def test_arc_against_scipy(self):
        if not os.path.exists(ARC):
            self.skipTest(f"no {ARC} (eso-midas-testdata)")
        with tempfile.TemporaryDirectory(prefix="lumen-arc-") as tmp:
            out, labels, back = (os.path.join(tmp, n) for n in ("arc.csv", "labels.fits", "back.fits"))
            proc = lt.run(["detect", "--backend", "cpu", "--connectivity", "8", "--threshold", str(THRESHOLD),
                           "--min-area", str(MIN_AREA), "--labels", labels, "--background", back, "-o", out, ARC + SECTION])
            self.assertEqual(proc.returncode, 0, lt.describe(proc))
            data = fits.getdata(ARC)[:2048, :2048].astype(np.float32).astype(np.float64)
            got = fits.getdata(labels)
            self.assertEqual(got.shape, (2048, 2048))
            sky, noise = fits.getdata(back, 0).astype(np.float64), fits.getdata(back, "NOISE").astype(np.float64)
            _, cat = cli.read_csv(out)

        over = data - sky
        # The threshold as detect.h defines it, in the same arithmetic: the float residual
        # against THRESHOLD × noise rounded to float (so no pixel is a matter of rounding).
        residual = data.astype(np.float32) - sky.astype(np.float32)
        limit = (THRESHOLD * noise).astype(np.float32)
        want, n = ndimage.label(residual > limit, structure=np.ones((3, 3), bool))
        sizes = ndimage.sum_labels(np.ones_like(want), want, np.arange(1, n + 1))
        keep = np.concatenate([[0], np.cumsum(sizes >= MIN_AREA) * (sizes >= MIN_AREA)])
        want = keep[want]
        lt.say(f"thar5s.fit {data.shape[1]}×{data.shape[0]}: {want.max()} sources")
        np.testing.assert_array_equal(got, want)

        index = np.arange(1, want.max() + 1)
        self.assertEqual(len(cat["x"]), len(index))
        com = np.array(ndimage.center_of_mass(over, want, index))
        np.testing.assert_allclose(cat["y"], com[:, 0], rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(cat["x"], com[:, 1], rtol=1e-6, atol=1e-6)
        raw = ndimage.sum_labels(data, want, index)
        np.testing.assert_allclose(cat["flux_raw"], raw, rtol=1e-6)
        # The residual's sum may be near 0 where the raw sum is not: relative to the raw sum.
        flux = ndimage.sum_labels(over, want, index)
        self.assertLessEqual(float(np.max(np.abs(cat["flux"] - flux) / np.abs(raw))), 1e-6)
        np.testing.assert_array_equal(cat["area"], sizes[sizes >= MIN_AREA])


if __name__ == "__main__":
    unittest.main(verbosity=2)

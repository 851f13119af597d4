"""metrics.py against published answers: CIEDE2000 on the 34 test pairs of Sharma, Wu and Dalal
(2005), Table 1 (ΔE00 given to 4 decimals); the Rec. 2020 luminance row against BT.2020's
luma coefficients (0.2627, 0.6780, 0.0593); CPSNR of a known error; a known shift found."""

import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics  # noqa: E402

# L1 a1 b1 L2 a2 b2 ΔE00
SHARMA = """
50.0000 2.6772 -79.7751 50.0000 0.0000 -82.7485 2.0425
50.0000 3.1571 -77.2803 50.0000 0.0000 -82.7485 2.8615
50.0000 2.8361 -74.0200 50.0000 0.0000 -82.7485 3.4412
50.0000 -1.3802 -84.2814 50.0000 0.0000 -82.7485 1.0000
50.0000 -1.1848 -84.8006 50.0000 0.0000 -82.7485 1.0000
50.0000 -0.9009 -85.5211 50.0000 0.0000 -82.7485 1.0000
50.0000 0.0000 0.0000 50.0000 -1.0000 2.0000 2.3669
50.0000 -1.0000 2.0000 50.0000 0.0000 0.0000 2.3669
50.0000 2.4900 -0.0010 50.0000 -2.4900 0.0009 7.1792
50.0000 2.4900 -0.0010 50.0000 -2.4900 0.0010 7.1792
50.0000 2.4900 -0.0010 50.0000 -2.4900 0.0011 7.2195
50.0000 2.4900 -0.0010 50.0000 -2.4900 0.0012 7.2195
50.0000 -0.0010 2.4900 50.0000 0.0009 -2.4900 4.8045
50.0000 -0.0010 2.4900 50.0000 0.0010 -2.4900 4.8045
50.0000 -0.0010 2.4900 50.0000 0.0011 -2.4900 4.7461
50.0000 2.5000 0.0000 50.0000 0.0000 -2.5000 4.3065
50.0000 2.5000 0.0000 73.0000 25.0000 -18.0000 27.1492
50.0000 2.5000 0.0000 61.0000 -5.0000 29.0000 22.8977
50.0000 2.5000 0.0000 56.0000 -27.0000 -3.0000 31.9030
50.0000 2.5000 0.0000 58.0000 24.0000 15.0000 19.4535
50.0000 2.5000 0.0000 50.0000 3.1736 0.5854 1.0000
50.0000 2.5000 0.0000 50.0000 3.2972 0.0000 1.0000
50.0000 2.5000 0.0000 50.0000 1.8634 0.5757 1.0000
50.0000 2.5000 0.0000 50.0000 3.2592 0.3350 1.0000
60.2574 -34.0099 36.2677 60.4626 -34.1751 39.4387 1.2644
63.0109 -31.0961 -5.8663 62.8187 -29.7946 -4.0864 1.2630
61.2901 3.7196 -5.3901 61.4292 2.2480 -4.9620 1.8731
35.0831 -44.1164 3.7933 35.0232 -40.0716 1.5901 1.8645
22.7233 20.0904 -46.6940 23.0331 14.9730 -42.5619 2.0373
36.4612 47.8580 18.3852 36.2715 50.5065 21.2231 1.4146
90.8027 -2.0831 1.4410 91.1528 -1.6435 0.0447 1.4441
90.9257 -0.5406 -0.9208 88.6381 -0.8985 -0.7239 1.5381
6.7747 -0.2908 -2.4247 5.8714 -0.0985 -2.2286 0.6377
2.0776 0.0795 -1.1350 0.9033 -0.0636 -0.5514 0.9082
"""


class Metrics(unittest.TestCase):
    def test_ciede2000_sharma_pairs(self):
        t = np.array([[float(v) for v in line.split()] for line in SHARMA.strip().splitlines()])
        self.assertEqual(len(t), 34)
        got = metrics.ciede2000(t[:, 0:3], t[:, 3:6])
        np.testing.assert_allclose(got, t[:, 6], atol=5e-5)
        # The formula is symmetric in its two colours (the paper's pairs 7 and 8 show it).
        np.testing.assert_allclose(metrics.ciede2000(t[:, 3:6], t[:, 0:3]), got, atol=1e-12)

    def test_rec2020_luminance_row(self):
        np.testing.assert_allclose(metrics.REC2020_TO_XYZ[1], [0.2627, 0.6780, 0.0593], atol=5e-5)

    def test_lab_white_and_gray(self):
        np.testing.assert_allclose(metrics.lab(np.ones(3)), [100, 0, 0], atol=1e-9)
        np.testing.assert_allclose(metrics.lab(np.full(3, 0.18418651851244416)), [50, 0, 0],
                                   atol=1e-9)

    def test_cpsnr_known_error(self):
        truth = np.full((64, 64, 3), 0.5)
        out = truth + 0.01
        self.assertAlmostEqual(metrics.cpsnr(out, truth), 40.0, places=9)
        out[:16] = 0  # the border does not count
        self.assertAlmostEqual(metrics.cpsnr(out, truth), 40.0, places=9)

    def test_best_shift_finds_a_crop(self):
        rng = np.random.default_rng(1)
        truth = rng.random((80, 80, 3))
        self.assertEqual(metrics.best_shift(truth, truth), (0, 0))
        self.assertEqual(metrics.best_shift(np.roll(truth, (1, -2), axis=(0, 1)), truth), (1, -2))


if __name__ == '__main__':
    unittest.main()

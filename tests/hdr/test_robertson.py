"""lumen-cli hdr --method robertson against OpenCV on every stack: the merge against
cv2.MergeRobertson with the same response, the recovered response against
cv2.CalibrateRobertson, and a saved response reused (by Robertson and by Debevec).

OpenCV's CalibrateRobertson takes ~20 s on one 1024×512 stack on this machine's cores, so the
calibrations are compared on every other pixel of every other row (the stacks' own values,
not resampled): both implementations see the same samples, a quarter as many."""
import os
import unittest

import cv2
import numpy as np

from hdrlib import (HdrTest, STACKS, clipped_samples, exposures_file, lt, median_relative, rgbe,
                    robertson_definition, stack)


class Robertson(HdrTest):
    def test_against_opencv(self):
        """Radiance against cv2.MergeRobertson given Lumen's response, each divided by its
        median, on the pixels with no sample outside the measured levels (1..247) in any
        exposure: there the definitions are the same; elsewhere OpenCV still weighs the top
        levels and gives 0 where every sample is 0 or 255, a black dot in a light, and Lumen
        leaves them out and gives the clip value (tests/hdr/test_clipped.py). Lumen's .hdr file holds 8-bit
        mantissas with one exponent per pixel, so a channel far below the pixel's brightest
        keeps few bits: the comparison is made against OpenCV's radiance written the same way
        (median ≤ 1 %, 99th percentile ≤ 5 %), and against the float radiance per pixel's
        brightest channel (≤ 1 %: one mantissa step is at most 1/128 of it); every pixel
        against numpy's reading of Lumen's definition (hdrlib) likewise.

        The response against cv2.CalibrateRobertson's, on the levels that occur in the stack
        (OpenCV's are NaN on the others; Lumen bridges them so the curve can serve other
        stacks):
        ≤ 1 % relative. Both run the same iterations from the same start; OpenCV adds the
        curve's sums in float, over 10⁵–10⁶ samples per level, Lumen in double, and that
        rounding moves the curve by about 10⁻³ of its value."""
        # Under the sanitizers (CI's second build) the calibration is a minute a stack: one
        # stack there checks the memory, every stack here checks the numbers.
        for name in STACKS[:1] if os.environ.get("ASAN_OPTIONS") else STACKS:
            with self.subTest(stack=name):
                _, files, times = stack(name)
                ours = lt.imread(self.merge(name, "--method", "robertson"))
                response = np.loadtxt(self.path(name + ".resp"), dtype=np.float32)
                images = [lt.imread(f) for f in files]
                ref = cv2.createMergeRobertson().process(images, times.astype(np.float32),
                                                         response[:, ::-1].reshape(256, 1, 3).copy())
                same = ~clipped_samples(images).any(axis=(0, 3))
                rel = median_relative(ours[same], rgbe(ref, self.path("ref.hdr"))[same])
                per_pixel = (np.abs(ours - ref) / np.maximum(ref.max(axis=2, keepdims=True), 1e-12))[same]
                raw = median_relative(ours[same], ref[same])
                defined = robertson_definition([im[..., ::-1] for im in images], times, response)[..., ::-1]
                to_definition = np.abs(ours - defined) / defined.max(axis=2, keepdims=True)
                lt.say(f"{name}: {same.mean():.1%} of the pixels without a clipped sample: "
                       f"radiance against MergeRobertson (both .hdr): relative error median "
                       f"{np.median(rel):.4f}, 99th percentile {np.percentile(rel, 99):.4f}; against its "
                       f"float radiance: median {np.median(raw):.4f}, 99th percentile "
                       f"{np.percentile(raw, 99):.4f}, max per pixel's brightest channel {per_pixel.max():.4f}; "
                       f"every pixel against the definition: max {to_definition.max():.4f}")
                self.assertLessEqual(np.median(rel), 0.01)
                self.assertLessEqual(np.percentile(rel, 99), 0.05)
                self.assertLessEqual(per_pixel.max(), 0.01)
                self.assertLessEqual(to_definition.max(), 0.01)

                sparse = self.subsampled(name, images)
                lt.run_ok(self, ["hdr", "--method", "robertson", "--times", ",".join(repr(t) for t in times),
                                 "--response-out", self.path("sparse.resp"), "-o", self.path("sparse.hdr"),
                                 *sparse])
                response = np.loadtxt(self.path("sparse.resp"), dtype=np.float32)
                theirs = cv2.createCalibrateRobertson().process([lt.imread(p) for p in sparse],
                                                                times.astype(np.float32))[:, 0, ::-1]
                seen = np.isfinite(theirs) & (theirs > 0)
                delta = np.abs(response - theirs)[seen]
                relative = (delta / theirs[seen]).max()
                lt.say(f"{name}: response against CalibrateRobertson: max |Δ| {delta.max():.4g} "
                       f"(curves normalised to 1 at level 128), max relative {relative:.2e}, "
                       f"{np.count_nonzero(~seen)} levels absent from the stack bridged")
                self.assertLessEqual(relative, 0.01)
                self.assertTrue(np.all(response > 0))

    def subsampled(self, name, images):
        """Every other pixel of every other row of IMAGES, written as PNGs: their paths."""
        paths = [self.path(f"{name}-sparse-{i}.png") for i in range(len(images))]
        for p, im in zip(paths, images):
            cv2.imwrite(p, np.ascontiguousarray(im[::2, ::2]))
        return paths

    def test_absent_levels_bridged(self):
        """A stack whose odd levels never occur (posterised): OpenCV's curve is NaN there
        (0 samples × 1/0), so it could not serve another stack, and the NaN keeps its stopping
        rule from firing: it runs all 30 iterations where Lumen stops at the threshold.
        Lumen's curve equals OpenCV's on the even levels (≤ 1 %) and is the straight line
        between their values on the odd ones (the last, 255, takes 254's)."""
        name = STACKS[0]
        _, files, times = stack(name)
        images = [lt.imread(f)[::2, ::2] & 0xFE for f in files]
        paths = [self.path(f"even-{i}.png") for i in range(len(images))]
        for p, im in zip(paths, images):
            cv2.imwrite(p, im)
        lt.run_ok(self, ["hdr", "--method", "robertson", "--times", ",".join(repr(t) for t in times),
                         "--response-out", self.path("even.resp"), "-o", self.path("even.hdr"), *paths])
        ours = np.loadtxt(self.path("even.resp"), dtype=np.float32)
        theirs = cv2.createCalibrateRobertson().process(images, times.astype(np.float32))[:, 0, ::-1]
        self.assertTrue(np.all(~np.isfinite(theirs[1::2]) | (theirs[1::2] == 0)))
        relative = (np.abs(ours[0::2] - theirs[0::2]) / theirs[0::2]).max()
        between = (ours[0:254:2] + ours[2:256:2]) / 2
        bridge = np.abs(ours[1:255:2] - between).max() / between.max()
        lt.say(f"{name} posterised: even levels against CalibrateRobertson max relative {relative:.2e}; "
               f"odd levels off the straight line by {bridge:.1e} of the curve's top")
        self.assertLessEqual(relative, 0.01)
        self.assertLessEqual(bridge, 1e-6)
        np.testing.assert_array_equal(ours[255], ours[254])

    def test_response_reuse(self):
        """A saved Robertson response gives the same merge again, byte for byte, and serves
        Debevec's merge too (one convention: the exposure per level, 1 at level 128): its
        radiance is close to Robertson's (median relative difference ≤ 5 %)."""
        name = STACKS[0]
        first = lt.read_bytes(self.merge(name, "--method", "robertson", out="a.hdr"))
        resp = self.path(name + ".resp")
        lt.run_ok(self, ["hdr", "--method", "robertson", "--exposures", exposures_file(name), "--response-in", resp,
                         "-o", self.path("b.hdr")])
        self.assertEqual(first, lt.read_bytes(self.path("b.hdr")))
        lt.run_ok(self, ["hdr", "--method", "debevec", "--exposures", exposures_file(name), "--response-in", resp,
                         "-o", self.path("c.hdr")])
        rel = median_relative(lt.imread(self.path("c.hdr")), lt.imread(self.path("a.hdr")))
        lt.say(f"{name}: Debevec with Robertson's curve against Robertson: median relative difference "
               f"{np.median(rel):.4f}")
        self.assertLessEqual(np.median(rel), 0.05)


if __name__ == "__main__":
    unittest.main(verbosity=2)

"""Light sources clipped in every exposure, and shadows black in every exposure, through
lumen-cli hdr (Debevec and Robertson on 8-bit exposures, the linear merge of 16-bit ones).

The stack is made here from a known radiance map: a white lamp whose core is far brighter than
the shortest exposure can hold, fading radially into a tinted wall, its red clipped in every
exposure farther out than its blue; a patch darker than the
longest exposure can see; a gray patch; and a ramp over 22 stops of varied colour from which the response is
calibrated. Each exposure is the radiance times its time through a camera of gamma 2.2,
clipped at 1 and quantized to 8 bits (or, for 16 bits, linear data as a raw converter writes
it).

A sample at 0 or 255 bounds the radiance; it does not measure it. OpenCV's MergeDebevec still
weighs it (its triangle weight is 1 there, against 2 for its neighbour 254), so a core clipped
in every exposure comes out as the geometric mean of the exposures' clip levels, stops darker
than the rim where the shortest exposure still sees: a black dot with a bright ring, coloured
where the channels clip at different radii. MergeRobertson gives 0 there. The merge must give the
core the brightest radiance it can have (white, at least that of every pixel the shortest
exposure sees unclipped), the profile must fall monotonically from the core outwards in each
channel, and the black patch must be no brighter than the darkest pixel seen.
"""
import os
import unittest

import cv2
import numpy as np

from hdrlib import HdrTest, lt, opencv_mertens

W, H = 256, 160
TIMES = [1 / 256, 1 / 32, 1 / 4, 2.0]
GAMMA = 2.2  # the same curve in every channel, as a white-balanced camera's JPEGs have
LAMP = (192, 80)       # centre x, y
CORE = 9.0             # radius of the flat core, pixels
PROFILE = 40           # radii checked: the lamp outshines the wall within them
DARK = (slice(120, 150), slice(140, 170))  # rows, columns of the unseen patch
GRAY = (slice(135, 155), slice(60, 90))    # a neutral patch, seen in every exposure


def radiance_map():
    """RGB radiance, float64: a ramp (left), the lamp on a wall (right), the dark patch."""
    y, x = np.mgrid[0:H, 0:W].astype(np.float64)
    rad = np.empty((H, W, 3))
    # The ramp (left of x = 128): 1e-5 .. 40 along x, its tint turning along y, so every level
    # of every channel occurs in some exposure and the calibration sees them.
    level = np.exp(np.log(1e-5) + (np.log(40.0) - np.log(1e-5)) * np.minimum(x / 127, 1))
    for c in range(3):
        rad[..., c] = level * (0.55 + 0.45 * np.cos(2 * np.pi * (y / H + c / 3)))
    # The wall (right of x = 128) lit by a warm lamp: 2000 in the core's red, 700 in its
    # blue (the shortest exposure clips at 256), falling by e every 5 pixels: red is clipped
    # in every exposure farther out than blue, the rim where OpenCV's colours fringe.
    r = np.hypot(x - LAMP[0], y - LAMP[1])
    lamp = 2000.0 * np.exp(-np.maximum(r - CORE, 0.0) / 5.0)
    wall = x >= 128
    for c, (paint, tint) in enumerate(zip((0.02, 0.012, 0.008), (1.0, 0.6, 0.35))):
        rad[..., c] = np.where(wall, paint + tint * lamp, rad[..., c])
    # Below what the longest exposure's first level needs (about 2e-6).
    rad[DARK[0], DARK[1], :] = 1e-8
    rad[GRAY[0], GRAY[1], :] = 0.03
    return rad, r


def exposures(rad, depth):
    """RGB uint8 (through the per-channel gamma) or uint16 (linear) exposures."""
    out = []
    for t in TIMES:
        x = np.clip(rad * t, 0.0, 1.0)
        if depth == 8:
            out.append(np.floor(255.0 * x ** (1.0 / GAMMA) + 0.5).astype(np.uint8))
        else:
            out.append(np.floor(65535.0 * x + 0.5).astype(np.uint16))
    return out


class Clipped(HdrTest):
    def make_stack(self, depth):
        rad, r = radiance_map()
        images = exposures(rad, depth)
        lines = []
        for i, im in enumerate(images):
            name = f"e{depth}-{i}.png"
            self.assertTrue(cv2.imwrite(self.path(name), np.ascontiguousarray(im[..., ::-1])))
            lines.append(f"{name} {TIMES[i]!r}\n")
        with open(self.path(f"exposures{depth}.txt"), "w") as f:
            f.writelines(lines)
        full = 255 if depth == 8 else 65535
        short, long_ = images[int(np.argmin(TIMES))], images[int(np.argmax(TIMES))]
        core = (images[0] == full).all(axis=2)
        for im in images:
            core &= (im == full).all(axis=2)
        black = (long_ == 0).all(axis=2)
        # The premise: a core clipped in every exposure (every channel), a patch black in every
        # one, a rim that the shortest exposure sees, within the profile's radii.
        self.assertTrue(core[r < CORE].all())
        self.assertTrue(black[DARK].all())
        seen = [((im > 0) & (im < full)).all(axis=2) for im in (short, long_)]
        return r, core, black, seen[0], seen[1]

    def merged(self, depth, method, *extra):
        out = self.path(f"{method}{depth}.hdr")
        lt.run_ok(self, ["hdr", "--method", method, "--exposures", self.path(f"exposures{depth}.txt"), *extra,
                         "-o", out])
        rgb = lt.imread(out)[..., ::-1].astype(np.float64)
        self.assertTrue(np.isfinite(rgb).all())
        return rgb

    def camera_response(self):
        """The camera's curve as a response file: the exposure of each level, 1 at 128 (level
        0's, which no exposure measures, taken at half a level)."""
        levels = np.maximum(np.arange(256), 0.5) / 128.0
        path = self.path("camera.resp")
        np.savetxt(path, np.repeat((levels ** GAMMA)[:, None], 3, axis=1), fmt="%.9g")
        return path

    def check(self, depth, method):
        r, core, black, seen_short, seen_long = self.make_stack(depth)
        rad = self.merged(depth, method)
        label = f"{method} {depth}-bit"
        # Every defect is measured and reported before the test fails on the first.
        problems = []

        def expect(ok, what):
            if not ok:
                problems.append(what)

        # The core: at least as bright as any pixel the shortest exposure sees unclipped, in
        # every channel.
        core_px = rad[core]
        brightest_seen = rad[seen_short].max(axis=0)
        lt.say(f"{label}: core {core_px.min(axis=0).round(4)}..{core_px.max(axis=0).round(4)}, brightest "
               f"unclipped pixel {brightest_seen.round(4)}")
        expect((core_px.min(axis=0) >= 0.99 * brightest_seen).all(), "the core is darker than its rim")

        # And white, as a neutral patch comes out. Through the camera's own curve: a calibrated
        # one is as good as its top levels, where OpenCV's CalibrateDebevec system (whose
        # solution Lumen's is) bends each channel its own way on this stack.
        known = self.merged(depth, method, *(["--response-in", self.camera_response()] if depth == 8 else []))
        white = known[GRAY].reshape(-1, 3).mean(axis=0)
        white /= white.sum()
        hue = known[core] / known[core].sum(axis=1, keepdims=True)
        lt.say(f"{label}: the camera's curve: core's colour {hue.mean(axis=0).round(4)}, a gray patch's "
               f"{white.round(4)}")
        expect(np.abs(hue / white - 1).max() <= 0.01, "the core is not white")

        # Monotone from the core outwards: each channel's mean over rings one pixel wide.
        ring = np.floor(r).astype(int)
        means = np.array([[rad[..., c][ring == k].mean() for c in range(3)] for k in range(PROFILE)])
        rises = means[1:] / means[:-1]
        worst = np.unravel_index(np.argmax(rises), rises.shape)
        lt.say(f"{label}: radial profile, largest rise outwards ×{rises.max():.4f} at radius "
               f"{worst[0] + 1} ({'RGB'[worst[1]]}); core {means[0].round(3)}, radius {CORE + 1:.0f} "
               f"{means[int(CORE) + 1].round(3)}")
        expect(rises.max() <= 1.01, "a dark ring around the clipped core")

        # The patch black in every exposure: the darkest value, not lifted by the exposures
        # whose floor it is (OpenCV's geometric mean of their floors).
        darkest_seen = rad[seen_long & ~black].min(axis=0)
        black_px = rad[black & (r > PROFILE)]
        lt.say(f"{label}: black patch up to {black_px.max(axis=0)}, darkest pixel seen {darkest_seen}")
        expect((black_px.max(axis=0) <= 1.01 * darkest_seen).all(), "the black patch is brighter than what is seen")
        self.assertEqual(problems, [], label)

    def test_mertens_8bit(self):
        """Exposure fusion weighs no clipped sample against a measure (a white pixel scores 0 on
        contrast and saturation in every exposure): the lamp fuses to white and the profile
        falls from it, as cv2.MergeMertens gives it (within 0.5 of 255 on each ring's mean; the
        pyramids' blend wobbles by 1.6 where the longer exposures take over, in OpenCV's too)."""
        r, core, _, _, _ = self.make_stack(8)
        out = self.path("fused.png")
        lt.run_ok(self, ["hdr", "--method", "mertens", "--exposures", self.path("exposures8.txt"), "-o", out])
        fused = lt.imread(out)[..., ::-1].astype(np.float64)
        ref = opencv_mertens([lt.imread(self.path(f"e8-{i}.png")) for i in range(len(TIMES))])[..., ::-1]
        ring = np.floor(r).astype(int)

        def profile(im):
            return np.array([[im[..., c][ring == k].mean() for c in range(3)] for k in range(PROFILE)])

        ours, theirs = profile(fused), profile(ref.astype(np.float64))
        rises = ours[1:] - ours[:-1]
        lt.say(f"mertens 8-bit: core {fused[core].min(axis=0)}, largest rise outwards {rises.max():.2f} of 255, "
               f"largest difference from MergeMertens's profile {np.abs(ours - theirs).max():.2f}")
        self.assertTrue((fused[core] == 255).all())
        self.assertLessEqual(rises.max(), 2.0)
        self.assertLessEqual(np.abs(ours - theirs).max(), 0.5)

    def test_debevec_8bit(self):
        self.check(8, "debevec")

    def test_robertson_8bit(self):
        self.check(8, "robertson")

    def test_debevec_16bit(self):
        self.check(16, "debevec")

    def test_robertson_16bit(self):
        self.check(16, "robertson")


if __name__ == "__main__":
    unittest.main(verbosity=2)

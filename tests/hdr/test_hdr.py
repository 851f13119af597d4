"""lumen-cli hdr against OpenCV on every bracketed stack of the shared data (../shared/data/hdr):
the Debevec merge, the recovered response, the tone mappers, the defaults, and stacks that
cannot be merged (by every method). Robertson, Mertens and the alignment have their own files
beside this one; hdrlib.py holds what they share.

OpenCV reads BGR; Lumen's response files are R, G, B. OpenCV's tone mappers take their input
as RGB (they call RGB2GRAY), so the radiance is handed to them in RGB order."""
import os
import unittest

import cv2
import numpy as np

from hdrlib import (HdrTest, STACKS, clipped_samples, debevec_definition, debevec_system, exposures_file, lt,
                    median_relative, stack)


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


class Merge(HdrTest):
    def test_debevec_against_opencv(self):
        """Radiance against cv2.MergeDebevec with the same response, each divided by its median,
        on the pixels with no sample outside the measured levels (1..247) in any exposure, where
        the definitions are the same: median relative error ≤ 1 %, 99th percentile ≤ 5 % (the .hdr file itself
        holds 8-bit mantissas, about 0.4 % steps). OpenCV still weighs the others (a light
        clipped in every exposure comes out dark, tests/hdr/test_clipped.py), Lumen leaves them
        out: every pixel against numpy's reading of Lumen's definition (hdrlib), within 1 % of
        the pixel's brightest channel (one mantissa step is at most 1/128 of it)."""
        for name in STACKS:
            with self.subTest(stack=name):
                _, files, times = stack(name)
                ours = lt.imread(self.merge(name))
                response = np.loadtxt(self.path(name + ".resp"), dtype=np.float32)
                images = [cv2.imread(f) for f in files]
                ref = cv2.createMergeDebevec().process(images, times.astype(np.float32),
                                                       response[:, ::-1].reshape(256, 1, 3).copy())
                clean = ~clipped_samples(images).any(axis=(0, 3))
                rel = median_relative(ours[clean], ref[clean])
                defined = debevec_definition([im[..., ::-1] for im in images], times, response)[..., ::-1]
                per_pixel = np.abs(ours - defined) / defined.max(axis=2, keepdims=True)
                lt.say(f"{name}: {clean.mean():.1%} of the pixels without a clipped sample: relative error "
                       f"median {np.median(rel):.4f}, 99th percentile {np.percentile(rel, 99):.4f}; every "
                       f"pixel against the definition: max {per_pixel.max():.4f} of its brightest channel")
                self.assertLessEqual(np.median(rel), 0.01)
                self.assertLessEqual(np.percentile(rel, 99), 0.05)
                self.assertLessEqual(per_pixel.max(), 0.01)

    def test_response_solves_opencvs_system(self):
        """The recovered ln response equals the double-precision least-squares solution of
        OpenCV's CalibrateDebevec system (to 1e-4); cv2.createCalibrateDebevec itself solves it
        in single precision, and how far its curve lands is reported."""
        for name in STACKS:
            with self.subTest(stack=name):
                _, files, times = stack(name)
                self.merge(name)
                ours = np.log(np.loadtxt(self.path(name + ".resp")))[:, ::-1]  # to BGR
                images = [cv2.imread(f) for f in files]
                exact = debevec_system(images, times)
                theirs = np.log(cv2.createCalibrateDebevec().process(images, times.astype(np.float32))[:, 0, :])
                lt.say(f"{name}: max |Δ ln response| against the double-precision solution "
                       f"{np.abs(ours - exact).max():.2e}, against cv2.createCalibrateDebevec "
                       f"{np.abs(ours - theirs).max():.3f} (levels 20..235: "
                       f"{np.abs(ours - theirs)[20:236].max():.3f})")
                self.assertLess(np.abs(ours - exact).max(), 1e-4)

    def test_response_in_gives_the_same(self):
        name = STACKS[0]
        first = lt.read_bytes(self.merge(name, out="a.hdr"))
        folder, _, _ = stack(name)
        lt.run_ok(self, ["hdr", "--exposures", os.path.join(folder, "exposures.txt"), "--response-in",
                         self.path(name + ".resp"), "-o", self.path("b.hdr")])
        self.assertEqual(first, lt.read_bytes(self.path("b.hdr")))

    def test_exif_times(self):
        """Without --exposures the JPEGs' EXIF ExposureTime is used: the merge agrees with the
        one from exposures.txt (whose decimals round the same fractions: 0.033333333 for 1/30)
        to 0.1 %, and is not what wrong times would give."""
        for name in STACKS:
            _, files, times = stack(name)
            if not files[0].lower().endswith(".jpg"):
                continue
            with self.subTest(stack=name):
                by_file = lt.imread(self.merge(name, out="by-file.hdr"))
                lt.run_ok(self, ["hdr", "-o", self.path("by-exif.hdr"), *files])
                by_exif = lt.imread(self.path("by-exif.hdr"))
                rel = np.abs(by_exif - by_file) / np.maximum(by_file, 1e-6)
                lt.say(f"{name}: EXIF times against exposures.txt: median relative difference "
                       f"{np.median(rel):.2e}")
                self.assertLess(np.median(rel), 1e-3)
                wrong = ",".join(str(t * 2 if i == 0 else t) for i, t in enumerate(times))
                lt.run_ok(self, ["hdr", "--times", wrong, "-o", self.path("wrong.hdr"), *files])
                rel_wrong = np.abs(lt.imread(self.path("wrong.hdr")) - by_file) / np.maximum(by_file, 1e-6)
                self.assertGreater(np.median(rel_wrong), 1e-3)


class Tonemap(HdrTest):
    # OpenCV's defaults of each operator: Lumen's own are a look (tests/hdr/test_tone_defaults.py).
    OPENCV = {"reinhard": ["--gamma", "1", "--intensity", "0", "--light-adapt", "1", "--color-adapt", "0"],
              "drago": ["--gamma", "1", "--saturation", "1", "--bias", "0.85"], "gamma": ["--gamma", "1"]}

    def tonemapped(self, name, op):
        self.merge(name)
        folder, _, _ = stack(name)
        out = self.path(f"{op}.png")
        lt.run_ok(self, ["hdr", "--exposures", os.path.join(folder, "exposures.txt"), "--response-in",
                         self.path(name + ".resp"), "--tonemap", op, *self.OPENCV[op], "-o", out])
        return lt.imread(out)

    def opencv(self, name, mapper):
        rgb = cv2.cvtColor(lt.imread(self.path("radiance.hdr")), cv2.COLOR_BGR2RGB)
        out = np.clip(np.nan_to_num(mapper.process(rgb)) * 255, 0, 255)
        return np.round(cv2.cvtColor(out.astype(np.float32), cv2.COLOR_RGB2BGR))

    def test_against_opencv(self):
        """Reinhard, Drago and gamma against OpenCV's on the same radiance: PSNR ≥ 35 dB.
        A fresh OpenCV mapper each time: TonemapReinhard's process() overwrites its own
        intensity with exp(−intensity), so a reused one maps the next image differently."""
        mappers = {"reinhard": cv2.createTonemapReinhard, "drago": cv2.createTonemapDrago,
                   "gamma": lambda: cv2.createTonemap(1.0)}
        for name in STACKS:
            for op, make in mappers.items():
                with self.subTest(stack=name, tonemap=op):
                    ours = self.tonemapped(name, op)
                    theirs = self.opencv(name, make ())
                    value = psnr(ours, theirs)
                    lt.say(f"{name} {op}: PSNR {value:.1f} dB")
                    self.assertGreaterEqual(value, 35.0)


class Defaults(HdrTest):
    def test_tonemap_defaults(self):
        """An 8-bit output of a radiance method is tone mapped by Reinhard unless told
        otherwise, and --tonemap none (0..1 clipped) is allowed: it is another image."""
        name = STACKS[0]
        self.merge(name, out="default.png")
        lt.run_ok(self, ["hdr", "--exposures", exposures_file(name), "--response-in", self.path(name + ".resp"),
                         "--tonemap", "reinhard", "-o", self.path("reinhard.png")])
        lt.run_ok(self, ["hdr", "--exposures", exposures_file(name), "--response-in", self.path(name + ".resp"),
                         "--tonemap", "none", "-o", self.path("none.png")])
        default, reinhard = lt.imread(self.path("default.png")), lt.imread(self.path("reinhard.png"))
        self.assertEqual(lt.diff(default, reinhard)[0], 0)
        self.assertGreater(lt.diff(default, lt.imread(self.path("none.png")))[1], 1.0)


class BadStacks(HdrTest):
    def test_bad_stacks(self):
        """Each method refuses what cannot be merged, with one line naming the cause (and the
        file where one is to blame), and writes nothing: exit 2 for usage, 1 for the rest."""
        _, files, _ = stack("forest")
        small = self.path("small.jpg")
        cv2.imwrite(small, cv2.resize(cv2.imread(files[1]), (100, 50)))
        broken = self.path("broken.jpg")
        data = lt.read_bytes(files[1])
        with open(broken, "wb") as f:
            f.write(data[: len(data) // 2])
        for method in ("debevec", "robertson", "mertens"):
            with self.subTest(method=method):
                m = ["--method", method]
                self.assertRefused([*m, files[0]], "two")
                self.assertRefused([*m, "--times", "0.01,0.02", files[0], small], "small.jpg", "size")
                self.assertRefused([*m, "--times", "0.01,0.02", files[0], broken], "broken.jpg", "truncated")
                self.assertRefused([*m, "--times", "0.01,0.02", files[0], self.path("missing.jpg")], "missing.jpg")
                if method == "mertens":
                    # No times asked for: the stack's own checks are reached without EXIF.
                    self.assertRefused([*m, files[0], small], "small.jpg", "size", out="out.png")
                    continue
                self.assertRefused([*m, files[0], small], "small.jpg", "exposure time")
                self.assertRefused([*m, "--times", "0.01,0", files[0], files[1]], "positive")
                self.assertRefused([*m, "--times", "0.01,-1", files[0], files[1]], "positive")
                self.assertRefused([*m, "--times", "0.01,0.01", files[0], files[1]], "same exposure time")
                self.assertRefused([*m, "--times", "0.01", files[0], files[1]], "times", codes=(2,))

    def test_usage(self):
        _, files, _ = stack("forest")
        self.assertRefused(["--method", "mertens", "--response-in", self.path("r.txt"), *files[:2]],
                           "response", out="out.png", codes=(2,))
        self.assertRefused(["--method", "mertens", "--response-out", self.path("r.txt"), *files[:2]],
                           "response", out="out.png", codes=(2,))
        self.assertFalse(os.path.exists(self.path("r.txt")))
        self.assertRefused(["--method", "ward", *files[:2]], "--method", codes=(2,))
        self.assertRefused(["--exposures", exposures_file("forest"), "--tonemap", "drago"], ".hdr", codes=(2,))

    def test_cuda_unavailable(self):
        """--backend cuda where it cannot run the merge (no CUDA in the build, no device, or a
        backend without the HDR steps) says why on one line, exit 1, nothing written."""
        if lt.has_gpu() and lt.build_has_cuda():
            self.skipTest("a CUDA device is usable here: the GPU suite covers --backend cuda")
        self.assertRefused(["--backend", "cuda", "--exposures", exposures_file("forest")], "cuda", codes=(1,))
        self.assertRefused(["--backend", "cuda", "--method", "mertens", "--exposures", exposures_file("forest")],
                           "cuda", out="out.png", codes=(1,))


if __name__ == "__main__":
    unittest.main(verbosity=2)

"""OpenEXR output of lumen-cli hdr and batch, read back by OpenCV (OPENCV_IO_ENABLE_OPENEXR):
half-float R, G, B in ZIP-compressed scanlines, equal to OpenCV's float MergeDebevec (same
images, same response) within half precision (2^-11 relative) where no sample is clipped, and
to numpy's reading of Lumen's merge everywhere, where the Radiance .hdr of the
same merge is only within its 8-bit mantissas; negatives clamped; refused where it cannot be
written, leaving nothing behind. Skips when the build has no OpenEXR (the refusal is tested
then instead)."""
import os
import struct

os.environ["OPENCV_IO_ENABLE_OPENEXR"] = "1"  # before cv2 is imported: OpenCV reads EXR only then

import unittest  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from hdrlib import (CORPUS_STACKS, HdrTest, STACKS, clipped_samples, debevec_definition,  # noqa: E402
                    exposures_file, lt, stack)

HALF_EPS = 2.0 ** -11  # half's relative rounding bound (round to nearest, 11-bit significand)


def exr_header(path):
    """{attribute name: (type, raw bytes)} of a single-part EXR file's header."""
    data = lt.read_bytes(path)
    assert data[:4] == b"\x76\x2f\x31\x01", f"{path}: not an OpenEXR file"
    pos, attrs = 8, {}
    while data[pos] != 0:
        end = data.index(b"\0", pos)
        name = data[pos:end].decode()
        tend = data.index(b"\0", end + 1)
        kind = data[end + 1:tend].decode()
        (size,) = struct.unpack_from("<i", data, tend + 1)
        attrs[name] = (kind, data[tend + 5:tend + 5 + size])
        pos = tend + 5 + size
    return attrs


def exr_channels(path):
    """[(name, pixel type)] of the file's channel list; pixel type 1 is HALF, 2 FLOAT."""
    kind, raw = exr_header(path)["channels"]
    assert kind == "chlist"
    out, pos = [], 0
    while raw[pos] != 0:
        end = raw.index(b"\0", pos)
        (ptype,) = struct.unpack_from("<i", raw, end + 1)
        out.append((raw[pos:end].decode(), ptype))
        pos = end + 1 + 16
    return out


def build_writes_exr():
    proc = lt.run(["batch", "--format", "exr", "--progress", "none", "-o", "/nonexistent-lumen-probe",
                   "/nonexistent-lumen-probe"])
    return "without the OpenEXR library" not in proc.stderr


@unittest.skipUnless(build_writes_exr(), "this build has no OpenEXR")
class Exr(HdrTest):
    def test_debevec_against_opencv_float(self):
        """Against OpenCV's float merge where the definitions agree (no sample outside the
        measured levels, hdrlib.clipped_samples), and every pixel against numpy's float64
        reading of Lumen's definition: within half precision."""
        for name in STACKS[:2]:
            with self.subTest(stack=name):
                _, files, times = stack(name)
                exr = self.merge(name, out="radiance.exr")
                response = np.loadtxt(self.path(name + ".resp"), dtype=np.float32)
                lt.run_ok(self, ["hdr", "--exposures", exposures_file(name), "--response-in",
                                 self.path(name + ".resp"), "-o", self.path("radiance.hdr")])
                images = [cv2.imread(f) for f in files]
                ref = cv2.createMergeDebevec().process(images, times.astype(np.float32),
                                                       response[:, ::-1].reshape(256, 1, 3).copy())
                ours = lt.imread(exr)
                self.assertEqual(ours.dtype, np.float32)
                self.assertEqual(ours.shape, ref.shape)
                clean = ~clipped_samples(images).any(axis=(0, 3))
                rel = (np.abs(ours - ref) / ref)[clean]
                rgbe = (np.abs(lt.imread(self.path("radiance.hdr")) - ref) / ref)[clean]
                defined = debevec_definition([im[..., ::-1] for im in images], times, response)[..., ::-1]
                to_definition = np.abs(ours - defined) / defined
                lt.say(f"{name}: .exr against OpenCV's float merge on the {clean.mean():.1%} of pixels without a "
                       f"clipped sample: relative error median {np.median(rel):.2e}, max {rel.max():.2e} (the .hdr: "
                       f"median {np.median(rgbe):.2e}, max {rgbe.max():.2e}); every pixel against the definition: "
                       f"max {to_definition.max():.2e}")
                self.assertLessEqual(rel.max(), HALF_EPS * 1.05 + 1e-5)
                self.assertLess(np.median(rel), np.median(rgbe) / 4)
                self.assertLessEqual(to_definition.max(), HALF_EPS * 1.05 + 1e-5)

    def test_file_layout(self):
        """Half-float R, G, B (radiance is opaque: no A), ZIP compression, scanlines."""
        name = STACKS[0]
        exr = self.merge(name, out="radiance.exr")
        self.assertEqual(exr_channels(exr), [("B", 1), ("G", 1), ("R", 1)])
        attrs = exr_header(exr)
        self.assertEqual(attrs["compression"], ("compression", bytes([3])))  # ZIP_COMPRESSION
        self.assertNotIn("tiles", attrs)

    def test_mertens_clamped(self):
        """Fusion dips below 0 at strong edges: the .exr holds 0 there, as the .hdr does, and
        equals the 8-bit fusion (tone mapping none: ×255, clipped, rounded) within rounding.
        The PNG crops carry no EXIF times and none are given: fusion needs none."""
        photo = lt.imread(os.path.join(lt.photos_dir(), "astronaut.tif"), cv2.IMREAD_COLOR)
        files = []
        for i, gain in enumerate((0.4, 1.0, 2.2)):
            files.append(self.path(f"e{i}.png"))
            cv2.imwrite(files[-1], np.clip(np.round(photo * gain), 0, 255).astype(np.uint8))
        lt.run_ok(self, ["hdr", "--method", "mertens", "-o", self.path("fused.exr"), *files])
        lt.run_ok(self, ["hdr", "--method", "mertens", "-o", self.path("fused.png"), *files])
        fused = lt.imread(self.path("fused.exr"))
        eight = lt.imread(self.path("fused.png")).astype(np.float32)
        self.assertTrue(np.isfinite(fused).all())
        self.assertGreaterEqual(fused.min(), 0.0)
        delta = np.abs(np.clip(fused * 255.0, 0, 255) - eight)
        lt.say(f"mertens .exr ×255 against the 8-bit fusion: max |Δ| {delta.max():.3f}")
        self.assertLessEqual(delta.max(), 0.5 + 255 * HALF_EPS)

    def test_batch(self):
        """lumen-cli batch --format exr writes one .exr per stack, the same radiance as
        lumen-cli hdr writes for that stack."""
        out = self.path("batch")
        scenes = os.path.dirname(os.path.dirname(exposures_file(CORPUS_STACKS[0])))
        lt.run_ok(self, ["batch", "--format", "exr", "--progress", "none", "-o", out, scenes])
        for name in CORPUS_STACKS:
            self.assertTrue(os.path.exists(os.path.join(out, name + ".exr")), name)
        single = lt.imread(self.merge(STACKS[0], out="single.exr"))
        batch = lt.imread(os.path.join(out, STACKS[0] + ".exr"))
        self.assertEqual(np.abs(single - batch).max(), 0.0)
        self.assertEqual(lt.leftovers(out), [])

    def test_refused(self):
        """A missing folder, a tone mapper asked for radiance, radiance asked of the photo
        operations: exit 1 or 2, one line naming the cause, nothing written."""
        name = STACKS[0]
        proc = self.assertRefused(["--exposures", exposures_file(name)], "does not exist",
                                  out=os.path.join("missing", "out.exr"), codes=(1,))
        self.assertIn("missing", proc.stderr)
        self.assertRefused(["--exposures", exposures_file(name), "--tonemap", "reinhard"], "radiance",
                           out="out.exr", codes=(2,))
        photo = os.path.join(lt.photos_dir(), "chelsea.png")
        proc = lt.run(["--gray", "luminosity", "-o", self.path("gray.exr"), photo])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn("lumen-cli hdr", proc.stderr)
        self.assertFalse(os.path.exists(self.path("gray.exr")))
        self.assertEqual(lt.leftovers(self.dir), [])


@unittest.skipIf(build_writes_exr(), "this build has OpenEXR")
class NoExr(HdrTest):
    def test_refused_without_library(self):
        name = STACKS[0]
        self.assertRefused(["--exposures", exposures_file(name)], "OpenEXR", out="out.exr", codes=(1,))


if __name__ == "__main__":
    unittest.main(verbosity=2)

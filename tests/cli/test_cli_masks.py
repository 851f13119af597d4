"""lumen-cli with masked instances from a version 2 sidecar (--params), and --mask-out.

An exposure instance of +1 EV under a mask changes the photo where the mask is 1 as the same
exposure without a mask does (within one level: the blend is one more float step before the
rounding), leaves it exactly as it is where the mask is 0, and lands between the two where the
mask is between. Where a mask is 1 or 0 is worked out here from the shapes' definitions
(docs/masks.md, core/ops/mask-math.h): u, v = (pixel + ½) / the long side of the instance's
source. --mask-out's 16-bit PNG is held to a NumPy evaluation of the same formulas. Geometry
before the instance moves the mask with the photo; a raw's exposure masks scene light; tiles
give the bytes of one piece; the photo and its mask are committed together; docs/masks.md's
example works. Bad masks and bad --mask-* flags are one line on stderr, exit status 1, and no
file.
"""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

HEAD = """[lumen]
version=2
order=rotate,straighten,crop,exposure,exposure#64,contrast,saturation,resize

[exposure#64]
name=Sky
enabled={enabled}
ev=1

[exposure#64 mask]
"""

PHOTO = os.path.join(lt.photos_dir(), "chelsea.png")  # 451 × 300, a real photo
MASK_TOL = 2  # in 1/65535: float32 in Lumen against float64 here


def smoothstep_off(t):
    """falloff (t, 0) of mask-math.h: 1 up to 0, 0 from 1 on, 1 − s²(3 − 2s) between."""
    s = np.clip(t, 0.0, 1.0)
    return 1.0 - s * s * (3.0 - 2.0 * s)


def falloff(t, h):
    s = np.clip((t - h) / (1.0 - h), 0.0, 1.0)
    return np.where(t <= h, 1.0, np.where(t >= 1.0, 0.0, 1.0 - s * s * (3.0 - 2.0 * s)))


def cli(args, **env):
    """lumen-cli ARGS with the variables ENV (LUMEN_TILE, LUMEN_ATOMIC_FAIL_AT) and no others of them."""
    environ = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    for name in ("LUMEN_TILE", "LUMEN_ATOMIC_FAIL_AT"):
        environ.pop(name, None)
    return subprocess.run([lt.lumen_cli(), *args], capture_output=True, text=True, timeout=120,
                          env=dict(environ, **env))


def uv(height, width, long_side):
    j, i = np.mgrid[0:height, 0:width].astype(np.float64)
    return (i + 0.5) / long_side, (j + 0.5) / long_side


def linear_mask(u, v, p0, p1):
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    t = ((u - p0[0]) * dx + (v - p0[1]) * dy) / (dx * dx + dy * dy)
    return smoothstep_off(t)


def radial_mask(u, v, centre, radii, angle, softness):
    a = np.radians(angle)
    dx, dy = u - centre[0], v - centre[1]
    x = (np.cos(a) * dx + np.sin(a) * dy) / radii[0]
    y = (np.cos(a) * dy - np.sin(a) * dx) / radii[1]
    return falloff(np.sqrt(x * x + y * y), 1.0 - softness)


def segment_distance(u, v, a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = np.clip(((u - a[0]) * dx + (v - a[1]) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
    return np.hypot(u - a[0] - t * dx, v - a[1] - t * dy)


class Masks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="lumen-masks-")
        cls.dir = cls._tmp.name
        cls.src = lt.imread(PHOTO)
        cls.h, cls.w = cls.src.shape[:2]
        cls.long = max(cls.w, cls.h)
        cls.plain = cls.render_photo(None, "plain.png")
        # Unedited, lumen-cli gives the photo's own bytes: "unchanged" below means the file's pixels.
        assert np.array_equal(cls.plain, cls.src), "lumen-cli without edits changed the photo"
        cls.global_ev = cls.render_photo(None, "global.png", ["--exposure", "1"])

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    @classmethod
    def path(cls, name):
        return os.path.join(cls.dir, name)

    @classmethod
    def render_photo(cls, params, name, flags=()):
        out = cls.path(name)
        args = (["--params", params] if params else []) + list(flags) + ["-o", out, PHOTO]
        proc = lt.run(args)
        if proc.returncode != 0 or proc.stderr:
            raise AssertionError(f"lumen-cli {' '.join(args)}: {lt.describe(proc)}")
        return lt.imread(out).astype(np.int32)

    def sidecar(self, name, mask, enabled="true", extra=""):
        p = self.path(name)
        with open(p, "w") as f:
            f.write(HEAD.format(enabled=enabled) + mask + extra)
        return p

    def mask_out(self, params, name, flags=(), photo=None):
        """--mask-out NAME (with -o PHOTO where given, from the same render), as floats 0..65535."""
        out = self.path(name)
        outputs = ["--mask-out", out] + (["-o", self.path(photo)] if photo else [])
        lt.run_ok(self, ["--params", params, *flags, *outputs, PHOTO])
        m = lt.imread(out)
        self.assertEqual(m.dtype, np.uint16, "--mask-out writes 16 bits")
        self.assertEqual(m.ndim, 2, "--mask-out writes one gray channel")
        return m.astype(np.float64)

    def render_and_mask(self, params, name, flags=()):
        """The photo and its mask, from one render."""
        m = self.mask_out(params, name + "-mask.png", flags, photo=name + ".png")
        return lt.imread(self.path(name + ".png")).astype(np.int32), m

    def assert_mask(self, got, want, what):
        self.assertEqual(got.shape, want.shape, f"{what}: the mask is the size of the instance's input")
        err = np.abs(got - want * 65535.0).max()
        self.assertLessEqual(err, MASK_TOL, f"{what}: --mask-out off NumPy by {err:.2f}/65535")

    def assert_follows(self, got, mask, what):
        """GOT is the global edit where MASK is 1, the photo exactly where it is 0, between them
        elsewhere."""
        mask = np.broadcast_to(mask[..., None], got.shape)
        on, off = mask >= 1.0, mask <= 0.0
        self.assertGreater(int(on.sum()), 100, f"{what}: the test's mask is 1 somewhere")
        self.assertGreater(int(off.sum()), 100, f"{what}: the test's mask is 0 somewhere")
        d_on = np.abs(got - self.global_ev)[on]
        self.assertLessEqual(int(d_on.max()), 1, f"{what}: where the mask is 1, off the global +1 EV by {d_on.max()}")
        d_off = np.abs(got - self.plain)[off]
        self.assertEqual(int(d_off.max()), 0, f"{what}: where the mask is 0, the photo changed by {d_off.max()}")
        lo = np.minimum(self.plain, self.global_ev) - 1
        hi = np.maximum(self.plain, self.global_ev) + 1
        between = ~on & ~off
        bad = ((got < lo) | (got > hi))[between]
        self.assertFalse(bad.any(), f"{what}: {int(bad.sum())} values outside [photo, global edit]")
        # Partly on is partly edited: not everywhere the photo nor everywhere the global edit.
        brighter = (self.global_ev - self.plain)[between] > 8
        moved = (got - self.plain)[between][brighter]
        self.assertTrue((moved > 0).any() and (moved < (self.global_ev - self.plain)[between][brighter]).any(),
                        f"{what}: the soft part is neither the photo nor the edit")

    def test_linear_gradient(self):
        # Fully on above v = 0.15, off below v = 0.40: the top of the photo brightened.
        text = "feather=0\nshape1=linear add from=0.5,0.15 to=0.5,0.40\n"
        got, m = self.render_and_mask(self.sidecar("linear.lumen", text), "linear")
        u, v = uv(self.h, self.w, self.long)
        mask = linear_mask(u, v, (0.5, 0.15), (0.5, 0.40))
        self.assert_follows(got, mask, "linear")
        # Whole rows: on at the top, off at the bottom.
        self.assertTrue((mask[:60] == 1).all() and (mask[190:] == 0).all())
        self.assert_mask(m, mask, "linear")

    def test_radial(self):
        text = "shape1=radial add centre=0.45,0.3 radii=0.2,0.12 angle=30 softness=0.6\n"
        got, m = self.render_and_mask(self.sidecar("radial.lumen", text), "radial")
        u, v = uv(self.h, self.w, self.long)
        mask = radial_mask(u, v, (0.45, 0.3), (0.2, 0.12), 30, 0.6)
        self.assert_follows(got, mask, "radial")
        self.assert_mask(m, mask, "radial")

    def test_brush_stroke(self):
        points = [(0.15, 0.35), (0.5, 0.4), (0.85, 0.3)]
        text = ("shape1=brush add\nstroke1.1=paint size=0.04 hardness=0.5 opacity=1 points="
                + " ".join(f"{x},{y}" for x, y in points) + "\n")
        got, m = self.render_and_mask(self.sidecar("brush.lumen", text), "brush")
        u, v = uv(self.h, self.w, self.long)
        d = np.minimum(segment_distance(u, v, points[0], points[1]), segment_distance(u, v, points[1], points[2]))
        mask = falloff(2 * d / 0.04, 0.5)
        self.assert_follows(got, mask, "brush")
        # Along its line only: everything further than its radius (9 pixels) is the photo.
        self.assertLess(float((mask > 0).mean()), 0.1)
        self.assert_mask(m, mask, "brush")

    def test_luminance_range(self):
        lo0, lo1, hi1, hi0 = 0.30, 0.40, 0.55, 0.65
        got = self.render_photo(self.sidecar("range.lumen", f"luminance={lo0},{lo1},{hi1},{hi0}\n"), "range.png")
        # Rec. 709 luma of the instance's input, the photo itself (BGR here), on 0..1.
        b, g, r = (self.src[..., k].astype(np.float64) for k in range(3))
        y = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255.0
        # Clear of the edges, where float32 and float64 may fall on either side.
        on = (y >= lo1 + 1e-3) & (y <= hi1 - 1e-3)
        off = (y <= lo0 - 1e-3) | (y >= hi0 + 1e-3)
        mask = np.where(on, 1.0, np.where(off, 0.0, 0.5))
        self.assert_follows(got, mask, "luminance range")

    def test_mask_out_alone(self):
        # Without -o: a gradient less an inverted circle's outside, at half opacity.
        text = ("opacity=0.5\nshape1=linear add from=0.2,0.0 to=0.7,0.6\n"
                "shape2=radial intersect centre=0.5,0.3 radii=0.3,0.2 angle=-40 softness=1\n")
        u, v = uv(self.h, self.w, self.long)
        want = 0.5 * linear_mask(u, v, (0.2, 0.0), (0.7, 0.6)) * radial_mask(u, v, (0.5, 0.3), (0.3, 0.2), -40, 1.0)
        self.assert_mask(self.mask_out(self.sidecar("combined.lumen", text), "combined-mask.png"), want, "combined")

    def test_raw(self):
        # On a camera raw exposure runs on scene light, before the display transform: the masked
        # gain is the global one where the mask is 1 and none where it is 0.
        raw = os.path.join(lt.data_dir(), "raw", "forest.dng")
        params = self.sidecar("raw.lumen", "shape1=linear add from=0.5,0.15 to=0.5,0.40\n")
        outs = {name: self.path(f"raw-{name}.png") for name in ("plain", "global", "masked", "mask")}
        lt.run_ok(self, ["-o", outs["plain"], raw])
        lt.run_ok(self, ["--exposure", "1", "-o", outs["global"], raw])
        lt.run_ok(self, ["--params", params, "--mask-out", outs["mask"], "-o", outs["masked"], raw])
        plain, global_ev, got = (lt.imread(outs[k]).astype(np.int32) for k in ("plain", "global", "masked"))
        h, w = got.shape[:2]
        u, v = uv(h, w, max(w, h))
        mask = linear_mask(u, v, (0.5, 0.15), (0.5, 0.40))
        self.assert_mask(lt.imread(outs["mask"]).astype(np.float64), mask, "raw")
        on, off = mask >= 1.0, mask <= 0.0
        self.assertLessEqual(int(np.abs(got - global_ev)[on].max()), 1, "raw: the global gain where the mask is 1")
        self.assertTrue(np.array_equal(got[off], plain[off]), "raw: unchanged where the mask is 0")

    def test_geometry(self):
        # A gradient and a circle in source coordinates stay on the same part of the photo after
        # a crop and a quarter turn: the render with them equals the crop (turn) of the render
        # without them, and so does the mask.
        text = ("shape1=linear add from=0.5,0.15 to=0.5,0.40\n"
                "shape2=radial add centre=0.75,0.45 radii=0.08,0.08 angle=0 softness=0.5\n")
        params = self.sidecar("geometry.lumen", text)
        whole, whole_mask = self.render_and_mask(params, "geom-whole")
        x, y, w, h = 60, 20, 300, 240
        cropped, cropped_mask = self.render_and_mask(params, "geom-crop", ["--crop", f"{x},{y},{w},{h}"])
        self.assertEqual(cropped.shape[:2], (h, w))
        self.assertLessEqual(lt.diff(cropped, whole[y:y + h, x:x + w])[0], 1, "crop: the mask follows the photo")
        self.assertEqual(cropped_mask.shape, (h, w), "crop: the mask is the instance's input's size")
        self.assertLessEqual(np.abs(cropped_mask - whole_mask[y:y + h, x:x + w]).max(), MASK_TOL)
        turned = self.render_photo(params, "geom-rot.png", ["--rotate", "90"])
        want = np.rot90(whole, k=-1)  # a quarter turn clockwise
        self.assertEqual(turned.shape, want.shape)
        self.assertLessEqual(lt.diff(turned, want)[0], 1, "rotate 90: the mask follows the photo")

    def test_tiled(self):
        # Tile by tile (LUMEN_TILE, as a GPU short of memory renders) the same bytes as in one
        # piece, feather and geometry included; --mask-out renders in one piece, whose cache
        # holds the mask.
        text = ("feather=0.02\ndetail=0.2\nluminance=0.2,0.3,1,1\n"
                "shape1=linear add from=0.5,0.15 to=0.5,0.40\nshape2=brush add\n"
                "stroke2.1=paint size=0.05 hardness=0.3 opacity=1 points=0.1,0.5 0.6,0.45\n")
        params = self.sidecar("tiled.lumen", text)
        flags = ["--params", params, "--rotate", "90", "--crop", "20,10,250,400", "--timings"]
        whole, tiled, mask = self.path("t-whole.png"), self.path("t-tiled.png"), self.path("t-mask.png")
        one = cli(flags + ["-o", whole, PHOTO])
        self.assertEqual(one.returncode, 0, one.stderr)
        many = cli(flags + ["-o", tiled, PHOTO], LUMEN_TILE="37x53")
        self.assertEqual(many.returncode, 0, many.stderr)
        self.assertIn("tiles:", many.stdout)
        self.assertTrue(np.array_equal(lt.imread(whole), lt.imread(tiled)), "tiled differs from one piece")
        with_mask = cli(flags + ["--mask-out", mask, "-o", tiled, PHOTO], LUMEN_TILE="37x53")
        self.assertEqual(with_mask.returncode, 0, with_mask.stderr)
        self.assertNotIn("tiles:", with_mask.stdout)
        self.assertTrue(np.array_equal(lt.imread(whole), lt.imread(tiled)))
        self.assertEqual(lt.imread(mask).shape, (400, 250), "the mask is the size of the turned photo's crop")

    def test_together(self):
        # The photo and its mask are committed together: where the second rename fails, neither
        # is written, and neither temporary is left.
        params = self.sidecar("together.lumen", "shape1=linear add from=0.5,0.15 to=0.5,0.40\n")
        out, mask = self.path("together.png"), self.path("together-mask.png")
        proc = cli(["--params", params, "--mask-out", mask, "-o", out, PHOTO], LUMEN_ATOMIC_FAIL_AT="rename:2")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
        self.assertFalse(os.path.exists(out) or os.path.exists(mask), "one of the two was written")
        self.assertEqual([n for n in os.listdir(self.dir) if lt.TMP_INFIX in n], [], "a temporary was left")

    def test_choosing_the_instance(self):
        two = ("shape1=linear add from=0.5,0.15 to=0.5,0.40\n"
               "\n[exposure#65]\nname=Ground\nenabled=true\nev=-1\n"
               "\n[exposure#65 mask]\nshape1=linear add from=0.5,0.9 to=0.5,0.5\n")
        text = HEAD.format(enabled="true").replace("exposure#64,", "exposure#64,exposure#65,") + two
        params = self.path("two.lumen")
        with open(params, "w") as f:
            f.write(text)
        u, v = uv(self.h, self.w, self.long)
        # By name, and by group.
        self.assert_mask(self.mask_out(params, "two-ground.png", ["--mask-instance", "Ground"]),
                         linear_mask(u, v, (0.5, 0.9), (0.5, 0.5)), "--mask-instance Ground")
        self.assert_mask(self.mask_out(params, "two-sky.png", ["--mask-instance", "exposure#64"]),
                         linear_mask(u, v, (0.5, 0.15), (0.5, 0.40)), "--mask-instance exposure#64")
        # Without --mask-instance: which one is not guessed; the message lists both.
        proc = self.refused(["--params", params, "--mask-out", self.path("which.png"), PHOTO], "which.png")
        self.assertIn("exposure#64 “Sky”", proc.stderr)
        self.assertIn("exposure#65 “Ground”", proc.stderr)

    def test_docs_example(self):
        # docs/masks.md's example works as it is printed there.
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "masks.md")) as f:
            doc = f.read()
        section = doc.split("## Masks in a sidecar", 1)[1]
        example = section.split("```ini\n", 1)[1].split("```", 1)[0]
        params = self.path("docs.lumen")
        with open(params, "w") as f:
            f.write(example)
        got, mask = self.render_and_mask(params, "docs")
        mask /= 65535.0
        self.assertGreater(float(mask.max()), 0.5, "the example's mask is on somewhere")
        self.assertEqual(float(mask[-20:].max()), 0.0, "the example's mask is off at the bottom")
        self.assertTrue((got[-20:] == self.plain[-20:]).all())
        self.assertTrue((got != self.plain).any(), "the example changes the photo")

    def refused(self, args, *outputs, cause=None):
        proc = lt.run(args)
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
        if cause:
            self.assertIn(cause, proc.stderr)
        for name in outputs:
            self.assertFalse(os.path.exists(self.path(name)), f"{name} was written")
        self.assertEqual([n for n in os.listdir(self.dir) if lt.TMP_INFIX in n], [], "a temporary was left")
        return proc

    def test_refused(self):
        good = self.sidecar("good.lumen", "shape1=linear add from=0.5,0.15 to=0.5,0.40\n")
        out, mask = self.path("bad.png"), self.path("bad-mask.png")
        # A mask's value out of its range: the file, the group, the key and the value named.
        for key, value in (("opacity", "1.5"), ("shape1", "radial add centre=0.5,0.5 radii=0,0.2 angle=0 softness=1")):
            params = self.sidecar("range.lumen", f"{key}={value}\n")
            proc = self.refused(["--params", params, "-o", out, "--mask-out", mask, PHOTO], "bad.png",
                                "bad-mask.png", cause="[exposure#64 mask]")
            self.assertIn("range.lumen", proc.stderr)
            self.assertIn(key, proc.stderr)
        # --mask-out where no instance has a mask.
        self.refused(["--exposure", "1", "-o", out, "--mask-out", mask, PHOTO], "bad.png", "bad-mask.png",
                     cause="no instance has a mask")
        # --mask-instance naming no instance, and one without a mask.
        proc = self.refused(["--params", good, "--mask-instance", "Ground", "-o", out, "--mask-out", mask, PHOTO],
                            "bad.png", "bad-mask.png", cause="“Ground”")
        self.assertIn("exposure#64 “Sky”", proc.stderr)
        self.refused(["--params", good, "--mask-instance", "contrast", "--mask-out", mask, PHOTO], "bad-mask.png",
                     cause="contrast has no mask")
        # The mask of an instance that is off is not rendered: not made up either.
        off = self.sidecar("off.lumen", "shape1=linear add from=0.5,0.15 to=0.5,0.40\n", enabled="false")
        self.refused(["--params", off, "-o", out, "--mask-out", mask, PHOTO], "bad.png", "bad-mask.png",
                     cause="is off")
        # --mask-out to a folder, a device, or not a PNG: before any work, nothing written.
        folder = self.path("folder.png")
        os.mkdir(folder)
        self.refused(["--params", good, "-o", out, "--mask-out", folder, PHOTO], "bad.png", cause="folder.png")
        self.assertTrue(os.path.isdir(folder))
        device = self.path("null.png")
        os.symlink("/dev/null", device)
        self.refused(["--params", good, "-o", out, "--mask-out", device, PHOTO], "bad.png", cause="null.png")
        self.assertEqual(os.readlink(device), "/dev/null")
        self.refused(["--params", good, "-o", out, "--mask-out", self.path("mask.jpg"), PHOTO], "bad.png", "mask.jpg",
                     cause=".png")

    def test_usage(self):
        proc = lt.run(["--help"])
        self.assertIn("--mask-out", proc.stdout)
        self.assertIn("--mask-instance", proc.stdout)
        proc = lt.run(["--mask-instance", "Sky", "-o", self.path("usage.png"), PHOTO])
        self.assertEqual(proc.returncode, 2, lt.describe(proc))
        self.assertIn("--mask-out", proc.stderr)


if __name__ == "__main__":
    unittest.main()

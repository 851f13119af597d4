"""lumen-cli batch develop: each output is the bytes of `lumen-cli --params SIDECAR -o OUT PHOTO`
(own sidecars, a manifest's, one preset; JPEG, PNG, TIFF; a long side), kills at each commit
step followed by reruns that finish as a clean run would, shards that cover the photos once,
bad photos in failed.tsv while the others are done, a full disk, name patterns."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import batchlib as bl  # noqa: E402
from batchlib import lt  # noqa: E402

# Edits as the window saves them: exposure, contrast, a curve, sharpening; one with none.
EDITS = [["--exposure", "0.4", "--contrast", "0.2", "--sharpen", "0.8"],
         ["--curve", "0:10,128:140,255:250", "--exposure", "-0.3"],
         ["--contrast", "-0.3", "--sharpen", "1.5", "--sharpen-radius", "2"],
         []]
PHOTOS = 8


def make_photo(path, k, size=(160, 120)):
    """A small photo of its own: gradients, a disc and noise (seeded), so that edits show."""
    w, h = size
    rng = np.random.default_rng(k)
    y, x = np.mgrid[0:h, 0:w]
    img = np.stack([(x * 255 // w + 20 * k) % 256, y * 255 // h, ((x + y) * 3 + 40 * k) % 256], -1).astype(np.float32)
    img[(x - w / 2) ** 2 + (y - h / 2) ** 2 < (h / 4) ** 2] = (30 * k % 256, 200, 90)
    img += rng.normal(0, 6, img.shape)
    lt.cv2.imwrite(path, np.clip(img, 0, 255).astype(np.uint8))


def write_sidecar(path, flags):
    lt.run_ok(unittest.TestCase(), flags + ["--params-out", path])


def develop(args, env=None):
    return bl.batch(["develop", "--progress", "none"] + [str(a) for a in args], env=env)


class Develop(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="lumen-develop-")
        cls.addClassCleanup(shutil.rmtree, cls.tmp, ignore_errors=True)
        cls.photos = os.path.join(cls.tmp, "photos")
        os.makedirs(cls.photos)
        cls.names = []
        for k in range(PHOTOS):
            name = f"p{k:02d}.{'png' if k == 5 else 'jpg'}"
            path = os.path.join(cls.photos, name)
            make_photo(path, k)
            if EDITS[k % len(EDITS)]:
                write_sidecar(path + ".lumen", EDITS[k % len(EDITS)])
            cls.names.append(name)
        cls.ids = [os.path.splitext(n)[0] for n in cls.names]
        cls.reference = os.path.join(cls.tmp, "reference")
        proc = develop(["-o", cls.reference, cls.photos])
        if proc.returncode != 0:
            raise AssertionError(f"clean run: {lt.describe(proc)}")

    def out(self, name):
        path = os.path.join(self.tmp, name)
        shutil.rmtree(path, ignore_errors=True)
        return path

    def single(self, photo, sidecar, ext, flags=()):
        """`lumen-cli --params SIDECAR FLAGS -o OUT PHOTO`'s bytes."""
        out = os.path.join(self.tmp, "single." + ext)
        params = ["--params", sidecar] if sidecar else []
        lt.run_ok(self, params + list(flags) + ["-o", out, photo])
        data = lt.read_bytes(out)
        os.unlink(out)
        return data

    def test_equals_params_command(self):
        """Each output equals `lumen-cli --params` on its photo with its own sidecar, in each
        format, with a long side and a quality."""
        cases = [([], "jpg", []),
                 (["--format", "png", "--size", "100"], "png", ["--resize", "100x100"]),
                 (["--format", "tif", "--to-srgb"], "tif", ["--to-srgb"]),
                 (["--quality", "70", "--size", "64"], "jpg", ["--quality", "70", "--resize", "64x64"])]
        for batch_flags, ext, single_flags in cases:
            with self.subTest(flags=batch_flags):
                out = self.out("equal-" + "-".join(batch_flags))
                proc = develop(batch_flags + ["-o", out, self.photos])
                self.assertEqual(proc.returncode, 0, lt.describe(proc))
                for name, sid in zip(self.names, self.ids):
                    photo = os.path.join(self.photos, name)
                    sidecar = photo + ".lumen" if os.path.exists(photo + ".lumen") else None
                    self.assertTrue(lt.read_bytes(os.path.join(out, f"{sid}.{ext}"))
                                    == self.single(photo, sidecar, ext, single_flags),
                                    f"{sid}.{ext} differs from lumen-cli --params")

    def test_preset_and_manifest(self):
        """--preset develops every photo with it, whatever their own sidecars; a manifest's
        sidecar column is each line's; both as `lumen-cli --params`."""
        preset = os.path.join(self.tmp, "warm.lumen")
        write_sidecar(preset, ["--exposure", "0.7", "--curve", "0:0,100:130,255:255"])
        out = self.out("preset")
        proc = develop(["--preset", preset, "-o", out, self.photos])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        for name, sid in zip(self.names, self.ids):
            self.assertTrue(lt.read_bytes(os.path.join(out, f"{sid}.jpg"))
                            == self.single(os.path.join(self.photos, name), preset, "jpg"), sid)
        # A preset by its name in the Presets menu: a built-in one, the file in data/presets.
        builtin = os.path.join(os.environ["LUMEN_SOURCE_ROOT"], "data", "presets", "Black and white.lumen")
        out = self.out("preset-by-name")
        proc = develop(["--preset", "Black and white", "-o", out, self.photos])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        first = os.path.join(self.photos, self.names[0])
        self.assertTrue(lt.read_bytes(os.path.join(out, f"{self.ids[0]}.jpg")) == self.single(first, builtin, "jpg"))
        proc = develop(["--preset", "No such preset", "-o", self.out("no-preset"), self.photos])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn("No such preset", proc.stderr)
        manifest = os.path.join(self.tmp, "list.tsv")
        with open(manifest, "w") as f:
            f.write(f"first\tphotos/{self.names[0]}\twarm.lumen\n")
            f.write(f"second\t{os.path.join(self.photos, self.names[1])}\n")
        out = self.out("manifest")
        proc = develop(["-o", out, manifest])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertTrue(lt.read_bytes(os.path.join(out, "first.jpg"))
                        == self.single(os.path.join(self.photos, self.names[0]), preset, "jpg"))
        second = os.path.join(self.photos, self.names[1])
        self.assertTrue(lt.read_bytes(os.path.join(out, "second.jpg"))
                        == self.single(second, second + ".lumen", "jpg"))

    def test_raw_equals_params_command(self):
        """A camera raw with its sidecar (its development and edits): the bytes of `lumen-cli
        --params`, which makes the pipeline a raw's first."""
        folder = self.out("raws")
        os.makedirs(folder)
        raw = os.path.join(folder, "forest.dng")
        os.symlink(os.path.join(lt.data_dir(), "raw", "forest.dng"), raw)
        write_sidecar(raw + ".lumen", ["--exposure", "0.3", "--raw-demosaic", "rcd", "--sharpen", "0.6"])
        out = self.out("raws-out")
        proc = develop(["--size", "300", "-o", out, folder])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertTrue(lt.read_bytes(os.path.join(out, "forest.jpg"))
                        == self.single(raw, raw + ".lumen", "jpg", ["--resize", "300x300"]))

    def test_name_patterns(self):
        """darktable's variables and the short ones; two photos of one name are refused."""
        out = self.out("names")
        proc = develop(["--name", "$(SEQUENCE)_$(FILE_NAME)-{ext}", "-o", out, self.photos])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        want = sorted(f"{k + 1:04d}_{os.path.splitext(n)[0]}-{os.path.splitext(n)[1][1:]}.jpg"
                      for k, n in enumerate(self.names))
        self.assertEqual(sorted(n for n in os.listdir(out) if n.endswith(".jpg")), want)
        proc = develop(["--name", "$(TITLE)", "-o", self.out("bad-name"), self.photos])
        self.assertEqual(proc.returncode, 2, lt.describe(proc))
        self.assertIn("$(TITLE)", proc.stderr)
        # The photos' own folder with the default pattern: each output would take its photo's
        # place. Refused before the folder is touched, naming the photo; it stays as it was.
        inplace = self.out("inplace")
        os.makedirs(inplace)
        make_photo(os.path.join(inplace, "a.jpg"), 3)
        make_photo(os.path.join(inplace, "b.png"), 4)
        before = lt.read_bytes(os.path.join(inplace, "a.jpg"))
        proc = develop(["-o", inplace, inplace])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn("a.jpg", proc.stderr)
        self.assertTrue(lt.read_bytes(os.path.join(inplace, "a.jpg")) == before, "the original was replaced")
        self.assertEqual(sorted(os.listdir(inplace)), ["a.jpg", "b.png"])
        twins = self.out("twins")
        os.makedirs(twins)
        make_photo(os.path.join(twins, "a.jpg"), 1)
        make_photo(os.path.join(twins, "a.png"), 2)
        proc = develop(["-o", self.out("twins-out"), twins])
        self.assertEqual(proc.returncode, 2, lt.describe(proc))
        self.assertIn("a.jpg", proc.stderr)
        self.assertIn("a.png", proc.stderr)

    def test_crash_points(self):
        """A kill after the temporary's write, after the rename and after the journal's
        append, then a rerun: the outputs are the clean run's, each done once."""
        for step in ("after-temp-write", "after-rename", "after-journal"):
            with self.subTest(step=step):
                out = self.out("crash-" + step)
                proc = develop(["--threads", "1", "-o", out, self.photos],
                               env={"LUMEN_BATCH_CRASH_AT": step + ":3"})
                self.assertEqual(proc.returncode, -9, lt.describe(proc))
                proc = develop(["-o", out, self.photos])
                self.assertEqual(proc.returncode, 0, lt.describe(proc))
                bl.assert_complete(self, out, self.reference, self.ids, ext="jpg")

    def test_shards_cover_once(self):
        """Shards 0/3 (flag), 1/3 (a Slurm array's environment), 2/3: disjoint journals,
        every photo once, the clean run's bytes."""
        out = self.out("shards")
        ways = [(["--shard", "0/3"], {}),
                ([], {"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"}),
                (["--shard", "2/3"], {})]
        for flags, env in ways:
            proc = develop(flags + ["-o", out, self.photos], env=env)
            self.assertEqual(proc.returncode, 0, lt.describe(proc))
            self.assertRegex(proc.stdout, r"batch: [23] of [23] photos done")
        by_shard = {}
        for name, sid in bl.journal_records(out):
            by_shard.setdefault(name, set()).add(sid)
        self.assertEqual(sorted(by_shard), [f"journal-{i}-of-3.tsv" for i in range(3)])
        sets = list(by_shard.values())
        for i in range(3):
            for j in range(i + 1, 3):
                self.assertEqual(sets[i] & sets[j], set(), "shards' journals overlap")
        bl.assert_complete(self, out, self.reference, self.ids, ext="jpg")
        report = develop(["--report", out])
        self.assertIn(f"photos: {PHOTOS}\ndone: {PHOTOS}\nfailed: 0\nremaining: 0", report.stdout, lt.describe(report))
        self.assertIn(" photos/s ", report.stdout, lt.describe(report))
        self.assertNotIn("stack", report.stdout, lt.describe(report))

    def test_bad_photos(self):
        """A photo that is not one, a sidecar that does not parse, a fifo named like a photo, a
        photo that cannot be read (not as root) and a manifest line without a photo fail with reasons naming them; the others are done
        as the clean run did them; exit 1."""
        root = self.out("mixed")
        os.makedirs(root)
        for name in self.names[:3]:
            os.symlink(os.path.join(self.photos, name), os.path.join(root, name))
            if os.path.exists(os.path.join(self.photos, name + ".lumen")):
                os.symlink(os.path.join(self.photos, name + ".lumen"), os.path.join(root, name + ".lumen"))
        with open(os.path.join(root, "garbage.jpg"), "wb") as f:
            f.write(b"\xff\xd8\xff\xe0 not a JPEG at all" * 10)
        make_photo(os.path.join(root, "badside.jpg"), 3)
        with open(os.path.join(root, "badside.jpg.lumen"), "w") as f:
            f.write("[exposure]\nev=bright\n")
        os.mkfifo(os.path.join(root, "fifo.jpg"))
        expect = {"garbage": "garbage.jpg", "badside": "badside.jpg.lumen", "fifo": "fifo.jpg",
                  "lonely": "line 1"}
        if os.geteuid() != 0:  # root reads any file
            make_photo(os.path.join(root, "locked.jpg"), 4)
            os.chmod(os.path.join(root, "locked.jpg"), 0)
            expect["locked"] = "locked.jpg"
        manifest = os.path.join(self.tmp, "short.tsv")
        with open(manifest, "w") as f:
            f.write("lonely\n")
        out = self.out("mixed-out")
        proc = develop(["-o", out, root, manifest])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        failed = bl.failures(os.path.join(out, "failed.tsv"))
        self.assertEqual(sorted(failed), sorted(expect), proc.stderr)
        for sid, words in expect.items():
            self.assertIn(words, failed[sid], f"{sid}: the reason should name {words!r}")
        self.assertIn("failed.tsv", proc.stderr)
        for sid in self.ids[:3]:
            self.assertTrue(lt.read_bytes(os.path.join(out, f"{sid}.jpg"))
                            == lt.read_bytes(os.path.join(self.reference, f"{sid}.jpg")), sid)
        self.assertEqual(bl.temporaries(out), [])

    def test_full_disk(self):
        """ENOSPC stops the batch with one message naming it; no photo is blamed; a rerun with
        space finishes it."""
        mnt = os.path.join(self.tmp, "small")
        os.makedirs(mnt, exist_ok=True)
        mount = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=48k", "tmpfs", mnt], capture_output=True,
                               text=True)
        if mount.returncode != 0:
            self.skipTest(f"cannot mount a small tmpfs to fill: {mount.stderr.strip()}")
        try:
            out = os.path.join(mnt, "out")
            proc = develop(["--format", "png", "--png-level", "0", "-o", out, self.photos])
            self.assertEqual(proc.returncode, 1, lt.describe(proc))
            self.assertIn("No space left on device", proc.stderr)
            self.assertIn("batch stopped", proc.stderr)
            self.assertEqual(bl.failures(os.path.join(out, "failed.tsv")), {})
            self.assertEqual(bl.temporaries(out), [])
            big = self.out("after-full")
            shutil.copytree(out, big)
            proc = develop(["--format", "png", "--png-level", "0", "-o", big, self.photos])
            self.assertEqual(proc.returncode, 0, lt.describe(proc))
            self.assertEqual(sorted(n for n in os.listdir(big) if n.endswith(".png")),
                             sorted(f"{sid}.png" for sid in self.ids))
        finally:
            subprocess.run(["umount", mnt])

    def test_hdr_batch_unchanged(self):
        """`batch` without `develop` is still the HDR batch: a folder of photos is no folder of
        stacks."""
        proc = bl.batch(["--progress", "none", "-o", self.out("hdr"), self.photos])
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("holds no stacks", proc.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)

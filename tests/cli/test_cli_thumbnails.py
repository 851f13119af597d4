"""lumen-cli thumbnails and the freedesktop thumbnail cache it fills.

Each test has a cache of its own (XDG_CACHE_HOME in a temporary folder). Expected values come
from OpenCV (cv2.INTER_AREA on the photo as cv2.imread decodes it), Python's own URI and MD5
(pathlib.Path.as_uri, hashlib), PIL's reading of PNG text chunks, exiftool (an EXIF preview
put in a photo) and GNOME's gdk-pixbuf-thumbnailer (a thumbnail made the file manager's way).
"""
import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

import cv2
import numpy as np
from PIL import Image
from PIL.PngImagePlugin import PngInfo

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402


def smooth_photo(w, h, seed=0):
    """A photo with detail at every scale but no noise JPEG would smear: sums of waves."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    channels = []
    for c in range(3):
        v = np.zeros((h, w))
        for _ in range(4):
            fx, fy, ph = rng.uniform(0.5, 12, 2).tolist() + [rng.uniform(0, 6)]
            v += np.sin(2 * np.pi * (fx * x / w + fy * y / h) + ph)
        channels.append(127.5 + 30 * v)
    return np.clip(np.dstack(channels), 0, 255).astype(np.uint8)


def area(img, size):
    """OpenCV's INTER_AREA to a longest side of SIZE, the other side rounded as Lumen's rule."""
    h, w = img.shape[:2]
    s = size / max(w, h)
    tw, th = (size, max(1, int(np.floor(h * s + 0.5)))) if w >= h else (max(1, int(np.floor(w * s + 0.5))), size)
    return cv2.resize(img, (tw, th), interpolation=cv2.INTER_AREA)


class Thumbnails(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-thumbs-")
        self.dir = self._tmp.name
        self.cache = os.path.join(self.dir, "cache")
        self.photos = os.path.join(self.dir, "photos")
        os.mkdir(self.photos)
        self.env = dict(os.environ, XDG_CACHE_HOME=self.cache)

    def tearDown(self):
        self._tmp.cleanup()

    def thumbs(self, *args, env=None):
        return subprocess.run([lt.lumen_cli(), "thumbnails", *args], capture_output=True, text=True,
                              env=env or self.env, timeout=120)

    def ok(self, *args):
        proc = self.thumbs(*args)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return proc

    def cached(self, photo, folder="large"):
        uri = os.path.abspath(photo)
        md5 = hashlib.md5(__import__("pathlib").Path(uri).as_uri().encode()).hexdigest()
        return os.path.join(self.cache, "thumbnails", folder, md5 + ".png")

    def write(self, name, img, *params):
        path = os.path.join(self.photos, name)
        self.assertTrue(cv2.imwrite(path, img, list(params)))
        return path

    def test_path_and_text_chunks_follow_the_standard(self):
        photo = self.write("a b é.png", smooth_photo(300, 200))
        self.ok(photo)
        path = self.cached(photo)
        self.assertTrue(os.path.exists(path), os.listdir(os.path.join(self.cache, "thumbnails", "large")))
        uri = "file://" + os.path.abspath(self.photos).replace(" ", "%20") + "/a%20b%20%C3%A9.png"
        self.assertIn("/a%20b%20%C3%A9.png", __import__("pathlib").Path(photo).as_uri())
        with Image.open(path) as im:
            self.assertEqual(im.info["Thumb::URI"], uri)
            self.assertEqual(im.info["Thumb::MTime"], str(int(os.stat(photo).st_mtime)))
            self.assertEqual(im.info["Thumb::Size"], str(os.stat(photo).st_size))
            self.assertEqual(im.info["Thumb::Mimetype"], "image/png")
            self.assertEqual(im.size, (256, 171))
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o600)
        for folder in (os.path.join(self.cache, "thumbnails"), os.path.dirname(path)):
            self.assertEqual(stat.S_IMODE(os.stat(folder).st_mode), 0o700, folder)
        self.assertEqual([n for n in os.listdir(os.path.dirname(path)) if n.startswith(".")], [])
        # GNOME's loader reads it: gdk-pixbuf-thumbnailer decodes it through gdk-pixbuf.
        if shutil.which("gdk-pixbuf-thumbnailer"):
            out = os.path.join(self.dir, "again.png")
            subprocess.run(["gdk-pixbuf-thumbnailer", "-s", "128", path, out], check=True, timeout=60)
            with Image.open(out) as im:
                self.assertEqual(im.size[0], 128)

    def test_png_equals_inter_area(self):
        img = smooth_photo(1000, 700, seed=1)
        photo = self.write("smooth.png", img)
        self.ok("--size", "256", photo)
        ours = cv2.imread(self.cached(photo))
        want = area(img, 256)
        self.assertEqual(ours.shape, want.shape)
        self.assertLessEqual(lt.diff(ours, want)[0], 1)

    def test_jpeg_scaled_decode_is_close_to_inter_area(self):
        photo = self.write("big.jpg", smooth_photo(2400, 1600, seed=2), cv2.IMWRITE_JPEG_QUALITY, 95)
        self.ok("--size", "256", photo)
        ours = cv2.imread(self.cached(photo)).astype(np.int32)
        want = area(cv2.imread(photo), 256).astype(np.int32)
        self.assertEqual(ours.shape, want.shape)
        err = np.abs(ours - want)
        # libjpeg's 1/4 IDCT then an area shrink against a full decode and an area shrink.
        self.assertLessEqual(err.mean(), 1.0)
        self.assertLessEqual(err.max(), 6)

    def test_orientation_is_applied(self):
        if not shutil.which("exiftool"):
            self.skipTest("exiftool is not installed")
        img = smooth_photo(600, 400, seed=3)
        photo = self.write("turned.jpg", img, cv2.IMWRITE_JPEG_QUALITY, 98)
        subprocess.run(["exiftool", "-q", "-overwrite_original", "-Orientation#=6", photo], check=True)
        self.ok("--size", "128", photo)
        ours = cv2.imread(self.cached(photo, "normal")).astype(np.int32)
        want = area(cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE), 128).astype(np.int32)
        self.assertEqual(ours.shape, want.shape)
        self.assertLessEqual(np.abs(ours - want).mean(), 1.5)

    def test_exif_preview_is_used_when_large_enough(self):
        if not shutil.which("exiftool"):
            self.skipTest("exiftool is not installed")
        photo = self.write("preview.jpg", smooth_photo(1200, 800, seed=4), cv2.IMWRITE_JPEG_QUALITY, 90)
        # A preview unlike the photo (pure blue), of the photo's shape: only it can give blue.
        blue = np.zeros((160, 240, 3), np.uint8)
        blue[:] = (255, 0, 0)
        preview = os.path.join(self.dir, "blue.jpg")
        cv2.imwrite(preview, blue)
        subprocess.run(["exiftool", "-q", "-overwrite_original", f"-ThumbnailImage<={preview}", photo], check=True)
        self.ok("--size", "128", photo)
        small = cv2.imread(self.cached(photo, "normal")).astype(np.int32)
        self.assertEqual(small.shape, (85, 128, 3))
        self.assertGreater(small[..., 0].mean(), 240)
        self.assertLess(small[..., 2].mean(), 15)
        # 240 pixels are too few for 256: the photo itself is decoded.
        self.ok("--size", "256", photo)
        large = cv2.imread(self.cached(photo)).astype(np.int32)
        want = area(cv2.imread(photo), 256).astype(np.int32)
        self.assertLessEqual(np.abs(large - want).mean(), 1.0)

    def test_a_change_of_mtime_makes_a_new_thumbnail(self):
        photo = self.write("changing.png", smooth_photo(600, 400, seed=5))
        self.ok(photo)
        with Image.open(self.cached(photo)) as im:
            first = im.info["Thumb::MTime"]
        cv2.imwrite(photo, 255 - smooth_photo(600, 400, seed=5))
        t = os.stat(photo).st_mtime + 100
        os.utime(photo, (t, t))
        self.ok(photo)
        with Image.open(self.cached(photo)) as im:
            self.assertEqual(im.info["Thumb::MTime"], str(int(t)))
            self.assertNotEqual(im.info["Thumb::MTime"], first)
        self.assertLessEqual(lt.diff(cv2.imread(self.cached(photo)), area(cv2.imread(photo), 256))[0], 1)

    def test_gnome_thumbnails_are_taken_and_foreign_stale_ones_replaced(self):
        if not shutil.which("gdk-pixbuf-thumbnailer"):
            self.skipTest("gdk-pixbuf-thumbnailer is not installed")
        photo = self.write("gnome.jpg", smooth_photo(800, 600, seed=6))
        path = self.cached(photo)
        os.makedirs(os.path.dirname(path), mode=0o700)
        made = os.path.join(self.dir, "gnome.png")
        subprocess.run(["gdk-pixbuf-thumbnailer", "-s", "256", photo, made], check=True, timeout=60)
        # The tEXt chunks GNOME's thumbnail factory adds to the thumbnailer's output.
        info = PngInfo()
        info.add_text("Thumb::URI", __import__("pathlib").Path(os.path.abspath(photo)).as_uri())
        info.add_text("Thumb::MTime", str(int(os.stat(photo).st_mtime)))
        info.add_text("Software", "GNOME::ThumbnailFactory")
        Image.open(made).save(path, pnginfo=info)
        before = lt.read_bytes(path)
        self.ok(photo)
        self.assertEqual(lt.read_bytes(path), before, "a valid GNOME thumbnail was replaced")
        # The same file without its keys is no thumbnail of this photo: replaced by Lumen's.
        Image.open(made).save(path)
        self.ok(photo)
        with Image.open(path) as im:
            self.assertTrue(im.info.get("Software", "").startswith("Lumen"), im.info)

    def test_bad_files_are_named_and_recorded_as_failures(self):
        good = self.write("good.jpg", smooth_photo(400, 300, seed=7))
        with open(good, "rb") as f:
            data = f.read()
        with open(os.path.join(self.photos, "cut.jpg"), "wb") as f:
            f.write(data[: len(data) // 2])
        with open(os.path.join(self.photos, "words.jpg"), "w") as f:
            f.write("not a photo\n")
        os.mkfifo(os.path.join(self.photos, "pipe.jpg"))
        for run in range(2):  # the second from the failure entries
            proc = self.thumbs(self.photos)
            self.assertEqual(proc.returncode, 1, proc.stderr)
            lines = proc.stderr.splitlines()
            for name in ("cut.jpg", "words.jpg", "pipe.jpg"):
                named = [line for line in lines if name in line]
                self.assertEqual(len(named), 1, (run, proc.stderr))
            self.assertEqual(len(lines), 4, proc.stderr)  # three files and the count
            self.assertTrue(os.path.exists(self.cached(good)))
        fail = os.path.join(self.cache, "thumbnails", "fail")
        self.assertEqual(os.listdir(fail), ["lumen-" + os.listdir(fail)[0][len("lumen-"):]])
        entries = os.listdir(os.path.join(fail, os.listdir(fail)[0]))
        self.assertEqual(len(entries), 3)

    def test_the_hostile_image_corpus(self):
        """tests/data/bad/images (forged sizes, damaged IFDs, truncations): each file one line
        naming it, no crash, the photos that are fine still made."""
        bad = os.path.join(lt.data_dir(), "bad", "images")
        names = sorted(n for n in os.listdir(bad) if not n.startswith(".") and "." in n)
        proc = self.thumbs(bad)
        self.assertEqual(proc.returncode, 1, proc.stderr[-2000:])
        lines = proc.stderr.splitlines()
        self.assertTrue(lines[-1].endswith("have no thumbnail"), lines[-1])
        for line in lines[:-1]:
            self.assertEqual(sum(1 for n in names if f"/{n}:" in line), 1, line)
        made = os.listdir(os.path.join(self.cache, "thumbnails", "large")) \
            if os.path.isdir(os.path.join(self.cache, "thumbnails", "large")) else []
        failed = os.listdir(os.path.join(self.cache, "thumbnails", "fail", os.listdir(
            os.path.join(self.cache, "thumbnails", "fail"))[0]))
        self.assertEqual(len(lines) - 1 + len(made), len([n for n in names if not n.endswith((".tsv", ".py"))]))
        self.assertGreater(len(failed), len(lines) // 2)

    def test_an_unwritable_cache_is_no_failure(self):
        photo = self.write("fine.png", smooth_photo(300, 200, seed=8))
        blocker = os.path.join(self.dir, "not-a-folder")
        with open(blocker, "w") as f:
            f.write("x")
        proc = self.thumbs(photo, env=dict(os.environ, XDG_CACHE_HOME=blocker))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr, "")

    def test_edited_photos_show_their_edits_from_a_cache_of_their_own(self):
        img = smooth_photo(800, 600, seed=9)
        photo = self.write("edited.png", img)
        with open(photo + ".lumen", "w") as f:
            f.write("[lumen]\nversion=2\n\n[gray]\nenabled=true\n")
        self.ok(photo)
        private = os.path.join(self.cache, "lumen", "thumbnails", "large")
        names = os.listdir(private)
        self.assertEqual(len(names), 1)
        edited = cv2.imread(os.path.join(private, names[0])).astype(np.int32)
        self.assertLessEqual(np.abs(edited[..., 0] - edited[..., 2]).max(), 1, "not gray")
        self.assertFalse(os.path.exists(self.cached(photo)), "an edited look in the shared cache")
        # Another edit replaces it: one file a photo, however often it is edited.
        with open(photo + ".lumen", "w") as f:
            f.write("[lumen]\nversion=2\n\n[crop]\nenabled=true\nx=0\ny=0\nwidth=400\nheight=600\n")
        self.ok(photo)
        self.assertEqual(os.listdir(private), names, "the private cache grew with each edit")
        cropped = cv2.imread(os.path.join(private, names[0]))
        self.assertEqual(cropped.shape[:2], (256, 171), "not the new edit")  # 400 × 600
        self.assertGreater(np.abs(cropped[..., 0].astype(np.int32) - cropped[..., 2]).max(), 8, "still gray")
        # Removing the edits gives the photo as it is, shared.
        os.remove(photo + ".lumen")
        self.ok(photo)
        self.assertLessEqual(lt.diff(cv2.imread(self.cached(photo)), area(img, 256))[0], 1)

    def test_a_scaled_decode_keeps_the_photos_shape(self):
        """1999 × 3001 decoded at 1/4 is 500 × 751, whose thumbnail would be 170 × 256; the
        photo's is 171 × 256 (1999 · 256 / 3001 = 170.5), as the GPU's, which decodes it whole."""
        photo = self.write("odd.jpg", smooth_photo(1999, 3001), cv2.IMWRITE_JPEG_QUALITY, 90)
        self.ok(photo)
        self.assertEqual(cv2.imread(self.cached(photo)).shape[:2], (256, 171))

    def test_an_edited_crop_is_placed_on_the_small_decode(self):
        """A crop in the photo's pixels (x 1200 of 2400) on a JPEG decoded at 1/4: the render
        must scale it with the level, or it shows the left half (or nothing)."""
        img = np.zeros((1600, 2400, 3), np.uint8)
        img[:, :1200] = (0, 0, 255)  # red left, in BGR
        img[:, 1200:] = (255, 0, 0)  # blue right
        photo = self.write("halves.jpg", img, cv2.IMWRITE_JPEG_QUALITY, 95)
        with open(photo + ".lumen", "w") as f:
            f.write("[lumen]\nversion=2\n\n[crop]\nenabled=true\nx=1300\ny=0\nwidth=1000\nheight=1600\n")
        self.ok(photo)
        private = os.path.join(self.cache, "lumen", "thumbnails", "large")
        thumb = cv2.imread(os.path.join(private, os.listdir(private)[0])).astype(np.int32)
        self.assertEqual(thumb.shape[:2], (256, 160))  # 1000 × 1600 upright
        self.assertGreater(thumb[..., 0].min(), 200, "not all blue")
        self.assertLess(thumb[..., 2].max(), 50, "red of the left half")

    def test_usage_errors(self):
        self.assertEqual(self.thumbs().returncode, 2)
        self.assertEqual(self.thumbs("--size", "2000", self.photos).returncode, 2)


if __name__ == "__main__":
    unittest.main()

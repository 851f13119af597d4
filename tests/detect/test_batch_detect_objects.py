"""lumen-cli batch detect-objects over a folder, against cv2.CascadeClassifier.detectMultiScale2
(OpenCV 4.6, the oracle) photo by photo.

The match rule: for each photo, the same boxes as integers with the same neighbour counts
(Lumen's score, OpenCV's numDetections), as multisets. The folder, made here from the corpus
(tests/data/photos: scikit-image's astronaut, NASA, public domain; chelsea.png, CC0), holds the
detection test's mosaic of four astronauts, a mirrored astronaut, the cat (no frontal faces:
an empty list), an astronaut as a JPEG, and photos that cannot be read: a JPEG cut in half, an
empty file and a fifo, each named .jpg. A subfolder named .jpg is not a photo (as batch develop
has it) and is neither listed nor failed.
"""
import csv
import json
import os
import shutil
import sys
import tempfile
import unittest
from collections import Counter

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import lumen_testlib as lt  # noqa: E402
from test_cascade_opencv import CASCADES, mosaic  # noqa: E402

FACES = os.path.join(CASCADES, "haarcascades/haarcascade_frontalface_default.xml")
GOOD = ["astro.jpg", "chelsea.png", "flip.png", "mosaic.png"]
BROKEN = {"cut.jpg": "cut.jpg", "empty.jpg": "empty", "fifo.jpg": "fifo.jpg"}


def batch(*args):
    return lt.run(["batch", "detect-objects", "--model", "faces", "--progress", "none"] + list(args), timeout=60)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def by_file(rows):
    boxes = {}
    for r in rows:
        boxes.setdefault(r["file"], Counter())[
            (int(r["x"]), int(r["y"]), int(r["width"]), int(r["height"]), int(r["score"]))] += 1
    return boxes


class BatchDetectObjects(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(FACES):
            raise unittest.SkipTest(f"{FACES} absent: install opencv-data")
        cls.tmp = tempfile.TemporaryDirectory(prefix="lumen-batch-detect-")
        cls.dir = os.path.join(cls.tmp.name, "photos")
        os.mkdir(cls.dir)
        d = cls.dir
        astronaut = cv2.imread(os.path.join(lt.photos_dir(), "astronaut.tif"))
        mosaic(os.path.join(d, "mosaic.png"))
        cv2.imwrite(os.path.join(d, "flip.png"), cv2.flip(astronaut, 1))
        cv2.imwrite(os.path.join(d, "chelsea.png"), cv2.imread(os.path.join(lt.photos_dir(), "chelsea.png")))
        cv2.imwrite(os.path.join(d, "astro.jpg"), astronaut, [cv2.IMWRITE_JPEG_QUALITY, 95])
        data = lt.read_bytes(os.path.join(d, "astro.jpg"))
        with open(os.path.join(d, "cut.jpg"), "wb") as f:
            f.write(data[: len(data) // 2])
        open(os.path.join(d, "empty.jpg"), "wb").close()
        os.mkfifo(os.path.join(d, "fifo.jpg"))
        os.mkdir(os.path.join(d, "folder.jpg"))
        cls.csv = os.path.join(cls.tmp.name, "boxes.csv")
        cls.proc = batch("-o", cls.csv, cls.dir)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def opencv(self, name):
        c = cv2.CascadeClassifier(FACES)
        boxes, counts = c.detectMultiScale2(cv2.imread(os.path.join(self.dir, name)), scaleFactor=1.1,
                                            minNeighbors=3)
        return Counter((int(b[0]), int(b[1]), int(b[2]), int(b[3]), int(n)) for b, n in zip(boxes, counts))

    def test_boxes_as_opencv_per_file(self):
        self.assertEqual(self.proc.returncode, 1, lt.describe(self.proc))
        rows = read_csv(self.csv)
        self.assertEqual(list(rows[0].keys()), ["file", "label", "x", "y", "width", "height", "score"])
        ours = by_file(rows)
        self.assertEqual(set(ours) - set(GOOD), set(), "only the photos that were read")
        found = 0
        for name in GOOD:
            theirs = self.opencv(name)
            lt.say(f"{name}: OpenCV {sum(theirs.values())} boxes, Lumen {sum(ours.get(name, Counter()).values())}")
            self.assertEqual(ours.get(name, Counter()), theirs, name)
            found += sum(theirs.values())
        self.assertGreaterEqual(found, 6, "too few faces for the comparison to mean much")
        self.assertTrue(all(r["label"] == "faces" for r in rows))
        files = [r["file"] for r in rows]
        self.assertEqual(files, sorted(files), "sorted by file name")

    def test_unreadable_photos_are_named_and_the_rest_go_on(self):
        err = self.proc.stderr.splitlines()
        for name, cause in BROKEN.items():
            lines = [line for line in err if os.path.join(self.dir, name) in line]
            self.assertEqual(len(lines), 1, f"{name}: {err}")
            self.assertIn(cause, lines[0])
        self.assertIn("3 photos failed, the others are done", self.proc.stderr)
        self.assertNotIn("folder.jpg", self.proc.stderr + lt.read_bytes(self.csv).decode())
        self.assertIn("of 7 photos done", self.proc.stdout)

    def test_jobs_do_not_change_the_output(self):
        # setUpClass's run had the defaults (one worker a core, at most 16).
        outputs = {"csv": [lt.read_bytes(self.csv)]}
        for jobs, threads, ext in ((1, 1, "csv"), (2, 3, "csv"), (1, 1, "json"), (3, 2, "json")):
            out = os.path.join(self.tmp.name, f"jobs{jobs}.{ext}")
            proc = batch("--jobs", jobs, "--threads", threads, "--backend", "cpu", "-o", out, self.dir)
            self.assertEqual(proc.returncode, 1, lt.describe(proc))
            outputs.setdefault(ext, []).append(lt.read_bytes(out))
        for ext, texts in outputs.items():
            self.assertEqual(len(set(texts)), 1, f"{ext} differs between --jobs")
        photos = json.loads(outputs["json"][0])
        self.assertEqual([p["file"] for p in photos], sorted(GOOD + list(BROKEN)))
        rows = [(p["file"], b["label"], b["x"], b["y"], b["width"], b["height"], b["score"])
                for p in photos if "boxes" in p for b in p["boxes"]]
        self.assertEqual(rows, [(r["file"], r["label"], int(r["x"]), int(r["y"]), int(r["width"]), int(r["height"]),
                                 int(r["score"])) for r in read_csv(self.csv)])
        errors = {p["file"]: p["error"] for p in photos if "error" in p}
        self.assertEqual(set(errors), set(BROKEN))
        self.assertEqual(next(p for p in photos if p["file"] == "chelsea.png")["boxes"], [])

    def test_draw_and_blur_folders(self):
        draw = os.path.join(self.tmp.name, "drawn")
        blur = os.path.join(self.tmp.name, "blurred")
        proc = batch("--draw-dir", draw, "--blur-detected-dir", blur, self.dir)
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        boxes = by_file(read_csv(self.csv))
        for folder in (draw, blur):
            self.assertEqual(sorted(os.listdir(folder)), GOOD, "the photos that were read, under their names")
        for name in ("flip.png", "mosaic.png", "chelsea.png"):
            src = cv2.imread(os.path.join(self.dir, name))
            near = np.zeros(src.shape[:2], bool)
            for x, y, w, h, _ in boxes.get(name, ()):
                near[y:y + h, x:x + w] = True
            for folder in (draw, blur):
                out = cv2.imread(os.path.join(folder, name))
                changed = np.any(out != src, axis=2)
                self.assertFalse(np.any(changed & ~near), f"{folder}/{name}: changed away from the boxes")
                self.assertEqual(bool(changed.any()), bool(near.any()), f"{folder}/{name}: boxes left as they were")
        # The same bytes as detect-objects --draw writes for the one photo.
        one = os.path.join(self.tmp.name, "one.png")
        lt.run_ok(self, ["detect-objects", "--model", "faces", "--draw", one, os.path.join(self.dir, "mosaic.png")])
        np.testing.assert_array_equal(cv2.imread(one), cv2.imread(os.path.join(draw, "mosaic.png")))
        self.assertEqual(lt.leftovers(draw) + lt.leftovers(blur), [])

    def test_a_list_of_photos(self):
        out = os.path.join(self.tmp.name, "two.csv")
        proc = batch("-o", out, os.path.join(self.dir, "flip.png"), os.path.join(self.dir, "mosaic.png"))
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        ours = by_file(read_csv(out))
        self.assertEqual(ours, {n: self.opencv(n) for n in ("flip.png", "mosaic.png")})


class Refusals(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="lumen-batch-detect-bad-")
        self.dir = os.path.join(self.tmp.name, "photos")
        os.mkdir(self.dir)
        self.photo = os.path.join(self.dir, "p.png")
        cv2.imwrite(self.photo, np.full((64, 64, 3), 90, np.uint8))
        self.before = lt.read_bytes(self.photo)
        self.out = os.path.join(self.tmp.name, "o.csv")

    def tearDown(self):
        self.assertEqual(lt.read_bytes(self.photo), self.before, "the input is untouched")
        self.tmp.cleanup()

    def refused(self, code, args, *needles):
        proc = lt.run(["batch", "detect-objects", "--progress", "none"] + list(args), timeout=30)
        self.assertEqual(proc.returncode, code, lt.describe(proc))
        first = proc.stderr.splitlines()[0] if proc.stderr else ""
        for n in needles:
            self.assertIn(n, first)
        self.assertFalse(os.path.exists(self.out), "no output after a refusal")

    def test_usage_errors(self):
        m = ["--model", "faces"]
        cases = [
            ([self.dir, "-o", self.out], "--model is required"),
            (m + ["-o", self.out], "no input"),
            (m + [self.dir], "nothing to write"),
            (m + ["--min-size", "3y", "-o", self.out, self.dir], "--min-size: \u201c3y\u201d is not a size"),
            (m + ["--scale-factor", "1", "-o", self.out, self.dir], "--scale-factor"),
            (m + ["--jobs", "-1", "-o", self.out, self.dir], "--jobs"),
            (m + ["--backend", "tpu", "-o", self.out, self.dir], "tpu"),
            (m + ["--progress", "loud", "-o", self.out, self.dir], "--progress"),
            (m + ["-o", self.out, os.path.join(self.tmp.name, "missing")], "missing"),
        ]
        for args, needle in cases:
            with self.subTest(args=args):
                self.refused(2, args, needle)

    def test_unknown_model(self):
        self.refused(1, ["--model", "no-such-model", "-o", self.out, self.dir], "unknown model")

    def test_outputs_never_replace_inputs(self):
        self.refused(1, ["--model", "faces", "--draw-dir", self.dir, "-o", self.out, self.dir], self.photo,
                     "replaced")
        self.refused(1, ["--model", "faces", "--blur-detected-dir", self.dir + "/", self.dir], self.photo)
        self.refused(1, ["--model", "faces", "-o", self.photo, self.dir], self.photo)
        other = os.path.join(self.tmp.name, "same")
        self.refused(1, ["--model", "faces", "--draw-dir", other, "--blur-detected-dir", other, self.dir], other)
        self.assertFalse(os.path.exists(other), "refused before a folder is made")

    def test_an_empty_folder(self):
        empty = os.path.join(self.tmp.name, "empty")
        os.mkdir(empty)
        self.refused(1, ["--model", "faces", "-o", self.out, empty], "holds no photos")


if __name__ == "__main__":
    unittest.main(verbosity=2)

"""lumen-cli detect-objects against cv2.CascadeClassifier.detectMultiScale2 (OpenCV 4.6, the
oracle), with the same opencv-data model, scale factor, minimum neighbours and sizes.

The match rule: the same boxes, as integers, and the same neighbour count for each (Lumen's
score, OpenCV's numDetections), compared as multisets; the output's order is not compared
(OpenCV's depends on its threads). Each model is compared with minNeighbors 0, where OpenCV
returns every window that passed every stage (hundreds on these photos, so each pyramid level,
window and stage sum is checked); three of them grouped too (minNeighbors 3), and one with
other scale factors, neighbours and sizes. Where they
differ, the test prints the best-IoU statistics of each side's boxes against the other's, and
fails.

Photos: a 512 × 512 mosaic made here from the corpus's astronaut.tif (scikit-image's
astronaut, NASA, public domain) at three sizes, one mirrored, and a photo of a cat
(chelsea.png, CC0), so that several faces are found; scikit-image's own astronaut.png when
python3-skimage is installed; two of ../shared/data's photos halved, when present. Each is
written as PNG so that both sides read the same bytes.
"""
import csv
import json
import os
import stat
import sys
import tempfile
import unittest
from collections import Counter

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

CASCADES = "/usr/share/opencv4"
# (Lumen's model name or a file, opencv-data's file, the photo it is compared on, whether the
# grouped boxes are compared too)
MODELS = [
    ("faces", "haarcascades/haarcascade_frontalface_default.xml", "mosaic", True),
    ("faces-alt", "haarcascades/haarcascade_frontalface_alt.xml", "mosaic", False),
    ("faces-lbp", "lbpcascades/lbpcascade_frontalface_improved.xml", "astronaut", True),
    ("profile-faces", "haarcascades/haarcascade_profileface.xml", "mosaic", False),
    ("eyes", "haarcascades/haarcascade_eye.xml", "mosaic", True),
    ("upper-bodies", "haarcascades/haarcascade_upperbody.xml", "mosaic", False),  # tilted features
    ("full-bodies", "haarcascades/haarcascade_fullbody.xml", "extra", False),
    ("cat-faces", "haarcascades/haarcascade_frontalcatface.xml", "chelsea", False),
    (None, "haarcascades/haarcascade_frontalcatface_extended.xml", "chelsea", True),  # tilted
    ("cat-faces-lbp", "lbpcascades/lbpcascade_frontalcatface.xml", "chelsea", False),
    ("plates", "haarcascades/haarcascade_russian_plate_number.xml", "extra", False),
]
# The old format (<opencv_haar_classifier>-style trees), which OpenCV converts on load.
OLD_FORMAT = "haarcascades/haarcascade_licence_plate_rus_16stages.xml"


def mosaic(path):
    a = cv2.imread(os.path.join(lt.photos_dir(), "astronaut.tif"))
    tiles = np.full((512, 512, 3), 128, np.uint8)
    tiles[0:256, 0:256] = cv2.resize(a, (256, 256), interpolation=cv2.INTER_AREA)
    tiles[0:256, 256:512] = cv2.flip(cv2.resize(a, (256, 256), interpolation=cv2.INTER_AREA), 1)
    tiles[256:512, 0:300] = cv2.resize(a, (300, 300), interpolation=cv2.INTER_AREA)[22:278, :]
    tiles[320:512, 330:512] = cv2.resize(a, (182, 192), interpolation=cv2.INTER_AREA)
    cv2.imwrite(path, tiles)


def iou(a, b):
    ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / float(a[2] * a[3] + b[2] * b[3] - inter)


def iou_report(ours, theirs):
    """The best IoU of each box against the other side's, summarised."""
    lines = []
    for name, xs, ys in (("lumen", ours, theirs), ("opencv", theirs, ours)):
        best = [max((iou(x, y) for y in ys), default=0.0) for x in xs]
        if best:
            lines.append(f"{name}: {len(best)} boxes, IoU min {min(best):.3f}, mean {np.mean(best):.3f}, "
                         f"≥ 0.9: {sum(b >= 0.9 for b in best)}")
    return "; ".join(lines)


class CascadeOpenCV(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.isdir(CASCADES):
            raise unittest.SkipTest(f"{CASCADES} absent: install opencv-data")
        cls.tmp = tempfile.TemporaryDirectory(prefix="lumen-detect-")
        t = cls.tmp.name
        cls.photos = {"mosaic": os.path.join(t, "mosaic.png"), "chelsea": os.path.join(t, "chelsea.png")}
        mosaic(cls.photos["mosaic"])
        cv2.imwrite(cls.photos["chelsea"], cv2.imread(os.path.join(lt.photos_dir(), "chelsea.png")))
        try:
            import skimage.data
            p = os.path.join(t, "astronaut.png")
            cv2.imwrite(p, cv2.cvtColor(skimage.data.astronaut(), cv2.COLOR_RGB2BGR))
            cls.photos["astronaut"] = p
        except ImportError:
            lt.say("python3-skimage is not installed: scikit-image's astronaut.png is skipped")
        extra = [p for p in lt.extra_photos(".jpg") if os.path.basename(p) == "boats-sunset.jpg"]
        if extra:
            img = cv2.imread(extra[0])
            p = os.path.join(t, "boats.png")
            cv2.imwrite(p, cv2.resize(img, (img.shape[1] // 3, img.shape[0] // 3), interpolation=cv2.INTER_AREA))
            cls.photos["extra"] = p
        else:
            lt.say("boats-sunset.jpg absent from the extra data: full bodies and plates are compared on the "
                   "mosaic instead")
            cls.photos["extra"] = cls.photos["mosaic"]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def lumen(self, model, photo, scale, neighbors, min_size=None, out="boxes.csv"):
        out = os.path.join(self.tmp.name, out)
        args = ["detect-objects", "--model", model, "--scale-factor", scale, "--min-neighbors", neighbors, "-o", out]
        if min_size:
            args += ["--min-size", "%dx%d" % min_size]
        lt.run_ok(self, args + [photo])
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
        return Counter((int(r["x"]), int(r["y"]), int(r["width"]), int(r["height"]), int(r["score"])) for r in rows), rows

    def opencv(self, path, photo, scale, neighbors, min_size=None):
        c = cv2.CascadeClassifier(path)
        self.assertFalse(c.empty(), path)
        boxes, counts = c.detectMultiScale2(cv2.imread(photo), scaleFactor=scale, minNeighbors=neighbors,
                                            minSize=min_size or (0, 0))
        # With minNeighbors 0 OpenCV groups nothing and reports no counts: each box is one window.
        return Counter((int(b[0]), int(b[1]), int(b[2]), int(b[3]), int(n) if neighbors else 1)
                       for b, n in zip(boxes, counts)) if len(boxes) else Counter()

    def compare(self, model, path, photo, scale=1.1, neighbors=3, min_size=None):
        ours, rows = self.lumen(model, photo, scale, neighbors, min_size)
        theirs = self.opencv(path, photo, scale, neighbors, min_size)
        label = f"{model} on {os.path.basename(photo)}, scale {scale}, minNeighbors {neighbors}"
        lt.say(f"{label}: OpenCV {sum(theirs.values())} boxes, Lumen {sum(ours.values())}, "
               f"{'identical' if ours == theirs else 'DIFFERENT'}")
        if ours != theirs:
            self.fail(f"{label}: boxes differ; {iou_report(list(ours.elements()), list(theirs.elements()))}; "
                      f"only Lumen's {sorted((ours - theirs).elements())[:8]}, "
                      f"only OpenCV's {sorted((theirs - ours).elements())[:8]}")
        return ours, rows

    def test_models_as_opencv(self):
        windows = found = 0
        for name, file, key, grouped in MODELS:
            path = os.path.join(CASCADES, file)
            photo = self.photos.get(key) or self.photos["mosaic"]
            with self.subTest(model=name or file, photo=os.path.basename(photo)):
                boxes, _ = self.compare(name or path, path, photo, neighbors=0)
                windows += sum(boxes.values())
                if grouped:
                    boxes, _ = self.compare(name or path, path, photo, neighbors=3)
                    found += sum(boxes.values())
        # The comparison means something only where windows pass and objects are found.
        self.assertGreaterEqual(windows, 300, "too few windows passed for the comparison to mean much")
        self.assertGreaterEqual(found, 8, "too few objects found for the comparison to mean much")

    def test_faces_in_the_mosaic(self):
        boxes, _ = self.lumen("faces", self.photos["mosaic"], 1.1, 3)
        self.assertGreaterEqual(sum(boxes.values()), 4, "the mosaic's four astronauts")

    def test_parameters_as_opencv(self):
        path = os.path.join(CASCADES, MODELS[0][1])
        for scale, neighbors, min_size in ((1.15, 2, None), (1.3, 1, (60, 60)), (2.0, 0, None)):
            with self.subTest(scale=scale, neighbors=neighbors, min_size=min_size):
                self.compare(path, path, self.photos["mosaic"], scale, neighbors, min_size)

    def test_old_format_file(self):
        path = os.path.join(CASCADES, OLD_FORMAT)
        if not os.path.exists(path):
            self.skipTest(f"{path} absent")
        self.compare(path, path, self.photos["extra"], neighbors=0)

    def test_json_and_csv_agree(self):
        photo = self.photos["mosaic"]
        _, rows = self.lumen("faces", photo, 1.1, 3)
        out = os.path.join(self.tmp.name, "boxes.json")
        lt.run_ok(self, ["detect-objects", "--model", "faces", "-o", out, photo])
        with open(out) as f:
            boxes = json.load(f)
        self.assertEqual([(b["label"], b["x"], b["y"], b["width"], b["height"], b["score"]) for b in boxes],
                         [(r["label"], int(r["x"]), int(r["y"]), int(r["width"]), int(r["height"]), int(r["score"]))
                          for r in rows])
        self.assertTrue(rows and all(r["label"] == "faces" for r in rows))


class BadInput(unittest.TestCase):
    """One line naming the file and the cause, exit 1, no output written."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="lumen-detect-bad-")
        self.photo = os.path.join(self.tmp.name, "p.png")
        cv2.imwrite(self.photo, np.full((64, 64, 3), 90, np.uint8))
        self.out = os.path.join(self.tmp.name, "o.csv")

    def tearDown(self):
        self.tmp.cleanup()

    def refused(self, model, *needles, env=None):
        code, message, seconds, _ = lt.run_measured(["detect-objects", "--model", model, "-o", self.out, self.photo],
                                                    env=env)
        self.assertEqual(code, 1, message)
        self.assertEqual(message.count("\n"), 1, f"one line: {message!r}")
        for n in needles:
            self.assertIn(n, message)
        self.assertFalse(os.path.exists(self.out), "no output after a failure")
        self.assertLess(seconds, 5)

    def write(self, name, text):
        p = os.path.join(self.tmp.name, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def test_unknown_name(self):
        self.refused("no-such-model", "unknown model", "faces")

    def test_missing_models_say_where_to_get_them(self):
        self.refused("faces", "LUMEN_CASCADE_DIR", env={"LUMEN_CASCADE_DIR": self.tmp.name})

    def test_folder_and_fifo(self):
        d = os.path.join(self.tmp.name, "dir.xml")
        os.mkdir(d)
        self.refused(d, d, "folder")
        fifo = os.path.join(self.tmp.name, "fifo.xml")
        os.mkfifo(fifo)
        self.refused(fifo, fifo)  # refused by name: a reader would block

    def test_a_size_that_is_not_one_is_named_as_typed(self):
        code, message, _, _ = lt.run_measured(["detect-objects", "--model", "faces", "--min-size", "3y", "-o",
                                               self.out, self.photo])
        self.assertNotEqual(code, 0)
        self.assertIn("--min-size: \u201c3y\u201d is not a size", message)
        self.assertFalse(os.path.exists(self.out))

    def test_damaged_files(self):
        with open(os.path.join(CASCADES, MODELS[0][1])) as f:
            good = f.read()
        cases = {
            "empty.xml": ("", "empty"),
            "truncated.xml": (good[: len(good) // 2], "truncated.xml"),
            "stagenum.xml": (good.replace("<stageNum>25</stageNum>", "<stageNum>2000000000</stageNum>"), "stageNum"),
            "feature.xml": (good.replace("0 -1 0 -3.1511999666690826e-02", "0 -1 99999 -3.1511999666690826e-02"),
                            "feature 99999"),
            "rect.xml": (good.replace("6 4 12 9 -1.", "6 4 19 9 -1."), "outside"),
            "nan.xml": (good.replace("-5.0425500869750977e+00", "nan"), "not finite"),
            "html.xml": ("<html><body>not a model</body></html>", "not an OpenCV file"),
        }
        for name, (text, needle) in cases.items():
            with self.subTest(case=name):
                self.refused(self.write(name, text), name, needle)


if __name__ == "__main__":
    unittest.main(verbosity=2)

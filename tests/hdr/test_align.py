"""lumen-cli hdr --align against cv2.AlignMTB (max bits 6, exclusion range 4, cut): the shifts
must be OpenCV's exactly, on every stack of the shared data and on exposures made from photos
by known shifts (where a do-nothing aligner fails), and the aligned, fused result must be
OpenCV's fusion of OpenCV's aligned stack."""
import os
import unittest

import cv2
import numpy as np

from hdrlib import HdrTest, STACKS, exposures_file, lt, opencv_aligned, opencv_mertens, opencv_shifts, \
    shifts_printed, stack

# Photos cropped into synthetic brackets: colour ones of several sizes, and a gray one (the
# aligner's one-channel path); the larger data adds three more when present. Left out because
# OpenCV itself misses there: pier-fog (fog) and ladybird.
PHOTOS = ["astronaut.tif", "camera-gray.png", "forest-path.jpg"]
EXTRA_PHOTOS = ["boats-sunset.jpg", "coffee.png", "hubble-deep-field.jpg"]


def bracket_photos():
    corpus = [os.path.join(lt.photos_dir(), p) for p in PHOTOS]
    if os.environ.get("ASAN_OPTIONS") is not None:
        return corpus  # the sanitizers' run looks for memory errors: CI's time on 2 cores
    extra = {os.path.basename(p): p for p in lt.extra_photos()}
    return corpus + [extra[p] for p in EXTRA_PHOTOS if p in extra]
# (dx, dy) of the darker and the brighter exposure against the middle one.
MOVES = [(5, -3), (-7, 2)]
GAINS = [0.5, 1.0, 1.8]


def bracket(photo, moves=MOVES, gains=GAINS, margin=16, size=(800, 600)):
    """Three exposures of one crop of PHOTO: the middle one as is, the others scaled by GAINS
    and taken MOVES away, so that OpenCV's shift that lines them up is the move itself."""
    img = lt.imread(photo, cv2.IMREAD_UNCHANGED)
    h, w = img.shape[:2]
    cw, ch = min(size[0], w - 2 * margin), min(size[1], h - 2 * margin)
    x0, y0 = (w - cw) // 2, (h - ch) // 2
    offsets = [moves[0], (0, 0), moves[1]]
    out = []
    for (dx, dy), gain in zip(offsets, gains):
        crop = img[y0 + dy:y0 + dy + ch, x0 + dx:x0 + dx + cw].astype(np.float32)
        out.append(np.clip(np.round(crop * gain), 0, 255).astype(np.uint8))
    return out, offsets


class Align(HdrTest):
    def fuse_aligned(self, files, out):
        proc = lt.run_ok(self, ["hdr", "--method", "mertens", "--align", "--timings", "-o", out, *files])
        printed = shifts_printed(proc)
        return [printed[os.path.basename(f)] for f in files]

    def check_stack(self, label, files, images):
        out = self.path("aligned.png")
        ours = self.fuse_aligned(files, out)
        theirs = opencv_shifts(images)
        lt.say(f"{label}: shifts {ours}, OpenCV {theirs}")
        self.assertEqual(ours, theirs)
        # The cut and the shifted pixels: OpenCV's aligned stack, fused by OpenCV.
        ref = opencv_mertens(opencv_aligned(images, theirs))
        got = lt.imread(out)
        self.assertEqual(got.shape, ref.shape)
        mx, mean, _ = lt.diff(got, ref)
        lt.say(f"{label}: aligned fusion against OpenCV's: mean |Δ| {mean:.3f}, max {mx}")
        self.assertLessEqual(mean, 1.0)
        self.assertLessEqual(mx, 8)
        return ours

    def test_stacks(self):
        for name in STACKS:
            with self.subTest(stack=name):
                _, files, _ = stack(name)
                self.check_stack(name, files, [lt.imread(f) for f in files])

    def test_known_shifts(self):
        for path in bracket_photos():
            photo = os.path.basename(path)
            with self.subTest(photo=photo):
                images, truth = bracket(path)
                files = []
                for i, im in enumerate(images):
                    files.append(self.path(f"{os.path.splitext(photo)[0]}-{i}.png"))
                    cv2.imwrite(files[-1], im)
                ours = self.check_stack(photo, files, images)
                self.assertEqual(ours, truth, "the true shifts")


if __name__ == "__main__":
    unittest.main(verbosity=2)

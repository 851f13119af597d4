"""What the oracle scripts share: their command line (SCRIPT corpus|extra [PHOTO…]), the bound
on the extra set's photo sizes, and a test class for each photo."""
import os
import sys
import unittest

import cv2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

EXTRA_MAX_PIXELS = 4_000_000


def pixels(path):
    """About width × height: the photo decoded at an eighth of its size (quick for a JPEG)."""
    image = cv2.imread(path, cv2.IMREAD_REDUCED_GRAYSCALE_8)
    return 0 if image is None else image.shape[0] * image.shape[1] * 64


def within_extra_limit(paths):
    """PATHS without the photos above EXTRA_MAX_PIXELS, which it names. For CI's time on
    2 cores: the photos of 4 MP and more took three quarters of an extra set and add no case
    the corpus's and the smaller ones lack; bench/cpu-vs-opencv.py and the GPU machine's
    parity run them at full size. Named on the command line, they run."""
    large = [p for p in paths if pixels(p) > EXTRA_MAX_PIXELS]
    if large:
        lt.say("above %d MP, left to the benchmarks: %s" % (EXTRA_MAX_PIXELS // 1000000,
                                                          ", ".join(os.path.basename(p) for p in large)))
    return [p for p in paths if p not in large]


def main(argv, script, suite_for):
    """Runs SUITE_FOR(paths, extra) on the photos ARGV names: `corpus` (the repository's),
    `extra` (the larger data beside the checkout, within EXTRA_MAX_PIXELS), each followed
    by photos that replace the set's. The exit status is meson's: 0, 1, or 77 (skipped)."""
    if not argv or argv[0] not in ("corpus", "extra"):
        raise SystemExit(f"usage: {script} corpus|extra [PHOTO…]")
    extra = argv[0] == "extra"
    paths = argv[1:] or (lt.extra_photos() if extra else lt.photos())
    if not argv[1:] and extra:
        paths = within_extra_limit(paths)
    if not paths:
        return 77  # meson's SKIP; extra_photos said why
    lt.say("photos: " + ", ".join(os.path.basename(p) for p in paths))
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite_for(paths, extra))
    return 0 if result.wasSuccessful() else 1


def photo_suite(case, prefix, paths, **attributes):
    """A subclass of the TestCase CASE for each photo of PATHS (its PHOTO, and ATTRIBUTES),
    named PREFIX and the photo's name, so that a failure names the photo."""
    loader = unittest.TestLoader()
    suite = unittest.TestSuite()
    for path in paths:
        name = prefix + "".join(c if c.isalnum() else "_" for c in os.path.basename(path))
        suite.addTests(loader.loadTestsFromTestCase(type(name, (case,), {"PHOTO": path, **attributes})))
    return suite

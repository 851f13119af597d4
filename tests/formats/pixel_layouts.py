"""Test images in every layout a codec writes (gray, RGB, RGBA; 8 and 16 bits), from a real
photo, for the encoder tests of several formats."""
import os

import cv2
import numpy as np

import lumen_testlib as lt


def photo(width, height):
    img = lt.imread(os.path.join(lt.photos_dir(), "chelsea.png"), cv2.IMREAD_COLOR)
    return cv2.resize(img, (width, height), interpolation=cv2.INTER_CUBIC)


def layouts(width, height, seed):
    """name -> pixels as OpenCV reads and writes them (BGR(A), gray)."""
    bgr = photo(width, height)
    ramp = np.fromfunction(lambda y, x: (x + 3 * y) % 256, (height, width)).astype(np.uint8)
    rng = np.random.default_rng(seed)
    # Low bytes that are not the high byte repeated, as real 16-bit data has.
    wide = bgr.astype(np.uint16) * 256 + rng.integers(0, 256, bgr.shape, dtype=np.uint16)
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    return {
        "gray8": gray,
        "gray16": gray.astype(np.uint16) * 257 + rng.integers(0, 200, gray.shape, dtype=np.uint16),
        "rgb8": bgr,
        "rgba8": np.dstack([bgr, ramp]),
        "rgb16": wide,
        "rgba16": np.dstack([wide, ramp.astype(np.uint16) * 257]),
    }

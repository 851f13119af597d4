"""The linear scenes the raw ground truth is made from: float32 H × W × 3 arrays of linear
light (Rec. 2020 primaries, D65 white), 1.0 = the diffuse white the sensor's white level holds.

- photos of tests/data/photos, linearised with the sRGB EOTF and box-downscaled 2× (the 2×2
  mean removes the photo's own demosaic and JPEG traces: they sit above the new Nyquist
  limit), then a centred crop, their BT.709 primaries converted to Rec. 2020;
- synthetic targets: a zone plate (every frequency up to Nyquist, in every direction) and a
  colour star (two saturated colours meeting at edges of every angle, anti-aliased by 8×8
  supersampling);
- HDR radiance: the brackets of tests/data/hdr merged by OpenCV's Debevec (calibrated
  response), BT.709 primaries converted to Rec. 2020; the merge is only the source of a real radiance map, not something under test.
  It is scaled so that its brightest pixel is 1, so its shadows sit many stops down.

quick() is the small set the CI test runs (seconds); full() the larger one for the closing
note's table (run by hand). Each is a list of (name, image)."""

import os

import cv2
import numpy as np
from PIL import Image

from metrics import REC709_TO_REC2020, apply

DATA = os.environ.get('LUMEN_TEST_DATA',
                      os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data'))


def srgb_eotf(v):
    v = np.asarray(v, np.float64)
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def box2(img):
    h, w = img.shape[0] // 2 * 2, img.shape[1] // 2 * 2
    return img[:h, :w].reshape(h // 2, 2, w // 2, 2, -1).mean(axis=(1, 3))


def crop(img, size):
    """A centred size × size crop (or the whole side where the image is smaller), even-sized."""
    h, w = img.shape[:2]
    ch, cw = min(size, h) // 2 * 2, min(size, w) // 2 * 2
    y, x = (h - ch) // 2, (w - cw) // 2
    return img[y:y + ch, x:x + cw]


def photo(name, size):
    rgb = np.asarray(Image.open(os.path.join(DATA, 'photos', name)).convert('RGB'))
    lin = apply(REC709_TO_REC2020, box2(srgb_eotf(rgb / 255.0)))
    return crop(lin, size).astype(np.float32)


def zone_plate(n):
    """cos(π r² / 2n): the local frequency reaches Nyquist (½ cycle/px) at the edge's middle."""
    y, x = np.mgrid[:n, :n] - (n - 1) / 2
    z = 0.5 + 0.4 * np.cos(np.pi * (x * x + y * y) / (2 * n))
    return np.repeat(z[..., None], 3, axis=2).astype(np.float32)


def colour_star(n, spokes=36, ss=8):
    """Alternating sectors of an orange and a blue whose greens differ little, so the edges
    are mostly chroma (the hard case for a demosaic), on a gray disc's outside."""
    a = np.array([0.80, 0.30, 0.05])
    b = np.array([0.08, 0.25, 0.75])
    o = (np.arange(ss) + 0.5) / ss - 0.5
    y, x = np.mgrid[:n, :n].astype(np.float64)
    ys = (y[..., None, None] + o[:, None]) - (n - 1) / 2
    xs = (x[..., None, None] + o[None, :]) - (n - 1) / 2
    sector = np.floor((np.arctan2(ys, xs) + np.pi) / (2 * np.pi) * spokes).astype(int) % 2
    frac = sector.mean(axis=(2, 3))[..., None]
    return (frac * a + (1 - frac) * b).astype(np.float32)


def hdr(scene, size):
    """OpenCV's Debevec merge of tests/data/hdr/SCENE, downscaled 2×, cropped, max = 1."""
    folder = os.path.join(DATA, 'hdr', scene)
    names, times = [], []
    for line in open(os.path.join(folder, 'exposures.txt')):
        if line.split():
            names.append(line.split()[0])
            times.append(float(line.split()[1]))
    imgs = [cv2.imread(os.path.join(folder, n), cv2.IMREAD_COLOR) for n in names]
    t = np.asarray(times, np.float32)
    response = cv2.createCalibrateDebevec().process(imgs, t)
    rad = cv2.createMergeDebevec().process(imgs, t, response)[..., ::-1].astype(np.float64)
    rad = crop(apply(REC709_TO_REC2020, box2(rad)), size)
    return (rad / rad.max()).astype(np.float32)


def quick():
    return [('astronaut', photo('astronaut.tif', 192)),
            ('forest-path', photo('forest-path.jpg', 192)),
            ('zone-plate', zone_plate(192)),
            ('colour-star', colour_star(192)),
            ('hdr-courtyard', hdr('courtyard', 192))]


def full():
    return [('astronaut', photo('astronaut.tif', 384)),
            ('chelsea', photo('chelsea.png', 384)),
            ('forest-path', photo('forest-path.jpg', 384)),
            ('pier-fog', photo('pier-fog.jpg', 384)),
            ('coffee', photo('coffee-alpha.png', 384)),
            ('zone-plate', zone_plate(384)),
            ('colour-star', colour_star(384)),
            ('hdr-courtyard', hdr('courtyard', 384)),
            ('hdr-forest', hdr('forest', 384)),
            ('hdr-sunset', hdr('sunset-handheld', 384))]


if __name__ == '__main__':
    for name, img in full():
        print(name, img.shape, img.dtype, float(img.min()), float(img.max()))

"""The linear scenes the raw ground truth is made from: float32 H × W × 3 arrays of linear
light (Rec. 2020 primaries, D65 white), 1.0 = the diffuse white the sensor's white level holds.

- photos of tests/data/photos, linearised with the sRGB EOTF and box-downscaled 2× (the 2×2
  mean removes the photo's own demosaic and JPEG traces: they sit above the new Nyquist
  limit), then a centred crop, their BT.709 primaries converted to Rec. 2020;
- synthetic targets: a zone plate (every frequency up to Nyquist, in every direction), a
  colour star (two saturated colours meeting at edges of every angle, anti-aliased by 8×8
  supersampling), and a smooth chart (no detail: the development without the demosaic);
- HDR radiance: the brackets of tests/data/hdr merged by OpenCV's Debevec (calibrated
  response), BT.709 primaries converted to Rec. 2020; the merge is only the source of a real
  radiance map, not something under test. The brackets were rendered from radiance maps
  (tests/data/SOURCES.md), so they carry no demosaic of their own and are not downscaled.
  It is scaled so that its brightest pixel is 1, so its shadows sit many stops down.

Scenes are 512 px where the source allows: LibRaw 0.20's Markesteijn refuses an X-Trans image
narrower or lower than its 512 px tile ("Input/output error"); smaller ones get Bayer only.
RawTherapee 5.9 refuses a DNG of fewer than about 48 000 pixels ("Error loading file": 224 ×
224 loads, 192 × 192 does not), so chelsea.png (224 × 150 once downscaled) is left out.

quick() is the small set the CI test runs (seconds); full() the larger one for the closing
note's table (run by hand). Each is a list of (name, image)."""

import functools
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
    # crop(box2(…)) taken from the full-size image first: the same pixels, less work.
    h, w = rgb.shape[0] // 2, rgb.shape[1] // 2
    ch, cw = min(size, h) // 2 * 2, min(size, w) // 2 * 2
    y, x = (h - ch) // 2, (w - cw) // 2
    rgb = rgb[2 * y:2 * (y + ch), 2 * x:2 * (x + cw)]
    return apply(REC709_TO_REC2020, box2(srgb_eotf(rgb / 255.0))).astype(np.float32)


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
    count = np.zeros((n, n))
    for oy in o:
        for ox in o:
            angle = np.arctan2((y + oy) - (n - 1) / 2, (x + ox) - (n - 1) / 2)
            count += np.floor((angle + np.pi) / (2 * np.pi) * spokes).astype(int) % 2
    frac = (count / (ss * ss))[..., None]
    return (frac * a + (1 - frac) * b).astype(np.float32)


def smooth_chart(n):
    """Ramps and a slow sinusoid over 0.01 … 0.8 in each channel: no detail, so any demosaic
    returns it, and what is measured on it is the rest of the development."""
    y, x = np.mgrid[:n, :n] / (n - 1.0)
    return np.stack([0.01 + 0.79 * x, 0.01 + 0.79 * y,
                     0.01 + 0.79 * (0.5 + 0.5 * np.sin(2 * np.pi * (x + 0.7 * y)))],
                    axis=-1).astype(np.float32)


def hdr(scene, size):
    """OpenCV's Debevec merge of tests/data/hdr/SCENE, cropped, max = 1."""
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
    rad = crop(apply(REC709_TO_REC2020, rad), size)
    return (rad / rad.max()).astype(np.float32)


@functools.lru_cache(maxsize=1)
def quick():
    """Cached: the DNG makers take the scenes as read-only."""
    return [('astronaut', photo('astronaut.tif', 512)),
            ('forest-path', photo('forest-path.jpg', 512)),
            ('zone-plate', zone_plate(512)),
            ('colour-star', colour_star(512)),
            ('hdr-courtyard', hdr('courtyard', 512)),
            ('smooth-chart', smooth_chart(512))]


def full():
    return quick() + [('pier-fog', photo('pier-fog.jpg', 512)),
                      ('coffee', photo('coffee-alpha.png', 512)),
                      ('hdr-forest', hdr('forest', 512)),
                      ('hdr-sunset', hdr('sunset-handheld', 512))]


if __name__ == '__main__':
    for name, img in full():
        print(name, img.shape, img.dtype, float(img.min()), float(img.max()))

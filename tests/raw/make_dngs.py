"""The ground-truth DNGs: scenes.py's linear scenes sampled through a known CFA, each with the
image a raw developer must give back.

Demosaic alone (cases(): CPSNR). The camera IS linear Rec. 2020: ColorMatrix1 (D65) is the
XYZ → linear Rec. 2020 matrix, AsShotNeutral 1 1 1, black 0, white 65535, so that a raw
developer's output in camera RGB, and Lumen's scene-referred EXR (linear Rec. 2020), both equal
the truth with no flag. The scene is scaled to a maximum of 0.8 (no clipping, and room for
every method's overshoot). Bayer in all four phases and X-Trans (the X-Pro1 pattern and one
shifted by (1, 2)); clean, and with Poisson–Gaussian noise σ² = x/N + (r/N)² (N the full well
in electrons at that ISO, r = 3 e⁻ of read noise) drawn per site, at three ISO-like levels.
The truth stays the clean scene.

Full development (full_cases(): ΔE2000). A real camera: the Canon EOS 30D's ColorMatrix
(D65), as Adobe's DNG Converter writes it and as dcraw's adobe_coeff table and LibRaw's
colour data carry it (LibRaw 0.20.2's raw-identify -v prints it for
/usr/share/doc/rawtran/IMG_5952.CR2, a 30D file); its inverse applied to the scene;
AsShotNeutral the camera's response to the scene's D65 white; RGGB (the 30D's); black 512,
white 16383 (14 bits). The raw green of a white of Y = 1 is the white level, so the truth is
the scene itself. Variants: no clipping (white-balanced camera RGB at most 0.9 of white), and
one exposed so that 1 % of the pixels have a channel at or above the white level after white
balance, where a developer clips (excluded from ΔE with a 2 px margin, as are the few
saturated colours that the camera would record as negative).

Run by hand: python3 make_dngs.py DIR [quick|full] writes them and checks each with
raw-identify -v (LibRaw must read the CFA pattern and the black level as written)."""

import os
import subprocess
import sys
import zlib

import numpy as np

import dng
import metrics
import scenes

HEADROOM = 0.8
READ_NOISE = 3.0  # electrons
FULL_WELL = {'iso400': 10000.0, 'iso1600': 2500.0, 'iso6400': 625.0}
BAYER = ('RGGB', 'BGGR', 'GRBG', 'GBRG')
XTRANS_SHIFTS = ((0, 0), (1, 2))
XTRANS_MIN = 512  # LibRaw 0.20's Markesteijn works in 512 px tiles and refuses smaller images

# Canon EOS 30D, XYZ → camera, D65 (×10⁻⁴).
EOS30D = np.array([[6257, -303, -1000], [-7880, 15621, 2396], [-1714, 1904, 7046]]) / 1e4
BLACK, WHITE = 512, 16383


def xtrans(shift):
    p = np.asarray(dng.XTRANS).reshape(6, 6)
    return ((6, 6), tuple(int(v) for v in np.roll(p, shift, axis=(0, 1)).ravel()))


def add_noise(mosaic, level, seed):
    n = FULL_WELL[level]
    rng = np.random.default_rng(seed)
    electrons = rng.poisson(mosaic * n) + rng.normal(0.0, READ_NOISE, mosaic.shape)
    return electrons / n


class Case:
    """One DNG and its truth; ROI (a boolean H × W mask) marks the pixels a measure counts."""

    def __init__(self, name, path, truth, cfa, noise, roi=None, clipped=0.0):
        self.name, self.path, self.truth, self.cfa = name, path, truth, cfa
        pattern = 'bayer' if isinstance(cfa, str) else 'xtrans'
        self.pattern, self.noise, self.roi, self.clipped = pattern, noise, roi, clipped


def demosaic_case(folder, scene_name, scene, cfa, noise, tag):
    name = '%s-%s-%s' % (scene_name, tag, noise)
    truth = scene * np.float32(HEADROOM / scene.max())
    m = dng.mosaic(truth.astype(np.float64), cfa)
    if noise != 'clean':
        m = add_noise(m, noise, zlib.crc32(name.encode()))
    data = np.round(np.clip(m, 0, 1) * 65535)
    path = os.path.join(folder, name + '.dng')
    dng.write(path, data, cfa=cfa, black=(0,), white=65535,
              color_matrix=metrics.XYZ_TO_REC2020, illuminant=21, as_shot_neutral=(1, 1, 1))
    return Case(name, path, truth, cfa, noise)


def cases(folder, which='quick'):
    """Quick: every scene once per pattern (Bayer phases and X-Trans shifts taken in turn),
    clean and at ISO 1600. Full: the same over the full set and all four noise levels. Scenes
    under 512 px get Bayer only (XTRANS_MIN)."""
    items = [s for s in (scenes.quick() if which == 'quick' else scenes.full())
             if s[0] != 'smooth-chart']
    levels = ['clean', 'iso1600'] if which == 'quick' else ['clean'] + list(FULL_WELL)
    out = []
    for i, (sname, scene) in enumerate(items):
        for j, noise in enumerate(levels):
            bayer = BAYER[(i + j) % 4]
            out.append(demosaic_case(folder, sname, scene, bayer, noise, bayer.lower()))
            if min(scene.shape[:2]) < XTRANS_MIN:
                continue
            shift = XTRANS_SHIFTS[(i + j) % 2]
            out.append(demosaic_case(folder, sname, scene, xtrans(shift), noise,
                                     'xtrans%d%d' % shift))
    return out


def camera_neutral():
    n = EOS30D @ metrics.xyz(*metrics.D65)
    return n / n[1]


def camera_to_rec2020():
    """White-balanced EOS 30D camera RGB → linear Rec. 2020 (white → white)."""
    to_cam = EOS30D @ metrics.REC2020_TO_XYZ
    return np.linalg.inv(to_cam / (to_cam @ np.ones(3))[:, None])


def full_case(folder, scene_name, scene, clip):
    name = '%s-%s' % (scene_name, 'clipped' if clip else 'full')
    n = camera_neutral()
    to_cam = EOS30D @ metrics.REC2020_TO_XYZ / (EOS30D @ metrics.xyz(*metrics.D65))[1]
    cam = metrics.apply(to_cam, scene.astype(np.float64))
    # A developer clips each channel at the white level after white balance (so that clipped
    # highlights stay neutral): that, not the raw white, bounds what it can return.
    balanced = cam / n
    peak = np.quantile(balanced.max(axis=2), 0.99) if clip else balanced.max() / 0.9
    truth, cam, balanced = scene / peak, cam / peak, balanced / peak
    m = dng.mosaic(cam, 'RGGB')
    data = np.round(BLACK + np.clip(m, 0, 1) * (WHITE - BLACK))
    path = os.path.join(folder, name + '.dng')
    dng.write(path, data, cfa='RGGB', black=(BLACK,), white=WHITE, color_matrix=EOS30D,
              illuminant=21, as_shot_neutral=n, make='Canon', model='EOS 30D')
    bad = (balanced.max(axis=2) >= 1) | (cam.min(axis=2) < 0)
    k = 5  # a 2 px margin: the dilation by a 5 × 5 box
    pad = np.pad(bad, k // 2)
    near = np.zeros_like(bad)
    for dy in range(k):
        for dx in range(k):
            near |= pad[dy:dy + bad.shape[0], dx:dx + bad.shape[1]]
    clipped = float((balanced.max(axis=2) >= 1).mean())
    return Case(name, path, truth.astype(np.float32), 'RGGB', 'clean', ~near, clipped)


def full_cases(folder, which='quick'):
    """Every scene unclipped; the photos and radiance maps also clipped (a synthetic target
    has too few levels for a 1 % quantile)."""
    if which == 'quick':
        items = [s for s in scenes.quick()
                 if s[0] in ('astronaut', 'colour-star', 'hdr-courtyard', 'smooth-chart')]
    else:
        items = scenes.full()
    synthetic = ('zone-plate', 'colour-star', 'smooth-chart')
    return [full_case(folder, n, s, clip) for n, s in items
            for clip in ((False,) if n in synthetic else (False, True))]


def libraw_pattern(cfa):
    """The 16 letters raw-identify prints for CFA: the colours of rows 0-7, columns 0-1."""
    (ph, pw), colours = dng.pattern(cfa)
    return ''.join('RGB'[colours[(i >> 1) % ph * pw + (i & 1) % pw]] for i in range(16))


def check(path, cfa, black):
    """What raw-identify -v reads from PATH that differs from what was written ([] if none)."""
    text = subprocess.run(['raw-identify', '-v', path], capture_output=True, text=True,
                          check=True).stdout
    lines = dict(line.split(':', 1) for line in text.splitlines() if ':' in line)
    problems = []
    if lines.get('Filter pattern', '').strip() != libraw_pattern(cfa):
        problems.append('pattern %r' % lines.get('Filter pattern'))
    if black and lines.get('black', '').strip() != str(black):
        problems.append('black %r' % lines.get('black'))
    return problems


if __name__ == '__main__':
    folder = sys.argv[1]
    which = sys.argv[2] if len(sys.argv) > 2 else 'quick'
    os.makedirs(folder, exist_ok=True)
    for c in cases(folder, which):
        print('%-36s %s' % (c.name, check(c.path, c.cfa, 0) or 'ok'))
    for c in full_cases(folder, which):
        print('%-36s %s  clipped %.2f %%' % (c.name, check(c.path, 'RGGB', BLACK) or 'ok',
                                             100 * c.clipped))

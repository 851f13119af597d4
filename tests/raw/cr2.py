"""The real camera file: Debian's rawtran-doc ships a Canon EOS 30D CR2 (GPL-3+), and LibRaw's
own linear development of it is the reference for Lumen's.

LibRaw: dcraw_emu -T -4 (16-bit linear, no auto-brightening) -o 5 (XYZ: its -o offers raw,
sRGB, Adobe, Wide, ProPhoto, XYZ and ACES, no Rec. 2020) -H 0 (clip) -w (as-shot white
balance) -c 0 (LibRaw's white level as it is, not re-estimated from the data) -m 0 -t 0 -j
-q 3. Its XYZ is relative to D65 (white-balanced camera white → Y = 1 at the white level,
green's), converted here to linear Rec. 2020: the same black, white, white balance and matrix
(LibRaw's table for the 30D, which Lumen reads through LibRaw) as Lumen's EXR should use.

compare() factors the two demosaics out by comparing 8 × 8 box means of linear light, over
the blocks where neither image has a channel at the clip level: the median CIEDE2000 and the
ratio of each channel's median (the level and scale agreement)."""

import os
import shutil
import subprocess

import numpy as np
import tifffile

import metrics

CR2 = '/usr/share/doc/rawtran/IMG_5952.CR2'
LIBRAW_FLAGS = ['-T', '-4', '-o', '5', '-H', '0', '-w', '-c', '0', '-m', '0', '-t', '0', '-j',
                '-q', '3']
XYZ_TO_REC2020 = metrics.XYZ_TO_REC2020
BLOCK = 8


def unavailable():
    if not os.path.exists(CR2):
        return '%s is absent (apt-get install rawtran-doc)' % CR2
    if not shutil.which('dcraw_emu'):
        return 'dcraw_emu is absent (apt-get install libraw-bin)'
    return None


def libraw(out_dir):
    """LibRaw's development of the CR2 as linear Rec. 2020 (1 = the white level)."""
    out = os.path.join(out_dir, 'IMG_5952.libraw.tiff')
    subprocess.run(['dcraw_emu'] + LIBRAW_FLAGS + ['-Z', out, CR2], check=True,
                   capture_output=True)
    xyz = tifffile.imread(out).astype(np.float64) / 65535
    clipped = (xyz >= 65534 / 65535).any(axis=2)
    return metrics.apply(XYZ_TO_REC2020, xyz), clipped


def blocks(img, n=BLOCK):
    h, w = img.shape[0] // n * n, img.shape[1] // n * n
    return img[:h, :w].reshape(h // n, n, w // n, n, -1).mean(axis=(1, 3))


def compare(lumen_rgb, libraw_rgb, clipped):
    """(median ΔE2000, per-channel ratio of medians Lumen/LibRaw) over unclipped 8 × 8 blocks."""
    if lumen_rgb.shape[:2] != libraw_rgb.shape[:2]:
        raise ValueError('Lumen %s and LibRaw %s differ in size'
                         % (lumen_rgb.shape[:2], libraw_rgb.shape[:2]))
    a, b = blocks(lumen_rgb[..., :3]), blocks(libraw_rgb)
    ok = blocks(clipped[..., None].astype(float))[..., 0] == 0
    ok &= (b > 1e-4).all(axis=2)  # blocks too dark for a ratio or a hue say nothing
    de = metrics.ciede2000(metrics.lab(a[ok]), metrics.lab(b[ok]))
    ratio = np.median(a[ok], axis=0) / np.median(b[ok], axis=0)
    return float(np.median(de)), ratio

"""The ground truth's measures.

- cpsnr(out, truth): colour PSNR in dB, the standard definition: both images in [0, 1]
  (1 = the white level), pixels at least B = 16 px from every edge (so that no method's
  border handling counts), MSE averaged over R, G and B; oetf=True applies the sRGB OETF to
  both first (how Kodak and McMaster results are usually quoted).
- best_shift(out, truth): the integer shift (dy, dx) within ±2 px that minimises the MSE;
  anything but (0, 0) means a tool cropped or shifted its output.
- lab(rgb): CIELAB (D65 white, Y = 1 at L* = 100) of linear Rec. 2020, through XYZ.
- delta_e(out, truth, roi): CIEDE2000 per pixel of two linear Rec. 2020 images.
- ciede2000(lab1, lab2): CIEDE2000 as written in G. Sharma, W. Wu, E. N. Dalal, "The CIEDE2000
  color-difference formula: implementation notes, supplementary test data, and mathematical
  observations", Color Res. Appl. 30 (2005) 21–30 (kL = kC = kH = 1).

The matrices are computed from the primaries' chromaticities (ITU-R BT.2020, BT.709; D65
x = 0.3127, y = 0.3290), not typed in."""

import numpy as np

BORDER = 16
D65 = (0.3127, 0.3290)
REC2020 = ((0.708, 0.292), (0.170, 0.797), (0.131, 0.046))
REC709 = ((0.640, 0.330), (0.300, 0.600), (0.150, 0.060))


def xyz(x, y, Y=1.0):
    return np.array([x / y * Y, Y, (1 - x - y) / y * Y])


def rgb_to_xyz(primaries, white=D65):
    """The 3 × 3 matrix from linear RGB of PRIMARIES (RGB = 1 1 1 is WHITE, Y = 1) to XYZ."""
    p = np.stack([xyz(x, y) for x, y in primaries], axis=1)
    return p * np.linalg.solve(p, xyz(*white))


REC2020_TO_XYZ = rgb_to_xyz(REC2020)
XYZ_TO_REC2020 = np.linalg.inv(REC2020_TO_XYZ)
REC709_TO_REC2020 = XYZ_TO_REC2020 @ rgb_to_xyz(REC709)


def apply(matrix, img):
    return np.einsum('ij,...j->...i', matrix, img)


def srgb_oetf(v):
    v = np.clip(v, 0.0, 1.0)
    return np.where(v <= 0.0031308, 12.92 * v, 1.055 * v ** (1 / 2.4) - 0.055)


def cpsnr(out, truth, border=BORDER, oetf=False):
    a = np.asarray(out, np.float64)[border:-border, border:-border, :3]
    b = np.asarray(truth, np.float64)[border:-border, border:-border, :3]
    if oetf:
        a, b = srgb_oetf(a), srgb_oetf(b)
    mse = ((a - b) ** 2).reshape(-1, 3).mean(axis=0).mean()
    return float(10 * np.log10(1 / max(mse, 1e-30)))


def best_shift(out, truth, radius=2, border=BORDER):
    a = np.asarray(out, np.float64)[..., :3]
    b = np.asarray(truth, np.float64)[..., :3]
    h, w = b.shape[:2]
    inner = b[border:h - border, border:w - border]
    best = None
    for dy in range(-radius, radius + 1):
        for dx in range(-radius, radius + 1):
            s = a[border + dy:h - border + dy, border + dx:w - border + dx]
            mse = float(((s - inner) ** 2).mean())
            if best is None or mse < best[0]:
                best = (mse, (dy, dx))
    return best[1]


def lab(rgb2020):
    x = apply(REC2020_TO_XYZ, np.asarray(rgb2020, np.float64)[..., :3]) / xyz(*D65)
    e, k = 216 / 24389, 24389 / 27
    f = np.where(x > e, np.cbrt(np.maximum(x, e)), (k * x + 16) / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]),
                     200 * (f[..., 1] - f[..., 2])], axis=-1)


def delta_e(out, truth, roi=None, border=BORDER):
    """CIEDE2000 of each linear Rec. 2020 pixel of OUT against TRUTH, over ROI (a boolean
    mask, all by default) less the border."""
    h, w = truth.shape[:2]
    keep = np.ones((h, w), bool) if roi is None else roi.copy()
    keep[:border], keep[h - border:], keep[:, :border], keep[:, w - border:] = (False,) * 4
    return ciede2000(lab(np.asarray(out)[..., :3][keep]), lab(np.asarray(truth)[keep]))


def ciede2000(lab1, lab2):
    L1, a1, b1 = np.moveaxis(np.asarray(lab1, np.float64), -1, 0)
    L2, a2, b2 = np.moveaxis(np.asarray(lab2, np.float64), -1, 0)
    C1, C2 = np.hypot(a1, b1), np.hypot(a2, b2)
    Cm7 = ((C1 + C2) / 2) ** 7
    G = 0.5 * (1 - np.sqrt(Cm7 / (Cm7 + 25.0 ** 7)))
    a1p, a2p = (1 + G) * a1, (1 + G) * a2
    C1p, C2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    # Hue angles in degrees in [0, 360); 0 where a' = b' = 0 (eq. 7).
    h1p = np.where((a1p == 0) & (b1 == 0), 0.0, np.degrees(np.arctan2(b1, a1p)) % 360)
    h2p = np.where((a2p == 0) & (b2 == 0), 0.0, np.degrees(np.arctan2(b2, a2p)) % 360)
    dLp = L2 - L1
    dCp = C2p - C1p
    prod = C1p * C2p
    dh = h2p - h1p
    # The branches at a hue difference of exactly 180° (Sharma's pair 14) are decided on the
    # difference rounded to 1e-9°: arctan2's last bit differs between numpy's SIMD paths
    # (AVX-512 or not), and would pick a branch by machine.
    near = np.round(dh, 9)
    dhp = np.where(prod == 0, 0.0,
                   np.where(np.abs(near) <= 180, dh, np.where(near > 180, dh - 360, dh + 360)))
    dHp = 2 * np.sqrt(prod) * np.sin(np.radians(dhp / 2))
    Lpm = (L1 + L2) / 2
    Cpm = (C1p + C2p) / 2
    hs = h1p + h2p
    hpm = np.where(prod == 0, hs,
                   np.where(np.abs(near) <= 180, hs / 2,
                            np.where(hs < 360, (hs + 360) / 2, (hs - 360) / 2)))
    T = (1 - 0.17 * np.cos(np.radians(hpm - 30)) + 0.24 * np.cos(np.radians(2 * hpm))
         + 0.32 * np.cos(np.radians(3 * hpm + 6)) - 0.20 * np.cos(np.radians(4 * hpm - 63)))
    dtheta = 30 * np.exp(-(((hpm - 275) / 25) ** 2))
    Cpm7 = Cpm ** 7
    RC = 2 * np.sqrt(Cpm7 / (Cpm7 + 25.0 ** 7))
    SL = 1 + 0.015 * (Lpm - 50) ** 2 / np.sqrt(20 + (Lpm - 50) ** 2)
    SC = 1 + 0.045 * Cpm
    SH = 1 + 0.015 * Cpm * T
    RT = -np.sin(np.radians(2 * dtheta)) * RC
    return np.sqrt((dLp / SL) ** 2 + (dCp / SC) ** 2 + (dHp / SH) ** 2
                   + RT * (dCp / SC) * (dHp / SH))

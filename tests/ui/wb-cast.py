"""A gray card under a light of known colour temperature, for tests/ui/test-wb-picker-depth.c.

    wb-cast.py OUT16 OUT8 KELVIN   a 320 x 240 photo (a colour gradient) with a gray card of
                                   60 x 60 at its centre as a camera balanced for D65 records
                                   it under daylight of KELVIN: 16-bit PNG to OUT16, the same
                                   rounded to 8 bits to OUT8 (OpenCV writes BGR).

The card's linear sRGB is proportional to the light's white over D65's, each from the CIE
daylight locus (CIE 15, x_D(T), y_D = -3 x^2 + 2.87 x - 0.275) through IEC 61966-2-1's XYZ to
linear sRGB matrix: white balance set to KELVIN (tint 0) is what makes it gray again.
"""
import sys

import cv2
import numpy as np

M = np.array([[3.2404542, -1.5371385, -0.4985314],
              [-0.9692660, 1.8760108, 0.0415560],
              [0.0556434, -0.2040259, 1.0572252]])


def daylight_rgb(t):
    if t <= 7000:
        x = -4.6070e9 / t**3 + 2.9678e6 / t**2 + 0.09911e3 / t + 0.244063
    else:
        x = -2.0064e9 / t**3 + 1.9018e6 / t**2 + 0.24748e3 / t + 0.237040
    y = -3.0 * x * x + 2.870 * x - 0.275
    return M @ np.array([x / y, 1.0, (1.0 - x - y) / y])


def encode(l):
    l = np.clip(l, 0.0, 1.0)
    return np.where(l <= 0.0031308, 12.92 * l, 1.055 * np.power(l, 1 / 2.4) - 0.055)


def main(out16, out8, kelvin):
    card = daylight_rgb(kelvin) / daylight_rgb(6500.0)
    card *= 0.40 / card.max()
    h, w = 240, 320
    yy, xx = np.mgrid[0:h, 0:w]
    rgb = np.stack([xx / (w - 1), yy / (h - 1), 1.0 - xx / (w - 1)], axis=-1) * 0.8 + 0.1
    rgb = encode(np.power(rgb, 2.2))
    rgb[h // 2 - 30:h // 2 + 30, w // 2 - 30:w // 2 + 30] = encode(card)
    v16 = np.round(rgb * 65535.0).astype(np.uint16)
    v8 = np.round(v16 / 257.0).astype(np.uint8)
    assert cv2.imwrite(out16, cv2.cvtColor(v16, cv2.COLOR_RGB2BGR))
    assert cv2.imwrite(out8, cv2.cvtColor(v8, cv2.COLOR_RGB2BGR))
    print(' '.join(str(v) for v in v16[h // 2, w // 2]))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]))

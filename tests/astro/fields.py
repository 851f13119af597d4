"""Synthetic astronomical fields with known truth, for the detection tests of every part
(tests/astro, tests/cli, tests/gpu): stars of known flux and position on a sloped background
with Gaussian and Poisson noise, and the seed lesson's grid of deltas convolved with a Gaussian.

Coordinates are 0-based array positions (x along a row, y down the rows), as SciPy's. Every
generator takes a seed and is deterministic. Images are float32.

    field = star_field(512, 512, n_stars=40, seed=1)
    field.data, field.truth (x, y, flux per star), field.background (the noiseless sky)
    write_fits(path, field.data)
"""
import math
from dataclasses import dataclass, field as dc_field

import numpy as np
from scipy import ndimage, special


@dataclass
class Field:
    data: np.ndarray                 # float32, what an instrument would record
    background: np.ndarray           # float64, the noiseless sky under the stars
    truth: list = dc_field(default_factory=list)  # (x, y, flux) per star, flux in data units
    noise_sigma: float = 0.0         # the Gaussian read noise


def sloped_background(width, height, level=100.0, slope_x=0.02, slope_y=-0.01):
    """LEVEL at the centre, rising SLOPE_X per pixel along x and SLOPE_Y along y."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    return level + slope_x * (x - width / 2) + slope_y * (y - height / 2)


def add_gaussian_star(image, x, y, flux, sigma):
    """Adds a circular Gaussian of total FLUX centred at (X, Y), integrated over each pixel (so
    the pixels sum to FLUX and their flux-weighted centroid is (X, Y) up to the cut tails)."""
    r = int(math.ceil(6 * sigma)) + 1
    x0, x1 = max(int(x) - r, 0), min(int(x) + r + 1, image.shape[1])
    y0, y1 = max(int(y) - r, 0), min(int(y) + r + 1, image.shape[0])
    if x0 >= x1 or y0 >= y1:
        return
    s = sigma * math.sqrt(2.0)
    ex = np.arange(x0, x1 + 1) - 0.5 - x
    ey = np.arange(y0, y1 + 1) - 0.5 - y
    px = np.diff(0.5 * special.erf(ex / s))
    py = np.diff(0.5 * special.erf(ey / s))
    image[y0:y1, x0:x1] += flux * np.outer(py, px)


def add_moffat_star(image, x, y, flux, fwhm, beta=3.0, oversample=5):
    """Adds a circular Moffat profile of FWHM and BETA, sampled OVERSAMPLE² times per pixel and
    normalised to FLUX over a stamp of 8 FWHM (the rest of the wings is left out)."""
    alpha = fwhm / (2.0 * math.sqrt(2.0 ** (1.0 / beta) - 1.0))
    r = int(math.ceil(4 * fwhm)) + 1
    x0, x1 = max(int(x) - r, 0), min(int(x) + r + 1, image.shape[1])
    y0, y1 = max(int(y) - r, 0), min(int(y) + r + 1, image.shape[0])
    if x0 >= x1 or y0 >= y1:
        return
    sub = (np.arange(oversample) + 0.5) / oversample - 0.5
    gx = (np.arange(x0, x1)[:, None] + sub[None, :]).ravel() - x
    gy = (np.arange(y0, y1)[:, None] + sub[None, :]).ravel() - y
    prof = (1.0 + (gy[:, None] ** 2 + gx[None, :] ** 2) / alpha ** 2) ** (-beta)
    prof = prof.reshape(y1 - y0, oversample, x1 - x0, oversample).mean(axis=(1, 3))
    # The whole profile's integral, analytically: π α² / (β − 1).
    image[y0:y1, x0:x1] += flux * prof / (math.pi * alpha ** 2 / (beta - 1.0))


def star_field(width, height, n_stars=30, seed=0, psf="gaussian", fwhm=3.0, flux=(2e3, 2e4),
               noise_sigma=5.0, poisson=True, gain=1.0, level=100.0, slope=(0.02, -0.01),
               margin=12, min_separation=15.0):
    """Stars of log-uniform flux in FLUX, PSF 'gaussian' or 'moffat' of FWHM px, at random
    positions at least MIN_SEPARATION apart and MARGIN from the edges, on a sloped background,
    with Poisson noise of the whole signal (GAIN electrons per unit) and Gaussian read noise."""
    rng = np.random.default_rng(seed)
    background = sloped_background(width, height, level, *slope)
    signal = np.zeros((height, width), np.float64)
    truth = []
    tries = 0
    while len(truth) < n_stars and tries < 100 * n_stars:
        tries += 1
        x = rng.uniform(margin, width - 1 - margin)
        y = rng.uniform(margin, height - 1 - margin)
        if any((x - t[0]) ** 2 + (y - t[1]) ** 2 < min_separation ** 2 for t in truth):
            continue
        f = math.exp(rng.uniform(math.log(flux[0]), math.log(flux[1])))
        if psf == "gaussian":
            add_gaussian_star(signal, x, y, f, fwhm / 2.3548200450309493)
        else:
            add_moffat_star(signal, x, y, f, fwhm)
        truth.append((x, y, f))
    total = background + signal
    if poisson:
        total = rng.poisson(np.clip(total * gain, 0, None)).astype(np.float64) / gain
    data = total + rng.normal(0.0, noise_sigma, total.shape)
    return Field(data.astype(np.float32), background, truth, noise_sigma)


def delta_grid(width, height, spacing=32, flux=1e4, sigma=2.0, level=0.0, noise_sigma=1.0,
               seed=0):
    """The seed lesson's field: a delta of FLUX every SPACING pixels (offset SPACING/2),
    convolved with a Gaussian of SIGMA (scipy.ndimage.gaussian_filter), plus LEVEL and
    Gaussian noise. The truth sits on the deltas."""
    rng = np.random.default_rng(seed)
    deltas = np.zeros((height, width), np.float64)
    truth = []
    for y in range(spacing // 2, height, spacing):
        for x in range(spacing // 2, width, spacing):
            deltas[y, x] = flux
            truth.append((float(x), float(y), float(flux)))
    signal = ndimage.gaussian_filter(deltas, sigma, mode="constant")
    background = np.full((height, width), float(level))
    data = background + signal + rng.normal(0.0, noise_sigma, deltas.shape)
    return Field(data.astype(np.float32), background, truth, noise_sigma)


def write_fits(path, data, header=None, bitpix=None):
    """DATA as the primary HDU of a FITS file at PATH (astropy); BITPIX 16 or 32 stores it as
    integers with BZERO/BSCALE as astropy scales them, else as float32 (−32)."""
    from astropy.io import fits
    hdu = fits.PrimaryHDU(np.asarray(data, np.float32), header=header)
    if bitpix in (8, 16, 32):
        hdu.scale({8: "uint8", 16: "int16", 32: "int32"}[bitpix], "minmax")
    hdu.writeto(path, overwrite=True)


def match(found, truth, radius=1.5):
    """Pairs each truth (x, y, …) with the nearest found (x, y, …) within RADIUS px: a list of
    (truth index, found index)."""
    pairs = []
    if len(found) == 0:
        return pairs
    f = np.asarray([(s[0], s[1]) for s in found], np.float64)
    for i, t in enumerate(truth):
        d2 = (f[:, 0] - t[0]) ** 2 + (f[:, 1] - t[1]) ** 2
        j = int(np.argmin(d2))
        if d2[j] <= radius * radius:
            pairs.append((i, j))
    return pairs

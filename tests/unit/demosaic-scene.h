/* Ground truth for the demosaic tests (tests/unit/test-demosaic-rcd.c, tests/gpu/
 * test-demosaic-parity.c): a corpus photo as a linear scene, and its Bayer mosaic. */
#pragma once

#include <glib.h>

#include "core/ops/cfa-math.h"

/* A 2 × 2 Bayer CFA from its four colours in reading order, e.g. "RGGB"; a second G is
 * LM_CFA_G2, as LibRaw numbers it. */
LmCfa demosaic_cfa (const char *pattern);

/* The photo NAME of the test data (tests/data/photos) as linear light: the sRGB EOTF on its
 * 8-bit (or 16-bit) values, then box-downscaled 2× (in double), so that its own demosaic and
 * JPEG traces are gone. 3 floats a pixel, *WIDTH × *HEIGHT (even); NULL, the test failed, when
 * it does not load. */
float *demosaic_scene (const char *name, int *width, int *height);

/* The mosaic of an RGB image (3 floats a pixel) through CFA: one float a site. */
float *demosaic_mosaic (const float *rgb, int width, int height, const LmCfa *cfa);

/* CPSNR in dB of RGBA (4 floats a pixel, RGBA_STRIDE floats a row) against the RGB truth, over
 * the pixels at least BORDER from every edge: 10 log10 (1 / mean of the channels' MSE). */
double demosaic_cpsnr (const float *rgba, size_t rgba_stride, const float *truth, int width, int height,
                       int border);

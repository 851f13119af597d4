/* 256-bin histograms of R, G, B and BT.601 luma of an 8-bit or 16-bit image (a 16-bit value
 * in the bin of its 8-bit rounding), and 16-bit equalize's 65536-bin ones. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "equalize-math.h"

G_BEGIN_DECLS

typedef enum {
  LM_HIST_R,
  LM_HIST_G,
  LM_HIST_B,
  LM_HIST_LUMA,
  LM_HIST_N_CHANNELS
} LmHistChannel;

typedef enum {
  LM_HIST_WANT_RGB = 1 << 0,
  LM_HIST_WANT_LUMA = 1 << 1,
  LM_HIST_WANT_ALL = LM_HIST_WANT_RGB | LM_HIST_WANT_LUMA,
} LmHistWant;

typedef struct {
  guint32 bins[LM_HIST_N_CHANNELS][LM_HIST_BINS];
  guint64 total; /* pixels counted, in each channel */
} LmHistogram;

/* Counts the channels WANT asks for (the others are left zero). A one-channel image counts
 * the same values in all four. */
void lm_histogram_cpu (const LmImage *image, LmHistWant want, LmHistogram *hist);

/* The 8-bit BT.601 luma of N RGBA pixels (vectorized; equalize uses it too). */
void lm_luma_row (const guint32 *in, guint8 *out, guint n);

/* 16-bit equalize's counts: LM_HIST_N_CHANNELS × LM_HIST16_BINS of a 16-bit IMAGE (R, G, B,
 * then 16-bit luma, lm_luma_u16; a GRAY16 image's values in the luma bins), the channels WANT
 * asks for, into BINS (zeroed first). */
void lm_histogram16_cpu (const LmImage *image, LmHistWant want, guint32 *bins);

gboolean lm_histogram_equal (const LmHistogram *a, const LmHistogram *b);

G_END_DECLS

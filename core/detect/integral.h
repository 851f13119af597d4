/* The integral images of an 8-bit gray image as OpenCV's cv::integral makes them for its
 * cascades (CV_32S sums, squares and tilted sums), (width + 1) × (height + 1) each, row 0 and
 * column 0 zero. Stored as uint32: a photo's total overflows 32 bits, and OpenCV's int
 * arithmetic wraps the same way; a difference of four corners is right whenever the area's
 * own sum fits, as a window's always does. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* SUM, SQSUM (may be NULL) and TILTED (may be NULL) each have STEP (≥ width + 1) elements
 * per row and height + 1 rows. TILTED(X, Y) is the sum of the pixels (x, y) with y < Y and
 * |x − X + 1| ≤ Y − 1 − y: a triangle whose apex is the pixel above-left of (X, Y). */
void lm_integral_compute (const guint8 *gray, gsize gray_stride, guint width, guint height,
                          guint32 *sum, guint32 *sqsum, guint32 *tilted, gsize step);

/* The same in N_BANDS bands of rows (1 … height), made in parallel: the same values. */
void lm_integral_compute_bands (const guint8 *gray, gsize gray_stride, guint width, guint height,
                                guint32 *sum, guint32 *sqsum, guint32 *tilted, gsize step, int n_bands);

G_END_DECLS

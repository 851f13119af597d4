/* cv::resize with INTER_LINEAR_EXACT of an 8-bit gray image, to the byte, as OpenCV 4.6's
 * CascadeClassifier resizes each level of its pyramid: weights of 8 fractional bits from
 * double coordinates, a horizontal pass kept in 8.8 fixed point, a vertical pass rounded once
 * from 16 fractional bits, edge rows and columns copied, and an exact halving where the size
 * is halved in both directions (OpenCV then takes INTER_AREA's fast path). The boxes a
 * cascade finds depend on these bytes. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* SRC (sw × sh, SRC_STRIDE bytes a row) resized to DST (dw × dh, DST_STRIDE). */
void lm_resize_linear_gray8 (const guint8 *src, gsize src_stride, guint sw, guint sh, guint8 *dst,
                             gsize dst_stride, guint dw, guint dh);

G_END_DECLS

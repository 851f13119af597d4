/* The view: the visible region of an image at the window's scale, in cairo's RGB24, made
 * where the image lives so that only the view's pixels cross PCIe on each render. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "../ops/compare-math.h"

G_BEGIN_DECLS

/* Checks RECT against IMAGE and OUT (a host or work image of RECT's output size whose rows
 * hold RGB24 words: LM_FORMAT_RGBA8 storage). */
gboolean lm_view_check (const LmImage *image, const LmViewRect *rect, const LmImage *out,
                        GError **error);

/* CPU reference. Alpha is not composited: the view shows the colour channels. */
void lm_view_cpu (const LmImage *image, const LmViewRect *rect, LmImage *out);

/* SRC shrunk into DST (same format, smaller), each pixel the area average of what it covers,
 * alpha included: the quick preview's source. */
void lm_shrink_cpu (const LmImage *src, LmImage *dst);

G_END_DECLS

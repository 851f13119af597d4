/* The view: the visible region of an image at the window's scale, in cairo's RGB24, made
 * where the image lives so that only the view's pixels cross PCIe on each render. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "view-math.h"

G_BEGIN_DECLS

/* Checks RECT against IMAGE (8 or 16 bits, gray or RGBA) and OUT (a host or work image of
 * RECT's output size whose rows hold RGB24 words: LM_FORMAT_RGBA8 storage). */
gboolean lm_view_check (const LmImage *image, const LmViewRect *rect, const LmImage *out,
                        GError **error);

/* IMAGE as the view's math reads it (IMAGE's memory, host or device). */
LmViewSource lm_view_source (const LmImage *image);

/* CPU reference. Alpha is not composited: the view shows the colour channels. */
void lm_view_cpu (const LmImage *image, const LmViewRect *rect, LmImage *out);
/* The same through LUT (the view transform's, core/color/view-transform.h; NULL: none). */
void lm_view_cpu_lut (const LmImage *image, const LmViewRect *rect, const LmLut3d *lut, LmImage *out);

/* SRC shrunk into DST (same format, smaller), each pixel the area average of what it covers,
 * alpha included: the quick preview's source. */
void lm_shrink_cpu (const LmImage *src, LmImage *dst);

G_END_DECLS

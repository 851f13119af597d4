/* Raw brackets lined up before they are developed (the HDR job's --align for raws): the
 * median threshold bitmaps (core/hdr/align.h) of a colour-neutral proxy of each mosaic, and
 * the mosaics shifted with their colour filter pattern and black table, so that each frame
 * develops as the camera's own data of the shifted area. */
#pragma once

#include <glib.h>

#include "../hdr/align.h"
#include "../hdr/stack.h"

G_BEGIN_DECLS

/* Finds the shift of each raw of STACK (host memory) against the first, as the job's
 * alignment does for images, and applies it: the raws cropped to their common area, each
 * with its pattern and black table moved with it. SHIFTS: STACK->n. */
gboolean lm_raw_brackets_align (LmHdrStack *stack, LmShift *shifts, GError **error);

/* What the median threshold bitmaps read of RAW: at each site, the mean over the window of
 * one pattern period from it (2 × 2 on a Bayer sensor: one red, two greens, one blue, so that
 * the filter's pattern is gone) of each site's value between its black and white levels,
 * square-rooted into 8 bits (the shadows of a short exposure keep levels). GRAY8, RAW's size. */
LmImage *lm_raw_brackets_align_proxy (const LmImage *raw, GError **error);

G_END_DECLS

/* Alignment of a hand-held stack by median threshold bitmaps (Ward 2003), as OpenCV's
 * AlignMTB: each exposure's shift against the middle one, found coarse to fine. */
#pragma once

#include "stack.h"

G_BEGIN_DECLS

typedef struct {
  int max_bits;      /* pyramid levels: shifts up to ±2^max_bits pixels; 6 */
  int exclude_range; /* ignore pixels within this of the median; 4 */
  gboolean cut;      /* crop the shifted images to their common area (TRUE) */
} LmAlignParams;

#define LM_ALIGN_PARAMS_INIT { .max_bits = 6, .exclude_range = 4, .cut = TRUE }

typedef struct {
  int x, y;
} LmShift;

/* SHIFTS[i]: how far exposure i moves to line up with the middle exposure (n / 2), in
 * OpenCV's sign convention. CPU reference. */
gboolean lm_hdr_align_mtb_cpu (const LmAlignParams *params, const LmHdrStack *stack, LmShift *shifts,
                               GError **error);

/* Replaces the stack's images by their shifted copies (host memory), cropped to the common
 * area when PARAMS->cut, as OpenCV's AlignMTB::process does. */
gboolean lm_hdr_stack_apply_shifts (const LmAlignParams *params, LmHdrStack *stack,
                                    const LmShift *shifts, GError **error);

G_END_DECLS

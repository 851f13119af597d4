/* Merging a stack into linear radiance. */
#pragma once

#include "response.h"

G_BEGIN_DECLS

/* OUT: RGBA_F32, the stack's size. Each pixel exp(Σ w·(ln f⁻¹(z) − ln t) / Σ w), with one
 * triangle weight per pixel (the mean of its channels'), as OpenCV's MergeDebevec. */
gboolean lm_hdr_merge_debevec (const LmHdrStack *stack, const LmResponse *response, LmImage *out,
                               GError **error);

G_END_DECLS

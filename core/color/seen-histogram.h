/* The histogram "as seen": of the image's values as the screen gets them, through the view
 * transform (view-math.h's lm_view_source_seen), in 8 bits; the histogram view's other face
 * beside the values as stored (core/ops/histogram.h). */
#pragma once

#include "../image.h"
#include "../ops/histogram.h"
#include "../ops/lut3d-math.h"

G_BEGIN_DECLS

/* Counts every pixel of IMAGE (8 or 16 bits, gray or RGBA; host memory) through LUT (NULL:
 * none, the values rounded to 8 bits) into HIST: R, G, B and the BT.601 luma of the seen
 * colour. Integer counts: the GPU's (kernels/view-histogram.cu) are the same. */
void lm_seen_histogram_cpu (const LmImage *image, const LmLut3d *lut, LmHistogram *hist);

G_END_DECLS

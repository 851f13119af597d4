/* The fused point pass on the host: building it from the enabled point operations, and the
 * CPU's run of it. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "op.h"
#include "point-math.h"

G_BEGIN_DECLS

/* The identity: every table entry its own index (the gray table's too), no pixel part. */
void lm_point_pass_init (LmPointPass *pass);

/* Composes INFO (a point operation) with PARAMS after what PASS holds. */
void lm_point_pass_add (LmPointPass *pass, const LmOpInfo *info, const void *params);

/* PASS's pixel parts, as the kernels and the CPU's loop read them. */
LmPointPixels lm_point_pass_pixels (const LmPointPass *pass);

/* A channel part: V (the value so far, 0..255 encoded, unclipped) of channel C (0 R, 1 G,
 * 2 B) after the operation. */
typedef float (*LmPointChannelFn) (const void *params, int c, float v);

/* Every entry of PASS's table through FN: how an operation's point_prepare adds its channel
 * part. */
void lm_point_pass_map (LmPointPass *pass, LmPointChannelFn fn, const void *params);

/* A gray part: V (a gray image's value so far, 0..255 encoded, unclipped) after the
 * operation. */
typedef float (*LmPointGrayFn) (const void *params, float v);

/* Every entry of PASS's gray table through FN: how an operation's point_prepare adds its gray
 * part, where it has one (point-math.h: white balance and saturation have none). */
void lm_point_pass_map_gray (LmPointPass *pass, LmPointGrayFn fn, const void *params);

/* The table a 16-bit source reads, built from PASS's recipe on the host (point-math.h); g_free
 * it. GRAY FALSE (RGBA16): the channel parts on every 16-bit value, 3 × LM_POINT_TABLE16_SIZE
 * floats (R, G, B); TRUE (GRAY16): the gray parts, LM_POINT_TABLE16_SIZE floats. */
float *lm_point_table16 (const LmPointPass *pass, gboolean gray);

/* The pass from SRC (RGBA8, GRAY8, RGBA16 or GRAY16) into DST (lm_point_output_format, the
 * same size). */
void lm_point_run_cpu (const LmPointPass *pass, const LmImage *src, LmImage *dst);

/* A point operation's output format: the input's (gray stays gray, one channel) for the 8-
 * and 16-bit formats a pass reads. */
LmFormat lm_point_output_format (const void *params, LmFormat in, gboolean opaque);

/* INFO alone as a pass on the CPU: what a point operation's run_cpu does. */
gboolean lm_point_run_one_cpu (const LmOpInfo *info, const void *params, const LmImage *src,
                               LmImage *dst, GError **error);

G_END_DECLS

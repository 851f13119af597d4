/* The fused point pass on the host: building it from the enabled point operations, and the
 * CPU's run of it. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "op.h"
#include "point-math.h"

G_BEGIN_DECLS

/* The identity: every table entry its own index, no pixel part. */
void lm_point_pass_init (LmPointPass *pass);

/* Composes INFO (a point operation) with PARAMS after what PASS holds. */
void lm_point_pass_add (LmPointPass *pass, const LmOpInfo *info, const void *params);

/* A channel part: V (the value so far, 0..255 encoded, unclipped) of channel C (0 R, 1 G,
 * 2 B) after the operation. */
typedef float (*LmPointChannelFn) (const void *params, int c, float v);

/* Every entry of PASS's table through FN: how an operation's point_prepare adds its channel
 * part. */
void lm_point_pass_map (LmPointPass *pass, LmPointChannelFn fn, const void *params);

/* PASS's channel parts on every 16-bit value: 3 × LM_POINT_TABLE16_SIZE floats (R, G, B),
 * built from its recipe on the host (point-math.h); g_free it. */
float *lm_point_table16 (const LmPointPass *pass);

/* The pass from SRC (RGBA8 or GRAY8; RGBA16 or GRAY16) into DST (RGBA8; RGBA16, same size). */
void lm_point_run_cpu (const LmPointPass *pass, const LmImage *src, LmImage *dst);

/* A point operation's output format: RGBA of the input's depth whatever comes in (a gray
 * image may be coloured). */
LmFormat lm_point_output_format (const void *params, LmFormat in, gboolean opaque);

/* INFO alone as a pass on the CPU: what a point operation's run_cpu does. */
gboolean lm_point_run_one_cpu (const LmOpInfo *info, const void *params, const LmImage *src,
                               LmImage *dst, GError **error);

G_END_DECLS

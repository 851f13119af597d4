/* An instance's mask, rendered (docs: ISSUE-32-MASKS §2): an LmMask is flattened once per
 * version (its strokes' points read through an accessor, so that this file needs no blob
 * store), placed on a frame (its affine map to source-normalised coordinates, its size, the
 * per-cell segment lists), then rasterised by either backend: the drawn plane, the final mask
 * (ranges, invert, guided-filter feather, opacity) and the blend of an operation's result with
 * its input. This file holds the CPU reference; kernels/mask.cu runs the same math
 * (mask-math.h). */
#pragma once

#include <glib.h>

#include "mask-math.h"
#include "tile-math.h"
#include "../image.h"

G_BEGIN_DECLS

/* Caps of what one mask may hold (as the sidecar's), and of the feather's box radius in
 * pixels: (2r + 1)² stays exact in a float, so box counts are. */
#define LM_MASK_STROKES_MAX 256
#define LM_MASK_POINTS_MAX 4096
#define LM_MASK_RADIUS_MAX 2047

/* Stroke INDEX of the brush shape whose stroke list has key LIST: *HEAD and *POINTS (HEAD->n
 * (u, v) pairs) stay the accessor's until lm_mask_flatten returns. *HEAD = NULL: there is no
 * such stroke (the list has INDEX strokes). FALSE with ERROR set when the list or the stroke
 * cannot be read. */
typedef gboolean (*LmMaskStrokeFn) (uint64_t list, guint index, const LmMaskStrokeHead **head,
                                    const float **points, gpointer user, GError **error);

typedef struct _LmMaskFlat LmMaskFlat;

/* MASK flattened for an instance whose input is scene light (SCENE: luminance ranges in EV)
 * or display values. Shapes and ranges out of their bounds are refused with a message. */
LmMaskFlat *lm_mask_flatten (const LmMask *mask, gboolean scene, LmMaskStrokeFn strokes, gpointer user,
                             GError **error);
void lm_mask_flat_free (LmMaskFlat *flat);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmMaskFlat, lm_mask_flat_free)

/* FLAT placed on a frame of FULL_W × FULL_H pixels at FRAME: segment lists for its 32-pixel
 * cells (BINNED FALSE: every segment in one cell, the brute force the tests compare with) and
 * the feather's radius in its pixels. Refuses a frame that folds the plane (no inverse). */
gboolean lm_mask_flat_place (LmMaskFlat *flat, const LmMaskFrame *frame, guint full_w, guint full_h,
                             gboolean binned, GError **error);
/* What the backends render from (valid until the next place or the free). */
const LmMaskRender *lm_mask_flat_render (const LmMaskFlat *flat);
/* The bytes at render->data, for a backend to copy to its memory. */
gsize lm_mask_flat_data_size (const LmMaskFlat *flat);

/* The frame of a source of WIDTH × HEIGHT pixels before any geometry: pixel centres at
 * ((i + ½) / long side, (j + ½) / long side). */
LmMaskFrame lm_mask_frame_source (guint width, guint height);
/* FRAME (of level 0) for a level LEVEL_FACTOR times smaller, whose pixel i covers level 0's
 * [i·f, (i + 1)·f): its centre is at level 0's i·f + (f − 1)/2. */
LmMaskFrame lm_mask_frame_level (const LmMaskFrame *frame, double level_factor);

/* Pixels on each side of a tile's kept part that its input must hold for the feather of
 * RENDER to equal the whole frame's bit for bit: two box filters, each reading R beyond its
 * segment of up to 32 outputs. */
guint lm_mask_feather_reach (const LmMaskRender *render);

/* The part of the placed frame that IMAGE covers: TILE's input position, or the whole frame
 * (TILE NULL or inactive). FALSE when IMAGE does not lie inside the frame. */
gboolean lm_mask_tile_origin (const LmMaskRender *render, const LmTileFrame *tile, const LmImage *image,
                              guint *x0, guint *y0);

/* CPU reference. DRAWN, OUT: GRAY_F32 planes of the tile (or frame) INPUT covers; INPUT:
 * the instance's input (RGBA8, RGBA16, RGBA_F32, GRAY8, GRAY16), for the ranges and the
 * feather's guide. */
void lm_mask_drawn_cpu (const LmMaskRender *render, guint x0, guint y0, LmImage *drawn);
gboolean lm_mask_final_cpu (const LmMaskRender *render, guint x0, guint y0, const LmImage *input,
                            const LmImage *drawn, LmImage *out, GError **error);
/* OUT := IN + M·(OP − IN) per colour channel, alpha from IN (mask-math.h); IN, OP, OUT of one
 * format and size (OUT may be IN or OP), MASK GRAY_F32 of that size. */
void lm_mask_blend_cpu (const LmImage *in, const LmImage *op, const LmImage *mask, LmImage *out);

/* Whether FORMAT can be a masked instance's input and output. */
gboolean lm_mask_format_supported (LmFormat format);

G_END_DECLS

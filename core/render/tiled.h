/* A pipeline rendered tile by tile: for photos whose untiled render does not fit in the
 * backend's work memory (a GPU short of memory), and for the part of a render that the
 * window shows. Each output tile's source rectangle is found by walking the enabled steps
 * backwards (LmOpInfo.source_rect: blur's halo, geometry's mapped rectangle); the rectangle is
 * copied in, the steps run on pieces, the tile's part copied out. Operations whose result
 * depends on the absolute position get the tile's place in a hidden field (LmTileFrame), and
 * equalize its table from a first pass over the tiles, so that the result is bit-identical to
 * the untiled render on the same backend. Radiance sources (RGBA_F32) are not tiled: their
 * tone mapping needs whole-image statistics. */
#pragma once

#include <glib.h>

#include "../backend/backend.h"
#include "../color/profile.h"
#include "../edit/pipeline.h"
#include "../timing.h"
#include "mask-place.h"

G_BEGIN_DECLS

/* Equalize's input histogram over the whole image (the first pass), kept by a caller that
 * renders several rectangles of one pipeline (the window's view of a large photo): with
 * TOTAL 0 the first pass runs and leaves its counts here (BINS: g_free them); otherwise they
 * are used as they are, and the pass is skipped. The caller keeps them only while the steps
 * before equalize, the source and the backend stay the same. */
typedef struct {
  guint32 *bins; /* LM_HIST_N_CHANNELS × LM_HIST_BINS, or × LM_HIST16_BINS for 16-bit input */
  guint64 total;
} LmTileHistogram;

typedef struct {
  guint tile_width, tile_height; /* output pixels a tile; 0: from the memory available (or the
                                  * LUMEN_TILE=WxH environment variable, for tests) */
  guint lanes;                   /* tiles in flight, each on a backend of its own with its
                                  * own stream and buffers; 0: 2 on CUDA, 1 elsewhere */
  LmTileHistogram *equalize;     /* NULL: equalize's first pass runs on each render */
  const LmRenderLevel *level;    /* what the source is a level of (masks); NULL: the photo */
} LmTileOptions;

/* Renders PIPELINE on HOST_SOURCE (host memory; pinned, from the backend's host allocator,
 * for copies that overlap with compute) into HOST_OUT (host memory, or BACKEND's work memory
 * for a result that stays there; the format and the size of OUT_RECT, or of the whole output
 * when OUT_RECT is NULL), tile by tile on BACKEND. COLOR
 * is the source's colour space as lm_render_cache_set_color takes it (NULL: sRGB). OPTIONS
 * may be NULL. TIMINGS (may be NULL) gets "tiles" (the whole render, labelled with the tiles'
 * number and size and the lanes), and "equalize histogram" when equalize's first pass ran.
 * A radiance source fails with LM_ERROR_UNSUPPORTED. */
gboolean lm_render_tiled (LmBackend *backend, const LmImage *host_source, const LmPipeline *pipeline,
                          LmColorProfile *color, const LmRect *out_rect, LmImage *host_out,
                          const LmTileOptions *options, LmTimings *timings, GError **error);

/* The format and size PIPELINE renders SOURCE to (what HOST_OUT must be for the whole
 * output). */
void lm_render_tiled_output (const LmImage *source, const LmPipeline *pipeline, LmFormat *format, guint *width,
                             guint *height);

/* *IN_RECT: the rectangle of SOURCE (only its format, size and opacity are read) that
 * PIPELINE's output rectangle OUT_RECT needs, through each step's source_rect: what a tiled
 * render of OUT_RECT in one tile reads (equalize's first pass aside). FALSE where PIPELINE
 * is not rendered in tiles (radiance). */
gboolean lm_render_tiled_source_rect (const LmImage *source, const LmPipeline *pipeline, const LmRect *out_rect,
                                      LmRect *in_rect);

/* Whether the untiled render (lm_render_cache_run) of PIPELINE on SOURCE fits in BACKEND's
 * work memory: the source, each step's output that the cache keeps and blur's scratch,
 * against lm_backend_memory_available. Callers render untiled when it fits (the usual path,
 * unchanged), tiled otherwise. */
gboolean lm_render_fits (LmBackend *backend, const LmImage *source, const LmPipeline *pipeline);

G_END_DECLS

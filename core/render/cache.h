/* Running a pipeline on one source image, keeping each step's output on the backend so that
 * a change to one step recomputes from that step on. A raw is developed first; a raw's scene
 * and a radiance source (RGBA_F32) get their edits on scene light, then the tone mapping into
 * a cached 8- or 16-bit image that the other operations read. */
#pragma once

#include <glib.h>

#include "../backend/backend.h"
#include "../edit/pipeline.h"
#include "mask-place.h"
#include "../timing.h"

G_BEGIN_DECLS

typedef struct _LmRenderCache LmRenderCache;

/* SOURCE is in the backend's work memory (lm_backend_upload); the cache keeps a reference. */
LmRenderCache *lm_render_cache_new (LmBackend *backend, LmImage *source);
void lm_render_cache_free (LmRenderCache *cache);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmRenderCache, lm_render_cache_free)

/* Where the backend has no tone mapping (LM_ERROR_UNSUPPORTED), CPU tone maps HOST_SOURCE
 * (the source in host memory) and the result is copied into the backend's memory; the run
 * then leaves a notice. The cache keeps a reference to HOST_SOURCE. */
void lm_render_cache_set_fallback (LmRenderCache *cache, LmBackend *cpu, LmImage *host_source);

/* The source's colour space (core/color/profile.h; the cache keeps a reference; NULL: sRGB,
 * as a new cache has it): what each run gives the operations that need primaries
 * (lm_pipeline_set_color). Every cache of a photo is given the profile of its file, so that
 * the window's view, its export and lumen-cli compute the same bytes. */
void lm_render_cache_set_color (LmRenderCache *cache, LmColorProfile *color);

/* The source is LEVEL of a larger photo (a pyramid level or a shrunk preview): masks, stored
 * in the photo's coordinates, are placed on it accordingly. A new cache renders the photo
 * itself. */
void lm_render_cache_set_level (LmRenderCache *cache, const LmRenderLevel *level);

/* For a cache that runs once (lumen-cli's render, an export): each step's output is taken
 * from BUFFERS (images in work memory, moved out of the array into the cache; may be NULL),
 * the first that holds it, before fresh memory; and the output a step has read goes back
 * among them for a later step. A chain of steps then alternates between two buffers instead
 * of writing into fresh pages at every step, whose first touch is the kernel's zeroing of
 * them inside the step. Only the result of a run stays: a later run recomputes every step. */
void lm_render_cache_set_single_run (LmRenderCache *cache, GPtrArray *buffers);

/* The buffers a single run of PIPELINE takes on a source of FORMAT, WIDTH × HEIGHT and
 * OPAQUE (not a raw): in BYTES, the size of each, in the order the steps take them. Returns
 * how many (0, 1 or 2; 0 where PIPELINE cannot be planned). */
guint lm_render_cache_single_run_bytes (const LmPipeline *pipeline, LmFormat format, guint width, guint height,
                                        gboolean opaque, gsize bytes[2]);

/* Renders PIPELINE and returns a new reference to the result in work memory (the source
 * itself when it is 8-bit and no operation is enabled). Appends one timing per step run
 * ("raw", the edits on scene light, "tonemap", then each enabled operation), "cached" for
 * those whose output was still valid. The result stays valid until the next run. A
 * scene-referred source (a raw, a merge's radiance) runs the operations that act on scene
 * light (op.h, on_scene: exposure, white balance, blur) before its display transform, the
 * others after it. */
LmImage *lm_render_cache_run (LmRenderCache *cache, const LmPipeline *pipeline,
                              LmTimings *timings, GError **error);

/* For a scene-referred source: PIPELINE's steps up to the display transform, the edited
 * scene (RGBA_F32, linear light, in work memory): what its .exr holds. */
LmImage *lm_render_cache_run_scene (LmRenderCache *cache, const LmPipeline *pipeline, LmTimings *timings,
                                    GError **error);

/* How many steps the last run computed (not taken from the cache). */
guint lm_render_cache_last_computed (LmRenderCache *cache);

/* Why the last run did a step elsewhere than asked (the backend could not tone map, so the
 * CPU did), or NULL. Valid until the next run. */
const char *lm_render_cache_last_notice (LmRenderCache *cache);

/* The mask of instance ID as the last run applied it: a new reference to a GRAY_F32 plane of
 * the instance's input size in work memory (0 to 1), or NULL when the last run applied no mask
 * for it (none, disabled, or the run stopped before it). Valid until the next run. */
LmImage *lm_render_cache_mask (LmRenderCache *cache, guint32 id);

/* How many masks the last run computed: drawn planes and final masks (not taken from the
 * cache). */
guint lm_render_cache_last_masks_computed (LmRenderCache *cache);

/* How many step outputs the cache holds: those of the last two runs' instances (a removed
 * instance's output is freed by the second run without it). */
guint lm_render_cache_n_outputs (LmRenderCache *cache);

G_END_DECLS

/* Running a pipeline on one source image, keeping each operation's output on the backend so
 * that a change to one operation recomputes from that operation on. */
#pragma once

#include <glib.h>

#include "backend.h"
#include "pipeline.h"
#include "timing.h"

G_BEGIN_DECLS

typedef struct _LmRenderCache LmRenderCache;

/* SOURCE is in the backend's work memory (lm_backend_upload); the cache keeps a reference. */
LmRenderCache *lm_render_cache_new (LmBackend *backend, LmImage *source);
void lm_render_cache_free (LmRenderCache *cache);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmRenderCache, lm_render_cache_free)

/* Renders PIPELINE and returns a new reference to the result in work memory (the source
 * itself when no operation is enabled). Appends one timing per enabled operation, "cached"
 * for those whose output was still valid. The result stays valid until the next run. */
LmImage *lm_render_cache_run (LmRenderCache *cache, const LmPipeline *pipeline,
                              LmTimings *timings, GError **error);

/* How many operations the last run computed (not taken from the cache). */
guint lm_render_cache_last_computed (LmRenderCache *cache);

G_END_DECLS

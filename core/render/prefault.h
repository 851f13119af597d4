/* A single run's output buffers (lm_render_cache_set_single_run), allocated and faulted in on
 * a thread of their own while the photo is decoded: the decoder keeps one core busy, the
 * kernel's zeroing of the outputs' fresh pages takes the other, and the render's steps then
 * write into pages already there (bench/RESULTS.md, "The first run in a process"). */
#pragma once

#include <glib.h>

#include "../edit/pipeline.h"
#include "../image.h"

G_BEGIN_DECLS

typedef struct _LmPrefault LmPrefault;

/* For PIPELINE (copied), in memory of ALLOCATOR's (host memory: the CPU backend's work
 * memory), on the source as loaded or, DEEPEN, as lm_image_to_depth16 makes it (lumen-cli
 * --depth 16). Nothing starts before lm_prefault_start. */
LmPrefault *lm_prefault_new (const LmPipeline *pipeline, const LmAllocator *allocator, gboolean deepen);
void lm_prefault_free (LmPrefault *prefault);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmPrefault, lm_prefault_free)

/* The load has allocated SOURCE and is about to decode into it: the thread starts on the
 * buffers a single run of the pipeline takes on a source of its shape (an opaque one: most
 * photos; a transparent one's outputs may need more, which its steps then allocate). The
 * decoder's own pages are left to it: populated beside it as well, they made the load no
 * faster (bench/RESULTS.md). An LmIoImageFunc (core/io/io.h), DATA the LmPrefault; a second
 * call, or one for a raw's or a radiance map's image, starts nothing. */
void lm_prefault_start (LmImage *source, gpointer data);

/* Whether lm_prefault_start started the thread. */
gboolean lm_prefault_started (const LmPrefault *prefault);

/* Stops the thread where it is (within a huge page) and returns the buffers, faulted in as far
 * as it got: the rest of their pages fault in the steps that write them. *BESIDE_MS: the
 * thread's time, spent beside the caller's; *WAIT_MS: the caller's wait for it to stop; both
 * 0 where it never started (and the array is then empty). *BYTES: how many it faulted in. */
GPtrArray *lm_prefault_finish (LmPrefault *prefault, double *beside_ms, double *wait_ms, gsize *bytes);

G_END_DECLS

/* Reusable host buffers for the batch: an allocator over another one (pinned memory when
 * CUDA is there) that keeps freed buffers for the next stack instead of giving them back.
 * Pinning costs milliseconds per call and serializes threads in the driver; fresh pageable
 * memory costs a page fault per 4 KiB; a batch of one-sized stacks pays either once.
 *
 * Bounded: the buffers kept idle never hold more bytes than were ever in use at once, and
 * what is in use is bounded by the stacks in flight. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

typedef struct _LmBufferPool LmBufferPool;

LmBufferPool *lm_buffer_pool_new (const LmAllocator *base);
/* The same holding at most CAP bytes of BASE's buffers, in use and idle: past it, a buffer
 * comes from BEYOND (the plain host allocator) and goes back to it when freed, never kept.
 * Pinned memory cannot be paged out: the window's Export Selected… pins no more than its
 * share of the machine's memory, however many photos are in flight. */
LmBufferPool *lm_buffer_pool_new_capped (const LmAllocator *base, const LmAllocator *beyond, gsize cap);
/* Every buffer must have come back (every image from the allocator freed). */
void lm_buffer_pool_free (LmBufferPool *pool);

/* Images allocated from this come from the pool and return to it when freed. */
const LmAllocator *lm_buffer_pool_allocator (LmBufferPool *pool);

typedef struct {
  guint64 allocations; /* buffers asked for */
  guint64 fresh;       /* of them, not found in the pool */
  gsize peak_bytes;    /* most bytes in use at once (BASE's) */
  guint64 beyond;      /* of them, from BEYOND (a capped pool) */
} LmBufferPoolStats;

void lm_buffer_pool_stats (LmBufferPool *pool, LmBufferPoolStats *stats);

G_END_DECLS

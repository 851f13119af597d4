#include "buffer-pool.h"

struct _LmBufferPool {
  LmAllocator allocator; /* first: the allocator's callbacks find the pool from it */
  const LmAllocator *base;
  const LmAllocator *beyond; /* NULL: no cap */
  gsize cap;                 /* BASE's bytes held at most, in use and idle */
  GHashTable *from_beyond;   /* the buffers BEYOND gave, in use */
  GMutex lock;
  GHashTable *sizes; /* every buffer of the pool, in use or idle → its size */
  GQueue idle;       /* of Idle, oldest first */
  gsize idle_bytes, used_bytes;
  LmBufferPoolStats stats;
};

typedef struct {
  gpointer mem;
  gsize size;
} Idle;

/* A buffer this much larger than asked for is not handed out: a radiance-sized buffer
 * would otherwise serve an 8-bit image and the pool would grow. */
#define FIT_SLACK(size) ((size) / 4)

static LmBufferPool *
pool_of (const LmAllocator *allocator)
{
  return (LmBufferPool *) allocator;
}

static Idle *
take_best_fit (LmBufferPool *pool, gsize size)
{
  GList *best = NULL;
  for (GList *l = pool->idle.head; l; l = l->next)
    {
      Idle *b = l->data;
      if (b->size >= size && b->size <= size + FIT_SLACK (size)
          && (best == NULL || b->size < ((Idle *) best->data)->size))
        best = l;
    }
  if (best == NULL)
    return NULL;
  Idle *b = best->data;
  g_queue_delete_link (&pool->idle, best);
  pool->idle_bytes -= b->size;
  return b;
}

static gpointer
pool_alloc (const LmAllocator *self, gsize size, GError **error)
{
  LmBufferPool *pool = pool_of (self);
  g_mutex_lock (&pool->lock);
  pool->stats.allocations++;
  Idle *b = take_best_fit (pool, size);
  gpointer mem = NULL;
  if (b)
    {
      mem = b->mem;
      size = b->size;
      g_free (b);
    }
  else if (pool->beyond && pool->used_bytes + pool->idle_bytes + size > pool->cap)
    {
      pool->stats.fresh++, pool->stats.beyond++;
      g_mutex_unlock (&pool->lock);
      mem = pool->beyond->alloc (pool->beyond, size, error);
      g_mutex_lock (&pool->lock);
      if (mem)
        g_hash_table_add (pool->from_beyond, mem);
      g_mutex_unlock (&pool->lock);
      return mem;
    }
  else
    {
      pool->stats.fresh++;
      /* Counted before it is made, so that threads allocating at once keep within the cap;
       * unlocked meanwhile: pinning is slow, and other threads may find their buffer. */
      pool->used_bytes += size;
      g_mutex_unlock (&pool->lock);
      mem = pool->base->alloc (pool->base, size, error);
      g_mutex_lock (&pool->lock);
      if (mem)
        g_hash_table_insert (pool->sizes, mem, GSIZE_TO_POINTER (size));
      pool->used_bytes -= size; /* counted below, once it is there */
    }
  if (mem)
    {
      pool->used_bytes += size;
      pool->stats.peak_bytes = MAX (pool->stats.peak_bytes, pool->used_bytes);
    }
  g_mutex_unlock (&pool->lock);
  return mem;
}

static void
pool_release (const LmAllocator *self, gpointer mem)
{
  LmBufferPool *pool = pool_of (self);
  g_autoptr (GPtrArray) drop = g_ptr_array_new ();
  g_mutex_lock (&pool->lock);
  if (pool->beyond && g_hash_table_remove (pool->from_beyond, mem))
    {
      g_mutex_unlock (&pool->lock);
      pool->beyond->free (pool->beyond, mem);
      return;
    }
  gsize size = GPOINTER_TO_SIZE (g_hash_table_lookup (pool->sizes, mem));
  pool->used_bytes -= size;
  Idle *b = g_new (Idle, 1);
  *b = (Idle) { mem, size };
  g_queue_push_tail (&pool->idle, b);
  pool->idle_bytes += size;
  /* The bound: idle buffers beyond the peak in use are never needed again (a batch whose
   * stacks changed size); the oldest go first. */
  while (pool->idle_bytes > pool->stats.peak_bytes)
    {
      Idle *old = g_queue_pop_head (&pool->idle);
      pool->idle_bytes -= old->size;
      g_hash_table_remove (pool->sizes, old->mem);
      g_ptr_array_add (drop, old->mem);
      g_free (old);
    }
  g_mutex_unlock (&pool->lock);
  for (guint i = 0; i < drop->len; i++)
    pool->base->free (pool->base, drop->pdata[i]);
}

LmBufferPool *
lm_buffer_pool_new (const LmAllocator *base)
{
  LmBufferPool *pool = g_new0 (LmBufferPool, 1);
  pool->allocator = (LmAllocator) { "batch-pool", base->memory, pool_alloc, pool_release, NULL };
  pool->base = base;
  g_mutex_init (&pool->lock);
  pool->sizes = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_queue_init (&pool->idle);
  return pool;
}

LmBufferPool *
lm_buffer_pool_new_capped (const LmAllocator *base, const LmAllocator *beyond, gsize cap)
{
  LmBufferPool *pool = lm_buffer_pool_new (base);
  pool->beyond = beyond, pool->cap = cap;
  pool->from_beyond = g_hash_table_new (g_direct_hash, g_direct_equal);
  return pool;
}

void
lm_buffer_pool_free (LmBufferPool *pool)
{
  if (pool == NULL)
    return;
  g_warn_if_fail (pool->used_bytes == 0);
  Idle *b;
  while ((b = g_queue_pop_head (&pool->idle)))
    {
      pool->base->free (pool->base, b->mem);
      g_free (b);
    }
  g_hash_table_unref (pool->sizes);
  g_clear_pointer (&pool->from_beyond, g_hash_table_unref);
  g_mutex_clear (&pool->lock);
  g_free (pool);
}

const LmAllocator *
lm_buffer_pool_allocator (LmBufferPool *pool)
{
  return &pool->allocator;
}

void
lm_buffer_pool_stats (LmBufferPool *pool, LmBufferPoolStats *stats)
{
  g_mutex_lock (&pool->lock);
  *stats = pool->stats;
  g_mutex_unlock (&pool->lock);
}

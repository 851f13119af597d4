/* The batch's buffer pool (core/batch/buffer-pool.h): freed buffers serve the next photo of
 * their size, and a capped pool (the window's Export Selected…) never holds more than its cap
 * of its base allocator's memory, in use and idle: past it, buffers come from the other
 * allocator and go straight back to it. The allocators here count what they hand out. */
#include "core/batch/buffer-pool.h"
#include "test-util.h"

typedef struct {
  LmAllocator allocator; /* first: the callbacks find the count from it */
  GMutex lock;
  gsize live, most;
  guint calls;
  gulong delay_us; /* as pinning takes its time */
} Counting;

static gpointer
counting_alloc (const LmAllocator *self, gsize size, GError **error)
{
  Counting *c = (Counting *) self;
  g_usleep (c->delay_us);
  gpointer mem = lm_allocator_host ()->alloc (lm_allocator_host (), size + 64, error);
  *(gsize *) mem = size;
  g_mutex_lock (&c->lock);
  c->live += size, c->most = MAX (c->most, c->live), c->calls++;
  g_mutex_unlock (&c->lock);
  return (guint8 *) mem + 64;
}

static void
counting_free (const LmAllocator *self, gpointer mem)
{
  Counting *c = (Counting *) self;
  guint8 *block = (guint8 *) mem - 64;
  g_mutex_lock (&c->lock);
  c->live -= *(gsize *) block;
  g_mutex_unlock (&c->lock);
  lm_allocator_host ()->free (lm_allocator_host (), block);
}

static void
counting_init (Counting *c, const char *name)
{
  *c = (Counting) { { name, LM_MEMORY_HOST, counting_alloc, counting_free, NULL } };
  g_mutex_init (&c->lock);
}

#define MIB ((gsize) 1 << 20)

static void
test_capped (void)
{
  Counting pinned, plain;
  counting_init (&pinned, "pinned");
  counting_init (&plain, "plain");
  LmBufferPool *pool = lm_buffer_pool_new_capped (&pinned.allocator, &plain.allocator, 3 * MIB);
  const LmAllocator *a = lm_buffer_pool_allocator (pool);
  gpointer held[5];
  for (guint i = 0; i < 5; i++)
    held[i] = a->alloc (a, MIB, NULL);
  g_assert_cmpuint (pinned.live, ==, 3 * MIB);
  g_assert_cmpuint (plain.live, ==, 2 * MIB);
  for (guint i = 0; i < 5; i++)
    a->free (a, held[i]);
  /* The base's buffers stay for the next photo; the others have gone back. */
  g_assert_cmpuint (pinned.live, ==, 3 * MIB);
  g_assert_cmpuint (plain.live, ==, 0);
  guint pinned_calls = pinned.calls;
  for (guint i = 0; i < 4; i++)
    held[i] = a->alloc (a, MIB, NULL);
  g_assert_cmpuint (pinned.calls, ==, pinned_calls); /* three reused */
  g_assert_cmpuint (plain.live, ==, MIB);
  for (guint i = 0; i < 4; i++)
    a->free (a, held[i]);
  /* A larger photo with the cap filled by idle buffers: from the other allocator. */
  gpointer large = a->alloc (a, 2 * MIB, NULL);
  g_assert_cmpuint (plain.live, ==, 2 * MIB);
  a->free (a, large);
  LmBufferPoolStats stats;
  lm_buffer_pool_stats (pool, &stats);
  g_assert_cmpuint (stats.allocations, ==, 10);
  g_assert_cmpuint (stats.beyond, ==, 4);
  g_assert_cmpuint (pinned.most, <=, 3 * MIB);
  lm_buffer_pool_free (pool);
  g_assert_cmpuint (pinned.live, ==, 0);
  g_assert_cmpuint (plain.live, ==, 0);
}

typedef struct {
  const LmAllocator *allocator;
  GMutex lock;
  GCond go;
  gboolean started;
} Race;

static gpointer
allocate_and_keep (gpointer data)
{
  Race *race = data;
  g_mutex_lock (&race->lock);
  while (!race->started)
    g_cond_wait (&race->go, &race->lock);
  g_mutex_unlock (&race->lock);
  return race->allocator->alloc (race->allocator, MIB, NULL);
}

/* Sixteen threads asking at once (pinning is slow, and the pool lets them go in parallel):
 * the cap still holds. */
static void
test_capped_at_once (void)
{
  Counting pinned, plain;
  counting_init (&pinned, "pinned");
  counting_init (&plain, "plain");
  pinned.delay_us = 20000;
  LmBufferPool *pool = lm_buffer_pool_new_capped (&pinned.allocator, &plain.allocator, 3 * MIB);
  Race race = { lm_buffer_pool_allocator (pool) };
  g_mutex_init (&race.lock);
  g_cond_init (&race.go);
  GThread *threads[16];
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("lumen-test", allocate_and_keep, &race);
  g_mutex_lock (&race.lock);
  race.started = TRUE;
  g_cond_broadcast (&race.go);
  g_mutex_unlock (&race.lock);
  gpointer held[G_N_ELEMENTS (threads)];
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    held[i] = g_thread_join (threads[i]);
  g_assert_cmpuint (pinned.most, <=, 3 * MIB);
  g_assert_cmpuint (pinned.live + plain.live, ==, G_N_ELEMENTS (threads) * MIB);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    race.allocator->free (race.allocator, held[i]);
  lm_buffer_pool_free (pool);
  g_assert_cmpuint (pinned.live + plain.live, ==, 0);
}

/* Without a cap every buffer is the base's, and one of each size is kept. */
static void
test_uncapped (void)
{
  Counting base;
  counting_init (&base, "base");
  LmBufferPool *pool = lm_buffer_pool_new (&base.allocator);
  const LmAllocator *a = lm_buffer_pool_allocator (pool);
  gpointer held[5];
  for (guint round = 0; round < 3; round++)
    {
      for (guint i = 0; i < 5; i++)
        held[i] = a->alloc (a, MIB, NULL);
      for (guint i = 0; i < 5; i++)
        a->free (a, held[i]);
    }
  g_assert_cmpuint (base.calls, ==, 5);
  g_assert_cmpuint (base.live, ==, 5 * MIB);
  lm_buffer_pool_free (pool);
  g_assert_cmpuint (base.live, ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/buffer-pool/capped", test_capped);
  g_test_add_func ("/buffer-pool/capped-at-once", test_capped_at_once);
  g_test_add_func ("/buffer-pool/uncapped", test_uncapped);
  return g_test_run ();
}

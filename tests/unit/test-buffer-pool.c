/* The batch's buffer pool (core/batch/buffer-pool.h): freed buffers serve the next photo of
 * their size, and a capped pool (the window's Export Selected…) never holds more than its cap
 * of its base allocator's memory, in use and idle: past it, buffers come from the other
 * allocator and go straight back to it. The allocators here count what they hand out. */
#include "core/batch/buffer-pool.h"
#include "test-util.h"

typedef struct {
  LmAllocator allocator; /* first: the callbacks find the count from it */
  gsize live, most;
  guint calls;
} Counting;

static gpointer
counting_alloc (const LmAllocator *self, gsize size, GError **error)
{
  Counting *c = (Counting *) self;
  gpointer mem = lm_allocator_host ()->alloc (lm_allocator_host (), size + 64, error);
  *(gsize *) mem = size;
  c->live += size, c->most = MAX (c->most, c->live), c->calls++;
  return (guint8 *) mem + 64;
}

static void
counting_free (const LmAllocator *self, gpointer mem)
{
  Counting *c = (Counting *) self;
  guint8 *block = (guint8 *) mem - 64;
  c->live -= *(gsize *) block;
  lm_allocator_host ()->free (lm_allocator_host (), block);
}

static void
counting_init (Counting *c, const char *name)
{
  *c = (Counting) { { name, LM_MEMORY_HOST, counting_alloc, counting_free, NULL }, 0, 0, 0 };
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
  g_test_add_func ("/buffer-pool/uncapped", test_uncapped);
  return g_test_run ();
}

/* The blob store (core/edit/blob-store.c): equal bytes, one key, from any thread; the bytes
 * back by key; other bytes, other keys; an unknown key, nothing. */
#include <string.h>

#include "core/edit/blob-store.h"
#include "test-util.h"

#define THREADS 4
#define BLOBS 200

/* Blob I of the test: its bytes depend on I alone (and one is empty). */
static GBytes *
blob (guint i)
{
  gsize len = i % 37;
  guint8 *data = g_malloc (len + 1);
  for (gsize k = 0; k < len; k++)
    data[k] = (guint8) (i * 31 + k * 7);
  return g_bytes_new_take (data, len);
}

static gpointer
intern_all (gpointer data)
{
  guint64 *keys = data;
  /* Each thread in its own order, so that threads meet on the same blobs. */
  guint start = GPOINTER_TO_UINT (g_thread_self ()) % BLOBS;
  for (guint n = 0; n < BLOBS; n++)
    {
      guint i = (start + n * 7) % BLOBS;
      g_autoptr (GBytes) b = blob (i);
      keys[i] = lm_blob_intern (g_bytes_get_data (b, NULL), g_bytes_get_size (b));
      g_autoptr (GBytes) back = lm_blob_lookup (keys[i]);
      if (back == NULL || !g_bytes_equal (back, b))
        return GINT_TO_POINTER (1);
    }
  return NULL;
}

static void
test_threads (void)
{
  guint64 keys[THREADS][BLOBS];
  GThread *threads[THREADS];
  for (int t = 0; t < THREADS; t++)
    threads[t] = g_thread_new ("intern", intern_all, keys[t]);
  for (int t = 0; t < THREADS; t++)
    g_assert_null (g_thread_join (threads[t]));
  for (guint i = 0; i < BLOBS; i++)
    {
      g_assert_cmpuint (keys[0][i], !=, 0);
      for (int t = 1; t < THREADS; t++)
        g_assert_cmpuint (keys[t][i], ==, keys[0][i]);
      for (guint j = 0; j < i; j++)
        {
          g_autoptr (GBytes) a = blob (i), b = blob (j);
          if (!g_bytes_equal (a, b))
            g_assert_cmpuint (keys[0][i], !=, keys[0][j]);
        }
    }
}

static void
test_keys (void)
{
  /* The first 64 bits of SHA-256, big-endian: "abc"'s digest starts ba7816bf8f01cfea. */
  g_assert_cmpuint (lm_blob_intern ("abc", 3), ==, G_GUINT64_CONSTANT (0xba7816bf8f01cfea));
  g_autoptr (GBytes) back = lm_blob_lookup (G_GUINT64_CONSTANT (0xba7816bf8f01cfea));
  g_assert_cmpmem (g_bytes_get_data (back, NULL), g_bytes_get_size (back), "abc", 3);
  g_assert_null (lm_blob_lookup (0));
  g_assert_null (lm_blob_lookup (G_GUINT64_CONSTANT (0x0123456789abcdef)));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/blob-store/threads", test_threads);
  g_test_add_func ("/blob-store/keys", test_keys);
  return g_test_run ();
}

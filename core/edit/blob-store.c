/* The blob store (blob-store.h): a hash table under a mutex. */
#include "blob-store.h"

#include <string.h>

static GMutex lock;
static GHashTable *blobs; /* guint64 * → GBytes * */

static guint64
digest_key (const void *data, gsize len)
{
  guint8 digest[32];
  gsize n = sizeof digest;
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (sum, data, len);
  g_checksum_get_digest (sum, digest, &n);
  guint64 key = 0;
  for (int i = 0; i < 8; i++)
    key = key << 8 | digest[i];
  return key;
}

guint64
lm_blob_intern (const void *data, gsize len)
{
  g_return_val_if_fail (data != NULL || len == 0, 0);
  guint64 key = digest_key (data, len);
  g_mutex_lock (&lock);
  if (blobs == NULL)
    blobs = g_hash_table_new (g_int64_hash, g_int64_equal);
  /* Two different contents with one 64-bit key (never seen; 2^-64 a pair) take the next free
   * key: the bytes are compared, so a lookup never returns another's. */
  for (;; key++)
    {
      if (key == 0)
        continue;
      GBytes *there = g_hash_table_lookup (blobs, &key);
      if (there == NULL)
        {
          guint64 *k = g_new (guint64, 1);
          *k = key;
          g_hash_table_insert (blobs, k, g_bytes_new (data, len));
          break;
        }
      gsize there_len;
      const void *there_data = g_bytes_get_data (there, &there_len);
      if (there_len == len && (len == 0 || memcmp (there_data, data, len) == 0))
        break;
    }
  g_mutex_unlock (&lock);
  return key;
}

GBytes *
lm_blob_lookup (guint64 key)
{
  g_mutex_lock (&lock);
  GBytes *bytes = blobs ? g_hash_table_lookup (blobs, &key) : NULL;
  if (bytes)
    g_bytes_ref (bytes);
  g_mutex_unlock (&lock);
  return bytes;
}

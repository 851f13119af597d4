/* Photoshop image resource blocks, checked before they travel: a JPEG reader that trusts a
 * block's size reads past it, so only whole, well-formed blocks are passed on. */
#include "iptc.h"

#include <string.h>

#define RESOURCE_IPTC 0x0404
#define RESOURCE_THUMBNAIL_OLD 0x0409
#define RESOURCE_THUMBNAIL 0x040c
#define RESOURCE_ICC 0x040f

typedef struct {
  gsize start, len; /* the whole block, padding included */
  guint16 id;
  gsize data, data_len;
} Block;

/* The block at *AT of DATA; FALSE when there is none or it runs past the end. */
static gboolean
next_block (const guint8 *data, gsize len, gsize *at, Block *b)
{
  gsize i = *at;
  if (len - i < 4 + 2 + 2 + 4 || memcmp (data + i, "8BIM", 4) != 0)
    return FALSE;
  b->start = i;
  b->id = (guint16) (data[i + 4] << 8 | data[i + 5]);
  i += 6;
  gsize name = 1 + data[i]; /* the length byte and the name, padded to even */
  name += name & 1;
  if (len - i < name + 4)
    return FALSE;
  i += name;
  guint32 size = (guint32) data[i] << 24 | (guint32) data[i + 1] << 16 | (guint32) data[i + 2] << 8 | data[i + 3];
  i += 4;
  if (size > len - i)
    return FALSE;
  b->data = i;
  b->data_len = size;
  i += size;
  if (size & 1)
    {
      if (i >= len)
        return FALSE;
      i++;
    }
  b->len = i - b->start;
  *at = i;
  return TRUE;
}

GBytes *
lm_iptc_from_resources (const guint8 *data, gsize len)
{
  if (data == NULL)
    return NULL;
  GByteArray *kept = g_byte_array_new ();
  Block b;
  for (gsize at = 0; at < len && next_block (data, len, &at, &b);)
    if (b.id != RESOURCE_THUMBNAIL && b.id != RESOURCE_THUMBNAIL_OLD && b.id != RESOURCE_ICC
        && b.len <= G_MAXUINT)
      g_byte_array_append (kept, data + b.start, (guint) b.len);
  if (kept->len == 0)
    {
      g_byte_array_unref (kept);
      return NULL;
    }
  return g_byte_array_free_to_bytes (kept);
}

GBytes *
lm_iptc_records (GBytes *blocks)
{
  if (blocks == NULL)
    return NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (blocks, &len);
  Block b;
  for (gsize at = 0; at < len && next_block (data, len, &at, &b);)
    if (b.id == RESOURCE_IPTC && b.data_len > 0)
      return g_bytes_new (data + b.data, b.data_len);
  return NULL;
}

GBytes *
lm_iptc_blocks_from_records (const guint8 *records, gsize len)
{
  if (records == NULL || len == 0 || len > G_MAXUINT32 - 16)
    return NULL;
  guint8 head[12] = { '8', 'B', 'I', 'M', RESOURCE_IPTC >> 8, RESOURCE_IPTC & 0xff, 0, 0,
                      (guint8) (len >> 24), (guint8) (len >> 16), (guint8) (len >> 8), (guint8) len };
  GByteArray *out = g_byte_array_sized_new ((guint) len + 13);
  g_byte_array_append (out, head, sizeof head);
  g_byte_array_append (out, records, (guint) len);
  if (len & 1)
    g_byte_array_append (out, (const guint8 *) "", 1);
  return g_byte_array_free_to_bytes (out);
}

GPtrArray *
lm_iptc_app13_payloads (GBytes *blocks, gsize max)
{
  GPtrArray *payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_return_val_if_fail (max > LM_IPTC_APP13_HEADER_LEN, payloads);
  if (blocks == NULL)
    return payloads;
  gsize len;
  const guint8 *data = g_bytes_get_data (blocks, &len);
  /* Readers (exiftool, Photoshop) join consecutive APP13 segments before reading the
   * blocks, so a block may be split anywhere. */
  for (gsize at = 0, chunk = max - LM_IPTC_APP13_HEADER_LEN; at < len; at += chunk)
    {
      gsize n = MIN (chunk, len - at);
      GByteArray *p = g_byte_array_sized_new ((guint) (n + LM_IPTC_APP13_HEADER_LEN));
      g_byte_array_append (p, (const guint8 *) LM_IPTC_APP13_HEADER, LM_IPTC_APP13_HEADER_LEN);
      g_byte_array_append (p, data + at, (guint) n);
      g_ptr_array_add (payloads, g_byte_array_free_to_bytes (p));
    }
  return payloads;
}

#include "jpeg-markers.h"

#define SEGMENT_MAX 65533 /* bytes a segment holds after its two length bytes */
#define ICC_HEAD 14       /* "ICC_PROFILE\0", the chunk's number, the chunks' count */
#define ICC_CHUNKS_MAX 255

/* A marker segment: FF, the marker, its length (two bytes, counting themselves), HEAD, DATA. */
static void
append_segment (GByteArray *out, guint8 marker, const guint8 *head, gsize head_len, const guint8 *data, gsize len)
{
  gsize total = 2 + head_len + len;
  guint8 start[4] = { 0xff, marker, (guint8) (total >> 8), (guint8) total };
  g_byte_array_append (out, start, 4);
  if (head_len)
    g_byte_array_append (out, head, (guint) head_len);
  g_byte_array_append (out, data, (guint) len);
}

GBytes *
lm_jpeg_insert_metadata (const guint8 *jpeg, gsize len, GBytes *exif, GBytes *icc)
{
  gboolean with_exif = exif && g_bytes_get_size (exif) <= SEGMENT_MAX;
  gsize icc_size = icc ? g_bytes_get_size (icc) : 0, chunk = SEGMENT_MAX - ICC_HEAD;
  gsize chunks = (icc_size + chunk - 1) / chunk;
  gboolean with_icc = icc_size > 0 && chunks <= ICC_CHUNKS_MAX;
  if ((!with_exif && !with_icc) || len < 2 || jpeg[0] != 0xff || jpeg[1] != 0xd8)
    return g_bytes_new (jpeg, len);
  gsize at = 2; /* past SOI, and past JFIF's APP0, which must come first */
  if (len >= 6 && jpeg[2] == 0xff && jpeg[3] == 0xe0)
    at = MIN (len, 4 + ((gsize) jpeg[4] << 8 | jpeg[5]));
  GByteArray *out = g_byte_array_sized_new ((guint) (len + (with_exif ? g_bytes_get_size (exif) + 4 : 0)
                                                     + (with_icc ? icc_size + chunks * (ICC_HEAD + 4) : 0)));
  g_byte_array_append (out, jpeg, (guint) at);
  if (with_exif)
    append_segment (out, 0xe1, NULL, 0, g_bytes_get_data (exif, NULL), g_bytes_get_size (exif));
  const guint8 *profile = with_icc ? g_bytes_get_data (icc, NULL) : NULL;
  for (gsize k = 0; with_icc && k < chunks; k++)
    {
      guint8 head[ICC_HEAD] = "ICC_PROFILE";
      head[12] = (guint8) (k + 1);
      head[13] = (guint8) chunks;
      append_segment (out, 0xe2, head, ICC_HEAD, profile + k * chunk, MIN (chunk, icc_size - k * chunk));
    }
  g_byte_array_append (out, jpeg + at, (guint) (len - at));
  return g_byte_array_free_to_bytes (out);
}

#include "jpeg-markers.h"

#include <string.h>
#include <glib/gi18n.h>

#include "exif.h"
#include "iptc.h"
#include "xmp.h"

#define ICC_HEAD 14       /* "ICC_PROFILE\0", the chunk's number, the chunks' count */

static void
clear_segment (gpointer p)
{
  g_clear_pointer (&((LmJpegSegment *) p)->payload, g_bytes_unref);
}

static GArray *
segments_new (void)
{
  GArray *segments = g_array_new (FALSE, FALSE, sizeof (LmJpegSegment));
  g_array_set_clear_func (segments, clear_segment);
  return segments;
}

/* Takes PAYLOAD. */
static void
add_segment (GArray *segments, guint8 marker, GBytes *payload)
{
  LmJpegSegment s = { marker, payload };
  g_array_append_val (segments, s);
}

static GBytes *
with_head (const guint8 *head, gsize head_len, const guint8 *data, gsize len)
{
  guint8 *p = g_malloc (head_len + len);
  memcpy (p, head, head_len);
  memcpy (p + head_len, data, len);
  return g_bytes_new_take (p, head_len + len);
}

static void
add_exif (GArray *segments, GBytes *exif)
{
  if (exif && g_bytes_get_size (exif) <= LM_JPEG_SEGMENT_MAX)
    add_segment (segments, 0xe1, g_bytes_ref (exif));
}

static void
add_icc (GArray *segments, GBytes *icc)
{
  gsize icc_size = icc ? g_bytes_get_size (icc) : 0, chunk = LM_JPEG_SEGMENT_MAX - ICC_HEAD;
  gsize chunks = (icc_size + chunk - 1) / chunk;
  if (icc_size == 0 || icc_size > LM_JPEG_ICC_MAX)
    return;
  const guint8 *profile = g_bytes_get_data (icc, NULL);
  for (gsize k = 0; k < chunks; k++)
    {
      guint8 head[ICC_HEAD] = "ICC_PROFILE";
      head[12] = (guint8) (k + 1);
      head[13] = (guint8) chunks;
      add_segment (segments, 0xe2, with_head (head, ICC_HEAD, profile + k * chunk, MIN (chunk, icc_size - k * chunk)));
    }
}

GArray *
lm_jpeg_export_segments (const LmImage *image)
{
  GArray *segments = segments_new ();
  g_autoptr (GBytes) exif = lm_exif_for_jpeg (image->exif, image->width, image->height);
  add_exif (segments, exif);
  g_autoptr (GBytes) xmp = lm_xmp_for_export (image->xmp, image->width, image->height);
  if (xmp && g_bytes_get_size (xmp) <= LM_JPEG_SEGMENT_MAX - LM_JPEG_XMP_HEADER_LEN)
    add_segment (segments, 0xe1, with_head ((const guint8 *) LM_JPEG_XMP_HEADER, LM_JPEG_XMP_HEADER_LEN,
                                            g_bytes_get_data (xmp, NULL), g_bytes_get_size (xmp)));
  else if (xmp)
    g_debug ("the XMP packet (%zu bytes) is larger than a JPEG segment holds: not written",
             g_bytes_get_size (xmp));
  add_icc (segments, image->icc_profile);
  g_autoptr (GPtrArray) iptc = lm_iptc_app13_payloads (image->iptc, LM_JPEG_SEGMENT_MAX);
  for (guint k = 0; k < iptc->len; k++)
    add_segment (segments, 0xed, g_bytes_ref (iptc->pdata[k]));
  return segments;
}

/* A marker segment: FF, the marker, its length (two bytes, counting themselves), PAYLOAD. */
static void
append_segment (GByteArray *out, const LmJpegSegment *s)
{
  gsize len = g_bytes_get_size (s->payload), total = 2 + len;
  guint8 start[4] = { 0xff, s->marker, (guint8) (total >> 8), (guint8) total };
  g_byte_array_append (out, start, 4);
  g_byte_array_append (out, g_bytes_get_data (s->payload, NULL), (guint) len);
}

GBytes *
lm_jpeg_insert_segments (const guint8 *jpeg, gsize len, GArray *segments)
{
  if (segments->len == 0 || len < 2 || jpeg[0] != 0xff || jpeg[1] != 0xd8)
    return g_bytes_new (jpeg, len);
  gsize at = 2; /* past SOI, and past JFIF's APP0, which must come first */
  if (len >= 6 && jpeg[2] == 0xff && jpeg[3] == 0xe0)
    at = MIN (len, 4 + ((gsize) jpeg[4] << 8 | jpeg[5]));
  gsize total = len;
  for (guint k = 0; k < segments->len; k++)
    total += 4 + g_bytes_get_size (g_array_index (segments, LmJpegSegment, k).payload);
  GByteArray *out = g_byte_array_sized_new ((guint) total);
  g_byte_array_append (out, jpeg, (guint) at);
  for (guint k = 0; k < segments->len; k++)
    append_segment (out, &g_array_index (segments, LmJpegSegment, k));
  g_byte_array_append (out, jpeg + at, (guint) (len - at));
  return g_byte_array_free_to_bytes (out);
}

GBytes *
lm_jpeg_insert_image_metadata (const guint8 *jpeg, gsize len, const LmImage *image)
{
  g_autoptr (GArray) segments = lm_jpeg_export_segments (image);
  return lm_jpeg_insert_segments (jpeg, len, segments);
}

GBytes *
lm_jpeg_insert_metadata (const guint8 *jpeg, gsize len, GBytes *exif, GBytes *icc)
{
  g_autoptr (GArray) segments = segments_new ();
  add_exif (segments, exif);
  add_icc (segments, icc);
  return lm_jpeg_insert_segments (jpeg, len, segments);
}

void
lm_jpeg_segment_xmp (const guint8 *payload, gsize len, GBytes **xmp)
{
  if (*xmp == NULL && len > LM_JPEG_XMP_HEADER_LEN
      && memcmp (payload, LM_JPEG_XMP_HEADER, LM_JPEG_XMP_HEADER_LEN) == 0)
    *xmp = g_bytes_new (payload + LM_JPEG_XMP_HEADER_LEN, len - LM_JPEG_XMP_HEADER_LEN);
}

void
lm_jpeg_segment_photoshop (const guint8 *payload, gsize len, GByteArray *photoshop)
{
  if (len > LM_IPTC_APP13_HEADER_LEN && len <= G_MAXUINT
      && memcmp (payload, LM_IPTC_APP13_HEADER, LM_IPTC_APP13_HEADER_LEN) == 0)
    g_byte_array_append (photoshop, payload + LM_IPTC_APP13_HEADER_LEN, (guint) (len - LM_IPTC_APP13_HEADER_LEN));
}

void
lm_jpeg_note_left_out (const LmImage *image, GPtrArray *notes)
{
  gsize size = image->icc_profile ? g_bytes_get_size (image->icc_profile) : 0;
  if (notes == NULL || size <= LM_JPEG_ICC_MAX)
    return;
  g_autofree char *have = g_format_size (size);
  g_autofree char *most = g_format_size (LM_JPEG_ICC_MAX);
  g_ptr_array_add (notes, g_strdup_printf (_("its ICC profile (%s) is larger than a JPEG holds (%s), so it was left "
                                             "out: readers will take the colours as sRGB"),
                                           have, most));
}

/* Ratings and colour labels in XMP sidecars, in the keys darktable and digiKam read:
 *   xmp:Rating             -1 for a reject (darktable's and Adobe's convention), else 0..5;
 *   digiKam:PickLabel      1 while rejected: digiKam reads -1 as "no rating", not a reject;
 *   darktable:colorlabels  an rdf:Seq of 0 (red) .. 4 (purple): darktable's label set;
 *   xmp:Label              "Red" .. "Purple" when exactly one label is set.
 * darktable reads xmp:Label *instead of* colorlabels when it is there, so with several labels
 * xmp:Label is removed: darktable then sees the whole set from colorlabels, and the readers
 * with a single label (digiKam, Lightroom, exiftool) see none rather than an arbitrary one of
 * them. A packet is edited in place (core/io/xmp.c): darktable's history, digiKam's keys and
 * everything else in it stay byte for byte. */
#include "photo-tags.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "config.h"
#include "core/error.h"
#include "core/io/atomic-file.h"
#include "core/io/file-read.h"
#include "core/io/xmp.h"

#define DARKTABLE_NS "http://darktable.sf.net/"
#define DIGIKAM_NS "http://www.digikam.org/ns/1.0/"
#define RDF_NS "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

/* darktable writes sidecars of several MB (long histories with masks); a bound all the same. */
#define SIDECAR_MAX ((guint64) 64 << 20)

static const char *const label_names[LM_LABEL_COUNT] = { "Red", "Yellow", "Green", "Blue", "Purple" };
/* digiKam:ColorLabel of each of darktable's labels (digiKam's 6 is magenta, shown as purple). */
static const int digikam_colors[LM_LABEL_COUNT] = { 1, 3, 4, 5, 6 };

const char *
lm_color_label_xmp_name (LmColorLabel label)
{
  for (int k = 0; k < LM_LABEL_COUNT; k++)
    if (label == (LmColorLabel) (1u << k))
      return label_names[k];
  return NULL;
}

static guint
label_of_name (const char *name)
{
  for (int k = 0; k < LM_LABEL_COUNT; k++)
    if (g_strcmp0 (name, label_names[k]) == 0) /* case-sensitive, as darktable compares */
      return 1u << k;
  return 0;
}

static gboolean
parse_number (const char *text, double *value)
{
  if (text == NULL)
    return FALSE;
  g_autofree char *copy = g_strstrip (g_strdup (text));
  char *end = NULL;
  *value = g_ascii_strtod (copy, &end);
  return end != copy && *end == '\0' && isfinite (*value);
}

gboolean
lm_photo_tags_equal (const LmPhotoTags *a, const LmPhotoTags *b)
{
  return a->rating == b->rating && a->labels == b->labels;
}

gboolean
lm_photo_tags_from_packet (GBytes *packet, LmPhotoTags *tags)
{
  *tags = (LmPhotoTags) { 0, 0 };
  if (packet == NULL || !lm_xmp_is_well_formed (packet))
    return FALSE;

  /* xmp:Rating is a Real in the XMP specification; darktable truncates it to an integer. */
  g_autofree char *rating = lm_xmp_get_property (packet, LM_XMP_NS, "Rating");
  double value;
  if (parse_number (rating, &value))
    tags->rating = value <= -1.0 && value > -2.0 ? LM_RATING_REJECTED : CLAMP ((int) value, 0, 5);
  g_autofree char *pick = lm_xmp_get_property (packet, DIGIKAM_NS, "PickLabel");
  if (parse_number (pick, &value) && value == 1.0)
    tags->rating = LM_RATING_REJECTED;

  /* darktable's order: xmp:Label when present (another value than a colour name is no label
   * but still hides colorlabels), else its colorlabels; digiKam's own key last. */
  g_autofree char *label = lm_xmp_get_property (packet, LM_XMP_NS, "Label");
  g_auto (GStrv) colorlabels = label ? NULL : lm_xmp_get_array (packet, DARKTABLE_NS, "colorlabels");
  g_autofree char *digikam = label || colorlabels ? NULL : lm_xmp_get_property (packet, DIGIKAM_NS, "ColorLabel");
  if (label)
    tags->labels = label_of_name (g_strstrip (label));
  else if (colorlabels)
    for (guint k = 0; colorlabels[k]; k++)
      {
        guint64 index;
        if (g_ascii_string_to_unsigned (g_strstrip (colorlabels[k]), 10, 0, LM_LABEL_COUNT - 1, &index, NULL))
          tags->labels |= 1u << index;
      }
  else if (parse_number (digikam, &value))
    for (int k = 0; k < LM_LABEL_COUNT; k++)
      if (value == digikam_colors[k])
        tags->labels = 1u << k;
  return TRUE;
}

#define XPACKET_BEGIN "<?xpacket begin=\"\xef\xbb\xbf\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"

static GBytes *
minimal_packet (void)
{
  static const char text[] = XPACKET_BEGIN
    "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\" x:xmptk=\"Lumen " LUMEN_VERSION "\">\n"
    " <rdf:RDF xmlns:rdf=\"" RDF_NS "\">\n"
    "  <rdf:Description rdf:about=\"\"\n"
    "    xmlns:xmp=\"" LM_XMP_NS "\"\n"
    "    xmlns:darktable=\"" DARKTABLE_NS "\"\n"
    "    xmlns:digiKam=\"" DIGIKAM_NS "\"/>\n"
    " </rdf:RDF>\n"
    "</x:xmpmeta>\n"
    "<?xpacket end=\"w\"?>\n";
  return g_bytes_new_static (text, sizeof text - 1);
}

/* *PACKET replaced by EDITED; FALSE (and *PACKET kept) when there was nothing to edit in. */
static gboolean
take (GBytes **packet, GBytes *edited)
{
  if (edited == NULL)
    return FALSE;
  g_bytes_unref (*packet);
  *packet = edited;
  return TRUE;
}

static void
set_labels (GBytes **packet, guint labels, gboolean *ok)
{
  if (labels == 0)
    take (packet, lm_xmp_remove_property (*packet, DARKTABLE_NS, "colorlabels"));
  else
    {
      g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
      for (int k = 0; k < LM_LABEL_COUNT; k++)
        if (labels & (1u << k))
          g_ptr_array_add (items, g_strdup_printf ("%d", k));
      g_ptr_array_add (items, NULL);
      *ok = *ok && take (packet, lm_xmp_set_array (*packet, DARKTABLE_NS, "darktable", "colorlabels", "rdf:Seq",
                                                   (const char *const *) items->pdata));
    }

  g_autofree char *label = lm_xmp_get_property (*packet, LM_XMP_NS, "Label");
  const char *single = lm_color_label_xmp_name ((LmColorLabel) labels);
  if (single)
    *ok = *ok && take (packet, lm_xmp_set_property (*packet, LM_XMP_NS, "xmp", "Label", single, TRUE));
  else if (label && (labels != 0 || label_of_name (g_strstrip (label)) != 0))
    take (packet, lm_xmp_remove_property (*packet, LM_XMP_NS, "Label"));
  /* else: no label, and an xmp:Label of another meaning ("Approved", "To do") is kept */

  /* digiKam's own key only where digiKam put it: it reads it before xmp:Label. */
  g_autofree char *digikam = lm_xmp_get_property (*packet, DIGIKAM_NS, "ColorLabel");
  if (digikam)
    {
      int color = 0;
      for (int k = 0; k < LM_LABEL_COUNT && color == 0; k++)
        if (labels & (1u << k))
          color = digikam_colors[k];
      g_autofree char *value = g_strdup_printf ("%d", color);
      take (packet, lm_xmp_set_property (*packet, DIGIKAM_NS, "digiKam", "ColorLabel", value, FALSE));
    }
}

GBytes *
lm_photo_tags_to_packet (GBytes *packet, const LmPhotoTags *tags, GError **error)
{
  if (tags->rating < LM_RATING_REJECTED || tags->rating > 5 || (tags->labels & ~LM_LABEL_ALL) != 0)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("rating %d or labels 0x%x out of range"), tags->rating,
                   tags->labels);
      return NULL;
    }
  if (packet && !lm_xmp_is_well_formed (packet))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("not a well-formed XMP packet; left as it is"));
      return NULL;
    }
  g_autoptr (GBytes) out = packet ? g_bytes_ref (packet) : minimal_packet ();
  gboolean rejected = tags->rating == LM_RATING_REJECTED;
  g_autofree char *rating = g_strdup_printf ("%d", tags->rating);
  gboolean ok = take (&out, lm_xmp_set_property (out, LM_XMP_NS, "xmp", "Rating", rating, TRUE));
  g_autofree char *pick = lm_xmp_get_property (out, DIGIKAM_NS, "PickLabel");
  if (rejected)
    ok = ok && take (&out, lm_xmp_set_property (out, DIGIKAM_NS, "digiKam", "PickLabel", "1", TRUE));
  else if (pick && g_strcmp0 (g_strstrip (pick), "1") == 0)
    take (&out, lm_xmp_remove_property (out, DIGIKAM_NS, "PickLabel")); /* pending, accepted: kept */
  if (ok)
    set_labels (&out, tags->labels, &ok);
  if (!ok)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("an XMP packet without rdf:Description; left as it is"));
      return NULL;
    }
  /* What is written must say what was meant: a packet of an odd form (a property twice, in
   * forms the in-place edit leaves alone) is refused rather than written wrong. */
  LmPhotoTags back;
  if (!lm_photo_tags_from_packet (out, &back) || !lm_photo_tags_equal (&back, tags))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT,
                   _("an XMP packet of a form Lumen cannot edit in place; left as it is"));
      return NULL;
    }
  return g_steal_pointer (&out);
}

char *
lm_photo_tags_sidecar_path (const char *photo)
{
  return g_strconcat (photo, ".xmp", NULL);
}

/* photo.xmp, the sidecar name without the photo's extension; NULL when the photo's name has
 * no extension (it would be photo.ext.xmp again). */
static char *
sidecar_path_without_extension (const char *photo)
{
  g_autofree char *base = g_path_get_basename (photo);
  const char *dot = strrchr (base, '.');
  if (dot == NULL || dot == base)
    return NULL;
  gsize cut = strlen (photo) - strlen (dot);
  return g_strdup_printf ("%.*s.xmp", (int) cut, photo);
}

/* PATH's packet in *PACKET (NULL when there is no file there); FALSE with ERROR when it is
 * there and cannot be read. */
static gboolean
read_sidecar (const char *path, GBytes **packet, GError **error)
{
  *packet = NULL;
  GStatBuf st;
  if (g_stat (path, &st) != 0 && errno == ENOENT)
    return TRUE;
  *packet = lm_file_read (path, LM_FILE_KIND_TEXT, SIDECAR_MAX, error);
  return *packet != NULL;
}

gboolean
lm_photo_tags_read (const char *photo, LmPhotoTags *tags, GError **error)
{
  *tags = (LmPhotoTags) { 0, 0 };
  g_autofree char *path = lm_photo_tags_sidecar_path (photo);
  g_autoptr (GBytes) packet = NULL;
  if (!read_sidecar (path, &packet, error))
    return FALSE;
  if (packet == NULL)
    {
      g_free (path);
      path = sidecar_path_without_extension (photo);
      if (path == NULL || !read_sidecar (path, &packet, error))
        return path == NULL;
      if (packet == NULL)
        return TRUE;
    }
  if (!lm_photo_tags_from_packet (packet, tags))
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, "%s", _("not a well-formed XMP packet"));
      return FALSE;
    }
  return TRUE;
}

gboolean
lm_photo_tags_write (const char *photo, const LmPhotoTags *tags, GError **error)
{
  g_autofree char *path = lm_photo_tags_sidecar_path (photo);
  g_autoptr (GBytes) packet = NULL;
  /* Read again now: darktable or digiKam may have changed it since it was shown. */
  if (!read_sidecar (path, &packet, error))
    return FALSE;
  /* The first photo.ext.xmp starts from digiKam's or Lightroom's photo.xmp where there is one:
   * every program then reads the new file first, and its keywords and titles must stay. */
  g_autofree char *other = packet == NULL ? sidecar_path_without_extension (photo) : NULL;
  GBytes *base = NULL;
  if (other != NULL && read_sidecar (other, &base, NULL) && base != NULL && lm_xmp_is_well_formed (base))
    packet = base;
  else if (base != NULL)
    g_bytes_unref (base);
  GError *local = NULL;
  g_autoptr (GBytes) edited = lm_photo_tags_to_packet (packet, tags, &local);
  if (edited == NULL)
    {
      lm_set_file_error (error, local->code, path, "%s", local->message);
      g_error_free (local);
      return FALSE;
    }
  gsize len;
  const void *data = g_bytes_get_data (edited, &len);
  return lm_atomic_file_write (path, data, len, error);
}

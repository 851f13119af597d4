/* A photo's star rating, reject and colour labels, kept in its XMP sidecar photo.ext.xmp as
 * darktable and digiKam keep them (docs/ratings.md), never in the photo itself. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define LM_RATING_REJECTED (-1)

typedef enum {
  LM_LABEL_RED = 1 << 0,
  LM_LABEL_YELLOW = 1 << 1,
  LM_LABEL_GREEN = 1 << 2,
  LM_LABEL_BLUE = 1 << 3,
  LM_LABEL_PURPLE = 1 << 4,
} LmColorLabel;

#define LM_LABEL_COUNT 5
#define LM_LABEL_ALL ((1u << LM_LABEL_COUNT) - 1)

typedef struct {
  int rating;    /* LM_RATING_REJECTED or 0..5 */
  guint labels;  /* LmColorLabel bits */
} LmPhotoTags;

/* photo.ext.xmp: where Lumen writes, and reads first. */
char *lm_photo_tags_sidecar_path (const char *photo);

/* PHOTO's tags, from photo.ext.xmp, else photo.xmp (the other convention of digiKam and
 * Lightroom). No sidecar: {0, 0} and TRUE; a sidecar that cannot be read (not a regular
 * file, unreadable, not a well-formed packet): FALSE, the message names it. */
gboolean lm_photo_tags_read (const char *photo, LmPhotoTags *tags, GError **error);

/* TAGS written to PHOTO's photo.ext.xmp: a minimal packet where there is none, otherwise the
 * packet read again now with only the rating and label values changed; atomic. A sidecar
 * that is not a regular file or not a well-formed packet is left as it is: FALSE, with a
 * message naming it. */
gboolean lm_photo_tags_write (const char *photo, const LmPhotoTags *tags, GError **error);

/* The tags PACKET states (darktable's reading, digiKam's reject and labels where darktable's
 * keys are absent); FALSE when PACKET is not well-formed. */
gboolean lm_photo_tags_from_packet (GBytes *packet, LmPhotoTags *tags);

/* PACKET (NULL: a new minimal one) with TAGS in it and nothing else changed; NULL with
 * ERROR (no file named: the caller adds it) when TAGS are out of range, PACKET is not
 * well-formed or has no rdf:Description, or the edited packet would not read back as TAGS. */
GBytes *lm_photo_tags_to_packet (GBytes *packet, const LmPhotoTags *tags, GError **error);

/* "Red", "Yellow", "Green", "Blue", "Purple" (xmp:Label's values) for one label; NULL for
 * anything else. */
const char *lm_color_label_xmp_name (LmColorLabel label);

/* Whether the tags are the same; an out-of-range rating is no rating. */
gboolean lm_photo_tags_equal (const LmPhotoTags *a, const LmPhotoTags *b);

G_END_DECLS

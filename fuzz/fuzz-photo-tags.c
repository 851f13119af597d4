/* Ratings and colour labels in XMP sidecars (core/library/photo-tags.c): the input as a
 * photo's photo.ext.xmp. Promises: a packet reads iff it is well-formed; tags written into it
 * give a well-formed packet that reads back as those tags, and writing them again changes
 * nothing; the file path (read, edit, atomic write, read back) keeps the same promises. */
#include <string.h>

#include "fuzz-util.h"
#include "core/io/xmp.h"
#include "core/library/photo-tags.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  GBytes *packet = g_bytes_new (data, size);
  gboolean well_formed = lm_xmp_is_well_formed (packet);
  LmPhotoTags read;
  LM_FUZZ_CHECK (lm_photo_tags_from_packet (packet, &read) == well_formed, "a packet %s well-formed %s read",
                 well_formed ? "that is" : "that is not", well_formed ? "is not" : "is");
  LM_FUZZ_CHECK (read.rating >= LM_RATING_REJECTED && read.rating <= 5 && (read.labels & ~LM_LABEL_ALL) == 0,
                 "tags read out of range: %d, 0x%x", read.rating, read.labels);

  /* Tags that vary with the input: every rating, and label sets of none, one and several. */
  guint sum = 0;
  for (size_t k = 0; k < size; k++)
    sum = sum * 31 + data[k];
  LmPhotoTags tags = { (int) (sum % 7) - 1, (sum >> 8) & LM_LABEL_ALL };
  GError *error = NULL;
  GBytes *out = lm_photo_tags_to_packet (packet, &tags, &error);
  if (out == NULL)
    {
      lm_fuzz_check_failure ("lm_photo_tags_to_packet", error, NULL);
      g_clear_error (&error);
    }
  else
    {
      LmPhotoTags back;
      LM_FUZZ_CHECK (lm_xmp_is_well_formed (out), "the edited packet is not well-formed");
      LM_FUZZ_CHECK (lm_photo_tags_from_packet (out, &back) && lm_photo_tags_equal (&back, &tags),
                     "wrote %d, 0x%x; read back %d, 0x%x", tags.rating, tags.labels, back.rating, back.labels);
      GBytes *again = lm_photo_tags_to_packet (out, &tags, NULL);
      LM_FUZZ_CHECK (again != NULL && g_bytes_equal (again, out), "writing the same tags again changed the packet");
      g_bytes_unref (again);
    }

  /* Through the files: the same outcome, and the sidecar replaced only on success. */
  char *xmp = lm_fuzz_write_file ("photo.jpg.xmp", data, size);
  char *photo = g_strndup (xmp, strlen (xmp) - 4);
  gboolean written = lm_photo_tags_write (photo, &tags, &error);
  LM_FUZZ_CHECK (written == (out != NULL), "the file's write %s where the packet's edit %s",
                 written ? "succeeded" : "failed", out ? "succeeded" : "failed");
  if (!written)
    {
      lm_fuzz_check_failure ("lm_photo_tags_write", error, xmp);
      g_clear_error (&error);
      gchar *kept;
      gsize kept_len;
      LM_FUZZ_CHECK (g_file_get_contents (xmp, &kept, &kept_len, NULL) && kept_len == size
                       && memcmp (kept, data, size) == 0,
                     "a sidecar that could not be written was changed");
      g_free (kept);
    }
  else
    {
      LmPhotoTags back;
      LM_FUZZ_CHECK (lm_photo_tags_read (photo, &back, NULL) && lm_photo_tags_equal (&back, &tags),
                     "the sidecar written does not read back");
    }
  g_free (photo);
  g_free (xmp);
  if (out)
    g_bytes_unref (out);
  g_bytes_unref (packet);
  return 0;
}

/* lm_thumbnail_load: the cache first, then the sources (thumbnail.h). */
#include "thumbnail.h"

#include <glib/gi18n.h>

#include "thumbnail-cache.h"
#include "thumbnail-source.h"
#include "../error.h"

static gboolean
check_size (int size, const char *photo, GError **error)
{
  if (lm_thumbnail_folder_size (size) != 0)
    return TRUE;
  lm_set_file_error (error, LM_ERROR_INVALID, photo, _("a thumbnail size must be 1 to %d pixels, not %d"),
                     LM_THUMBNAIL_SIZE_MAX, size);
  return FALSE;
}

gboolean
lm_thumbnail_lookup (const char *photo, int size, LmImage **thumb, GError **error)
{
  *thumb = NULL;
  if (!check_size (size, photo, error))
    return FALSE;
  LmThumbnailKey key = { 0 };
  if (!lm_thumbnail_key_init (&key, photo, error))
    return FALSE;
  int folder = lm_thumbnail_folder_size (size);
  g_autofree char *path = lm_thumbnail_cache_path (key.uri, folder);
  g_autoptr (LmImage) cached = lm_thumbnail_cache_lookup (path, &key, folder);
  g_autofree char *failure = NULL;
  gboolean answered = FALSE;
  if (cached != NULL)
    {
      *thumb = lm_thumbnail_shrink (cached, size, error);
      answered = TRUE;
    }
  else if (lm_thumbnail_fail_lookup (&key, &failure))
    {
      g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_FORMAT, failure);
      answered = TRUE;
    }
  lm_thumbnail_key_clear (&key);
  return answered;
}

/* Whether a failure says something of the file (kept until it changes) rather than of the
 * moment (memory, a device, a cancel: tried again next time). */
static gboolean
failure_of_file (const char *photo, const GError *failure)
{
  if (!g_file_test (photo, G_FILE_TEST_IS_REGULAR))
    return TRUE; /* a fifo, a device: never a photo */
  return failure->domain == LUMEN_ERROR
         && (failure->code == LM_ERROR_FORMAT || failure->code == LM_ERROR_UNSUPPORTED
             || failure->code == LM_ERROR_TOO_LARGE);
}

/* Whether PHOTO lies in the cache itself: the standard asks for no thumbnails of thumbnails. */
static gboolean
in_cache (const char *uri)
{
  g_autofree char *root = lm_thumbnail_root ();
  g_autofree char *root_uri = g_filename_to_uri (root, NULL, NULL);
  return root_uri != NULL && g_str_has_prefix (uri, root_uri) && uri[strlen (root_uri)] == '/';
}

LmImage *
lm_thumbnail_keep (const char *photo, int size, LmImage *made, const char *mime, const GError *failure)
{
  LmThumbnailKey key = { 0 };
  if (!lm_thumbnail_key_init (&key, photo, NULL))
    return made ? lm_thumbnail_shrink (made, size, NULL) : NULL;
  if (!in_cache (key.uri))
    {
      /* The cache is a help, not a need: an unwritable one leaves the thumbnail in memory. */
      if (made != NULL)
        {
          g_autofree char *path = lm_thumbnail_cache_path (key.uri, lm_thumbnail_folder_size (size));
          lm_thumbnail_cache_store (path, made, &key, mime, NULL);
        }
      else if (failure != NULL && failure_of_file (photo, failure))
        lm_thumbnail_fail_store (&key, failure->message, NULL);
    }
  lm_thumbnail_key_clear (&key);
  return made ? lm_thumbnail_shrink (made, size, NULL) : NULL;
}

LmImage *
lm_thumbnail_load (const char *photo, int size, GError **error)
{
  LmImage *thumb = NULL;
  GError *local = NULL;
  if (lm_thumbnail_lookup (photo, size, &thumb, &local) || local != NULL)
    {
      if (local != NULL)
        g_propagate_error (error, local);
      return thumb;
    }
  const char *mime = NULL;
  g_autoptr (LmImage) made = lm_thumbnail_make (photo, lm_thumbnail_folder_size (size), &mime, &local);
  thumb = lm_thumbnail_keep (photo, size, made, mime, local);
  if (local != NULL)
    g_propagate_error (error, local);
  else if (thumb == NULL)
    lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, photo, _("not enough memory for its thumbnail"));
  return thumb;
}

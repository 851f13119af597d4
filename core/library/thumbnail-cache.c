/* The shared thumbnail cache (thumbnail-cache.h). */
#include "thumbnail-cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib/gi18n.h>

#include "config.h"
#include "thumbnail-png.h"
#include "../error.h"
#include "../io/file-read.h"

/* The largest thumbnail PNG read from the cache: an xx-large RGBA thumbnail stored without
 * compression is 4 MB. */
#define CACHE_FILE_MAX ((guint64) 16 << 20)

gboolean
lm_thumbnail_key_init (LmThumbnailKey *key, const char *photo, GError **error)
{
  GStatBuf st;
  if (g_stat (photo, &st) != 0)
    {
      int errsv = errno;
      lm_set_file_error (error, lm_error_code_from_errno (errsv), photo, "%s", g_strerror (errsv));
      return FALSE;
    }
  g_autoptr (GFile) file = g_file_new_for_path (photo);
  key->uri = g_file_get_uri (file);
  key->mtime = st.st_mtime;
  key->size = st.st_size;
  return TRUE;
}

void
lm_thumbnail_key_clear (LmThumbnailKey *key)
{
  g_clear_pointer (&key->uri, g_free);
}

char *
lm_thumbnail_root (void)
{
  /* Not g_get_user_cache_dir: it reads the environment once per process. */
  const char *cache = g_getenv ("XDG_CACHE_HOME");
  if (cache != NULL && g_path_is_absolute (cache))
    return g_build_filename (cache, "thumbnails", NULL);
  return g_build_filename (g_get_home_dir (), ".cache", "thumbnails", NULL);
}

int
lm_thumbnail_folder_size (int size)
{
  if (size < 1 || size > LM_THUMBNAIL_SIZE_MAX)
    return 0;
  int folder = 128;
  while (folder < size)
    folder *= 2;
  return folder;
}

const char *
lm_thumbnail_folder_name (int folder_size)
{
  switch (folder_size)
    {
    case 128: return "normal";
    case 256: return "large";
    case 512: return "x-large";
    case 1024: return "xx-large";
    default: return NULL;
    }
}

static char *
md5_name (const char *uri)
{
  g_autofree char *md5 = g_compute_checksum_for_string (G_CHECKSUM_MD5, uri, -1);
  return g_strconcat (md5, ".png", NULL);
}

char *
lm_thumbnail_cache_path (const char *uri, int folder_size)
{
  const char *folder = lm_thumbnail_folder_name (folder_size);
  g_return_val_if_fail (folder != NULL, NULL);
  g_autofree char *root = lm_thumbnail_root ();
  g_autofree char *name = md5_name (uri);
  return g_build_filename (root, folder, name, NULL);
}

char *
lm_thumbnail_fail_path (const char *uri)
{
  g_autofree char *root = lm_thumbnail_root ();
  g_autofree char *name = md5_name (uri);
  return g_build_filename (root, "fail", "lumen-" LUMEN_VERSION, name, NULL);
}

static gboolean
text_matches (GHashTable *text, const LmThumbnailKey *key)
{
  const char *uri = g_hash_table_lookup (text, "Thumb::URI");
  const char *mtime = g_hash_table_lookup (text, "Thumb::MTime");
  const char *size = g_hash_table_lookup (text, "Thumb::Size");
  if (uri == NULL || mtime == NULL || strcmp (uri, key->uri) != 0)
    return FALSE;
  /* Whole seconds, as the standard has it; a writer that adds a fraction is read up to it. */
  char *end = NULL;
  errno = 0;
  gint64 seconds = g_ascii_strtoll (mtime, &end, 10);
  if (end == mtime || errno != 0 || (*end != '\0' && *end != '.') || seconds != key->mtime)
    return FALSE;
  if (size != NULL)
    {
      errno = 0;
      gint64 bytes = g_ascii_strtoll (size, &end, 10);
      if (end == size || *end != '\0' || errno != 0 || bytes != key->size)
        return FALSE;
    }
  return TRUE;
}

static GBytes *
read_cache_file (const char *path)
{
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  return lm_file_read (path, LM_FILE_KIND_IMAGE, CACHE_FILE_MAX, NULL);
}

LmImage *
lm_thumbnail_cache_lookup (const char *path, const LmThumbnailKey *key, int folder_size)
{
  g_autoptr (GBytes) bytes = read_cache_file (path);
  if (bytes == NULL)
    return NULL;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autoptr (GHashTable) text = NULL;
  if (!lm_thumbnail_png_read_text (data, len, &text, NULL) || !text_matches (text, key))
    return NULL;
  g_autoptr (LmImage) image = NULL;
  if (!lm_thumbnail_png_read (data, len, TRUE, NULL, &image, NULL))
    return NULL;
  if (MAX (image->width, image->height) > (guint) folder_size)
    return NULL;
  return g_steal_pointer (&image);
}

static gboolean
make_folder (const char *path, GError **error)
{
  g_autofree char *folder = g_path_get_dirname (path);
  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int errsv = errno;
      lm_set_file_error (error, lm_error_code_from_errno (errsv), folder, _("cannot create the folder: %s"),
                         g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

/* IMAGE with the tEXt pairs into PATH: a temporary beside it (g_mkstemp: 0600), renamed. */
static gboolean
store (const char *path, const LmImage *image, const char *const *keys, const char *const *values, guint n,
       GError **error)
{
  if (!make_folder (path, error))
    return FALSE;
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *tmp = g_strdup_printf ("%s/.%s.lumen-tmp-XXXXXX", folder, base);
  int fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int errsv = errno;
      lm_set_file_error (error, lm_error_code_from_errno (errsv), path, "%s", g_strerror (errsv));
      return FALSE;
    }
  GError *local = NULL;
  gboolean ok = lm_thumbnail_png_write (fd, image, keys, values, n, &local);
  if (close (fd) != 0 && ok)
    {
      ok = FALSE;
      g_set_error (&local, LUMEN_ERROR, lm_error_code_from_errno (errno), "%s", g_strerror (errno));
    }
  if (ok && g_rename (tmp, path) != 0)
    {
      ok = FALSE;
      g_set_error (&local, LUMEN_ERROR, lm_error_code_from_errno (errno), "%s", g_strerror (errno));
    }
  if (!ok)
    {
      g_unlink (tmp);
      lm_set_file_error (error, local->code, path, "%s", local->message);
      g_error_free (local);
    }
  return ok;
}

gboolean
lm_thumbnail_cache_store (const char *path, const LmImage *thumb, const LmThumbnailKey *key, const char *mime,
                          GError **error)
{
  g_autofree char *mtime = g_strdup_printf ("%" G_GINT64_FORMAT, key->mtime);
  g_autofree char *size = g_strdup_printf ("%" G_GINT64_FORMAT, key->size);
  g_autofree char *width = g_strdup_printf ("%u", thumb->width);
  g_autofree char *height = g_strdup_printf ("%u", thumb->height);
  const char *keys[] = { "Thumb::URI", "Thumb::MTime", "Thumb::Size", "Software", "Thumb::Mimetype" };
  const char *values[] = { key->uri, mtime, size, "Lumen " LUMEN_VERSION, mime };
  return store (path, thumb, keys, values, mime != NULL ? 5 : 4, error);
}

#define FAIL_MESSAGE_KEY "X-Lumen::Error"

gboolean
lm_thumbnail_fail_lookup (const LmThumbnailKey *key, char **message)
{
  g_autofree char *path = lm_thumbnail_fail_path (key->uri);
  g_autoptr (GBytes) bytes = read_cache_file (path);
  if (bytes == NULL)
    return FALSE;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autoptr (GHashTable) text = NULL;
  if (!lm_thumbnail_png_read_text (data, len, &text, NULL) || !text_matches (text, key))
    return FALSE;
  const char *stored = g_hash_table_lookup (text, FAIL_MESSAGE_KEY);
  if (message != NULL)
    *message = g_strdup (stored != NULL ? stored : _("no thumbnail could be made of it before"));
  return TRUE;
}

gboolean
lm_thumbnail_fail_store (const LmThumbnailKey *key, const char *message, GError **error)
{
  g_autofree char *path = lm_thumbnail_fail_path (key->uri);
  g_autoptr (LmImage) pixel = lm_image_new (LM_FORMAT_RGBA8, 1, 1, lm_allocator_host (), error);
  if (pixel == NULL)
    return FALSE;
  memset (pixel->data, 0, 4);
  g_autofree char *mtime = g_strdup_printf ("%" G_GINT64_FORMAT, key->mtime);
  g_autofree char *size = g_strdup_printf ("%" G_GINT64_FORMAT, key->size);
  const char *keys[] = { "Thumb::URI", "Thumb::MTime", "Thumb::Size", "Software", FAIL_MESSAGE_KEY };
  const char *values[] = { key->uri, mtime, size, "Lumen " LUMEN_VERSION, message };
  return store (path, pixel, keys, values, 5, error);
}

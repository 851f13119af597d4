#include "test-util.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

LmImage *
lm_test_image_new (LmFormat format, guint width, guint height, guint8 poison)
{
  GError *error = NULL;
  LmImage *image = lm_image_new (format, width, height, lm_allocator_host (), &error);
  g_assert_no_error (error);
  memset (image->data, poison, lm_image_size_bytes (image));
  return image;
}

LmImage *
lm_test_rgba_from (guint width, guint height, const guint8 *pixels)
{
  LmImage *image = lm_test_image_new (LM_FORMAT_RGBA8, width, height, 0);
  gboolean opaque = TRUE;
  for (guint y = 0; y < height; y++)
    {
      memcpy (lm_image_row (image, y), pixels + (gsize) y * width * 4, width * 4);
      for (guint x = 0; x < width; x++)
        opaque = opaque && pixels[((gsize) y * width + x) * 4 + 3] == 255;
    }
  image->opaque = opaque;
  return image;
}

LmImage *
lm_test_gray_from (guint width, guint height, const guint8 *pixels)
{
  LmImage *image = lm_test_image_new (LM_FORMAT_GRAY8, width, height, 0);
  for (guint y = 0; y < height; y++)
    memcpy (lm_image_row (image, y), pixels + (gsize) y * width, width);
  return image;
}

const char *
lm_test_data_dir (void)
{
  const char *dir = g_getenv ("LUMEN_TEST_DATA");
  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    g_error ("test data not found: set LUMEN_TEST_DATA to the shared data folder (now: %s)",
             dir ? dir : "unset");
  return dir;
}

static char *tmp_dir;

static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  if (dir != NULL)
    {
      const char *name;
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            remove_tree (child);
          else
            g_unlink (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

static void
cleanup_tmp (void)
{
  if (tmp_dir)
    remove_tree (tmp_dir);
}

const char *
lm_test_tmp_dir (void)
{
  if (tmp_dir == NULL)
    {
      GError *error = NULL;
      tmp_dir = g_dir_make_tmp ("lumen-test-XXXXXX", &error);
      g_assert_no_error (error);
      atexit (cleanup_tmp);
    }
  return tmp_dir;
}

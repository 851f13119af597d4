#include "test-util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "core/io/io.h"

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

void
lm_test_remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  if (dir != NULL)
    {
      const char *name;
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            lm_test_remove_tree (child);
          else
            g_unlink (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

static char *tmp_dir;

static void
cleanup_tmp (void)
{
  if (tmp_dir)
    lm_test_remove_tree (tmp_dir);
}

/* A failed g_assert aborts, which skips atexit: the folder goes first, then the abort goes on
 * (the test is over; what runs here need not be async-signal-safe). */
static void
cleanup_tmp_on_abort (int sig)
{
  cleanup_tmp ();
  signal (sig, SIG_DFL);
  raise (sig);
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
      signal (SIGABRT, cleanup_tmp_on_abort);
    }
  return tmp_dir;
}

/* xorshift32: reproducible on every platform, unlike rand (). */
static guint32
next_random (guint32 *state)
{
  guint32 x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

LmImage *
lm_test_random_rgba (guint width, guint height, guint32 seed, gboolean with_alpha)
{
  LmImage *image = lm_test_image_new (LM_FORMAT_RGBA8, width, height, 0xAB);
  guint32 state = seed ? seed : 1;
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        guint8 *p = lm_test_pixel (image, x, y);
        guint32 r = next_random (&state);
        p[0] = r, p[1] = r >> 8, p[2] = r >> 16;
        p[3] = with_alpha ? (guint8) (r >> 24) : 255;
      }
  image->opaque = !with_alpha;
  return image;
}

LmImage *
lm_test_random_gray (guint width, guint height, guint32 seed)
{
  LmImage *image = lm_test_image_new (LM_FORMAT_GRAY8, width, height, 0xAB);
  guint32 state = seed ? seed : 1;
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      *lm_test_pixel (image, x, y) = (guint8) (next_random (&state) >> 11);
  return image;
}

LmImage *
lm_test_run_op (const LmOpInfo *op, const void *params, const LmImage *src)
{
  static const guint8 poisons[2] = { 0xAB, 0x54 };
  LmImage *out[2];
  LmFormat format = op->output_format (params, src->format, src->opaque);
  guint width, height; /* geometry changes the size */
  lm_op_output_size (op, params, src->width, src->height, &width, &height);
  for (int i = 0; i < 2; i++)
    {
      GError *error = NULL;
      out[i] = lm_test_image_new (format, width, height, poisons[i]);
      gboolean ok = op->run_cpu (params, src, out[i], &error);
      g_assert_no_error (error);
      g_assert_true (ok);
      out[i]->opaque = src->opaque;
    }
  /* Same bytes under two different poisons: every pixel was written. */
  lm_test_assert_same_pixels (out[0], out[1]);
  lm_image_unref (out[1]);
  return out[0];
}

LmImage *
lm_test_load_photo (const char *name)
{
  g_autofree char *path = g_build_filename (lm_test_data_dir (), "photos", name, NULL);
  g_autoptr (GError) error = NULL;
  LmImage *image = lm_io_load (path, lm_allocator_host (), &error);
  g_assert_no_error (error);
  return image;
}

LmImage *
lm_test_crop (const LmImage *src, guint x, guint y, guint width, guint height)
{
  g_assert_true (x + width <= src->width && y + height <= src->height);
  LmImage *out = lm_test_image_new (src->format, width, height, 0);
  gsize bpp = lm_format_bytes_per_pixel (src->format);
  for (guint r = 0; r < height; r++)
    memcpy (lm_image_row (out, r), lm_image_row (src, y + r) + x * bpp, width * bpp);
  out->opaque = src->opaque;
  return out;
}

LmImage *
lm_test_deepen (const LmImage *src)
{
  g_assert_true (src->format == LM_FORMAT_GRAY8 || src->format == LM_FORMAT_RGBA8);
  LmFormat format = src->format == LM_FORMAT_GRAY8 ? LM_FORMAT_GRAY16 : LM_FORMAT_RGBA16;
  LmImage *out = lm_test_image_new (format, src->width, src->height, 0);
  guint ch = lm_format_channels (src->format);
  for (guint y = 0; y < src->height; y++)
    {
      const guint8 *in = lm_image_row (src, y);
      guint16 *o = (guint16 *) lm_image_row (out, y);
      for (guint i = 0; i < src->width * ch; i++)
        o[i] = (guint16) MIN (in[i] * 257u + (i * 7 + y * 13) % 200, 65535u);
    }
  out->opaque = src->opaque;
  return out;
}

void
lm_test_set_param (LmPipeline *pipeline, const char *op, const char *name, const char *value)
{
  const LmOpInfo *info = lm_op_info_by_name (op);
  g_assert_nonnull (info);
  LmStage *stage = lm_pipeline_stage (pipeline, info->id);
  stage->enabled = TRUE;
  if (name == NULL)
    return;
  for (guint i = 0; i < info->n_params; i++)
    if (g_str_equal (info->params[i].name, name))
      {
        g_autoptr (GError) error = NULL;
        g_assert_true (lm_op_param_parse (info, &info->params[i], stage->params.bytes, value, &error));
        g_assert_no_error (error);
        return;
      }
  g_test_message ("%s has no parameter %s", op, name);
  g_test_fail ();
}

void
lm_test_assert_same_pixels (const LmImage *a, const LmImage *b)
{
  g_assert_cmpuint (a->width, ==, b->width);
  g_assert_cmpuint (a->height, ==, b->height);
  g_assert_cmpstr (lm_format_name (a->format), ==, lm_format_name (b->format));
  LM_TEST_RETURN_IF_FAILED ();
  gsize row = a->width * lm_format_bytes_per_pixel (a->format);
  for (guint y = 0; y < a->height; y++)
    if (memcmp (lm_image_row (a, y), lm_image_row (b, y), row) != 0)
      for (gsize i = 0; i < row; i++)
        if (lm_image_row (a, y)[i] != lm_image_row (b, y)[i])
          {
            g_test_message ("pixels differ at x %" G_GSIZE_FORMAT ", y %u (byte %" G_GSIZE_FORMAT
                            " of the row)",
                            i / lm_format_bytes_per_pixel (a->format), y, i);
            g_assert_cmpuint (lm_image_row (a, y)[i], ==, lm_image_row (b, y)[i]);
            return;
          }
}

char *
lm_test_write_tmp (const char *name, const void *data, gsize len)
{
  GError *error = NULL;
  char *path = g_build_filename (lm_test_tmp_dir (), name, NULL);
  g_file_set_contents (path, data, (gssize) len, &error);
  g_assert_no_error (error);
  return path;
}

gboolean
lm_test_thread_named (const char *name)
{
  g_autoptr (GDir) tasks = g_dir_open ("/proc/self/task", 0, NULL);
  g_assert_nonnull (tasks);
  for (const char *id; (id = g_dir_read_name (tasks)) != NULL;)
    {
      g_autofree char *path = g_build_filename ("/proc/self/task", id, "comm", NULL), *comm = NULL;
      if (g_file_get_contents (path, &comm, NULL, NULL) && strncmp (g_strchomp (comm), name, 15) == 0)
        return TRUE;
    }
  return FALSE;
}

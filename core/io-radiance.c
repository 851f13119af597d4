/* Radiance RGBE (.hdr) through stb_image / stb_image_write, with run-length encoded
 * scanlines on write. Radiance stores RGB; alpha is 1 on load and dropped on save. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_HDR
#define STBI_NO_STDIO
#define STBI_FAILURE_USERMSG
#define STBI_MAX_DIMENSIONS LM_IMAGE_MAX_SIDE
#include "io-private.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#pragma GCC diagnostic pop

LmImage *
lm_radiance_load (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator,
                  GError **error)
{
  if (len > G_MAXINT)
    {
      lm_set_file_error (error, LM_ERROR_TOO_LARGE, path, _("the file is larger than 2 GiB"));
      return NULL;
    }
  int w = 0, h = 0, n = 0;
  if (!stbi_info_from_memory (data, (int) len, &w, &h, &n))
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("not a readable Radiance HDR file: %s"),
                         stbi_failure_reason ());
      return NULL;
    }
  GError *e = NULL;
  if (!lm_image_layout (LM_FORMAT_RGBA_F32, w, h, NULL, NULL, &e))
    {
      lm_set_file_error (error, e->code, path, "%s", e->message);
      g_error_free (e);
      return NULL;
    }

  float *rgb = stbi_loadf_from_memory (data, (int) len, &w, &h, &n, 3);
  if (rgb == NULL)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("cannot decode Radiance HDR: %s"),
                         stbi_failure_reason ());
      return NULL;
    }

  LmImage *image = lm_image_new (LM_FORMAT_RGBA_F32, w, h, allocator, &e);
  if (image == NULL)
    {
      stbi_image_free (rgb);
      lm_set_file_error (error, e->code, path, "%s", e->message);
      g_error_free (e);
      return NULL;
    }
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    {
      float *out = (float *) lm_image_row (image, y);
      const float *in = rgb + (gsize) y * w * 3;
      for (int x = 0; x < w; x++)
        {
          out[4 * x + 0] = in[3 * x + 0];
          out[4 * x + 1] = in[3 * x + 1];
          out[4 * x + 2] = in[3 * x + 2];
          out[4 * x + 3] = 1.0f;
        }
    }
  stbi_image_free (rgb);
  return image;
}

typedef struct {
  FILE *stream;
  int errsv;
} RadianceSink;

static void
write_chunk (void *context, void *data, int size)
{
  RadianceSink *sink = context;
  if (sink->errsv == 0 && fwrite (data, 1, size, sink->stream) != (size_t) size)
    sink->errsv = errno ? errno : EIO;
}

gboolean
lm_radiance_save (const LmImage *image, LmAtomicFile *file, GError **error)
{
  const char *path = lm_atomic_file_path (file);
  gsize count;
  float *rgb = NULL;
  if (!g_size_checked_mul (&count, (gsize) image->width * image->height, 3 * sizeof (float))
      || (rgb = g_try_malloc (count)) == NULL)
    {
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to encode Radiance HDR"));
      return FALSE;
    }
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < image->height; y++)
    {
      const float *in = (const float *) lm_image_row (image, y);
      float *out = rgb + (gsize) y * image->width * 3;
      for (guint x = 0; x < image->width; x++)
        for (int c = 0; c < 3; c++)
          /* RGBE holds no sign: negatives (Mertens' fusion dips below 0 at strong edges)
           * and NaN would wrap into bright pixels. */
          out[3 * x + c] = in[4 * x + c] > 0.0f ? in[4 * x + c] : 0.0f;
    }

  RadianceSink sink = { lm_atomic_file_stream (file), 0 };
  int ok = stbi_write_hdr_to_func (write_chunk, &sink, image->width, image->height, 3, rgb);
  g_free (rgb);
  if (sink.errsv != 0)
    {
      lm_set_write_error (error, path, sink.errsv);
      return FALSE;
    }
  if (!ok)
    {
      lm_set_file_error (error, LM_ERROR_IO, path, _("cannot encode Radiance HDR"));
      return FALSE;
    }
  return TRUE;
}

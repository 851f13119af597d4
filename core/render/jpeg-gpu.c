#include "jpeg-gpu.h"

#include <errno.h>
#include <stdio.h>
#include <glib/gi18n.h>

#include "../backend/nvjpeg-encoder.h"
#include "../backend/nvjpeg-library.h"
#include "../error.h"
#include "../io/atomic-file.h"
#include "../io/jpeg-markers.h"
#include "config.h"

/* libjpeg's JPEG_MAX_DIMENSION: the CPU's writer says so in its own words when asked. */
#define JPEG_MAX_SIDE 65500u

/* Why nvJPEG is not to encode IMAGE, for people; NULL when it may. */
static const char *
refusal (LmBackend *backend, const LmImage *image, const LmSaveOptions *options)
{
  if (image->allocator->memory != LM_MEMORY_DEVICE)
    return lm_backend_cuda_device (backend) < 0 ? _("the photo was rendered on the CPU")
                                                 : _("the photo was rendered in tiles, too large for the GPU's memory "
                                                     "in one piece");
  if (image->width > JPEG_MAX_SIDE || image->height > JPEG_MAX_SIDE)
    return _("JPEG holds at most 65500 pixels a side");
  if (lm_format_channels (image->format) == 1)
    return _("nvJPEG encodes colour images here, and this result is grayscale");
  /* A 16-bit result (a raw's) is rounded to JPEG's 8 bits on the device, as the CPU rounds it. */
  if (image->format != LM_FORMAT_RGBA8 && image->format != LM_FORMAT_RGBA16)
    return _("nvJPEG encodes 8- and 16-bit colour results, and this one is neither");
  if (options->to_srgb)
    return _("the conversion to sRGB runs on the CPU");
  return NULL;
}

GBytes *
lm_jpeg_gpu_encode (LmBackend *backend, const LmImage *image, const LmSaveOptions *options, GError **error)
{
  const char *why = refusal (backend, image, options);
  if (why)
    {
      g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, why);
      return NULL;
    }
  /* The render ran on the backend's stream; the encoder reads on its own. */
  if (!lm_backend_synchronize (backend, error))
    return NULL;
  LmNvjpegEncoder *encoder = lm_nvjpeg_encoder_new (lm_backend_cuda_device (backend), options->quality, error);
  if (encoder == NULL)
    return NULL;
  GBytes *jpeg = lm_nvjpeg_encode (encoder, image, error);
  lm_nvjpeg_encoder_free (encoder);
  if (jpeg)
    lm_jpeg_note_left_out (image, options->notes);
  return jpeg;
}

gboolean
lm_jpeg_gpu_write (GBytes *jpeg, const char *path, GError **error)
{
  LmAtomicFile *file = lm_atomic_file_open (path, error);
  if (file == NULL)
    return FALSE;
  gsize len;
  const void *data = g_bytes_get_data (jpeg, &len);
  if (fwrite (data, 1, len, lm_atomic_file_stream (file)) != len)
    {
      int errsv = errno;
      GError *write_error = NULL;
      lm_set_write_error (&write_error, path, errsv);
      lm_atomic_file_take_error (file, write_error);
    }
  return lm_atomic_file_commit (file, error);
}

char *
lm_jpeg_gpu_note (const GError *why)
{
  return g_strdup_printf (_("not encoded with nvJPEG (%s); the CPU's JPEG encoder wrote it instead"), why->message);
}

void
lm_jpeg_gpu_prepare (LmBackend *backend)
{
#if LUMEN_HAVE_CUDA
  int device = lm_backend_cuda_device (backend);
  if (device >= 0 && lm_nvjpeg_library (NULL) != NULL)
    lm_nvjpeg_encode_handle (device, NULL);
#endif
}

gboolean
lm_jpeg_gpu_available (GError **error)
{
#if LUMEN_HAVE_CUDA
  return lm_nvjpeg_library (error) != NULL;
#else
  g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("nvJPEG unavailable: this build of Lumen has no CUDA support"));
  return FALSE;
#endif
}

#include "nvjpeg-encoder.h"

#include <glib/gi18n.h>

#include "../error.h"
#include "config.h"

#if LUMEN_HAVE_CUDA

#include "cuda-error.h"
#include "cuda-image.h"
#include "../io/exif.h"
#include "../io/jpeg-markers.h"
#include "kernels/kernels.h"
#include "nvjpeg-library.h"

struct _LmNvjpegEncoder {
  int device;
  const LmNvjpegLibrary *lib;
  LmNvHandle handle;
  LmNvEncState state;
  LmNvEncParams params;
  cudaStream_t stream;
  guint8 *rgb; /* device: the image as nvJPEG reads it */
  gsize rgb_size;
  char *description;
};

LmNvjpegEncoder *
lm_nvjpeg_encoder_new (int device, int quality, GError **error)
{
  const LmNvjpegLibrary *lib = lm_nvjpeg_library (error);
  if (lib == NULL)
    return NULL;
  LmNvjpegEncoder *enc = g_new0 (LmNvjpegEncoder, 1);
  enc->device = device;
  enc->lib = lib;
  GError *e = NULL;
  gboolean ok = LM_CUDA_CHECK (cudaSetDevice (device), &e)
                && LM_CUDA_CHECK (cudaStreamCreateWithFlags (&enc->stream, cudaStreamNonBlocking), &e)
                && (enc->handle = lm_nvjpeg_encode_handle (device, &e)) != NULL
                && LM_NVJPEG_CHECK (lib->enc_state_create (enc->handle, &enc->state, enc->stream), &e)
                && LM_NVJPEG_CHECK (lib->enc_params_create (enc->handle, &enc->params, enc->stream), &e)
                && LM_NVJPEG_CHECK (lib->enc_set_quality (enc->params, CLAMP (quality, 1, 100), enc->stream), &e)
                && LM_NVJPEG_CHECK (lib->enc_set_optimized_huffman (enc->params, 1, enc->stream), &e)
                /* At high quality, halving the chroma resolution costs more than it saves. */
                && LM_NVJPEG_CHECK (lib->enc_set_sampling (enc->params, quality >= 90 ? LM_NV_CSS_444 : LM_NV_CSS_420,
                                                           enc->stream),
                                    &e);
  if (!ok)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("nvJPEG unavailable: %s"), e->message);
      g_error_free (e);
      lm_nvjpeg_encoder_free (enc);
      return NULL;
    }
  enc->description = g_strdup_printf (_("nvJPEG %s on GPU %d"), lib->version, device);
  return enc;
}

void
lm_nvjpeg_encoder_free (LmNvjpegEncoder *enc)
{
  if (enc == NULL)
    return;
  LM_CUDA_RELEASE (cudaSetDevice (enc->device));
  if (enc->stream)
    LM_CUDA_RELEASE (cudaStreamSynchronize (enc->stream));
  if (enc->rgb)
    lm_cuda_free (enc->rgb);
  if (enc->params)
    enc->lib->enc_params_destroy (enc->params);
  if (enc->state)
    enc->lib->enc_state_destroy (enc->state);
  if (enc->stream)
    LM_CUDA_RELEASE (cudaStreamDestroy (enc->stream));
  g_free (enc->description);
  g_free (enc);
}

const char *
lm_nvjpeg_encoder_description (LmNvjpegEncoder *enc)
{
  return enc->description;
}

GBytes *
lm_nvjpeg_encode (LmNvjpegEncoder *enc, const LmImage *image, GError **error)
{
  g_return_val_if_fail ((image->format == LM_FORMAT_RGBA8 || image->format == LM_FORMAT_RGBA16)
                          && image->allocator->memory == LM_MEMORY_DEVICE,
                        NULL);
  const LmNvjpegLibrary *lib = enc->lib;
  gsize pitch = (gsize) image->width * 3, need = pitch * image->height;
  if (!LM_CUDA_CHECK (cudaSetDevice (enc->device), error))
    return NULL;
  if (!lm_cuda_grow_buffer ((void **) &enc->rgb, &enc->rgb_size, need, error))
    return NULL;
  LmKImage in = lm_cuda_kimage (image);
  LmNvImage source = { { enc->rgb }, { pitch } };
  size_t len = 0;
  if (!LM_CUDA_CHECK (lm_k_rgba8_to_rgb (&in, enc->rgb, pitch, enc->stream), error)
      || !LM_NVJPEG_CHECK (lib->encode_image (enc->handle, enc->state, enc->params, &source, LM_NV_INPUT_RGBI,
                                              (int) image->width, (int) image->height, enc->stream),
                           error)
      || !LM_NVJPEG_CHECK (lib->retrieve_bitstream (enc->handle, enc->state, NULL, &len, enc->stream), error)
      || !LM_CUDA_CHECK (cudaStreamSynchronize (enc->stream), error))
    return NULL;
  g_autofree guint8 *jpeg = g_malloc (MAX (len, 1));
  if (!LM_NVJPEG_CHECK (lib->retrieve_bitstream (enc->handle, enc->state, jpeg, &len, enc->stream), error)
      || !LM_CUDA_CHECK (cudaStreamSynchronize (enc->stream), error))
    return NULL;
  /* As the CPU writer: the first exposure's EXIF (made upright and resized), profile, XMP
   * and IPTC. */
  return lm_jpeg_insert_image_metadata (jpeg, len, image);
}

#else /* !LUMEN_HAVE_CUDA */

LmNvjpegEncoder *
lm_nvjpeg_encoder_new (int device, int quality, GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE,
               _("nvJPEG unavailable: this build of Lumen has no CUDA support"));
  return NULL;
}

void
lm_nvjpeg_encoder_free (LmNvjpegEncoder *encoder)
{
}

const char *
lm_nvjpeg_encoder_description (LmNvjpegEncoder *encoder)
{
  return NULL;
}

GBytes *
lm_nvjpeg_encode (LmNvjpegEncoder *encoder, const LmImage *image, GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE,
               _("nvJPEG unavailable: this build of Lumen has no CUDA support"));
  return NULL;
}

#endif

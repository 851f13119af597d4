/* JPEG encoding on the GPU through nvJPEG (nvjpeg-library.h), for a batch whose tone-mapped
 * results are on the device: the encoder reads them there, and only the compressed file
 * comes back. Quality and chroma sampling (4:4:4 from quality 90) are the CPU writer's
 * choices; its Huffman tables are optimised, which the CPU writer leaves out for speed; the DCT
 * and its rounding are nvJPEG's, so files differ from libjpeg-turbo's by a level here and there. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

typedef struct _LmNvjpegEncoder LmNvjpegEncoder;

/* An encoder for one thread on DEVICE at QUALITY (1–100). NULL with the reason
 * (LM_ERROR_NO_DEVICE) when nvJPEG cannot be loaded or started. */
LmNvjpegEncoder *lm_nvjpeg_encoder_new (int device, int quality, GError **error);
void lm_nvjpeg_encoder_free (LmNvjpegEncoder *encoder);

/* "nvJPEG 13.0.1 on GPU 0". */
const char *lm_nvjpeg_encoder_description (LmNvjpegEncoder *encoder);

/* IMAGE (RGBA8, or RGBA16 rounded to 8 bits as the CPU's writer rounds it; device memory on
 * the encoder's device) as a JPEG file's bytes, with the EXIF (as exported: upright, new
 * size) and ICC profile that IMAGE carries; NULL with the reason. */
GBytes *lm_nvjpeg_encode (LmNvjpegEncoder *encoder, const LmImage *image, GError **error);

G_END_DECLS

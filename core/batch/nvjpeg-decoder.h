/* JPEG decoding on the GPU through nvJPEG, loaded at run time (libnvjpeg.so.13): the
 * build needs neither the library nor its header, and machines without it decode with
 * libjpeg-turbo. nvJPEG's IDCT and chroma upsampling are not libjpeg's ISLOW: pixels may
 * differ by a few levels, so outputs are not byte-equal to `lumen-cli hdr`'s. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

typedef struct _LmNvjpeg LmNvjpeg;

/* A decoder for one thread on DEVICE: its own decoding state, stream and buffers; the
 * library and its per-device handle are shared. NULL with the reason (LM_ERROR_NO_DEVICE)
 * when the library cannot be loaded or started. */
LmNvjpeg *lm_nvjpeg_new (int device, GError **error);
void lm_nvjpeg_free (LmNvjpeg *decoder);

/* "nvJPEG 13.0.1, hardware decoder" or "…, CUDA (hybrid)": which engine decodes. */
const char *lm_nvjpeg_description (LmNvjpeg *decoder);

/* Decodes, as one batch, those of the N files (DATA[i], LENS[i]) that nvJPEG takes: colour
 * baseline or progressive JPEGs in YCbCr. IMAGES[i] receives an RGBA8 image from ALLOCATOR,
 * upright by its EXIF orientation, with its ICC profile and EXIF, as lm_io_load gives;
 * it stays NULL for any other file (gray, CMYK, not a JPEG, a layout the decoder does not
 * take, damaged data), which the caller decodes on the CPU, where a damaged file gets
 * its message. FALSE only when the device failed. */
gboolean lm_nvjpeg_decode (LmNvjpeg *decoder, guint n, const guint8 *const *data, const gsize *lens,
                           const LmAllocator *allocator, LmImage **images, GError **error);

G_END_DECLS

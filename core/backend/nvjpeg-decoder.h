/* JPEG decoding on the GPU through nvJPEG (nvjpeg-library.h: loaded at run time; machines
 * without it decode with libjpeg-turbo). nvJPEG's IDCT and chroma upsampling are not libjpeg's ISLOW: pixels may
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

/* The same, for a stack that stays on the GPU: when nvJPEG takes every one of the N files
 * and none needs turning upright, IMAGES receives them in device memory from ALLOCATOR (a
 * backend's work memory on the decoder's device), with their EXIF and ICC profile, and
 * *ALL is TRUE. Otherwise *ALL is FALSE and IMAGES stay NULL: the caller decodes into host
 * memory instead. FALSE only when the device failed. */
gboolean lm_nvjpeg_decode_to_device (LmNvjpeg *decoder, guint n, const guint8 *const *data, const gsize *lens,
                                     const LmAllocator *allocator, LmImage **images, gboolean *all,
                                     GError **error);

/* For files that are not a stack (thumbnails): each of the N files nvJPEG takes into device
 * memory from ALLOCATOR, with its EXIF, ICC profile and XMP but not turned upright (the
 * caller turns what it makes of it); IMAGES[i] stays NULL for the others, and for all of them
 * when nvJPEG refused the batch's data. FALSE only when the device failed. */
gboolean lm_nvjpeg_decode_some_to_device (LmNvjpeg *decoder, guint n, const guint8 *const *data, const gsize *lens,
                                          const LmAllocator *allocator, LmImage **images, GError **error);

/* PIXELS[j·N_POINTS + i] := the RGBA8 word of IMAGES[j] (N images in device memory on the
 * decoder's device) at (XY[2i], XY[2i+1]): what a response calibration samples, without
 * bringing the images back. */
gboolean lm_nvjpeg_sample (LmNvjpeg *decoder, guint n, LmImage *const *images, const guint *xy, guint n_points,
                           guint32 *pixels, GError **error);

/* The CUDA device the decoder works on (-1 without CUDA). */
int lm_nvjpeg_device (LmNvjpeg *decoder);

G_END_DECLS

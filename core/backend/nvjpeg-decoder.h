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

/* The most files one call decodes: a batch of the hardware decoder. */
#define LM_NVJPEG_BATCH_MAX 64

/* The same, for stacks that stay on the GPU, several in one batch of the decoder: the
 * hardware decoder's rate grows with its batch (on an H200, four threads decoded 417 files a
 * second three at a time, 702 twelve at a time). DATA and LENS hold the N_STACKS stacks'
 * files in turn, stack s COUNTS[s] of them (LM_NVJPEG_BATCH_MAX in all at most), and IMAGES
 * the same places. Where nvJPEG takes every file of stack s and none needs turning upright,
 * its IMAGES receive them in device memory from ALLOCATOR (a backend's work memory on the
 * decoder's device), with their EXIF and ICC profile, and ALL[s] is TRUE. Otherwise ALL[s]
 * is FALSE and its IMAGES stay NULL: the caller decodes that stack into host memory instead.
 * FALSE only when the device failed. */
gboolean lm_nvjpeg_decode_to_device (LmNvjpeg *decoder, guint n_stacks, const guint *counts, const guint8 *const *data,
                                     const gsize *lens, const LmAllocator *allocator, LmImage **images, gboolean *all,
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

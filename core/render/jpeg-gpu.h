/* JPEG export through nvJPEG (core/backend/nvjpeg-encoder.h), asked for by lumen-cli
 * --jpeg-encoder nvjpeg and the export dialog's "Encode JPEG on the GPU": a render whose result
 * is on the GPU is encoded there, and only the compressed file comes back instead of the
 * pixels. It is opt-in because nvJPEG's DCT rounds otherwise than libjpeg-turbo's: the decoded
 * pixels differ from the CPU writer's by a few levels (docs/files.md); the metadata segments
 * are the CPU writer's own (jpeg-markers.c). Whatever nvJPEG cannot take (a result in host
 * memory: rendered on the CPU or in tiles; 16 bits; grayscale; a conversion to sRGB) or fails
 * on is written by the CPU's encoder instead, with a note: never a failed export. */
#pragma once

#include <glib.h>

#include "../backend/backend.h"
#include "../io/io.h"

G_BEGIN_DECLS

/* IMAGE (a render's result on BACKEND, with the photo's metadata set on it) as a JPEG file's
 * bytes, encoded by nvJPEG on BACKEND's device at OPTIONS' quality. NULL with why not:
 * LM_ERROR_UNSUPPORTED where the image is not nvJPEG's to encode (in host memory, 16 bits,
 * gray, a conversion to sRGB asked), LM_ERROR_NO_DEVICE without nvJPEG, the device's error
 * otherwise. The caller then writes IMAGE with the CPU's encoder (lm_io_save). */
GBytes *lm_jpeg_gpu_encode (LmBackend *backend, const LmImage *image, const LmSaveOptions *options,
                            GError **error);

/* JPEG written to PATH atomically (core/io/atomic-file.h). */
gboolean lm_jpeg_gpu_write (GBytes *jpeg, const char *path, GError **error);

/* "not encoded with nvJPEG (WHY); the CPU's JPEG encoder wrote it instead", for people, after
 * the file's name. */
char *lm_jpeg_gpu_note (const GError *why);

/* nvJPEG loaded and its encoder made for BACKEND's device ahead of the first encode (a few
 * hundred milliseconds, once a process), so that a caller can do it beside other work;
 * nothing where it cannot be: the encode then says why. */
void lm_jpeg_gpu_prepare (LmBackend *backend);

/* Whether nvJPEG can be loaded here; ERROR says why not (a build without CUDA, no
 * libnvjpeg.so). Not whether a GPU is usable: the backend says that. */
gboolean lm_jpeg_gpu_available (GError **error);

G_END_DECLS

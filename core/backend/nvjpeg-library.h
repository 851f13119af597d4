/* nvJPEG, loaded at run time (libnvjpeg.so.13): the build needs neither the library nor its
 * header, and machines without it decode and encode on the CPU. Shared by the batch's GPU
 * decoder and encoder. */
#pragma once

#include <glib.h>

#include "config.h"

#if LUMEN_HAVE_CUDA

#include <cuda_runtime.h>

G_BEGIN_DECLS

/* The few declarations of nvjpeg.h the batch uses (the documented API of nvJPEG 11 to 13). */
typedef int LmNvStatus; /* nvjpegStatus_t: 0 is NVJPEG_STATUS_SUCCESS */
typedef void *LmNvHandle, *LmNvState, *LmNvStream, *LmNvEncState, *LmNvEncParams;
typedef struct {
  unsigned char *channel[4];
  size_t pitch[4];
} LmNvImage; /* nvjpegImage_t */

enum {
  LM_NV_BACKEND_DEFAULT = 0,
  LM_NV_BACKEND_HARDWARE = 3, /* the JPEG engine of A100, H100 and later */
  LM_NV_OUTPUT_RGBI = 5,      /* interleaved RGB in channel[0] */
  LM_NV_INPUT_RGBI = 5,
  LM_NV_CSS_444 = 0,
  LM_NV_CSS_420 = 2,
};

typedef struct {
  const char *version;
  LmNvStatus (*create_ex) (int backend, void *dev_allocator, void *pinned_allocator, unsigned flags,
                           LmNvHandle *handle);
  LmNvStatus (*state_create) (LmNvHandle handle, LmNvState *state);
  LmNvStatus (*state_destroy) (LmNvState state);
  LmNvStatus (*stream_create) (LmNvHandle handle, LmNvStream *stream);
  LmNvStatus (*stream_destroy) (LmNvStream stream);
  LmNvStatus (*parse_header) (LmNvHandle handle, const unsigned char *data, size_t len, LmNvStream stream);
  LmNvStatus (*batched_supported) (LmNvHandle handle, LmNvStream stream, int *is_supported);
  LmNvStatus (*batched_initialize) (LmNvHandle handle, LmNvState state, int batch_size, int max_cpu_threads,
                                    int output_format);
  LmNvStatus (*decode_batched) (LmNvHandle handle, LmNvState state, const unsigned char *const *data,
                                const size_t *lengths, LmNvImage *destinations, cudaStream_t stream);
  LmNvStatus (*enc_state_create) (LmNvHandle handle, LmNvEncState *state, cudaStream_t stream);
  LmNvStatus (*enc_state_destroy) (LmNvEncState state);
  LmNvStatus (*enc_params_create) (LmNvHandle handle, LmNvEncParams *params, cudaStream_t stream);
  LmNvStatus (*enc_params_destroy) (LmNvEncParams params);
  LmNvStatus (*enc_set_quality) (LmNvEncParams params, int quality, cudaStream_t stream);
  LmNvStatus (*enc_set_optimized_huffman) (LmNvEncParams params, int optimized, cudaStream_t stream);
  LmNvStatus (*enc_set_sampling) (LmNvEncParams params, int subsampling, cudaStream_t stream);
  LmNvStatus (*encode_image) (LmNvHandle handle, LmNvEncState state, LmNvEncParams params,
                              const LmNvImage *source, int input_format, int width, int height,
                              cudaStream_t stream);
  LmNvStatus (*retrieve_bitstream) (LmNvHandle handle, LmNvEncState state, unsigned char *data, size_t *length,
                                    cudaStream_t stream);
} LmNvjpegLibrary;

/* The library, loaded once; NULL with the reason (LM_ERROR_NO_DEVICE) when it is missing or
 * lacks a function. */
const LmNvjpegLibrary *lm_nvjpeg_library (GError **error);

/* A handle on DEVICE, made once and shared by the threads (nvJPEG's handles are
 * thread-safe; states are not), never destroyed: the process ends with the batch. The
 * decoder's prefers the hardware engine (*HARDWARE says if it got it); the encoder's is
 * nvJPEG's CUDA codec. NULL with the reason. */
LmNvHandle lm_nvjpeg_decode_handle (int device, gboolean *hardware, GError **error);
LmNvHandle lm_nvjpeg_encode_handle (int device, GError **error);

/* TRUE for NVJPEG_STATUS_SUCCESS; otherwise ERROR (LM_ERROR_NO_DEVICE) names WHAT. */
gboolean lm_nvjpeg_check (LmNvStatus status, const char *what, GError **error);
#define LM_NVJPEG_CHECK(call, error) lm_nvjpeg_check ((call), #call, (error))

G_END_DECLS

#endif

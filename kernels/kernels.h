/* The CUDA kernels' C entry points. Plain structs, device pointers and a stream in,
 * cudaError_t out; no GLib on this side of the boundary. Each entry point enqueues its work
 * on STREAM and returns without waiting. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#include "core/ops/compare-math.h"
#include "core/ops/equalize-math.h"
#include "core/ops/mask-math.h"
#include "core/ops/point-math.h"
#include "core/hdr/merge-math.h"
#include "core/hdr/tonemap-math.h"
#include "core/ops/view-math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Formats, as in core/image.h. */
enum { LM_K_GRAY8 = 0, LM_K_RGBA8 = 1, LM_K_RGBA_F32 = 2, LM_K_RGBE8 = 3, LM_K_RGBA16 = 4, LM_K_GRAY16 = 5,
       LM_K_GRAY_F32 = 6, LM_K_CFA16 = 7 };

typedef struct {
  void *data; /* device memory; rows start on 64-byte boundaries */
  unsigned width, height;
  size_t stride; /* bytes */
  int format;
  int opaque; /* every alpha is 255 */
} LmKImage;

/* The bytes of one pixel of FORMAT (as lm_format_bytes_per_pixel). */
static inline size_t
lm_k_bytes_per_pixel (int format)
{
  switch (format)
    {
    case LM_K_GRAY8: return 1;
    case LM_K_GRAY16:
    case LM_K_CFA16: return 2;
    case LM_K_RGBA16: return 8;
    case LM_K_RGBA_F32: return 16;
    default: return 4; /* RGBA8, RGBE8, GRAY_F32 */
    }
}

/* An operation's scratch (LmKOp): device memory of at least the bytes its workspace rule
 * asks for, lent to its launch alone. Operations run one after another on the backend's
 * stream, so one buffer, grown to the largest need, serves them in turn. */
typedef struct {
  void *data;
  size_t size; /* bytes */
} LmKScratch;

/* Fails with cudaErrorNoKernelImageForDevice when no kernel in this build runs on the current
 * device (its architecture was not compiled in). */
cudaError_t lm_k_probe (void);

/* WANT: bit 0 counts R, G and B; bit 1 counts luma (as LmHistWant). BINS is zeroed first. */
cudaError_t lm_k_histogram (const LmKImage *src, int want, uint32_t *bins, cudaStream_t stream);
/* 16-bit equalize's counts (RGBA16 or GRAY16 SRC): BINS holds 4 × LM_HIST16_BINS (R, G, B,
 * 16-bit luma; a gray image's values in the luma bins), zeroed first. */
cudaError_t lm_k_histogram16 (const LmKImage *src, int want, uint32_t *bins, cudaStream_t stream);

/* An operation's CUDA side, beside its kernel (kernels/<name>.cu, or core/ops/<name>-cuda.c):
 * lm_k_<name>_op for every line of core/ops/op-list.h. PARAMS is the operation's
 * Lm<Name>Params. Its launch sees its input, its output and its own scratch, nothing else of
 * the backend's. */
typedef struct {
  /* Bytes of scratch that PARAMS need on SRC; NULL: none. */
  size_t (*workspace) (const void *params, const LmKImage *src);
  /* The most that any parameters can need on an image of SRC's size and either 8-bit format,
   * reserved at the operation's first run on an image so that later edits allocate nothing
   * (where the device cannot spare it, the run takes what its parameters need); NULL: what
   * the parameters need. */
  size_t (*workspace_max) (const LmKImage *src);
  /* Enqueues the operation from SRC into DST (its output format and size). */
  cudaError_t (*launch) (const void *params, const LmKImage *src, const LmKImage *dst,
                         const LmKScratch *scratch, cudaStream_t stream);
} LmKOp;

/* Point operations have none: they run in the fused pass (lm_k_point). */
#define LM_K_OP_DECL_GEOMETRY(name) extern const LmKOp lm_k_##name##_op;
#define LM_K_OP_DECL_POINT(name)
#define LM_K_OP_DECL_POINT_COLOR(name)
#define LM_K_OP_DECL_PIXEL(name) extern const LmKOp lm_k_##name##_op;
#define LM_K_OP_DECL_GLOBAL(name) extern const LmKOp lm_k_##name##_op;
#define LM_K_OP_DECL_AREA(name) extern const LmKOp lm_k_##name##_op;
#define LM_K_OP_DECL_EXPORT(name) extern const LmKOp lm_k_##name##_op;
#define LM_OP(ID, name, Name, KIND) LM_K_OP_DECL_##KIND (name)
#include "core/ops/op-list.h"
#undef LM_OP

/* The fused point pass (core/ops/point-math.h) from SRC (RGBA8 or GRAY8) into DST (of SRC's
 * format, same size). Of the host's LmPointPass the kernels are given what they read, by
 * value at launch (host memory, not kept): RGBA8 its TABLE (R, G, B) and pixel parts PX
 * (lm_point_pass_pixels), GRAY8 its GRAY table; what SRC's format does not read may be NULL. */
cudaError_t lm_k_point (const float (*table)[256], const float *gray, const LmPointPixels *px,
                        const LmKImage *src, const LmKImage *dst, cudaStream_t stream);

/* The pass from SRC (RGBA16 or GRAY16) into DST (of SRC's format, same size), with TABLE16
 * (device memory: lm_point_table16 of the pass for SRC's format, 3 or 1 × LM_POINT_TABLE16_SIZE
 * floats) and, for RGBA16, the pixel parts PX (read at launch; GRAY16 has none: NULL). */
cudaError_t lm_k_point16 (const float *table16, const LmPointPixels *px, const LmKImage *src,
                          const LmKImage *dst, cudaStream_t stream);

/* SRC (RGBA_F32) into DST (RGBA_F32, same size; may be SRC) with R, G, B times GAIN (read at
 * launch): core/ops/scene-gain-math.h. */
cudaError_t lm_k_scene_gain (const float gain[3], const LmKImage *src, const LmKImage *dst, cudaStream_t stream);

/* Masks (mask.cu), as core/ops/mask.c. MASK's data in device memory; planes GRAY_F32. The drawn
 * plane of the pixels at (X0, Y0) of MASK's frame into DRAWN; the final mask from DRAWN and the
 * instance's INPUT (RGBA8, RGBA16, RGBA_F32, GRAY8 or GRAY16) into OUT, with SCRATCH (device
 * memory, lm_k_mask_scratch_size bytes of OUT's size; NULL without a feather); IN moved towards
 * the operation's result OP by MASK into OUT (of IN's format; may be IN or OP). */
cudaError_t lm_k_mask_drawn (const LmMaskRender *mask, unsigned x0, unsigned y0, const LmKImage *drawn,
                             cudaStream_t stream);
size_t lm_k_mask_scratch_size (unsigned width, unsigned height);
cudaError_t lm_k_mask_final (const LmMaskRender *mask, unsigned x0, unsigned y0, const LmKImage *input,
                             const LmKImage *drawn, const LmKImage *out, void *scratch, cudaStream_t stream);
cudaError_t lm_k_blend_mask (const LmKImage *in, const LmKImage *op, const LmKImage *mask, const LmKImage *out,
                             cudaStream_t stream);

/* SUMS (device memory) is zeroed first; HEAT (RGBA8, same size) may be NULL. */
cudaError_t lm_k_diff (const LmKImage *a, const LmKImage *b, float gain, const LmKImage *heat,
                       LmDiffSums *sums, cudaStream_t stream);

/* The view (core/ops/view-math.h) of SRC (device memory) through LUT (its table in device
 * memory; NULL: none). OUT: RECT's output size, RGB24 words in LM_K_RGBA8 storage. */
cudaError_t lm_k_view (const LmViewSource *src, const LmViewRect *rect, const LmLut3d *lut,
                       const LmKImage *out, cudaStream_t stream);
/* The "as seen" histogram of SRC through LUT (as lm_k_view's) into BINS (device memory,
 * 4 × 256: R, G, B, luma; zeroed first). */
cudaError_t lm_k_view_histogram (const LmViewSource *src, const LmLut3d *lut, uint32_t *bins,
                                 cudaStream_t stream);

/* HDR (hdr-merge.cu, tonemap.cu). A stack of exposures in device memory, all of one shape
 * (RGBA8 or GRAY8; RGBA16 or GRAY16 for the linear merge), and what the merge needs of each. Passed to the kernels by value, as
 * launch parameters: merging a stack copies nothing to the device but its pixels' pointers. */
#define LM_K_HDR_MAX_EXPOSURES 64

typedef struct {
  const void *images[LM_K_HDR_MAX_EXPOSURES];
  float time[LM_K_HDR_MAX_EXPOSURES]; /* Debevec: lm_hdr_log_time (t); Robertson: (float) t; linear:
                                       * lm_hdr_linear_scale (t); else unused */
  unsigned n, width, height;
  size_t stride;
  int format;
} LmKStack;

/* What the HDR kernels pass from one kernel to the next (the merges, the gamma correction
 * after a merge or a fusion, tone mapping): per-row partial sums and what their reductions
 * leave. Device memory, of the backend's HDR side (core/backend/cuda-hdr.c) alone. */
typedef struct {
  void *rows;  /* lm_k_hdr_rows_size (height) bytes */
  void *state; /* lm_k_hdr_state_size () bytes */
} LmKHdrScratch;

size_t lm_k_hdr_rows_size (unsigned height);
size_t lm_k_hdr_state_size (void);

/* Debevec's merge of STACK into OUT (RGBA_F32) with LOG_RESPONSE (lm_debevec_log_table, host
 * memory, read at launch), then the normalised gamma correction when GAMMA_CORRECTION > 0. */
cudaError_t lm_k_hdr_debevec (const LmKStack *stack, const float *log_response, float gamma_correction,
                              const LmKImage *out, const LmKHdrScratch *scratch, cudaStream_t stream);
/* Robertson's: RESPONSE_AND_WEIGHTS holds f⁻¹ (3 × 256, R, G, B) then lm_robertson_weight of
 * each level (256), host memory read at launch. */
cudaError_t lm_k_hdr_robertson (const LmKStack *stack, const float *response_and_weights,
                                float gamma_correction, const LmKImage *out, const LmKHdrScratch *scratch,
                                cudaStream_t stream);

/* The linear merge of 16-bit exposures (core/hdr/merge-math.h), then the normalised gamma
 * correction when GAMMA_CORRECTION > 0. */
cudaError_t lm_k_hdr_linear (const LmKStack *stack, float gamma_correction, const LmKImage *out,
                             const LmKHdrScratch *scratch, cudaStream_t stream);

/* Mertens' exposure fusion (mertens.cu), as core/hdr/mertens.c: the exponents of contrast,
 * saturation and well-exposedness (LmMertensParams), and the pyramids' level count, which
 * the host computes as the CPU reference does. */
#define LM_K_MERTENS_MAX_LEVELS 32

typedef struct {
  float contrast, saturation, exposedness;
} LmKMertens;

size_t lm_k_mertens_workspace_size (unsigned width, unsigned height, int levels);
/* STACK (RGBA8 or GRAY8) fused into OUT (RGBA_F32, alpha 1), then the normalised gamma
 * correction when GAMMA_CORRECTION > 0, with PYRAMIDS (device memory, the weights' sum and
 * the pyramids: lm_k_mertens_workspace_size bytes) and SCRATCH (rows for the height). */
cudaError_t lm_k_mertens (const LmKStack *stack, const LmKMertens *params, int levels, float gamma_correction,
                          const LmKImage *out, void *pyramids, const LmKHdrScratch *scratch,
                          cudaStream_t stream);

/* Median threshold bitmap alignment (align.cu), as core/hdr/align.c: LEVELS pyramid levels
 * (the CPU's maxlevel + 1, at least 1), every exposure against exposure PIVOT, in WORKSPACE
 * (device memory: its histograms, bitmaps and counts, lm_k_mtb_workspace_size bytes). SHIFTS
 * (host memory, pinned, 2 × n ints: x, y of each exposure) is written when the stream gets
 * there. */
#define LM_K_MTB_MAX_LEVELS 16

size_t lm_k_mtb_workspace_size (const LmKStack *stack, int levels);
cudaError_t lm_k_mtb (const LmKStack *stack, int levels, int exclude_range, unsigned pivot, void *workspace,
                      int *shifts, cudaStream_t stream);

/* Tone mapping operators, as LmTonemapKind, and their parameters, as LmTonemapParams. */
enum { LM_K_TONEMAP_NONE, LM_K_TONEMAP_GAMMA, LM_K_TONEMAP_REINHARD, LM_K_TONEMAP_DRAGO, LM_K_TONEMAP_SIGMOID };

typedef struct {
  int kind;
  float gamma, intensity, light_adapt, color_adapt, saturation, bias;
  float exposure, contrast, hue_preservation;
} LmKTonemap;

/* RADIANCE (RGBA_F32) to OUT (RGBA8, alpha 255; or RGBA16, alpha 65535). */
cudaError_t lm_k_tonemap (const LmKTonemap *params, const LmKImage *radiance, const LmKImage *out,
                          const LmKHdrScratch *scratch, cudaStream_t stream);

/* RADIANCE (RGBA_F32) to OUT (RGBE8, same size): core/ops/rgbe-math.h on every pixel (rgbe.cu). */
cudaError_t lm_k_rgbe_encode (const LmKImage *radiance, const LmKImage *out, cudaStream_t stream);

/* nvJPEG's interleaved RGB (RGB_PITCH bytes a row) to OUT (RGBA8, opaque), and back (from
 * RGBA8, or RGBA16 rounded to 8 bits as the CPU's JPEG writer rounds it); for decoding into,
 * and encoding from, images that stay on the device. */
cudaError_t lm_k_rgb_to_rgba8 (const uint8_t *rgb, size_t rgb_pitch, const LmKImage *out, cudaStream_t stream);
cudaError_t lm_k_rgba8_to_rgb (const LmKImage *in, uint8_t *rgb, size_t rgb_pitch, cudaStream_t stream);

/* OUT[i] := the RGBA8 word of IMAGE at (XY[2i], XY[2i+1]), for i < N: the pixels a response
 * calibration samples. XY and OUT are device-accessible (mapped pinned memory will do). */
cudaError_t lm_k_gather_words (const LmKImage *image, const unsigned *xy, unsigned n, uint32_t *out,
                               cudaStream_t stream);

/* The display stretch (core/astro/stretch-math.h): IN (GRAY_F32) to OUT (RGBA8 opaque gray, same
 * size) through TABLE (LM_STRETCH_LEVELS bytes, device memory), the last row first where FLIP
 * (astro-stretch.cu). */
cudaError_t lm_k_astro_stretch (const LmKImage *in, float low, float inv_range, const uint8_t *table, int flip,
                                const LmKImage *out, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

/* What the CUDA backend's host files share: the backend's state, the checks that turn CUDA
 * errors into GErrors, and the growing of the buffers that follow the largest image seen.
 * Private to cuda.c (device, memory, images, operations), cuda-hdr.c (HDR) and cuda-view.c
 * (the view). */
#pragma once

#include <cuda_runtime.h>

#include "backend.h"
#include "cuda-error.h"
#include "cuda-image.h"
#include "cuda-memory.h"
#include "kernels/kernels.h"
#include "../ops/point.h"

G_BEGIN_DECLS

#define LM_CUDA_EVENTS 64 /* marks in flight; a render uses two per operation */

/* The HDR entries' buffers (cuda-hdr.c's alone). */
typedef struct _LmCudaHdr LmCudaHdr;
/* The raw development's buffers (cuda-raw.c's alone). */
typedef struct _LmCudaRaw LmCudaRaw;
/* The masks' buffers (cuda-mask.c's alone). */
typedef struct _LmCudaMask LmCudaMask;
/* Object detection's levels and lists (cuda-cascade.c's alone). */
typedef struct _LmCudaCascade LmCudaCascade;

typedef struct {
  LmBackend parent;
  int device;
  const LmAllocator *device_allocator;
  cudaStream_t stream;
  cudaEvent_t events[LM_CUDA_EVENTS];
  guint next_event;
  LmKScratch scratch;  /* lent to each operation's launch in turn: the largest need seen */
  uint32_t *bins;      /* the histograms' counts, 4 × 256 (R, G, B, luma) */
  uint32_t *host_bins; /* pinned, for histogram downloads */
  LmDiffSums *diff_sums, *host_diff_sums;
  LmCudaHdr *hdr; /* NULL until the first HDR entry */
  LmCudaRaw *raw; /* NULL until the first raw development */
  LmCudaMask *mask; /* NULL until the first mask */
  LmCudaCascade *cascade; /* NULL until the first object detection */
  /* The fused pass's 16-bit table (lm_point_table16) on the device and the pass it is of:
   * moving a slider after the point operations (blur) rebuilds nothing. */
  float *table16;
  LmPointPass *table16_pass;
  gboolean table16_gray; /* TABLE16 is a gray source's (one plane of the three) */
  int32_t *view_lut; /* the view transform's table (cuda-view.c), uploaded once */
  gsize view_lut_size;
  guint64 view_lut_id; /* lm_view_transform_id of what VIEW_LUT holds; 0: nothing */
} LmBackendCuda;

static inline LmBackendCuda *
lm_cuda_self (LmBackend *b)
{
  return (LmBackendCuda *) b;
}

/* The backend's device made current for this thread; every entry point starts here. */
gboolean lm_cuda_use_device (LmBackendCuda *self, GError **error);

/* *BUFFER (device memory, *SIZE bytes) grown to NEED bytes when smaller, after the work
 * queued before has finished with it; kept otherwise, so that steady use allocates nothing. */
gboolean lm_cuda_grow_workspace (LmBackendCuda *self, void **buffer, size_t *size, size_t need,
                                 GError **error);

/* The device memory DEVICE can still give: the least of what the driver reports free
 * (cudaMemGetInfo) and what LUMEN_CUDA_MEMORY_LIMIT leaves beside Lumen's live allocations
 * there (cuda-memory.c). For the tiler, which sizes its tiles to fit. */
gsize lm_cuda_budget_left (int device);

/* Operation ID's CUDA side (launch, scratch rule): lm_k_<name>_op, from op-list.h. */
const LmKOp *lm_cuda_op (LmOpId id);

/* Tone mapping's parameters as its kernel takes them: the one place LmKTonemap is filled. */
G_STATIC_ASSERT ((int) LM_K_TONEMAP_NONE == (int) LM_TONEMAP_NONE && (int) LM_K_TONEMAP_GAMMA == (int) LM_TONEMAP_GAMMA
                 && (int) LM_K_TONEMAP_REINHARD == (int) LM_TONEMAP_REINHARD
                 && (int) LM_K_TONEMAP_DRAGO == (int) LM_TONEMAP_DRAGO
                 && (int) LM_K_TONEMAP_SIGMOID == (int) LM_TONEMAP_SIGMOID);
static inline LmKTonemap
lm_cuda_ktonemap (const LmTonemapParams *p)
{
  return (LmKTonemap) { .kind = p->kind, .gamma = p->gamma, .intensity = p->intensity,
                        .light_adapt = p->light_adapt, .color_adapt = p->color_adapt,
                        .saturation = p->saturation, .bias = p->bias, .exposure = p->exposure,
                        .contrast = p->contrast, .hue_preservation = p->hue_preservation };
}

/* cuda-hdr.c: the class's HDR entries, and the release of their buffers. */
gboolean lm_cuda_hdr_merge (LmBackend *b, const LmHdrMergeParams *params, const LmHdrStack *stack,
                            LmImage *out, GError **error);
gboolean lm_cuda_hdr_align (LmBackend *b, const LmAlignParams *params, const LmHdrStack *stack,
                            LmShift *shifts, GError **error);
gboolean lm_cuda_tonemap (LmBackend *b, const LmTonemapParams *params, const LmImage *radiance,
                          LmImage *out, GError **error);
gboolean lm_cuda_rgbe_encode (LmBackend *b, const LmImage *radiance, LmImage *out, GError **error);
void lm_cuda_hdr_release (LmBackendCuda *self);

/* cuda-raw.c: the class's raw development, and the release of its buffers. */
gboolean lm_cuda_develop_raw (LmBackend *b, const LmRawParams *params, const LmRawInfo *info, const LmImage *src,
                              LmImage *out, GError **error);
void lm_cuda_raw_release (LmBackendCuda *self);

/* cuda-view.c: the class's view entries, and the release of the view transform's table. */
gboolean lm_cuda_view (LmBackend *b, const LmImage *image, const LmViewRect *rect,
                       LmViewTransform *xf, LmImage *out, GError **error);
gboolean lm_cuda_seen_histogram (LmBackend *b, const LmImage *image, LmViewTransform *xf,
                                 LmHistogram *hist, GError **error);
void lm_cuda_view_release (LmBackendCuda *self);

/* cuda-mask.c: the class's mask entries, and the release of their buffers. */
gboolean lm_cuda_mask_drawn (LmBackend *b, const LmMaskRender *render, gsize data_size, guint x0, guint y0,
                             LmImage *drawn, GError **error);
gboolean lm_cuda_mask (LmBackend *b, const LmMaskRender *render, gsize data_size, guint x0, guint y0,
                       const LmImage *input, const LmImage *drawn, LmImage *out, GError **error);
gboolean lm_cuda_blend_mask (LmBackend *b, const LmImage *in, const LmImage *op, const LmImage *mask, LmImage *out,
                             GError **error);
void lm_cuda_mask_release (LmBackendCuda *self);

/* cuda-cascade.c: the release of object detection's buffers. */
void lm_cuda_cascade_release (LmBackendCuda *self);

G_END_DECLS

/* A backend runs operations on images in its own memory: the CPU (OpenMP) or CUDA.
 * Code above this interface never includes cuda_runtime.h. */
#pragma once

#include <glib.h>

#include "../ops/compare.h"
#include "../color/view-transform.h"
#include "../hdr/align.h"
#include "../hdr/merge.h"
#include "../hdr/tonemap.h"
#include "../raw-info.h"
#include "../raw/develop.h"
#include "../image.h"
#include "../ops/histogram.h"
#include "../ops/mask.h"
#include "../ops/op.h"

G_BEGIN_DECLS

typedef enum {
  LM_BACKEND_AUTO, /* CUDA when a device is usable, else the CPU */
  LM_BACKEND_CPU,
  LM_BACKEND_CUDA,
} LmBackendKind;

typedef struct _LmBackend LmBackend;

/* A point in the backend's stream of work; two marks give the time between them. */
typedef struct {
  gint64 host_us; /* when the mark was made, on the host clock */
  int event;      /* the CUDA event recorded at the mark; -1 on the CPU */
} LmMark;

typedef struct {
  const char *name; /* "cpu", "cuda" */
  void (*destroy) (LmBackend *self);
  /* Frees the scratch memory that operations keep between runs (blur's), sized for the photo
   * being edited: called when another photo comes. */
  void (*release_scratch) (LmBackend *self);

  /* Memory that source images are loaded into (pinned when CUDA is present) and memory
   * that the backend computes in (device memory on CUDA). */
  const LmAllocator *(*host_allocator) (LmBackend *self);
  const LmAllocator *(*work_allocator) (LmBackend *self);

  /* The image in work memory / in host memory; the CPU returns a new reference to the
   * same image. */
  LmImage *(*upload) (LmBackend *self, LmImage *host, GError **error);
  LmImage *(*download) (LmBackend *self, LmImage *work, GError **error);

  /* Copies the pixels of FROM into TO, of the same shape, each in host or work memory:
   * how persistent buffers are refilled without allocating. */
  gboolean (*copy) (LmBackend *self, const LmImage *from, LmImage *to, GError **error);

  gboolean (*run_op) (LmBackend *self, const LmOpInfo *op, const void *params,
                      const LmImage *src, LmImage *dst, GError **error);
  /* The fused point pass (core/ops/point-math.h) from SRC (RGBA8 or GRAY8) into DST (RGBA8,
   * same size). */
  gboolean (*run_points) (LmBackend *self, const LmPointPass *pass, const LmImage *src, LmImage *dst,
                          GError **error);
  gboolean (*histogram) (LmBackend *self, const LmImage *image, LmHistWant want,
                         LmHistogram *hist, GError **error);

  /* Pixel-by-pixel comparison of A and B (work memory, same shape); HEAT (work memory,
   * RGBA8) receives the heatmap when not NULL. Waits for the figures. */
  gboolean (*diff) (LmBackend *self, const LmImage *a, const LmImage *b, float gain,
                    LmImage *heat, LmDiffStats *stats, GError **error);
  /* The view (view.h) of IMAGE into OUT, both in work memory, through XF's LUT (XF NULL, or
   * without a LUT: the values as they are). The backend keeps its copy of the LUT (uploaded
   * once) until another transform comes. */
  gboolean (*view) (LmBackend *self, const LmImage *image, const LmViewRect *rect,
                    LmViewTransform *xf, LmImage *out, GError **error);
  /* The histogram of IMAGE (work memory) as seen through XF (core/color/seen-histogram.h). */
  gboolean (*seen_histogram) (LmBackend *self, const LmImage *image, LmViewTransform *xf,
                              LmHistogram *hist, GError **error);

  /* HDR, on a stack whose images (RGBA8) are in work memory. The merge writes RGBA_F32
   * radiance (or Mertens' fused image) into OUT, in work memory; the alignment returns each
   * exposure's shift. */
  gboolean (*hdr_merge) (LmBackend *self, const LmHdrMergeParams *params, const LmHdrStack *stack,
                         LmImage *out, GError **error);
  gboolean (*hdr_align) (LmBackend *self, const LmAlignParams *params, const LmHdrStack *stack,
                         LmShift *shifts, GError **error);
  /* RADIANCE (RGBA_F32) to OUT (RGBA8), both in work memory. */
  gboolean (*tonemap) (LmBackend *self, const LmTonemapParams *params, const LmImage *radiance,
                       LmImage *out, GError **error);
  /* RADIANCE (RGBA_F32) to OUT (RGBE8, core/ops/rgbe-math.h), both in work memory: what a
   * .hdr file stores, a quarter of the radiance's bytes to bring back to the host. */
  gboolean (*rgbe_encode) (LmBackend *self, const LmImage *radiance, LmImage *out, GError **error);
  /* A raw's development (core/raw/develop.h): SRC (CFA16, or RGBA16/GRAY16 of the LINEAR and
   * MONO layouts) described by INFO into OUT (RGBA_F32, same size), both in work memory. */
  gboolean (*develop_raw) (LmBackend *self, const LmRawParams *params, const LmRawInfo *info, const LmImage *src,
                           LmImage *out, GError **error);
  /* SRC (RGBA_F32, scene light) into OUT (RGBA_F32, same size; may be SRC) with R, G, B times
   * GAIN: the scene-referred exposure and white balance (core/ops/scene-gain-math.h). */
  gboolean (*scene_gain) (LmBackend *self, const float gain[3], const LmImage *src, LmImage *out, GError **error);

  /* Masks (core/ops/mask.h), planes GRAY_F32 in work memory. RENDER's data is the host's:
   * the backend copies it to its memory. The drawn plane of the pixels at (X0, Y0) of the
   * frame RENDER is placed on, into DRAWN; the final mask from DRAWN and the instance's INPUT
   * (its ranges and the feather's guide) into OUT, of INPUT's size; IN (RGBA8, RGBA16, RGBA_F32,
   * GRAY8 or GRAY16) moved towards the operation's result OP by MASK into OUT (may be IN or OP). */
  gboolean (*mask_drawn) (LmBackend *self, const LmMaskRender *render, gsize data_size, guint x0, guint y0,
                          LmImage *drawn, GError **error);
  gboolean (*mask) (LmBackend *self, const LmMaskRender *render, gsize data_size, guint x0, guint y0,
                    const LmImage *input, const LmImage *drawn, LmImage *out, GError **error);
  gboolean (*blend_mask) (LmBackend *self, const LmImage *in, const LmImage *op, const LmImage *mask, LmImage *out,
                          GError **error);

  gboolean (*synchronize) (LmBackend *self, GError **error);
  void (*mark) (LmBackend *self, LmMark *mark);
  /* Milliseconds from A to B; call after synchronize. */
  double (*elapsed_ms) (LmBackend *self, const LmMark *a, const LmMark *b);

  /* Tiled renders (core/render/tiled.c). The WIDTH × HEIGHT pixels at (FROM_X, FROM_Y) of
   * FROM into TO at (TO_X, TO_Y), each in host or work memory, of the same format, any
   * strides; queued on the backend's stream (the host buffers pinned for it to overlap). */
  gboolean (*copy_rect) (LmBackend *self, const LmImage *from, guint from_x, guint from_y, LmImage *to,
                         guint to_x, guint to_y, guint width, guint height, GError **error);
  /* Bytes of work memory the backend can still allocate (G_MAXSIZE: no bound known). */
  gsize (*memory_available) (LmBackend *self);
} LmBackendClass;

struct _LmBackend {
  const LmBackendClass *klass;
  char *description; /* for people: "CPU, 16 threads", "CUDA, NVIDIA H100 (sm_90)" */
};

/* Opens a backend. LM_BACKEND_CUDA fails with LM_ERROR_NO_DEVICE and the reason when no
 * usable device or driver is there; LM_BACKEND_AUTO then opens the CPU. */
LmBackend *lm_backend_new (LmBackendKind kind, GError **error);
void lm_backend_free (LmBackend *backend);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmBackend, lm_backend_free)

gboolean lm_backend_kind_parse (const char *text, LmBackendKind *kind);
const char *lm_backend_name (LmBackend *backend);

/* Why the CUDA backend cannot run here, or NULL when it can. */
char *lm_backend_cuda_unavailable_reason (void);

LmBackend *lm_backend_cpu_new (void);
LmBackend *lm_backend_cuda_new (GError **error);
/* CUDA devices the runtime sees (0 without CUDA); a backend on one of them, for one per GPU. */
int lm_backend_cuda_device_count (void);
LmBackend *lm_backend_cuda_new_on_device (int device, GError **error);
/* The device a CUDA backend computes on; -1 for any other backend. */
int lm_backend_cuda_device (LmBackend *backend);
/* Threads that wait for DEVICE sleep instead of spinning: for a batch, whose waiting threads
 * outnumber the cores. Call before any backend opens on it. */
void lm_backend_cuda_sleep_on_sync (int device);
/* Replaces LUMEN_CUDA_MEMORY_LIMIT's bound on every device's live allocations from now on
 * (G_MAXSIZE: none): how a test renders both under a small GPU's memory and without it in
 * one process. */
void lm_backend_cuda_set_memory_limit (gsize bytes);

/* Thin wrappers over the class, so callers read as plain calls. */
static inline const LmAllocator *
lm_backend_host_allocator (LmBackend *b)
{
  return b->klass->host_allocator (b);
}
static inline const LmAllocator *
lm_backend_work_allocator (LmBackend *b)
{
  return b->klass->work_allocator (b);
}
static inline LmImage *
lm_backend_upload (LmBackend *b, LmImage *host, GError **error)
{
  LmImage *work = b->klass->upload (b, host, error);
  /* A raw's sensor data is read through its description wherever it is; a raw's scene is one
   * wherever it is. */
  if (work != NULL && work != host && host->raw != NULL && work->raw == NULL)
    work->raw = lm_raw_info_ref (host->raw);
  if (work != NULL)
    work->raw_scene = host->raw_scene;
  return work;
}
static inline LmImage *
lm_backend_download (LmBackend *b, LmImage *work, GError **error)
{
  return b->klass->download (b, work, error);
}
static inline gboolean
lm_backend_copy (LmBackend *b, const LmImage *from, LmImage *to, GError **error)
{
  g_return_val_if_fail (lm_image_same_shape (from, to) && from->stride == to->stride, FALSE);
  return b->klass->copy (b, from, to, error);
}
static inline void
lm_backend_release_scratch (LmBackend *b)
{
  b->klass->release_scratch (b);
}
static inline gboolean
lm_backend_synchronize (LmBackend *b, GError **error)
{
  return b->klass->synchronize (b, error);
}
static inline void
lm_backend_mark (LmBackend *b, LmMark *mark)
{
  b->klass->mark (b, mark);
}
static inline double
lm_backend_elapsed_ms (LmBackend *b, const LmMark *from, const LmMark *to)
{
  return b->klass->elapsed_ms (b, from, to);
}

/* Tiled renders: a rectangle copied between images (checked against both), and the work
 * memory left (LmBackendClass). */
gboolean lm_backend_copy_rect (LmBackend *b, const LmImage *from, const LmRect *rect, LmImage *to, guint to_x,
                               guint to_y, GError **error);
gsize lm_backend_memory_available (LmBackend *b);
/* As lm_backend_download, into an image of ALLOCATOR's (a batch's pool of pinned buffers,
 * which pins once rather than once a photo); queued: synchronize before reading it. */
LmImage *lm_backend_download_to (LmBackend *b, LmImage *work, const LmAllocator *allocator, GError **error);

/* OP from SRC into DST (OP's output size and format); a point operation runs as a pass of
 * its own. */
gboolean lm_backend_run_op (LmBackend *b, const LmOpInfo *op, const void *params,
                            const LmImage *src, LmImage *dst, GError **error);
gboolean lm_backend_run_points (LmBackend *b, const LmPointPass *pass, const LmImage *src,
                                LmImage *dst, GError **error);
gboolean lm_backend_histogram (LmBackend *b, const LmImage *image, LmHistWant want,
                               LmHistogram *hist, GError **error);
gboolean lm_backend_diff (LmBackend *b, const LmImage *a, const LmImage *bb, float gain,
                          LmImage *heat, LmDiffStats *stats, GError **error);
gboolean lm_backend_view (LmBackend *b, const LmImage *image, const LmViewRect *rect,
                          LmImage *out, GError **error);
gboolean lm_backend_view_through (LmBackend *b, const LmImage *image, const LmViewRect *rect,
                                  LmViewTransform *xf, LmImage *out, GError **error);
gboolean lm_backend_seen_histogram (LmBackend *b, const LmImage *image, LmViewTransform *xf,
                                    LmHistogram *hist, GError **error);
gboolean lm_backend_hdr_merge (LmBackend *b, const LmHdrMergeParams *params, const LmHdrStack *stack,
                               LmImage *out, GError **error);
gboolean lm_backend_hdr_align (LmBackend *b, const LmAlignParams *params, const LmHdrStack *stack,
                               LmShift *shifts, GError **error);
gboolean lm_backend_tonemap (LmBackend *b, const LmTonemapParams *params, const LmImage *radiance,
                             LmImage *out, GError **error);
gboolean lm_backend_rgbe_encode (LmBackend *b, const LmImage *radiance, LmImage *out, GError **error);
gboolean lm_backend_develop_raw (LmBackend *b, const LmRawParams *params, const LmRawInfo *info, const LmImage *src,
                                 LmImage *out, GError **error);
gboolean lm_backend_scene_gain (LmBackend *b, const float gain[3], const LmImage *src, LmImage *out,
                                GError **error);
/* A masked instance's mask (core/ops/mask.h) for the part of FLAT's frame that TILE's input
 * covers (TILE NULL or inactive: the whole frame): its drawn plane into DRAWN, the final mask
 * from DRAWN and the instance's INPUT into OUT, and the blend of IN and the operation's result
 * OP through MASK into OUT. Planes GRAY_F32; images in work memory. */
gboolean lm_backend_mask_drawn (LmBackend *b, const LmMaskFlat *flat, const LmTileFrame *tile, LmImage *drawn,
                                GError **error);
gboolean lm_backend_mask (LmBackend *b, const LmMaskFlat *flat, const LmTileFrame *tile, const LmImage *input,
                          const LmImage *drawn, LmImage *out, GError **error);
gboolean lm_backend_blend_mask (LmBackend *b, const LmImage *in, const LmImage *op, const LmImage *mask,
                                LmImage *out, GError **error);

G_END_DECLS

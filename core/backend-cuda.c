/* The CUDA backend's host side: device selection, pinned host and device memory, one
 * non-default stream, events for timings, and the per-image workspace of the kernels.
 * Every runtime call is checked; failures become GErrors that quote cudaGetErrorString.
 *
 * One backend drives one device; several backends may drive several devices from their own
 * threads (the batch's --devices). The runtime's current device belongs to the calling
 * thread, so every entry point makes its backend's device current first, and device memory
 * comes from an allocator that knows its device. */
#include "backend.h"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "error.h"
#include "hdr/robertson-math.h"
#include "kernels/kernels.h"

#define N_EVENTS 64 /* marks in flight; a render uses two per operation */
#define MAX_DEVICES 64

G_STATIC_ASSERT (LM_K_HDR_MAX_EXPOSURES == LM_HDR_MAX_EXPOSURES);
G_STATIC_ASSERT (LM_HDR_MERGE_LEVELS == LM_HDR_LEVELS);
G_STATIC_ASSERT ((int) LM_K_TONEMAP_NONE == (int) LM_TONEMAP_NONE
                 && (int) LM_K_TONEMAP_GAMMA == (int) LM_TONEMAP_GAMMA
                 && (int) LM_K_TONEMAP_REINHARD == (int) LM_TONEMAP_REINHARD
                 && (int) LM_K_TONEMAP_DRAGO == (int) LM_TONEMAP_DRAGO);

typedef struct {
  LmBackend parent;
  int device;
  const LmAllocator *device_allocator;
  cudaStream_t stream;
  cudaEvent_t events[N_EVENTS];
  guint next_event;
  LmKWorkspace ws;
  uint32_t *host_bins; /* pinned, for histogram downloads */
  LmDiffSums *diff_sums, *host_diff_sums;
} LmBackendCuda;

static gboolean
check (cudaError_t err, const char *what, GError **error)
{
  if (err == cudaSuccess)
    return TRUE;
  LmErrorCode code = err == cudaErrorMemoryAllocation ? LM_ERROR_OUT_OF_MEMORY : LM_ERROR_DEVICE;
  g_set_error (error, LUMEN_ERROR, code, _("CUDA: %s failed: %s"), what, cudaGetErrorString (err));
  /* Clear a sticky-free error so that the next call does not report it again. */
  cudaGetLastError ();
  return FALSE;
}

#define CHECK(call, error) check ((call), #call, (error))

/* Where nobody can be told (freeing, tearing down), a failure is still logged. */
static void
release (cudaError_t err, const char *what)
{
  if (err != cudaSuccess)
    {
      g_warning ("CUDA: %s failed: %s", what, cudaGetErrorString (err));
      cudaGetLastError ();
    }
}

#define RELEASE(call) release ((call), #call)

char *
lm_backend_cuda_unavailable_reason (void)
{
  int count = 0;
  cudaError_t err = cudaGetDeviceCount (&count);
  if (err == cudaErrorInsufficientDriver)
    {
      /* The static runtime loads the driver library itself; tell "none" from "too old". */
      void *driver = dlopen ("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
      if (driver == NULL)
        return g_strdup (_("no NVIDIA driver is installed (libcuda.so.1 not found)"));
      dlclose (driver);
      return g_strdup_printf (_("the NVIDIA driver is too old for this build's CUDA %d.%d runtime"),
                              CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    }
  if (err != cudaSuccess)
    {
      cudaGetLastError ();
      return g_strdup_printf (_("no usable CUDA device (%s)"), cudaGetErrorString (err));
    }
  if (count == 0)
    return g_strdup (_("no CUDA device found"));
  return NULL;
}

/* Pinned host memory makes uploads and downloads run at full PCIe speed. When the system
 * refuses to pin (it limits locked memory), plain memory still works, more slowly. */
static gpointer
pinned_alloc (const LmAllocator *self, gsize size, GError **error)
{
  void *mem = NULL;
  /* Portable: pinned for every device's context, as images may go to any backend. */
  if (cudaHostAlloc (&mem, size ? size : 1, cudaHostAllocPortable) == cudaSuccess)
    return mem;
  cudaGetLastError ();
  g_debug ("cudaHostAlloc of %" G_GSIZE_FORMAT " bytes failed; using pageable memory", size);
  return lm_allocator_host ()->alloc (lm_allocator_host (), size, error);
}

static void
pinned_free (const LmAllocator *self, gpointer mem)
{
  struct cudaPointerAttributes attr;
  if (cudaPointerGetAttributes (&attr, mem) == cudaSuccess && attr.type == cudaMemoryTypeHost)
    RELEASE (cudaFreeHost (mem));
  else
    {
      cudaGetLastError ();
      lm_allocator_host ()->free (lm_allocator_host (), mem);
    }
}

/* LUMEN_CUDA_MEMORY_LIMIT (bytes) makes larger allocations fail as if the device were
 * full: how the fall-back to the CPU is tested on a GPU with memory to spare. */
static gsize
memory_limit (void)
{
  static gsize once = 0;
  static gsize limit;
  if (g_once_init_enter (&once))
    {
      const char *env = g_getenv ("LUMEN_CUDA_MEMORY_LIMIT");
      limit = env ? g_ascii_strtoull (env, NULL, 10) : G_MAXSIZE;
      g_once_init_leave (&once, 1);
    }
  return limit;
}

/* An allocator's device: its user_data holds the index. */
static int
allocator_device (const LmAllocator *self)
{
  return GPOINTER_TO_INT (self->user_data);
}

static gpointer
device_alloc (const LmAllocator *self, gsize size, GError **error)
{
  void *mem = NULL;
  cudaError_t err = cudaSetDevice (allocator_device (self));
  if (err == cudaSuccess)
    err = size > memory_limit () ? cudaErrorMemoryAllocation : cudaMalloc (&mem, size ? size : 1);
  if (err == cudaSuccess)
    return mem;
  cudaGetLastError ();
  size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo (&free_bytes, &total) != cudaSuccess)
    cudaGetLastError (); /* the message then says 0 free */
  g_autofree char *want = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *have = g_format_size_full (free_bytes, G_FORMAT_SIZE_IEC_UNITS);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY,
               _("GPU memory exhausted: %s needed, %s free (%s)"), want, have, cudaGetErrorString (err));
  return NULL;
}

static void
device_free (const LmAllocator *self, gpointer mem)
{
  RELEASE (cudaSetDevice (allocator_device (self)));
  RELEASE (cudaFree (mem));
}

/* One allocator per device, static, so that images outlive the backend that made them. */
static const LmAllocator *
device_allocator_for (int device)
{
  static LmAllocator allocators[MAX_DEVICES];
  static gsize once = 0;
  if (g_once_init_enter (&once))
    {
      for (int i = 0; i < MAX_DEVICES; i++)
        allocators[i] = (LmAllocator) { "cuda-device", LM_MEMORY_DEVICE, device_alloc, device_free,
                                        GINT_TO_POINTER (i) };
      g_once_init_leave (&once, 1);
    }
  return &allocators[device];
}

static LmBackendCuda *
self_of (LmBackend *b)
{
  return (LmBackendCuda *) b;
}

/* The backend's device made current for this thread; every entry point starts here. */
static gboolean
use_device (LmBackendCuda *self, GError **error)
{
  return CHECK (cudaSetDevice (self->device), error);
}

/* Where no error can be returned (marks, teardown), a failure is logged. */
static void
use_device_or_log (LmBackendCuda *self)
{
  RELEASE (cudaSetDevice (self->device));
}

static void
cuda_destroy (LmBackend *b)
{
  LmBackendCuda *self = self_of (b);
  if (self->stream)
    {
      use_device_or_log (self);
      RELEASE (cudaStreamSynchronize (self->stream));
    }
  for (int i = 0; i < N_EVENTS; i++)
    if (self->events[i])
      RELEASE (cudaEventDestroy (self->events[i]));
  RELEASE (cudaFree (self->ws.bins));
  RELEASE (cudaFree (self->ws.luts));
  RELEASE (cudaFree (self->ws.blur_tmp));
  RELEASE (cudaFree (self->ws.hdr_rows));
  RELEASE (cudaFree (self->ws.hdr_state));
  RELEASE (cudaFreeHost (self->host_bins));
  RELEASE (cudaFree (self->diff_sums));
  RELEASE (cudaFreeHost (self->host_diff_sums));
  if (self->stream)
    RELEASE (cudaStreamDestroy (self->stream));
  g_free (self);
}

/* Static, so that images outlive the backend that made them (a view buffer still on screen
 * when the render worker shuts down). */
static const LmAllocator pinned_allocator = { "cuda-pinned", LM_MEMORY_HOST, pinned_alloc, pinned_free, NULL };

static const LmAllocator *
cuda_host_allocator (LmBackend *b)
{
  return &pinned_allocator;
}

static const LmAllocator *
cuda_work_allocator (LmBackend *b)
{
  return self_of (b)->device_allocator;
}

/* Host, pinned host or device memory, in any direction: unified addressing tells which. */
static gboolean
cuda_copy (LmBackend *b, const LmImage *from, LmImage *to, GError **error)
{
  to->opaque = from->opaque;
  return use_device (self_of (b), error)
         && CHECK (cudaMemcpyAsync (to->data, from->data, lm_image_size_bytes (from), cudaMemcpyDefault,
                                 self_of (b)->stream), error);
}

static LmImage *
copy_image (LmBackend *b, LmImage *from, const LmAllocator *to, GError **error)
{
  LmImage *image = lm_image_new (from->format, from->width, from->height, to, error);
  if (image != NULL && !cuda_copy (b, from, image, error))
    g_clear_pointer (&image, lm_image_unref);
  return image;
}

static LmImage *
cuda_upload (LmBackend *b, LmImage *host, GError **error)
{
  return copy_image (b, host, self_of (b)->device_allocator, error);
}

static LmImage *
cuda_download (LmBackend *b, LmImage *work, GError **error)
{
  return copy_image (b, work, &pinned_allocator, error);
}

static LmKImage
kimage (const LmImage *image)
{
  LmKImage k = { image->data, image->width, image->height, image->stride, (int) image->format,
                 image->opaque };
  return k;
}

/* Workspace buffers grow to the largest need seen and are kept: slider moves on one image,
 * and a batch's stacks of one size, allocate nothing. */
static gboolean
grow_workspace (LmBackendCuda *self, void **buffer, size_t *size, size_t need, GError **error)
{
  if (need <= *size)
    return TRUE;
  if (*buffer)
    {
      /* Kernels queued before may still be reading it. */
      if (!CHECK (cudaStreamSynchronize (self->stream), error))
        return FALSE;
      RELEASE (cudaFree (*buffer));
      *buffer = NULL;
      *size = 0;
    }
  *buffer = device_alloc (self->device_allocator, need, error);
  if (*buffer == NULL)
    return FALSE;
  *size = need;
  return TRUE;
}

static gboolean
ensure_blur_workspace (LmBackendCuda *self, const LmBlurParams *params, const LmKImage *src,
                       GError **error)
{
  return grow_workspace (self, &self->ws.blur_tmp, &self->ws.blur_tmp_size,
                         lm_k_blur_workspace_size (params, src), error);
}

/* The HDR kernels' per-row partial sums, for images up to HEIGHT rows. */
static gboolean
ensure_hdr_workspace (LmBackendCuda *self, guint height, GError **error)
{
  return grow_workspace (self, &self->ws.hdr_rows, &self->ws.hdr_rows_size, lm_k_hdr_rows_size (height),
                         error);
}

static gboolean
cuda_run_op (LmBackend *b, const LmOpInfo *op, const void *params, const LmImage *src,
             LmImage *dst, GError **error)
{
  LmBackendCuda *self = self_of (b);
  LmKImage in = kimage (src), out = kimage (dst);
  cudaError_t err;
  if (!use_device (self, error))
    return FALSE;
  switch (op->id)
    {
    case LM_OP_GRAY:
      err = lm_k_gray (params, &in, &out, self->stream);
      break;
    case LM_OP_EQUALIZE:
      err = lm_k_equalize (params, &in, &out, &self->ws, self->stream);
      break;
    case LM_OP_BLUR:
      if (!ensure_blur_workspace (self, params, &in, error))
        return FALSE;
      err = lm_k_blur (params, &in, &out, &self->ws, self->stream);
      break;
    default:
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s has no CUDA implementation"), op->name);
      return FALSE;
    }
  g_autofree char *what = g_strdup_printf ("%s kernel", op->name);
  return check (err, what, error);
}

static gboolean
cuda_histogram (LmBackend *b, const LmImage *image, LmHistWant want, LmHistogram *hist,
                GError **error)
{
  LmBackendCuda *self = self_of (b);
  LmKImage in = kimage (image);
  if (!use_device (self, error)
      || !CHECK (lm_k_histogram (&in, want, self->ws.bins, self->stream), error)
      || !CHECK (cudaMemcpyAsync (self->host_bins, self->ws.bins, sizeof hist->bins,
                                  cudaMemcpyDeviceToHost, self->stream), error)
      || !CHECK (cudaStreamSynchronize (self->stream), error))
    return FALSE;
  memcpy (hist->bins, self->host_bins, sizeof hist->bins);
  if (!(want & LM_HIST_WANT_RGB) && image->format != LM_FORMAT_GRAY8)
    memset (hist->bins, 0, 3 * sizeof hist->bins[0]);
  if (!(want & LM_HIST_WANT_LUMA) && image->format != LM_FORMAT_GRAY8)
    memset (hist->bins[LM_HIST_LUMA], 0, sizeof hist->bins[0]);
  hist->total = (guint64) image->width * image->height;
  return TRUE;
}

static gboolean
cuda_diff (LmBackend *b, const LmImage *a, const LmImage *bb, float gain, LmImage *heat,
           LmDiffStats *stats, GError **error)
{
  LmBackendCuda *self = self_of (b);
  LmKImage ka = kimage (a), kb = kimage (bb), kh = heat ? kimage (heat) : (LmKImage) { 0 };
  if (!use_device (self, error)
      || !CHECK (lm_k_diff (&ka, &kb, gain, heat ? &kh : NULL, self->diff_sums, self->stream), error)
      || !CHECK (cudaMemcpyAsync (self->host_diff_sums, self->diff_sums, sizeof (LmDiffSums),
                                  cudaMemcpyDeviceToHost, self->stream), error)
      || !CHECK (cudaStreamSynchronize (self->stream), error))
    return FALSE;
  LmDiffSums sums = *self->host_diff_sums;
  guint ch = a->format == LM_FORMAT_GRAY8 ? 1 : 3;
  sums.pixels = (guint64) a->width * a->height;
  sums.samples = sums.pixels * ch;
  lm_diff_stats_from_sums (&sums, stats);
  if (heat)
    heat->opaque = FALSE;
  return TRUE;
}

static gboolean
cuda_view (LmBackend *b, const LmImage *image, const LmViewRect *rect, LmImage *out,
           GError **error)
{
  LmKImage in = kimage (image), k_out = kimage (out);
  out->opaque = TRUE;
  return use_device (self_of (b), error)
         && CHECK (lm_k_view (&in, rect, &k_out, self_of (b)->stream), error);
}

/* The tables a radiance merge reads, as the CPU reference computes them: Debevec's ln f⁻¹;
 * Robertson's f⁻¹ and weights. */
static gboolean
merge_table (const LmHdrMergeParams *params, float table[4 * LM_HDR_LEVELS], GError **error)
{
  int bad = -1;
  if (params->method == LM_HDR_DEBEVEC)
    bad = lm_debevec_log_table (params->response.value, table);
  else
    for (int c = 0; c < 3; c++)
      for (int z = 0; z < LM_HDR_LEVELS; z++)
        {
          float v = params->response.value[c][z];
          if (bad < 0 && !(v > 0.0f && isfinite (v)))
            bad = z;
          table[c * LM_HDR_LEVELS + z] = v;
          table[3 * LM_HDR_LEVELS + z] = lm_robertson_weight (z);
        }
  if (bad < 0)
    return TRUE;
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
               _("the response is not positive at level %d: it cannot be a camera's"), bad);
  return FALSE;
}

/* HDR merge: Debevec's and Robertson's, with the gamma correction, entirely on the device.
 * Mertens' fusion comes once its CPU reference, which the parity suite holds it to, exists. */
static gboolean
cuda_hdr_merge (LmBackend *b, const LmHdrMergeParams *params, const LmHdrStack *stack, LmImage *out,
                GError **error)
{
  LmBackendCuda *self = self_of (b);
  gboolean robertson = params->method == LM_HDR_ROBERTSON;
  if (params->method != LM_HDR_DEBEVEC && !robertson)
    {
      g_autofree char *what = g_strdup_printf (_("the “%s” merge"), lm_hdr_method_name (params->method));
      g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, _("%s is not available on the %s backend"), what,
                   b->klass->name);
      return FALSE;
    }
  const LmImage *first = stack->images[0];
  g_return_val_if_fail (stack->n <= LM_K_HDR_MAX_EXPOSURES, FALSE);
  g_return_val_if_fail (first->format == LM_FORMAT_RGBA8 || first->format == LM_FORMAT_GRAY8, FALSE);

  float table[4 * LM_HDR_LEVELS];
  if (!merge_table (params, table, error))
    return FALSE;
  LmKStack k = { .n = stack->n, .width = first->width, .height = first->height, .stride = first->stride,
                 .format = first->format == LM_FORMAT_GRAY8 ? LM_K_GRAY8 : LM_K_RGBA8 };
  for (guint i = 0; i < stack->n; i++)
    {
      g_return_val_if_fail (stack->images[i]->allocator->memory == LM_MEMORY_DEVICE
                            && stack->images[i]->stride == first->stride, FALSE);
      k.images[i] = stack->images[i]->data;
      k.time[i] = robertson ? (float) stack->times[i] : lm_hdr_log_time (stack->times[i]);
    }
  LmKImage k_out = kimage (out);
  if (!use_device (self, error) || !ensure_hdr_workspace (self, first->height, error))
    return FALSE;
  if (robertson)
    return CHECK (lm_k_hdr_robertson (&k, table, params->gamma_correction, &k_out, &self->ws, self->stream),
                  error);
  return CHECK (lm_k_hdr_debevec (&k, table, params->gamma_correction, &k_out, &self->ws, self->stream), error);
}

static gboolean
cuda_tonemap (LmBackend *b, const LmTonemapParams *params, const LmImage *radiance, LmImage *out,
              GError **error)
{
  LmBackendCuda *self = self_of (b);
  if (!(params->gamma > 0.0f))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("the gamma must be positive"));
      return FALSE;
    }
  g_return_val_if_fail (params->kind >= LM_TONEMAP_NONE && params->kind <= LM_TONEMAP_DRAGO, FALSE);
  LmKTonemap k = { params->kind, params->gamma, params->intensity, params->light_adapt, params->color_adapt,
                   params->saturation, params->bias };
  LmKImage in = kimage (radiance), k_out = kimage (out);
  return use_device (self, error) && ensure_hdr_workspace (self, radiance->height, error)
         && CHECK (lm_k_tonemap (&k, &in, &k_out, &self->ws, self->stream), error);
}

static gboolean
cuda_synchronize (LmBackend *b, GError **error)
{
  return use_device (self_of (b), error) && CHECK (cudaStreamSynchronize (self_of (b)->stream), error);
}

static void
cuda_mark (LmBackend *b, LmMark *mark)
{
  LmBackendCuda *self = self_of (b);
  use_device_or_log (self);
  mark->host_us = g_get_monotonic_time ();
  mark->event = (int) (self->next_event++ % N_EVENTS);
  if (cudaEventRecord (self->events[mark->event], self->stream) != cudaSuccess)
    {
      cudaGetLastError ();
      mark->event = -1;
    }
}

static double
cuda_elapsed_ms (LmBackend *b, const LmMark *a, const LmMark *m)
{
  LmBackendCuda *self = self_of (b);
  float ms = 0.0f;
  use_device_or_log (self);
  if (a->event >= 0 && m->event >= 0
      && cudaEventElapsedTime (&ms, self->events[a->event], self->events[m->event]) == cudaSuccess)
    return ms;
  cudaGetLastError ();
  return (m->host_us - a->host_us) / 1000.0;
}

static const LmBackendClass cuda_class = {
  .name = "cuda",
  .destroy = cuda_destroy,
  .host_allocator = cuda_host_allocator,
  .work_allocator = cuda_work_allocator,
  .upload = cuda_upload,
  .download = cuda_download,
  .copy = cuda_copy,
  .run_op = cuda_run_op,
  .histogram = cuda_histogram,
  .diff = cuda_diff,
  .view = cuda_view,
  .hdr_merge = cuda_hdr_merge,
  .tonemap = cuda_tonemap,
  .synchronize = cuda_synchronize,
  .mark = cuda_mark,
  .elapsed_ms = cuda_elapsed_ms,
};

/* LUMEN_CUDA_DEVICE picks a device by index; the default is the first. */
static int
chosen_device (void)
{
  const char *env = g_getenv ("LUMEN_CUDA_DEVICE");
  return env ? atoi (env) : 0;
}

int
lm_backend_cuda_device_count (void)
{
  int count = 0;
  if (cudaGetDeviceCount (&count) != cudaSuccess)
    {
      cudaGetLastError ();
      return 0;
    }
  return MIN (count, MAX_DEVICES);
}

LmBackend *
lm_backend_cuda_new (GError **error)
{
  return lm_backend_cuda_new_on_device (chosen_device (), error);
}

LmBackend *
lm_backend_cuda_new_on_device (int device, GError **error)
{
  g_autofree char *reason = lm_backend_cuda_unavailable_reason ();
  int count = lm_backend_cuda_device_count ();
  if (reason == NULL && (device < 0 || device >= count))
    reason = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "there is no CUDA device %d: %d device was found",
                                           "there is no CUDA device %d: %d devices were found", count),
                              device, count);
  if (reason != NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("CUDA backend unavailable: %s"), reason);
      return NULL;
    }

  LmBackendCuda *self = g_new0 (LmBackendCuda, 1);
  self->parent.klass = &cuda_class;
  self->device = device;
  self->device_allocator = device_allocator_for (device);

  struct cudaDeviceProp prop;
  GError *e = NULL;
  gboolean ok = CHECK (cudaSetDevice (self->device), &e)
                && CHECK (cudaGetDeviceProperties (&prop, self->device), &e)
                && CHECK (lm_k_probe (), &e)
                && CHECK (cudaStreamCreateWithFlags (&self->stream, cudaStreamNonBlocking), &e)
                && CHECK (cudaMalloc ((void **) &self->ws.bins, 4 * LM_HIST_BINS * sizeof (uint32_t)), &e)
                && CHECK (cudaMalloc ((void **) &self->ws.luts, 4 * LM_HIST_BINS), &e)
                && CHECK (cudaMalloc (&self->ws.hdr_state, lm_k_hdr_state_size ()), &e)
                && CHECK (cudaHostAlloc ((void **) &self->host_bins, 4 * LM_HIST_BINS * sizeof (uint32_t),
                                         cudaHostAllocDefault), &e)
                && CHECK (cudaMalloc ((void **) &self->diff_sums, sizeof (LmDiffSums)), &e)
                && CHECK (cudaHostAlloc ((void **) &self->host_diff_sums, sizeof (LmDiffSums),
                                         cudaHostAllocDefault), &e);
  for (int i = 0; ok && i < N_EVENTS; i++)
    ok = CHECK (cudaEventCreate (&self->events[i]), &e);
  if (!ok)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("CUDA backend unavailable: %s"), e->message);
      g_error_free (e);
      cuda_destroy (&self->parent);
      return NULL;
    }

  g_autofree char *mem = g_format_size_full (prop.totalGlobalMem, G_FORMAT_SIZE_IEC_UNITS);
  if (count > 1)
    self->parent.description = g_strdup_printf ("CUDA %d, %s (sm_%d%d, %s)", device, prop.name, prop.major,
                                                prop.minor, mem);
  else
    self->parent.description = g_strdup_printf ("CUDA, %s (sm_%d%d, %s)", prop.name, prop.major,
                                                prop.minor, mem);
  return &self->parent;
}

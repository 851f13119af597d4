/* The CUDA backend's host side: device selection, pinned host and device memory, one
 * non-default stream, events for timings, the operations' scratch, and the image operations
 * (the HDR entries and their buffers are in cuda-hdr.c, the view's in cuda-view.c). Every
 * runtime call is checked; failures become GErrors that quote cudaGetErrorString.
 *
 * One backend drives one device; several backends may drive several devices from their own
 * threads (the batch's --devices). The runtime's current device belongs to the calling
 * thread, so every entry point makes its backend's device current first, and device memory
 * comes from an allocator that knows its device. */
#include "cuda-private.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "cuda-fault.h"
#include "../error.h"

#define MAX_DEVICES 64

/* Kernels are loaded when the driver starts, not at their first launch. CUDA 12 loads each
 * kernel lazily by default (CUDA_MODULE_LOADING=LAZY), so a kernel first launched after
 * thousands of edits took device memory then: the window's 2 MiB more after 2,450 edits of the
 * soak on radiance (bench/results/text/soak.md), gone with EAGER. Loading Lumen's kernels at once
 * costs no measurable time (0.4 s to an open window either way) and the same memory in the end.
 * The driver reads the variable when it starts, so it is set before main runs, while there is
 * one thread; a value the user set is kept. */
__attribute__ ((constructor)) static void
load_kernels_eagerly (void)
{
  setenv ("CUDA_MODULE_LOADING", "EAGER", 0);
}

/* Short names for this file's many checks. */
#define CHECK(call, error) LM_CUDA_CHECK (call, error)

G_STATIC_ASSERT ((int) LM_K_RGBA16 == (int) LM_FORMAT_RGBA16 && (int) LM_K_GRAY16 == (int) LM_FORMAT_GRAY16);
#define RELEASE(call) LM_CUDA_RELEASE (call)

gboolean
lm_cuda_check (cudaError_t err, const char *what, GError **error)
{
  if (err == cudaSuccess)
    err = lm_cuda_fault_next (lm_cuda_fault_kind (what), what);
  if (err == cudaSuccess)
    return TRUE;
  LmErrorCode code = err == cudaErrorMemoryAllocation ? LM_ERROR_OUT_OF_MEMORY : LM_ERROR_DEVICE;
  g_set_error (error, LUMEN_ERROR, code, _("CUDA: %s failed: %s"), what, cudaGetErrorString (err));
  /* Clear a sticky-free error so that the next call does not report it again. */
  cudaGetLastError ();
  return FALSE;
}

void
lm_cuda_release (cudaError_t err, const char *what)
{
  if (err != cudaSuccess)
    {
      g_warning ("CUDA: %s failed: %s", what, cudaGetErrorString (err));
      cudaGetLastError ();
    }
}

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

/* An allocator's device: its user_data holds the index. */
static int
allocator_device (const LmAllocator *self)
{
  return GPOINTER_TO_INT (self->user_data);
}

/* Images' device memory, accounted with the kernels' scratch (cuda-memory.c). */
static gpointer
device_alloc (const LmAllocator *self, gsize size, GError **error)
{
  void *mem = NULL;
  if (!CHECK (cudaSetDevice (allocator_device (self)), error) || !lm_cuda_malloc (&mem, size, error))
    return NULL;
  return mem;
}

static void
device_free (const LmAllocator *self, gpointer mem)
{
  RELEASE (cudaSetDevice (allocator_device (self)));
  lm_cuda_free (mem);
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

gboolean
lm_cuda_use_device (LmBackendCuda *self, GError **error)
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
  LmBackendCuda *self = lm_cuda_self (b);
  if (self->stream)
    {
      use_device_or_log (self);
      RELEASE (cudaStreamSynchronize (self->stream));
    }
  for (int i = 0; i < LM_CUDA_EVENTS; i++)
    if (self->events[i])
      RELEASE (cudaEventDestroy (self->events[i]));
  lm_cuda_free (self->bins);
  lm_cuda_free (self->scratch.data);
  lm_cuda_hdr_release (self);
  lm_cuda_raw_release (self);
  lm_cuda_view_release (self);
  lm_cuda_mask_release (self);
  lm_cuda_cascade_release (self);
  RELEASE (cudaFreeHost (self->host_bins));
  lm_cuda_free (self->diff_sums);
  RELEASE (cudaFreeHost (self->host_diff_sums));
  lm_cuda_free (self->table16);
  g_free (self->table16_pass);
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
  return lm_cuda_self (b)->device_allocator;
}

/* Host, pinned host or device memory, in any direction: unified addressing tells which. */
static gboolean
cuda_copy (LmBackend *b, const LmImage *from, LmImage *to, GError **error)
{
  to->opaque = from->opaque;
  return lm_cuda_use_device (lm_cuda_self (b), error)
         && CHECK (cudaMemcpyAsync (to->data, from->data, lm_image_size_bytes (from), cudaMemcpyDefault,
                                 lm_cuda_self (b)->stream), error);
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
  return copy_image (b, host, lm_cuda_self (b)->device_allocator, error);
}

static LmImage *
cuda_download (LmBackend *b, LmImage *work, GError **error)
{
  return copy_image (b, work, &pinned_allocator, error);
}

/* Scratch buffers grow to the largest need seen and are kept: slider moves on one image, and
 * a batch's stacks of one size, allocate nothing. */
gboolean
lm_cuda_grow_workspace (LmBackendCuda *self, void **buffer, size_t *size, size_t need, GError **error)
{
  if (need <= *size)
    return TRUE;
  if (*buffer)
    {
      /* Kernels queued before may still be reading it. */
      if (!CHECK (cudaStreamSynchronize (self->stream), error))
        return FALSE;
      lm_cuda_free (*buffer);
      *buffer = NULL;
      *size = 0;
    }
  *buffer = device_alloc (self->device_allocator, need, error);
  if (*buffer == NULL)
    return FALSE;
  *size = need;
  return TRUE;
}

/* Each operation's launch and scratch rule, from op-list.h: the backend has no
 * per-operation code. */
#define LM_K_OP_ENTRY_GEOMETRY(ID, name) [LM_OP_##ID] = &lm_k_##name##_op,
#define LM_K_OP_ENTRY_POINT(ID, name)
#define LM_K_OP_ENTRY_POINT_COLOR(ID, name)
#define LM_K_OP_ENTRY_PIXEL(ID, name) [LM_OP_##ID] = &lm_k_##name##_op,
#define LM_K_OP_ENTRY_GLOBAL(ID, name) [LM_OP_##ID] = &lm_k_##name##_op,
#define LM_K_OP_ENTRY_AREA(ID, name) [LM_OP_##ID] = &lm_k_##name##_op,
#define LM_K_OP_ENTRY_EXPORT(ID, name) [LM_OP_##ID] = &lm_k_##name##_op,
static const LmKOp *const cuda_ops[LM_N_OPS] = {
#define LM_OP(ID, name, Name, KIND) LM_K_OP_ENTRY_##KIND (ID, name)
#include "../ops/op-list.h"
#undef LM_OP
};

const LmKOp *
lm_cuda_op (LmOpId id)
{
  g_return_val_if_fail (id < LM_N_OPS, NULL);
  return cuda_ops[id];
}

/* The scratch that OP with PARAMS needs on SRC. An operation whose need varies with its
 * parameters (blur's with σ) would grow the device memory once more at whatever late edit
 * first picked a larger need. So its first run on an image reserves what any parameters can
 * need on its size (its workspace_max), and no later edit grows it; where the device cannot
 * spare that much, what these parameters need, as before. The buffer is shared: operations
 * run one after another on the stream, each lent it for its launch. */
static gboolean
ensure_scratch (LmBackendCuda *self, const LmKOp *op, const void *params, const LmKImage *src,
                GError **error)
{
  size_t need = op->workspace ? op->workspace (params, src) : 0;
  if (need <= self->scratch.size)
    return TRUE;
  GError *e = NULL;
  size_t most = op->workspace_max ? op->workspace_max (src) : need;
  if (most > need && lm_cuda_grow_workspace (self, &self->scratch.data, &self->scratch.size, most, &e))
    return TRUE;
  if (e != NULL && !g_error_matches (e, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY))
    {
      g_propagate_error (error, e);
      return FALSE;
    }
  g_clear_error (&e);
  return lm_cuda_grow_workspace (self, &self->scratch.data, &self->scratch.size, need, error);
}

/* The scratch of the last photo goes with it, and a raw's plane and the masks' feather
 * planes: the next photo's first run reserves its own. The other buffers are small or the HDR
 * merge's. */
static void
cuda_release_scratch (LmBackend *b)
{
  LmBackendCuda *self = lm_cuda_self (b);
  if (self->scratch.data == NULL && self->raw == NULL && self->mask == NULL && self->cascade == NULL)
    return;
  use_device_or_log (self);
  RELEASE (cudaStreamSynchronize (self->stream)); /* kernels queued before may still read it */
  lm_cuda_free (self->scratch.data);
  self->scratch = (LmKScratch) { NULL, 0 };
  lm_cuda_raw_release (self);
  lm_cuda_mask_release (self);
  lm_cuda_cascade_release (self);
}

static gboolean
cuda_run_op (LmBackend *b, const LmOpInfo *op, const void *params, const LmImage *src,
             LmImage *dst, GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  LmKImage in = lm_cuda_kimage (src), out = lm_cuda_kimage (dst);
  const LmKOp *k = op->id < LM_N_OPS ? cuda_ops[op->id] : NULL;
  if (k == NULL || k->launch == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s has no CUDA implementation"), op->name);
      return FALSE;
    }
  if (!lm_cuda_use_device (self, error) || !ensure_scratch (self, k, params, &in, error))
    return FALSE;
  cudaError_t err = k->launch (params, &in, &out, &self->scratch, self->stream);
  g_autofree char *what = g_strdup_printf ("%s kernel", op->name);
  return lm_cuda_check (err, what, error);
}

/* PASS's 16-bit table for a source that is GRAY (or RGBA16) in self->table16, built on the
 * host and uploaded unless it is the last one's. The upload is ordered on the stream after the
 * kernels that read the previous one. */
static gboolean
ensure_table16 (LmBackendCuda *self, const LmPointPass *pass, gboolean gray, GError **error)
{
  if (self->table16_pass != NULL && self->table16_gray == gray && memcmp (self->table16_pass, pass, sizeof *pass) == 0)
    return TRUE;
  gsize bytes = 3 * LM_POINT_TABLE16_SIZE * sizeof (float); /* room for either */
  if (self->table16 == NULL && !lm_cuda_malloc ((void **) &self->table16, bytes, error))
    return FALSE;
  g_clear_pointer (&self->table16_pass, g_free);
  g_autofree float *table = lm_point_table16 (pass, gray);
  /* From pageable memory: the call returns once TABLE is staged, so it may be freed. */
  if (!CHECK (cudaMemcpyAsync (self->table16, table, (gray ? 1 : 3) * LM_POINT_TABLE16_SIZE * sizeof (float),
                               cudaMemcpyHostToDevice, self->stream), error))
    return FALSE;
  self->table16_pass = g_memdup2 (pass, sizeof *pass);
  self->table16_gray = gray;
  return TRUE;
}

static gboolean
cuda_run_points (LmBackend *b, const LmPointPass *pass, const LmImage *src, LmImage *dst,
                 GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  LmKImage in = lm_cuda_kimage (src), out = lm_cuda_kimage (dst);
  if (!lm_cuda_use_device (self, error))
    return FALSE;
  LmPointPixels px = lm_point_pass_pixels (pass);
  if (lm_format_depth (src->format) == 16)
    return ensure_table16 (self, pass, src->format == LM_FORMAT_GRAY16, error)
           && CHECK (lm_k_point16 (self->table16, &px, &in, &out, self->stream), error);
  return CHECK (lm_k_point (pass->table, pass->gray, &px, &in, &out, self->stream), error);
}

static gboolean
cuda_scene_gain (LmBackend *b, const float gain[3], const LmImage *src, LmImage *out, GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  LmKImage in = lm_cuda_kimage (src), k_out = lm_cuda_kimage (out);
  return lm_cuda_use_device (self, error) && CHECK (lm_k_scene_gain (gain, &in, &k_out, self->stream), error);
}

static gboolean
cuda_histogram (LmBackend *b, const LmImage *image, LmHistWant want, LmHistogram *hist,
                GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  LmKImage in = lm_cuda_kimage (image);
  if (!lm_cuda_use_device (self, error)
      || !CHECK (lm_k_histogram (&in, want, self->bins, self->stream), error)
      || !CHECK (cudaMemcpyAsync (self->host_bins, self->bins, sizeof hist->bins,
                                  cudaMemcpyDeviceToHost, self->stream), error)
      || !CHECK (cudaStreamSynchronize (self->stream), error))
    return FALSE;
  memcpy (hist->bins, self->host_bins, sizeof hist->bins);
  gboolean gray = lm_format_channels (image->format) == 1;
  if (!(want & LM_HIST_WANT_RGB) && !gray)
    memset (hist->bins, 0, 3 * sizeof hist->bins[0]);
  if (!(want & LM_HIST_WANT_LUMA) && !gray)
    memset (hist->bins[LM_HIST_LUMA], 0, sizeof hist->bins[0]);
  hist->total = (guint64) image->width * image->height;
  return TRUE;
}

static gboolean
cuda_diff (LmBackend *b, const LmImage *a, const LmImage *bb, float gain, LmImage *heat,
           LmDiffStats *stats, GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  LmKImage ka = lm_cuda_kimage (a), kb = lm_cuda_kimage (bb), kh = heat ? lm_cuda_kimage (heat) : (LmKImage) { 0 };
  if (!lm_cuda_use_device (self, error)
      || !CHECK (lm_k_diff (&ka, &kb, gain, heat ? &kh : NULL, self->diff_sums, self->stream), error)
      || !CHECK (cudaMemcpyAsync (self->host_diff_sums, self->diff_sums, sizeof (LmDiffSums),
                                  cudaMemcpyDeviceToHost, self->stream), error)
      || !CHECK (cudaStreamSynchronize (self->stream), error))
    return FALSE;
  LmDiffSums sums = *self->host_diff_sums;
  guint ch = lm_format_channels (a->format) == 1 ? 1 : 3;
  sums.pixels = (guint64) a->width * a->height;
  sums.samples = sums.pixels * ch;
  sums.depth = lm_format_depth (a->format) == 16 ? 16 : 8;
  lm_diff_stats_from_sums (&sums, stats);
  if (heat)
    heat->opaque = FALSE;
  return TRUE;
}

static gboolean
cuda_synchronize (LmBackend *b, GError **error)
{
  return lm_cuda_use_device (lm_cuda_self (b), error) && CHECK (cudaStreamSynchronize (lm_cuda_self (b)->stream), error);
}

static void
cuda_mark (LmBackend *b, LmMark *mark)
{
  LmBackendCuda *self = lm_cuda_self (b);
  use_device_or_log (self);
  mark->host_us = g_get_monotonic_time ();
  mark->event = (int) (self->next_event++ % LM_CUDA_EVENTS);
  if (cudaEventRecord (self->events[mark->event], self->stream) != cudaSuccess)
    {
      cudaGetLastError ();
      mark->event = -1;
    }
}

static double
cuda_elapsed_ms (LmBackend *b, const LmMark *a, const LmMark *m)
{
  LmBackendCuda *self = lm_cuda_self (b);
  float ms = 0.0f;
  use_device_or_log (self);
  if (a->event >= 0 && m->event >= 0
      && cudaEventElapsedTime (&ms, self->events[a->event], self->events[m->event]) == cudaSuccess)
    return ms;
  cudaGetLastError ();
  return (m->host_us - a->host_us) / 1000.0;
}

/* Tiled renders: one rectangle between host, pinned or device memory, on the stream. */
static gboolean
cuda_copy_rect (LmBackend *b, const LmImage *from, guint from_x, guint from_y, LmImage *to, guint to_x,
                guint to_y, guint width, guint height, GError **error)
{
  gsize bpp = lm_format_bytes_per_pixel (from->format);
  const guint8 *src = from->data + (gsize) from_y * from->stride + (gsize) from_x * bpp;
  guint8 *dst = to->data + (gsize) to_y * to->stride + (gsize) to_x * bpp;
  return lm_cuda_use_device (lm_cuda_self (b), error)
         && CHECK (cudaMemcpy2DAsync (dst, to->stride, src, from->stride, (gsize) width * bpp, height,
                                   cudaMemcpyDefault, lm_cuda_self (b)->stream), error);
}

/* What the device has free, within what LUMEN_CUDA_MEMORY_LIMIT lets one allocation have. */
static gsize
cuda_memory_available (LmBackend *b)
{
  /* What the device has free, within what LUMEN_CUDA_MEMORY_LIMIT leaves (cuda-memory.c). */
  return lm_cuda_budget_left (lm_cuda_self (b)->device);
}

static const LmBackendClass cuda_class = {
  .name = "cuda",
  .destroy = cuda_destroy,
  .release_scratch = cuda_release_scratch,
  .host_allocator = cuda_host_allocator,
  .work_allocator = cuda_work_allocator,
  .upload = cuda_upload,
  .download = cuda_download,
  .copy = cuda_copy,
  .run_op = cuda_run_op,
  .run_points = cuda_run_points,
  .histogram = cuda_histogram,
  .diff = cuda_diff,
  .view = lm_cuda_view,
  .seen_histogram = lm_cuda_seen_histogram,
  .hdr_merge = lm_cuda_hdr_merge,
  .hdr_align = lm_cuda_hdr_align,
  .tonemap = lm_cuda_tonemap,
  .develop_raw = lm_cuda_develop_raw,
  .scene_gain = cuda_scene_gain,
  .mask_drawn = lm_cuda_mask_drawn,
  .mask = lm_cuda_mask,
  .blend_mask = lm_cuda_blend_mask,
  .rgbe_encode = lm_cuda_rgbe_encode,
  .synchronize = cuda_synchronize,
  .mark = cuda_mark,
  .elapsed_ms = cuda_elapsed_ms,
  .copy_rect = cuda_copy_rect,
  .memory_available = cuda_memory_available,
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

void
lm_backend_cuda_sleep_on_sync (int device)
{
  /* Before the device's context does any work, else the flag may be refused: logged then. */
  RELEASE (cudaSetDevice (device));
  RELEASE (cudaSetDeviceFlags (cudaDeviceScheduleBlockingSync));
}

int
lm_backend_cuda_device (LmBackend *b)
{
  return b->klass == &cuda_class ? lm_cuda_self (b)->device : -1;
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
  gsize limit = 0;
  gboolean ok = lm_cuda_memory_limit (&limit, &e)
                && CHECK (cudaSetDevice (self->device), &e)
                && CHECK (cudaGetDeviceProperties (&prop, self->device), &e)
                && CHECK (lm_k_probe (), &e)
                && CHECK (cudaStreamCreateWithFlags (&self->stream, cudaStreamNonBlocking), &e)
                && lm_cuda_malloc ((void **) &self->bins, 4 * LM_HIST_BINS * sizeof (uint32_t), &e)
                && CHECK (cudaHostAlloc ((void **) &self->host_bins, 4 * LM_HIST_BINS * sizeof (uint32_t),
                                         cudaHostAllocDefault), &e)
                && lm_cuda_malloc ((void **) &self->diff_sums, sizeof (LmDiffSums), &e)
                && CHECK (cudaHostAlloc ((void **) &self->host_diff_sums, sizeof (LmDiffSums),
                                         cudaHostAllocDefault), &e);
  for (int i = 0; ok && i < LM_CUDA_EVENTS; i++)
    ok = CHECK (cudaEventCreate (&self->events[i]), &e);
  if (!ok)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("CUDA backend unavailable: %s"), e->message);
      g_error_free (e);
      cuda_destroy (&self->parent);
      return NULL;
    }
  lm_cuda_fault_trace ("started");

  g_autofree char *mem = g_format_size_full (prop.totalGlobalMem, G_FORMAT_SIZE_IEC_UNITS);
  if (count > 1)
    self->parent.description = g_strdup_printf ("CUDA %d, %s (sm_%d%d, %s)", device, prop.name, prop.major,
                                                prop.minor, mem);
  else
    self->parent.description = g_strdup_printf ("CUDA, %s (sm_%d%d, %s)", prop.name, prop.major,
                                                prop.minor, mem);
  return &self->parent;
}

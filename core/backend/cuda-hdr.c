/* The CUDA backend's HDR entries: the radiance merges (Debevec, Robertson; linear for 16-bit
 * exposures), Mertens' exposure
 * fusion, AlignMTB, tone mapping and the Radiance RGBE encoding (rgbe.cu). Each checks its input as the CPU reference does (same
 * messages), derives what the CPU derives on the host (tables, level counts) with the same
 * expressions, and queues the kernels (hdr-merge.cu, mertens.cu, align.cu, tonemap.cu) on
 * the backend's stream. Their buffers are this file's alone (no operation sees them); each
 * grows to the largest stack seen and is kept. */
#include "cuda-private.h"

#include <math.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../hdr/align-math.h"
#include "../hdr/mertens-math.h"
#include "../hdr/robertson-math.h"

#define CHECK(call, error) LM_CUDA_CHECK (call, error)
#define RELEASE(call) LM_CUDA_RELEASE (call)

G_STATIC_ASSERT (LM_K_HDR_MAX_EXPOSURES == LM_HDR_MAX_EXPOSURES);
G_STATIC_ASSERT (LM_HDR_MERGE_LEVELS == LM_HDR_LEVELS);
G_STATIC_ASSERT ((int) LM_K_TONEMAP_NONE == (int) LM_TONEMAP_NONE
                 && (int) LM_K_TONEMAP_GAMMA == (int) LM_TONEMAP_GAMMA
                 && (int) LM_K_TONEMAP_REINHARD == (int) LM_TONEMAP_REINHARD
                 && (int) LM_K_TONEMAP_DRAGO == (int) LM_TONEMAP_DRAGO);
G_STATIC_ASSERT ((int) LM_K_RGBA_F32 == (int) LM_FORMAT_RGBA_F32 && (int) LM_K_RGBE8 == (int) LM_FORMAT_RGBE8);
G_STATIC_ASSERT ((int) LM_K_GRAY8 == (int) LM_FORMAT_GRAY8 && (int) LM_K_RGBA8 == (int) LM_FORMAT_RGBA8
                 && (int) LM_K_RGBA16 == (int) LM_FORMAT_RGBA16 && (int) LM_K_GRAY16 == (int) LM_FORMAT_GRAY16);

/* The HDR entries' device buffers, made at the first entry that needs each. */
struct _LmCudaHdr {
  LmKHdrScratch scratch; /* the merges', the gamma correction's and tone mapping's */
  size_t rows_size, state_size;
  void *pyramids;        /* Mertens' weights' sum and pyramids */
  size_t pyramids_size;
  void *mtb;             /* AlignMTB's histograms, bitmaps and counts */
  size_t mtb_size;
  int *host_shifts;      /* pinned, 2 × LM_K_HDR_MAX_EXPOSURES: the alignment's result */
};

static LmCudaHdr *
hdr_of (LmBackendCuda *self)
{
  if (self->hdr == NULL)
    self->hdr = g_new0 (LmCudaHdr, 1);
  return self->hdr;
}

/* The HDR kernels' per-row partial sums, for images up to HEIGHT rows, and their state. */
static gboolean
ensure_scratch (LmBackendCuda *self, guint height, GError **error)
{
  LmCudaHdr *hdr = hdr_of (self);
  return lm_cuda_grow_workspace (self, &hdr->scratch.rows, &hdr->rows_size, lm_k_hdr_rows_size (height), error)
         && lm_cuda_grow_workspace (self, &hdr->scratch.state, &hdr->state_size, lm_k_hdr_state_size (), error);
}

/* The stack's pixels as the kernels see them (exposure times left to the radiance merges). */
static LmKStack
kstack (const LmHdrStack *stack)
{
  const LmImage *first = stack->images[0];
  LmKStack k = { .n = stack->n, .width = first->width, .height = first->height, .stride = first->stride,
                 .format = (int) first->format };
  for (guint i = 0; i < stack->n; i++)
    k.images[i] = stack->images[i]->data;
  return k;
}

/* What every HDR entry assumes of a stack; lm_backend_hdr_* already checked the shapes. */
static gboolean
stack_fits (const LmHdrStack *stack)
{
  const LmImage *first = stack->images[0];
  g_return_val_if_fail (stack->n <= LM_K_HDR_MAX_EXPOSURES, FALSE);
  g_return_val_if_fail (first->format == LM_FORMAT_RGBA8 || first->format == LM_FORMAT_GRAY8
                        || first->format == LM_FORMAT_RGBA16 || first->format == LM_FORMAT_GRAY16, FALSE);
  for (guint i = 0; i < stack->n; i++)
    g_return_val_if_fail (stack->images[i]->allocator->memory == LM_MEMORY_DEVICE
                          && stack->images[i]->stride == first->stride, FALSE);
  return TRUE;
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
          table[3 * LM_HDR_LEVELS + z] = lm_robertson_merge_weight (z);
        }
  if (bad < 0)
    return TRUE;
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
               _("the response is not positive at level %d: it cannot be a camera's"), bad);
  return FALSE;
}

/* Debevec's and Robertson's merges, with the gamma correction, entirely on the device. */
static gboolean
merge_radiance (LmBackendCuda *self, const LmHdrMergeParams *params, const LmHdrStack *stack, LmImage *out,
                GError **error)
{
  gboolean robertson = params->method == LM_HDR_ROBERTSON;
  float table[4 * LM_HDR_LEVELS];
  if (!merge_table (params, table, error))
    return FALSE;
  LmKStack k = kstack (stack);
  for (guint i = 0; i < stack->n; i++)
    k.time[i] = robertson ? (float) stack->times[i] : lm_hdr_log_time (stack->times[i]);
  LmKImage k_out = lm_cuda_kimage (out);
  if (!lm_cuda_use_device (self, error) || !ensure_scratch (self, k.height, error))
    return FALSE;
  const LmKHdrScratch *scratch = &self->hdr->scratch;
  if (robertson)
    return CHECK (lm_k_hdr_robertson (&k, table, params->gamma_correction, &k_out, scratch, self->stream), error);
  return CHECK (lm_k_hdr_debevec (&k, table, params->gamma_correction, &k_out, scratch, self->stream), error);
}

/* The linear merge of 16-bit exposures: their scales from the times, as the CPU's. */
static gboolean
merge_linear (LmBackendCuda *self, const LmHdrMergeParams *params, const LmHdrStack *stack, LmImage *out,
              GError **error)
{
  g_return_val_if_fail (lm_format_depth (stack->images[0]->format) == 16 && stack->times != NULL, FALSE);
  LmKStack k = kstack (stack);
  for (guint i = 0; i < stack->n; i++)
    k.time[i] = lm_hdr_linear_scale (stack->times[i]);
  LmKImage k_out = lm_cuda_kimage (out);
  return lm_cuda_use_device (self, error) && ensure_scratch (self, k.height, error)
         && CHECK (lm_k_hdr_linear (&k, params->gamma_correction, &k_out, &self->hdr->scratch, self->stream),
                   error);
}

/* Mertens' fusion: the weights, their sum, and each exposure's pyramids streamed into one
 * accumulating pyramid, on the device; the same float operations as the CPU's. */
static gboolean
fuse_mertens (LmBackendCuda *self, const LmHdrMergeParams *params, const LmHdrStack *stack, LmImage *out,
              GError **error)
{
  const LmMertensParams *p = &params->mertens;
  if (!(p->contrast >= 0.0f && p->saturation >= 0.0f && p->exposedness >= 0.0f))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("exposure fusion: the exponents of contrast, saturation and exposure must not be negative"));
      return FALSE;
    }
  LmKStack k = kstack (stack);
  int levels = lm_mertens_levels (k.width, k.height); /* core/hdr/mertens.c's pyramids */
  g_return_val_if_fail (levels >= 1 && levels <= LM_K_MERTENS_MAX_LEVELS, FALSE);
  LmKMertens kp = { p->contrast, p->saturation, p->exposedness };
  LmKImage k_out = lm_cuda_kimage (out);
  return lm_cuda_use_device (self, error) && ensure_scratch (self, k.height, error)
         && lm_cuda_grow_workspace (self, &self->hdr->pyramids, &self->hdr->pyramids_size,
                                    lm_k_mertens_workspace_size (k.width, k.height, levels), error)
         && CHECK (lm_k_mertens (&k, &kp, levels, params->gamma_correction, &k_out, self->hdr->pyramids,
                                 &self->hdr->scratch, self->stream),
                   error);
}

gboolean
lm_cuda_hdr_merge (LmBackend *b, const LmHdrMergeParams *params, const LmHdrStack *stack, LmImage *out,
                   GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  if (!stack_fits (stack) || !lm_hdr_merge_check_depth (params->method, stack, error))
    return FALSE;
  switch (params->method)
    {
    case LM_HDR_DEBEVEC:
    case LM_HDR_ROBERTSON:
      return merge_radiance (self, params, stack, out, error);
    case LM_HDR_MERTENS:
      return fuse_mertens (self, params, stack, out, error);
    case LM_HDR_LINEAR:
      return merge_linear (self, params, stack, out, error);
    default:
      g_return_val_if_reached (FALSE);
    }
}

/* AlignMTB: the levels that core/hdr/align.c uses (OpenCV's expression, in double), every
 * exposure against the middle one; the shifts come back to the host, so this waits. */
gboolean
lm_cuda_hdr_align (LmBackend *b, const LmAlignParams *params, const LmHdrStack *stack, LmShift *shifts,
                   GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  if (params->max_bits < 0 || params->max_bits > LM_K_MTB_MAX_LEVELS || params->exclude_range < 0
      || params->exclude_range > 255)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("alignment: max bits %d and exclusion range %d are outside 0..%d and 0..255"),
                   params->max_bits, params->exclude_range, LM_K_MTB_MAX_LEVELS);
      return FALSE;
    }
  if (!stack_fits (stack))
    return FALSE;
  LmKStack k = kstack (stack);
  int maxlevel = lm_mtb_max_level (k.width, k.height, params->max_bits);
  for (guint i = 0; i < stack->n; i++)
    shifts[i] = (LmShift) { 0, 0 };
  if (maxlevel < 0)
    return TRUE; /* no level to search: OpenCV's shifts are all zero */

  int levels = maxlevel + 1;
  LmCudaHdr *hdr = hdr_of (self);
  if (!lm_cuda_use_device (self, error)
      || (hdr->host_shifts == NULL
          && !CHECK (cudaHostAlloc ((void **) &hdr->host_shifts, 2 * LM_K_HDR_MAX_EXPOSURES * sizeof (int),
                                    cudaHostAllocDefault), error))
      || !lm_cuda_grow_workspace (self, &hdr->mtb, &hdr->mtb_size, lm_k_mtb_workspace_size (&k, levels), error)
      || !CHECK (lm_k_mtb (&k, levels, params->exclude_range, stack->n / 2, hdr->mtb, hdr->host_shifts,
                           self->stream), error)
      || !CHECK (cudaStreamSynchronize (self->stream), error))
    return FALSE;
  for (guint i = 0; i < stack->n; i++)
    shifts[i] = (LmShift) { hdr->host_shifts[2 * i], hdr->host_shifts[2 * i + 1] };
  return TRUE;
}

gboolean
lm_cuda_tonemap (LmBackend *b, const LmTonemapParams *params, const LmImage *radiance, LmImage *out,
                 GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  if (!(params->gamma > 0.0f))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("the gamma must be positive"));
      return FALSE;
    }
  g_return_val_if_fail (params->kind >= LM_TONEMAP_NONE && params->kind <= LM_TONEMAP_SIGMOID, FALSE);
  LmKTonemap k = lm_cuda_ktonemap (params);
  LmKImage in = lm_cuda_kimage (radiance), k_out = lm_cuda_kimage (out);
  return lm_cuda_use_device (self, error) && ensure_scratch (self, radiance->height, error)
         && CHECK (lm_k_tonemap (&k, &in, &k_out, &self->hdr->scratch, self->stream), error);
}

gboolean
lm_cuda_rgbe_encode (LmBackend *b, const LmImage *radiance, LmImage *out, GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  LmKImage in = lm_cuda_kimage (radiance), k_out = lm_cuda_kimage (out);
  return lm_cuda_use_device (self, error) && CHECK (lm_k_rgbe_encode (&in, &k_out, self->stream), error);
}

/* The buffers above, after the backend's stream has finished with them. */
void
lm_cuda_hdr_release (LmBackendCuda *self)
{
  LmCudaHdr *hdr = g_steal_pointer (&self->hdr);
  if (hdr == NULL)
    return;
  lm_cuda_free (hdr->scratch.rows);
  lm_cuda_free (hdr->scratch.state);
  lm_cuda_free (hdr->pyramids);
  lm_cuda_free (hdr->mtb);
  if (hdr->host_shifts != NULL)
    RELEASE (cudaFreeHost (hdr->host_shifts));
  g_free (hdr);
}

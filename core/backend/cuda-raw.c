/* The CUDA backend's raw development (core/raw/develop.h): the host computes the setup
 * (lm_raw_setup, as the CPU does), then queues the prepared plane (raw-prep.cu), the demosaic
 * (demosaic-rcd.cu, demosaic-fast.cu, demosaic-xtrans.cu), its refinement (demosaic-refine.cu)
 * and the matrix (raw-develop.cu) on the backend's stream. The plane and the steps' scratch are kept at the largest size seen, so
 * that moving a slider allocates nothing. */
#include <glib/gi18n.h>

#include "../error.h"
#include "cuda-private.h"
#include "kernels/demosaic-kernels.h"
#include "kernels/demosaic-refine-kernels.h"
#include "kernels/demosaic-xtrans-kernels.h"
#include "kernels/raw-develop-kernels.h"
#include "kernels/raw-prep-kernels.h"
#include "../ops/demosaic-xtrans-math.h"

#define CHECK(call, error) LM_CUDA_CHECK (call, error)

struct _LmCudaRaw {
  float *plane; /* the prepared CFA, one float per site */
  size_t plane_size;
  void *prep_scratch, *demosaic_scratch;
  size_t prep_size, demosaic_size;
  float *cbrt_table; /* X-Trans's Lab cube roots, built on the host once (demosaic-xtrans-math.h) */
  size_t cbrt_size;
};

/* The cube-root table the X-Trans demosaic reads, uploaded at its first use. */
static gboolean
ensure_cbrt_table (LmBackendCuda *self, GError **error)
{
  LmCudaRaw *raw = self->raw;
  if (raw->cbrt_table != NULL)
    return TRUE;
  g_autofree float *table = g_new (float, LM_XT_CBRT_ENTRIES);
  lm_xtrans_cbrt_fill (table);
  return lm_cuda_grow_workspace (self, (void **) &raw->cbrt_table, &raw->cbrt_size,
                                 LM_XT_CBRT_ENTRIES * sizeof (float), error)
         && CHECK (cudaMemcpyAsync (raw->cbrt_table, table, LM_XT_CBRT_ENTRIES * sizeof (float),
                                    cudaMemcpyHostToDevice, self->stream),
                   error)
         && CHECK (cudaStreamSynchronize (self->stream), error);
}

static LmCudaRaw *
raw_of (LmBackendCuda *self)
{
  if (self->raw == NULL)
    self->raw = g_new0 (LmCudaRaw, 1);
  return self->raw;
}

static size_t
demosaic_scratch_size (const LmRawSetup *setup, int width, int height)
{
  switch (setup->method)
    {
    case LM_RAW_DEMOSAIC_MARKESTEIJN3:
      return lm_k_markesteijn_scratch (width, height, 3);
    case LM_RAW_DEMOSAIC_MARKESTEIJN1:
      return lm_k_markesteijn_scratch (width, height, 1);
    case LM_RAW_DEMOSAIC_BILINEAR:
      return 0;
    default:
      return lm_k_demosaic_rcd_scratch (width, height);
    }
}

static cudaError_t
demosaic (LmBackendCuda *self, const LmRawSetup *setup, int width, int height, float *rgba, size_t stride)
{
  LmCudaRaw *raw = self->raw;
  switch (setup->method)
    {
    case LM_RAW_DEMOSAIC_MARKESTEIJN3:
    case LM_RAW_DEMOSAIC_MARKESTEIJN1:
      return lm_k_markesteijn (raw->plane, width, height, &setup->cfa,
                               setup->method == LM_RAW_DEMOSAIC_MARKESTEIJN3 ? 3 : 1, setup->cam_to_xyz,
                               raw->cbrt_table, rgba, stride, raw->demosaic_scratch, self->stream);
    case LM_RAW_DEMOSAIC_BILINEAR:
      return lm_k_demosaic_bilinear (raw->plane, width, height, &setup->cfa, rgba, stride, NULL, self->stream);
    default:
      return lm_k_demosaic_rcd (raw->plane, width, height, &setup->cfa, rgba, stride, raw->demosaic_scratch,
                                self->stream);
    }
}

gboolean
lm_cuda_develop_raw (LmBackend *b, const LmRawParams *params, const LmRawInfo *info, const LmImage *src, LmImage *out,
                     GError **error)
{
  LmBackendCuda *self = lm_cuda_self (b);
  if (!lm_cuda_use_device (self, error))
    return FALSE;
  LmRawSetup setup;
  lm_raw_setup (params, info, &setup);
  LmKImage k_src = lm_cuda_kimage (src);
  float *rgba = (float *) out->data;
  size_t stride = out->stride / sizeof (float);
  int width = (int) src->width, height = (int) src->height;
  LmCudaRaw *raw = raw_of (self);

  if (info->layout == LM_RAW_LINEAR || info->layout == LM_RAW_MONO)
    {
      if (!CHECK (lm_k_raw_prep_linear (&setup.prep, &k_src, rgba, stride, self->stream), error))
        return FALSE;
    }
  else
    {
      gsize plane_bytes;
      if (!g_size_checked_mul (&plane_bytes, (gsize) width * (gsize) height, sizeof (float)))
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_TOO_LARGE, _("the raw data is too large (%d × %d)"), width,
                       height);
          return FALSE;
        }
      if (!lm_cuda_grow_workspace (self, (void **) &raw->plane, &raw->plane_size, plane_bytes, error)
          || !lm_cuda_grow_workspace (self, &raw->prep_scratch, &raw->prep_size,
                                      lm_k_raw_prep_scratch (width, height, params->highlights), error)
          || !lm_cuda_grow_workspace (self, &raw->demosaic_scratch, &raw->demosaic_size,
                                      demosaic_scratch_size (&setup, width, height), error)
          || (info->layout == LM_RAW_XTRANS && !ensure_cbrt_table (self, error)))
        return FALSE;
      if (!CHECK (lm_k_raw_prep (&setup.prep, &k_src, raw->plane, raw->prep_scratch, self->stream), error)
          || !CHECK (demosaic (self, &setup, width, height, rgba, stride), error)
          || (setup.method != LM_RAW_DEMOSAIC_BILINEAR
              && !CHECK (lm_k_demosaic_refine (raw->plane, width, height, &setup.cfa, rgba, stride, self->stream),
                         error)))
        return FALSE;
    }
  return CHECK (lm_k_raw_matrix (rgba, stride, width, height, setup.matrix, self->stream), error);
}

void
lm_cuda_raw_release (LmBackendCuda *self)
{
  LmCudaRaw *raw = self->raw;
  if (raw == NULL)
    return;
  lm_cuda_free (raw->plane);
  lm_cuda_free (raw->prep_scratch);
  lm_cuda_free (raw->demosaic_scratch);
  lm_cuda_free (raw->cbrt_table);
  g_clear_pointer (&self->raw, g_free);
}

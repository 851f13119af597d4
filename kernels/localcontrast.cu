// Local contrast on the GPU: the fast local Laplacian of core/ops/localcontrast-math.h, pass
// for pass as the CPU reference (localcontrast.c) runs it, each thread computing one sample of
// a level with the header's functions, so the sums have the CPU's order (built --fmad=false).
// Scratch: ℓ's Gaussian pyramid, the output pyramid and one working pyramid, then two words for
// the range of ℓ. That range decides which γ samples are enqueued, so it is read back once a
// run (8 bytes, one wait): a fixed bound would enqueue hundreds of empty passes on scene light.
#include <climits>
#include <cstring>

#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kMaxBlocks = 65535u * 16u;

struct Luminance {
  float w[3];
};

// Blocks for N samples, each thread taking every (blocks · kThreads)-th: any size.
unsigned
blocks_for (size_t n)
{
  size_t b = (n + kThreads - 1) / kThreads;
  return (unsigned) (b < kMaxBlocks ? (b ? b : 1) : kMaxBlocks);
}

#define LM_LC_FOR(i, n) for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < (n); i += (size_t) gridDim.x * blockDim.x)

__global__ void
log_luma (const uint8_t *src, size_t stride, int w, int h, int depth, int ch, Luminance lum, float *g)
{
  LM_LC_FOR (i, (size_t) w * h)
    {
      int x = (int) (i % (size_t) w), y = (int) (i / (size_t) w);
      g[i] = lm_lc_pixel_log (src + (size_t) y * stride, x, depth, ch, lum.w);
    }
}

__global__ void
reduce (const float *fine, int fw, int fh, float *coarse, int w, int h)
{
  LM_LC_FOR (i, (size_t) w * h)
    coarse[i] = lm_lc_reduce_at (fine, fw, fh, (int) (i % (size_t) w), (int) (i / (size_t) w));
}

// Floats ordered as ints (no NaN reaches here: ℓ is clamped), for atomicMin / atomicMax.
__device__ inline int
ordered (float v)
{
  int b = __float_as_int (v);
  return b >= 0 ? b : b ^ 0x7fffffff;
}

__global__ void
range_of (const float *v, size_t n, int *lohi)
{
  int lo = INT_MAX, hi = INT_MIN;
  LM_LC_FOR (i, n)
    {
      int o = ordered (v[i]);
      lo = min (lo, o), hi = max (hi, o);
    }
  atomicMin (&lohi[0], lo);
  atomicMax (&lohi[1], hi);
}

__global__ void
remap (const float *g, float *r, size_t n, float gamma, float sigma, float amount)
{
  LM_LC_FOR (i, n)
    r[i] = lm_lc_remap (g[i], gamma, sigma, amount);
}

__global__ void
accumulate (const float *r, int w, int h, const float *rc, int cw, int ch, const float *g, float *o, int k,
            float step)
{
  LM_LC_FOR (i, (size_t) w * h)
    lm_lc_accumulate_at (r, w, rc, cw, ch, g, o, (int) (i % (size_t) w), (int) (i / (size_t) w), k, step);
}

__global__ void
collapse_level (float *fine, int w, int h, const float *coarse, int cw, int ch)
{
  LM_LC_FOR (i, (size_t) w * h)
    fine[i] = fine[i] + lm_lc_expand_at (coarse, cw, ch, (int) (i % (size_t) w), (int) (i / (size_t) w));
}

__global__ void
apply (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, int w, int h, int depth, int ch,
       const float *g, const float *o)
{
  LM_LC_FOR (i, (size_t) w * h)
    {
      int x = (int) (i % (size_t) w), y = (int) (i / (size_t) w);
      lm_lc_pixel_apply (src + (size_t) y * src_stride, dst + (size_t) y * dst_stride, x, depth, ch,
                         lm_tm_exp2 (o[i] - g[i]));
    }
}

float
unordered (int o)
{
  int b = o >= 0 ? o : o ^ 0x7fffffff;
  float v;
  memcpy (&v, &b, sizeof v);
  return v;
}

// Bytes a sample and channels of FORMAT; FALSE for formats the operation does not take.
bool
layout (int format, int *depth, int *ch)
{
  switch (format)
    {
    case LM_K_GRAY8: *depth = 1, *ch = 1; return true;
    case LM_K_RGBA8: *depth = 1, *ch = 4; return true;
    case LM_K_GRAY16: *depth = 2, *ch = 1; return true;
    case LM_K_RGBA16: *depth = 2, *ch = 4; return true;
    case LM_K_GRAY_F32: *depth = 4, *ch = 1; return true;
    case LM_K_RGBA_F32: *depth = 4, *ch = 4; return true;
    default: return false;
    }
}

constexpr size_t kRangeBytes = 256;

size_t
pyramid_bytes (int levels, const LmKImage *src)
{
  LmLcPyramid pyr;
  lm_lc_pyramid ((int) src->width, (int) src->height, levels, &pyr);
  return pyr.total * sizeof (float);
}

} // namespace

static size_t
localcontrast_workspace (const void *params, const LmKImage *src)
{
  return 3 * pyramid_bytes (lm_lc_levels (static_cast<const LmLocalcontrastParams *> (params)->radius), src)
         + kRangeBytes;
}

// The most levels take the most memory.
static size_t
localcontrast_workspace_max (const LmKImage *src)
{
  return 3 * pyramid_bytes (LM_LOCALCONTRAST_LEVELS_MAX, src) + kRangeBytes;
}

static cudaError_t
localcontrast_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
                      cudaStream_t stream)
{
  const LmLocalcontrastParams *p = static_cast<const LmLocalcontrastParams *> (params);
  int depth, ch;
  if (!layout (src->format, &depth, &ch) || scratch->size < localcontrast_workspace (p, src))
    return cudaErrorInvalidValue;
  if (src->width == 0 || src->height == 0)
    return cudaSuccess;
  LmLcPyramid pyr;
  lm_lc_pyramid ((int) src->width, (int) src->height, lm_lc_levels (p->radius), &pyr);
  float *g = static_cast<float *> (scratch->data), *o = g + pyr.total, *r = o + pyr.total;
  int *lohi = reinterpret_cast<int *> (r + pyr.total);
  int w = pyr.w[0], h = pyr.h[0];

  Luminance lum = { { p->luminance[0], p->luminance[1], p->luminance[2] } };
  log_luma<<<blocks_for ((size_t) w * h), kThreads, 0, stream>>> (static_cast<const uint8_t *> (src->data),
                                                                   src->stride, w, h, depth, ch, lum, g);
  LM_CUDA_LAUNCHED ();
  for (int l = 1; l < pyr.levels; l++)
    {
      reduce<<<blocks_for ((size_t) pyr.w[l] * pyr.h[l]), kThreads, 0, stream>>> (
          g + pyr.offset[l - 1], pyr.w[l - 1], pyr.h[l - 1], g + pyr.offset[l], pyr.w[l], pyr.h[l]);
      LM_CUDA_LAUNCHED ();
    }

  int init[2] = { INT_MAX, INT_MIN }, range[2];
  LM_CUDA_TRY (cudaMemcpyAsync (lohi, init, sizeof init, cudaMemcpyHostToDevice, stream));
  range_of<<<blocks_for (pyr.total), kThreads, 0, stream>>> (g, pyr.total, lohi);
  LM_CUDA_LAUNCHED ();
  LM_CUDA_TRY (cudaMemcpyAsync (range, lohi, sizeof range, cudaMemcpyDeviceToHost, stream));
  LM_CUDA_TRY (cudaMemsetAsync (o, 0, pyr.total * sizeof (float), stream));
  LM_CUDA_TRY (cudaStreamSynchronize (stream));

  float step = lm_lc_step (p);
  int k_lo = (int) floorf (unordered (range[0]) / step), k_hi = (int) floorf (unordered (range[1]) / step) + 1;
  size_t n0 = (size_t) w * h;
  for (int k = k_lo; k <= k_hi; k++)
    {
      remap<<<blocks_for (n0), kThreads, 0, stream>>> (g, r, n0, (float) k * step, p->range, p->amount);
      LM_CUDA_LAUNCHED ();
      for (int l = 1; l < pyr.levels; l++)
        {
          reduce<<<blocks_for ((size_t) pyr.w[l] * pyr.h[l]), kThreads, 0, stream>>> (
              r + pyr.offset[l - 1], pyr.w[l - 1], pyr.h[l - 1], r + pyr.offset[l], pyr.w[l], pyr.h[l]);
          LM_CUDA_LAUNCHED ();
        }
      for (int l = 0; l + 1 < pyr.levels; l++)
        {
          accumulate<<<blocks_for ((size_t) pyr.w[l] * pyr.h[l]), kThreads, 0, stream>>> (
              r + pyr.offset[l], pyr.w[l], pyr.h[l], r + pyr.offset[l + 1], pyr.w[l + 1], pyr.h[l + 1],
              g + pyr.offset[l], o + pyr.offset[l], k, step);
          LM_CUDA_LAUNCHED ();
        }
    }

  int top = pyr.levels - 1;
  LM_CUDA_TRY (cudaMemcpyAsync (o + pyr.offset[top], g + pyr.offset[top], (size_t) pyr.w[top] * pyr.h[top] * sizeof (float),
                                cudaMemcpyDeviceToDevice, stream));
  for (int l = top - 1; l >= 0; l--)
    {
      collapse_level<<<blocks_for ((size_t) pyr.w[l] * pyr.h[l]), kThreads, 0, stream>>> (
          o + pyr.offset[l], pyr.w[l], pyr.h[l], o + pyr.offset[l + 1], pyr.w[l + 1], pyr.h[l + 1]);
      LM_CUDA_LAUNCHED ();
    }
  apply<<<blocks_for (n0), kThreads, 0, stream>>> (static_cast<const uint8_t *> (src->data), src->stride,
                                                    static_cast<uint8_t *> (dst->data), dst->stride, w, h, depth, ch, g,
                                                    o);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" const LmKOp lm_k_localcontrast_op = { localcontrast_workspace, localcontrast_workspace_max,
                                                 localcontrast_launch };

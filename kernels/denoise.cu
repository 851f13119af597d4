// Noise reduction on the GPU: the passes of core/ops/denoise.c, one kernel each, on the same
// planes of floats, each sum in the same order with the arithmetic of core/ops/denoise-math.h
// (--fmad=false, IEEE division): the bytes of the CPU reference on 8- and 16-bit images. On
// scene light the transfer's powf differs from glibc's in the last place.
//
// σ stays on the device: when it is estimated, the counts go to an integer histogram (atomic
// adds, so any order counts the same) and one block picks the median into the float that the
// shrink kernels read; the host waits for nothing.
#include <string.h>

#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr int kPlanes = 8; // Y U V, two levels in turn, the row pass's, the sum, the squares
enum { P_Y, P_U, P_V, P_A, P_B, P_T, P_ACC, P_X };
constexpr int kBx = 32, kBy = 8;

size_t
align64 (size_t n)
{
  return (n + 63) & ~(size_t) 63;
}

bool
is_gray (const LmKImage *image)
{
  return image->format == LM_K_GRAY8 || image->format == LM_K_GRAY16;
}

// The scratch's parts: the planes, the histogram, the counts the median reads, σ.
struct Layout {
  size_t plane_floats;
  size_t planes_bytes, hist_bytes, counts_bytes;
};

Layout
layout_of (unsigned width, unsigned height)
{
  Layout l;
  l.plane_floats = align64 ((size_t) width * height * sizeof (float)) / sizeof (float);
  l.planes_bytes = l.plane_floats * sizeof (float) * kPlanes;
  l.hist_bytes = align64 ((size_t) LM_DENOISE_HIST_SIZE * sizeof (uint32_t));
  l.counts_bytes = align64 (sizeof (float));
  return l;
}

__device__ inline float
sample_of (const uint8_t *row, int x, int c, int format)
{
  switch (format)
    {
    case LM_K_GRAY8: return row[x];
    case LM_K_GRAY16: return lm_u16_value (reinterpret_cast<const uint16_t *> (row)[x]);
    case LM_K_RGBA8: return row[4 * x + c];
    case LM_K_RGBA16: return lm_u16_value (reinterpret_cast<const uint16_t *> (row)[4 * x + c]);
    default: return lm_denoise_scene_in (reinterpret_cast<const float *> (row)[4 * x + c]);
    }
}

__global__ void
load_planes (const uint8_t *src, size_t stride, int format, int w, int h, float *p0, float *p1, float *p2)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const uint8_t *row = src + (size_t) y * stride;
  size_t i = (size_t) y * w + x;
  if (format == LM_K_GRAY8 || format == LM_K_GRAY16)
    {
      p0[i] = sample_of (row, x, 0, format);
      return;
    }
  float r = sample_of (row, x, 0, format), g = sample_of (row, x, 1, format), b = sample_of (row, x, 2, format);
  lm_denoise_to_yuv (r, g, b, &p0[i], &p1[i], &p2[i]);
}

__global__ void
store_planes (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, int format, int w, int h,
              const float *p0, const float *p1, const float *p2)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  size_t i = (size_t) y * w + x;
  const uint8_t *in = src + (size_t) y * src_stride;
  uint8_t *out = dst + (size_t) y * dst_stride;
  if (format == LM_K_GRAY8)
    {
      out[x] = lm_quantize_u8 (p0[i]);
      return;
    }
  if (format == LM_K_GRAY16)
    {
      reinterpret_cast<uint16_t *> (out)[x] = lm_quantize_u16 (p0[i]);
      return;
    }
  float c[3];
  lm_denoise_to_rgb (p0[i], p1[i], p2[i], &c[0], &c[1], &c[2]);
  if (format == LM_K_RGBA8)
    {
      out[4 * x] = lm_quantize_u8 (c[0]), out[4 * x + 1] = lm_quantize_u8 (c[1]);
      out[4 * x + 2] = lm_quantize_u8 (c[2]), out[4 * x + 3] = in[4 * x + 3];
    }
  else if (format == LM_K_RGBA16)
    {
      uint16_t *q = reinterpret_cast<uint16_t *> (out) + 4 * x;
      q[0] = lm_quantize_u16 (c[0]), q[1] = lm_quantize_u16 (c[1]), q[2] = lm_quantize_u16 (c[2]);
      q[3] = reinterpret_cast<const uint16_t *> (in)[4 * x + 3];
    }
  else
    {
      float *q = reinterpret_cast<float *> (out) + 4 * x;
      q[0] = lm_denoise_scene_out (c[0]), q[1] = lm_denoise_scene_out (c[1]), q[2] = lm_denoise_scene_out (c[2]);
      q[3] = reinterpret_cast<const float *> (in)[4 * x + 3];
    }
}

// One B3 level along the rows (AXIS 0) or the columns (AXIS 1), taps S apart.
__global__ void
b3_pass (const float *in, float *out, int w, int h, int s, int columns)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float v[5];
  if (columns)
    for (int k = 0; k < 5; k++)
      v[k] = in[(size_t) lm_reflect101 (y + (k - 2) * s, h) * w + x];
  else
    {
      const float *row = in + (size_t) y * w;
      for (int k = 0; k < 5; k++)
        v[k] = row[lm_reflect101 (x + (k - 2) * s, w)];
    }
  out[(size_t) y * w + x] = lm_denoise_b3 (v[0], v[1], v[2], v[3], v[4]);
}

__global__ void
square_diff (const float *a, const float *b, float *out, size_t n)
{
  size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    {
      float d = a[i] - b[i];
      out[i] = d * d;
    }
}

// The rows' sums over 2R + 1 neighbours, left to right; with B set, of (IN − B)² (the
// estimate's 9×9 window of c₁ − c₂), else of IN.
__global__ void
rows_box (const float *in, const float *b, float *out, int w, int h, int r)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const float *row = in + (size_t) y * w, *brow = b ? b + (size_t) y * w : nullptr;
  float s = 0.0f;
  for (int k = -r; k <= r; k++)
    {
      int i = lm_reflect101 (x + k, w);
      float v = row[i];
      if (brow)
        {
          float d = v - brow[i];
          v = d * d;
        }
      s = k == -r ? v : s + v;
    }
  out[(size_t) y * w + x] = s;
}

__device__ inline float
column_box (const float *t, int w, int h, int x, int y, int r)
{
  float s = t[(size_t) lm_reflect101 (y - r, h) * w + x];
  for (int k = -r + 1; k <= r; k++)
    s = s + t[(size_t) lm_reflect101 (y + k, h) * w + x];
  return s;
}

// One level's shrink: E from the rows' sums T, the gain, and the sum of shrunk details.
__global__ void
shrink_level (const float *cur, const float *nxt, const float *t, float *acc, int w, int h, const float *sigma, float k,
              int j, float d)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  size_t i = (size_t) y * w + x;
  float thr = lm_denoise_threshold (k, *sigma, j);
  float wv = cur[i] - nxt[i];
  float g = lm_denoise_gain (column_box (t, w, h, x, y, 3) / 49.0f, thr, d);
  acc[i] = j == 0 ? g * wv : acc[i] + g * wv;
}

__global__ void
add_planes (float *c0, const float *cur, const float *acc, size_t n)
{
  size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c0[i] = cur[i] + acc[i];
}

// The estimate's counts: P0 (Y or gray), C1 its first level, C2 the second levels of each
// plane, T the rows' sums of (c₁ − c₂)².
__global__ void
count_pixels (const float *p0, const float *c1, const float *c2y, const float *c2u, const float *c2v, const float *t,
              int w, int h, int gray, uint32_t *hist)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  size_t i = (size_t) y * w + x;
  float cr, cg, cb;
  if (gray)
    cr = cg = cb = c2y[i];
  else
    lm_denoise_to_rgb (c2y[i], c2u[i], c2v[i], &cr, &cg, &cb);
  if (!lm_denoise_counts (cr, cg, cb))
    return;
  float e = column_box (t, w, h, x, y, LM_DENOISE_EST_BOX) / 81.0f;
  int eb = lm_denoise_e_bin (e), wb = lm_denoise_w_bin (p0[i] - c1[i]);
  atomicAdd (&hist[(size_t) eb * LM_DENOISE_W_BINS + wb], 1u);
}

// One block: the e bins' totals, the last flat bin, the |w₀| counts up to it, the median.
constexpr int kSelectThreads = 1024;

__global__ void
select_sigma (const uint32_t *hist, float *sigma)
{
  __shared__ uint64_t e_totals[LM_DENOISE_E_BINS];
  __shared__ uint64_t w_counts[LM_DENOISE_W_BINS];
  __shared__ int last;
  __shared__ uint64_t selected;
  for (int b = threadIdx.x; b < LM_DENOISE_E_BINS; b += blockDim.x)
    {
      uint64_t s = 0;
      for (int wb = 0; wb < LM_DENOISE_W_BINS; wb++)
        s += hist[(size_t) b * LM_DENOISE_W_BINS + wb];
      e_totals[b] = s;
    }
  __syncthreads ();
  if (threadIdx.x == 0)
    {
      uint64_t sel;
      last = lm_denoise_flat_last (e_totals, &sel);
      selected = sel;
    }
  __syncthreads ();
  for (int wb = threadIdx.x; wb < LM_DENOISE_W_BINS; wb += blockDim.x)
    {
      uint64_t s = 0;
      for (int b = 0; b <= last; b++)
        s += hist[(size_t) b * LM_DENOISE_W_BINS + wb];
      w_counts[wb] = s;
    }
  __syncthreads ();
  if (threadIdx.x == 0)
    *sigma = (float) lm_denoise_median_sigma (w_counts, selected);
}

__global__ void
set_sigma (float *sigma, float value)
{
  *sigma = value;
}

dim3
grid_of (int w, int h)
{
  return dim3 (lm_div_up (w, kBx), lm_div_up (h, kBy));
}

cudaError_t
b3_level (const float *in, float *tmp, float *out, int w, int h, int s, cudaStream_t stream)
{
  dim3 block (kBx, kBy);
  b3_pass<<<grid_of (w, h), block, 0, stream>>> (in, tmp, w, h, s, 0);
  LM_CUDA_LAUNCHED ();
  b3_pass<<<grid_of (w, h), block, 0, stream>>> (tmp, out, w, h, s, 1);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

// The estimate of σ into *SIGMA (device memory), as core/ops/denoise.c's count_planes.
cudaError_t
estimate (float *const *planes, int w, int h, int gray, uint32_t *hist, float *sigma, cudaStream_t stream)
{
  float *c1 = planes[P_A], *c2[3] = { planes[P_B], planes[P_ACC], planes[P_X] }, *t = planes[P_T];
  for (int ch = 0; ch < (gray ? 1 : 3); ch++)
    {
      float *first = ch == 0 ? c1 : c2[ch];
      LM_CUDA_TRY (b3_level (planes[ch], t, first, w, h, 1, stream));
      LM_CUDA_TRY (b3_level (first, t, c2[ch], w, h, 2, stream));
    }
  dim3 block (kBx, kBy);
  rows_box<<<grid_of (w, h), block, 0, stream>>> (c1, c2[0], t, w, h, LM_DENOISE_EST_BOX);
  LM_CUDA_LAUNCHED ();
  LM_CUDA_TRY (cudaMemsetAsync (hist, 0, (size_t) LM_DENOISE_HIST_SIZE * sizeof (uint32_t), stream));
  count_pixels<<<grid_of (w, h), block, 0, stream>>> (planes[P_Y], c1, c2[0], c2[1], c2[2], t, w, h, gray, hist);
  LM_CUDA_LAUNCHED ();
  select_sigma<<<1, kSelectThreads, 0, stream>>> (hist, sigma);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

cudaError_t
shrink_channel (float *const *planes, float *c0, int w, int h, const float *sigma, float k, float d,
                cudaStream_t stream)
{
  size_t n = (size_t) w * h;
  unsigned flat_blocks = lm_div_up (n, 256);
  float *a = planes[P_A], *b = planes[P_B], *t = planes[P_T], *acc = planes[P_ACC], *sq = planes[P_X];
  float *cur = c0, *nxt = a;
  dim3 block (kBx, kBy);
  for (int j = 0; j < LM_DENOISE_LEVELS; j++)
    {
      LM_CUDA_TRY (b3_level (cur, t, nxt, w, h, 1 << j, stream));
      square_diff<<<flat_blocks, 256, 0, stream>>> (cur, nxt, sq, n);
      LM_CUDA_LAUNCHED ();
      rows_box<<<grid_of (w, h), block, 0, stream>>> (sq, nullptr, t, w, h, 3);
      LM_CUDA_LAUNCHED ();
      shrink_level<<<grid_of (w, h), block, 0, stream>>> (cur, nxt, t, acc, w, h, sigma, k, j, d);
      LM_CUDA_LAUNCHED ();
      cur = nxt;
      nxt = nxt == a ? b : a;
    }
  add_planes<<<flat_blocks, 256, 0, stream>>> (c0, cur, acc, n);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

bool
does_nothing (const LmDenoiseParams *p, const LmKImage *src)
{
  return !(p->luma > 0.0f) && (!(p->chroma > 0.0f) || is_gray (src));
}

bool
supported (const LmKImage *src)
{
  return src->format == LM_K_GRAY8 || src->format == LM_K_GRAY16 || src->format == LM_K_RGBA8
         || src->format == LM_K_RGBA16 || src->format == LM_K_RGBA_F32;
}

} // namespace

static size_t
denoise_workspace_max (const LmKImage *src)
{
  Layout l = layout_of (src->width, src->height);
  return l.planes_bytes + l.hist_bytes + l.counts_bytes;
}

/* Eight planes of floats, the histogram (1 MiB) and σ: 32 bytes a pixel whatever the
 * parameters, none for a step that does nothing. */
static size_t
denoise_workspace (const void *params, const LmKImage *src)
{
  return does_nothing (static_cast<const LmDenoiseParams *> (params), src) ? 0 : denoise_workspace_max (src);
}

static cudaError_t
denoise_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
                cudaStream_t stream)
{
  const LmDenoiseParams *p = static_cast<const LmDenoiseParams *> (params);
  if (!supported (src))
    return cudaErrorInvalidValue;
  if (does_nothing (p, src))
    return cudaMemcpy2DAsync (dst->data, dst->stride, src->data, src->stride,
                              (size_t) src->width * lm_k_bytes_per_pixel (src->format), src->height,
                              cudaMemcpyDeviceToDevice, stream);
  if (scratch->size < denoise_workspace (p, src))
    return cudaErrorInvalidValue;
  int w = (int) src->width, h = (int) src->height, gray = is_gray (src);
  Layout l = layout_of (src->width, src->height);
  float *base = static_cast<float *> (scratch->data);
  float *planes[kPlanes];
  for (int i = 0; i < kPlanes; i++)
    planes[i] = base + (size_t) i * l.plane_floats;
  uint32_t *hist = reinterpret_cast<uint32_t *> (static_cast<uint8_t *> (scratch->data) + l.planes_bytes);
  float *sigma = reinterpret_cast<float *> (static_cast<uint8_t *> (scratch->data) + l.planes_bytes + l.hist_bytes);

  dim3 block (kBx, kBy);
  load_planes<<<grid_of (w, h), block, 0, stream>>> (static_cast<const uint8_t *> (src->data), src->stride, src->format,
                                                     w, h, planes[P_Y], planes[P_U], planes[P_V]);
  LM_CUDA_LAUNCHED ();
  float fixed = lm_denoise_fixed_sigma (p);
  if (fixed < 0.0f)
    LM_CUDA_TRY (estimate (planes, w, h, gray, hist, sigma, stream));
  else
    {
      set_sigma<<<1, 1, 0, stream>>> (sigma, fixed);
      LM_CUDA_LAUNCHED ();
    }
  for (int ch = 0; ch < (gray ? 1 : 3); ch++)
    {
      float k = ch == 0 ? p->luma : p->chroma, d = ch == 0 ? p->luma_detail : p->chroma_detail;
      if (k > 0.0f)
        LM_CUDA_TRY (shrink_channel (planes, planes[ch], w, h, sigma, k, d, stream));
    }
  store_planes<<<grid_of (w, h), block, 0, stream>>> (static_cast<const uint8_t *> (src->data), src->stride,
                                                      static_cast<uint8_t *> (dst->data), dst->stride, src->format, w,
                                                      h, planes[P_Y], planes[P_U], planes[P_V]);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" const LmKOp lm_k_denoise_op = { denoise_workspace, denoise_workspace_max, denoise_launch };

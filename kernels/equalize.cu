// Histogram equalization on the GPU, without a round trip to the host: histogram kernel,
// then the lookup tables built on the device by the same code as the CPU's
// (lm_equalize_lut), then the mapping.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"
#include "kernels/grid-rows.cuh"

namespace {

constexpr unsigned kThreads = 256;

// One thread per channel: 256 steps each, negligible next to the image passes.
__global__ void
build_luts (const uint32_t *bins, uint64_t total, uint8_t *luts)
{
  unsigned c = threadIdx.x;
  lm_equalize_lut (bins + c * LM_HIST_BINS, total, luts + c * LM_HIST_BINS);
}

// Sixteen gray pixels per thread.
__global__ void
apply_gray (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
            unsigned width, const uint8_t *luts, float amount)
{
  __shared__ uint8_t lut[LM_HIST_BINS];
  for (unsigned i = threadIdx.x; i < LM_HIST_BINS; i += blockDim.x)
    lut[i] = luts[3 * LM_HIST_BINS + i];
  __syncthreads ();
  unsigned y = blockIdx.y;
  unsigned x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 16;
  if (x0 >= width)
    return;
  const uint8_t *in = src + y * src_stride;
  uint8_t *out = dst + y * dst_stride;
  if (x0 + 16 <= width)
    {
      uint4 q = *reinterpret_cast<const uint4 *> (in + x0);
      uint32_t *words = &q.x;
#pragma unroll
      for (int w = 0; w < 4; w++)
        {
          uint32_t v = words[w], r = 0;
#pragma unroll
          for (int b = 0; b < 4; b++)
            {
              uint8_t c = (v >> (8 * b)) & 0xff;
              r |= (uint32_t) lm_equalize_channel (c, lut[c], amount) << (8 * b);
            }
          words[w] = r;
        }
      *reinterpret_cast<uint4 *> (out + x0) = q;
      return;
    }
  for (unsigned x = x0; x < width; x++)
    out[x] = lm_equalize_channel (in[x], lut[in[x]], amount);
}

__device__ inline uint32_t
equalize_rgba (uint32_t p, const uint8_t *lut, int luma, float amount)
{
  if (luma)
    {
      uint8_t l = lm_luma_u8 (p);
      return lm_equalize_shift_rgba (p, lm_equalize_luma_shift (l, lut[3 * LM_HIST_BINS + l], amount));
    }
  uint8_t r = p & 0xff, g = (p >> 8) & 0xff, b = (p >> 16) & 0xff;
  return lm_px_pack (lm_equalize_channel (r, lut[r], amount),
                     lm_equalize_channel (g, lut[LM_HIST_BINS + g], amount),
                     lm_equalize_channel (b, lut[2 * LM_HIST_BINS + b], amount), p);
}

// Four RGBA pixels per thread.
__global__ void
apply_rgba (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride,
            unsigned width, const uint8_t *luts, int luma, float amount)
{
  __shared__ uint8_t lut[4 * LM_HIST_BINS];
  for (unsigned i = threadIdx.x; i < 4 * LM_HIST_BINS; i += blockDim.x)
    lut[i] = luts[i];
  __syncthreads ();
  unsigned y = blockIdx.y;
  unsigned x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (x0 >= width)
    return;
  const uint32_t *in = reinterpret_cast<const uint32_t *> (src + y * src_stride);
  uint32_t *out = reinterpret_cast<uint32_t *> (dst + y * dst_stride);
  if (x0 + 4 <= width)
    {
      uint4 q = *reinterpret_cast<const uint4 *> (in + x0);
      q = make_uint4 (equalize_rgba (q.x, lut, luma, amount), equalize_rgba (q.y, lut, luma, amount),
                      equalize_rgba (q.z, lut, luma, amount), equalize_rgba (q.w, lut, luma, amount));
      *reinterpret_cast<uint4 *> (out + x0) = q;
      return;
    }
  for (unsigned x = x0; x < width; x++)
    out[x] = equalize_rgba (in[x], lut, luma, amount);
}

// 16-bit: the tables of lm_equalize_lut16, entry for entry. One block a channel; each thread
// sums a run of 64 bins, the runs' sums are scanned, then each thread writes its run's entries
// with lm_equalize16_entry: integers throughout, so the CPU's sequential loop gives the same.
constexpr unsigned kLutThreads = LM_HIST16_BINS / 64;

__global__ void
build_luts16 (const uint32_t *bins, uint64_t total, uint16_t *luts)
{
  __shared__ unsigned long long runs[kLutThreads];
  __shared__ unsigned first;
  const uint32_t *hist = bins + blockIdx.x * LM_HIST16_BINS;
  uint16_t *lut = luts + blockIdx.x * LM_HIST16_BINS;
  unsigned t = threadIdx.x, v0 = t * 64;
  if (t == 0)
    first = LM_HIST16_BINS - 1;
  __syncthreads ();
  unsigned long long sum = 0;
  unsigned mine = LM_HIST16_BINS - 1;
  for (unsigned v = v0; v < v0 + 64; v++)
    {
      sum += hist[v];
      if (hist[v] != 0 && v < mine)
        mine = v;
    }
  runs[t] = sum;
  atomicMin (&first, mine);
  __syncthreads ();
  if (t == 0)
    for (unsigned k = 1; k < kLutThreads; k++)
      runs[k] += runs[k - 1];
  __syncthreads ();
  unsigned long long cdf = t ? runs[t - 1] : 0, cdf_first = hist[first];
  int identity = cdf_first == total;
  for (unsigned v = v0; v < v0 + 64; v++)
    {
      cdf += hist[v];
      lut[v] = identity ? (uint16_t) v : v <= first ? 0 : lm_equalize16_entry (cdf, cdf_first, total);
    }
}

__global__ void
apply16 (const uint8_t *src, size_t src_stride, uint8_t *dst, size_t dst_stride, unsigned width,
         const uint16_t *__restrict__ luts, int gray, int luma, float amount)
{
  unsigned y = blockIdx.y;
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  const uint8_t *in = src + y * src_stride;
  uint8_t *out = dst + y * dst_stride;
  const uint16_t *luma_lut = luts + 3 * LM_HIST16_BINS;
  if (gray)
    {
      uint16_t v = reinterpret_cast<const uint16_t *> (in)[x];
      reinterpret_cast<uint16_t *> (out)[x] = lm_equalize_channel16 (v, __ldg (&luma_lut[v]), amount);
      return;
    }
  unsigned long long p = reinterpret_cast<const unsigned long long *> (in)[x], r;
  if (luma)
    {
      uint16_t l = lm_luma_u16 (p);
      r = lm_equalize_shift_rgba16 (p, lm_equalize_luma_shift16 (l, __ldg (&luma_lut[l]), amount));
    }
  else
    {
      uint16_t c[3];
      for (int k = 0; k < 3; k++)
        {
          uint16_t v = (p >> (16 * k)) & 0xffff;
          c[k] = lm_equalize_channel16 (v, __ldg (&luts[k * LM_HIST16_BINS + v]), amount);
        }
      r = lm_px16_pack (c[0], c[1], c[2], p);
    }
  reinterpret_cast<unsigned long long *> (out)[x] = r;
}

// The scratch holds the counts (R, G, B, luma), then the tables: 256 of each a channel for
// 8-bit sources, 65536 for 16-bit ones.
constexpr size_t kBinsBytes = 4 * LM_HIST_BINS * sizeof (uint32_t);
constexpr size_t kLutsBytes = 4 * LM_HIST_BINS * sizeof (uint8_t);
constexpr size_t kBins16Bytes = 4 * LM_HIST16_BINS * sizeof (uint32_t);
constexpr size_t kLuts16Bytes = 4 * LM_HIST16_BINS * sizeof (uint16_t);

bool
is16 (int format)
{
  return format == LM_K_RGBA16 || format == LM_K_GRAY16;
}

cudaError_t
equalize16 (const LmEqualizeParams *p, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
            cudaStream_t stream)
{
  int gray = src->format == LM_K_GRAY16, luma = gray || p->mode == LM_EQUALIZE_LUMA;
  uint32_t *bins = static_cast<uint32_t *> (scratch->data);
  uint16_t *luts = reinterpret_cast<uint16_t *> (static_cast<uint8_t *> (scratch->data) + kBins16Bytes);
  // A tiled render gives the whole image's counts (host memory, kept until the stream is done).
  if (p->bins)
    LM_CUDA_TRY (cudaMemcpyAsync (bins, p->bins, kBins16Bytes, cudaMemcpyHostToDevice, stream));
  else
    LM_CUDA_TRY (lm_k_histogram16 (src, luma ? 2 : 1, bins, stream));
  build_luts16<<<4, kLutThreads, 0, stream>>> (bins, p->bins ? p->total : (uint64_t) src->width * src->height, luts);
  LM_CUDA_LAUNCHED ();
  lm_for_row_bands (src->height, [&] (unsigned y0, unsigned rows) {
    dim3 grid (lm_div_up (src->width, kThreads), rows);
    apply16<<<grid, kThreads, 0, stream>>> (static_cast<const uint8_t *> (src->data) + y0 * src->stride, src->stride,
                                            static_cast<uint8_t *> (dst->data) + y0 * dst->stride, dst->stride,
                                            src->width, luts, gray, luma, p->amount);
  });
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

} // namespace

// Its counts and tables, whatever the parameters.
static size_t
equalize_workspace (const void *params, const LmKImage *src)
{
  return is16 (src->format) ? kBins16Bytes + kLuts16Bytes : kBinsBytes + kLutsBytes;
}

static size_t
equalize_workspace_max (const LmKImage *src)
{
  return equalize_workspace (NULL, src);
}

static cudaError_t
equalize_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
                 cudaStream_t stream)
{
  const LmEqualizeParams *p = static_cast<const LmEqualizeParams *> (params);
  if (scratch->size < equalize_workspace (p, src))
    return cudaErrorInvalidValue;
  if (src->width == 0 || src->height == 0)
    return cudaSuccess;
  if (is16 (src->format))
    return equalize16 (p, src, dst, scratch, stream);
  int gray = src->format == LM_K_GRAY8;
  int luma = gray || p->mode == LM_EQUALIZE_LUMA;
  uint32_t *bins = static_cast<uint32_t *> (scratch->data);
  uint8_t *luts = static_cast<uint8_t *> (scratch->data) + kBinsBytes;
  if (p->bins) // a tiled render's counts of the whole image
    LM_CUDA_TRY (cudaMemcpyAsync (bins, p->bins, kBinsBytes, cudaMemcpyHostToDevice, stream));
  else
    LM_CUDA_TRY (lm_k_histogram (src, luma ? 2 : 1, bins, stream));
  build_luts<<<1, 4, 0, stream>>> (bins, p->bins ? p->total : (uint64_t) src->width * src->height, luts);
  LM_CUDA_LAUNCHED ();

  const uint8_t *in = static_cast<const uint8_t *> (src->data);
  uint8_t *out = static_cast<uint8_t *> (dst->data);
  lm_for_row_bands (src->height, [&] (unsigned y0, unsigned rows) {
    const uint8_t *band_in = in + y0 * src->stride;
    uint8_t *band_out = out + y0 * dst->stride;
    if (gray)
      {
        dim3 grid (lm_div_up (src->width, kThreads * 16), rows);
        apply_gray<<<grid, kThreads, 0, stream>>> (band_in, src->stride, band_out, dst->stride, src->width,
                                                   luts, p->amount);
      }
    else
      {
        dim3 grid (lm_div_up (src->width, kThreads * 4), rows);
        apply_rgba<<<grid, kThreads, 0, stream>>> (band_in, src->stride, band_out, dst->stride, src->width,
                                                   luts, luma, p->amount);
      }
  });
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" const LmKOp lm_k_equalize_op = { equalize_workspace, equalize_workspace_max, equalize_launch };

// Gaussian blur on the GPU: separable, border reflect-101, the kernel of
// core/ops/blur-math.h. The horizontal pass stages a row segment and its apron in shared
// memory and writes float samples to the workspace; the vertical pass reads them back down
// the columns (neighbouring threads read neighbouring addresses, so every tap is one
// coalesced load) and rounds to 8 bits.
#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kTile = 256; // output pixels per block in the horizontal pass
constexpr unsigned kThreads = 256;

__constant__ float c_weights[LM_BLUR_RADIUS_MAX + 1];

template <int C>
__global__ void
blur_rows (const uint8_t *src, size_t src_stride, float *tmp, size_t tmp_stride, int width,
           int radius)
{
  extern __shared__ float seg[]; // (kTile + 2·radius) pixels of C samples
  int y = blockIdx.y;
  int x0 = blockIdx.x * kTile;
  const uint8_t *row = src + (size_t) y * src_stride;
  int span = min ((int) kTile, width - x0) + 2 * radius;
  for (int i = threadIdx.x; i < span * C; i += blockDim.x)
    {
      int p = i / C, c = i - p * C;
      seg[i] = row[lm_reflect101 (x0 - radius + p, width) * C + c];
    }
  __syncthreads ();

  float *out = reinterpret_cast<float *> (reinterpret_cast<uint8_t *> (tmp) + (size_t) y * tmp_stride);
  for (int i = threadIdx.x; i < (int) kTile * C; i += blockDim.x)
    {
      int p = i / C, c = i - p * C;
      if (x0 + p >= width)
        break;
      const float *centre = seg + (p + radius) * C + c;
      float acc = c_weights[0] * centre[0];
      for (int j = 1; j <= radius; j++)
        acc += c_weights[j] * (centre[-j * C] + centre[j * C]);
      out[(x0 + p) * C + c] = acc;
    }
}

template <int C>
__global__ void
blur_columns (const float *tmp, size_t tmp_stride, uint8_t *dst, size_t dst_stride, int width,
              int height, int radius)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x; // sample index within the row
  int y = blockIdx.y;
  if (i >= width * C)
    return;
  const uint8_t *base = reinterpret_cast<const uint8_t *> (tmp);
  auto at = [&] (int row) {
    return reinterpret_cast<const float *> (base + (size_t) lm_reflect101 (row, height) * tmp_stride)[i];
  };
  float acc = c_weights[0] * at (y);
  for (int j = 1; j <= radius; j++)
    acc += c_weights[j] * (at (y - j) + at (y + j));
  dst[(size_t) y * dst_stride + i] = lm_quantize_u8 (acc);
}

template <int C>
cudaError_t
launch (const LmKImage *src, const LmKImage *dst, const LmKWorkspace *ws, int radius,
        cudaStream_t stream)
{
  int width = (int) src->width, height = (int) src->height;
  float *tmp = static_cast<float *> (ws->blur_tmp);
  size_t shared = (kTile + 2 * (size_t) radius) * C * sizeof (float);
  LM_CUDA_TRY (cudaFuncSetAttribute (blur_rows<C>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int) shared));
  dim3 rows_grid (lm_div_up (width, kTile), height);
  blur_rows<C><<<rows_grid, kThreads, shared, stream>>> (static_cast<const uint8_t *> (src->data),
                                                        src->stride, tmp, ws->blur_tmp_stride,
                                                        width, radius);
  LM_CUDA_LAUNCHED ();
  dim3 cols_grid (lm_div_up ((size_t) width * C, kThreads), height);
  blur_columns<C><<<cols_grid, kThreads, 0, stream>>> (tmp, ws->blur_tmp_stride,
                                                       static_cast<uint8_t *> (dst->data),
                                                       dst->stride, width, height, radius);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

} // namespace

extern "C" size_t
lm_k_blur_workspace_size (unsigned width, unsigned height, size_t *stride)
{
  size_t row = ((size_t) width * 4 * sizeof (float) + 63) & ~(size_t) 63;
  *stride = row;
  return row * height;
}

extern "C" cudaError_t
lm_k_blur (const LmBlurParams *p, const LmKImage *src, const LmKImage *dst,
           const LmKWorkspace *ws, cudaStream_t stream)
{
  int radius = lm_blur_radius (p->sigma);
  if (radius == 0)
    {
      size_t row = (size_t) src->width * (src->format == LM_K_GRAY8 ? 1 : 4);
      return cudaMemcpy2DAsync (dst->data, dst->stride, src->data, src->stride, row, src->height,
                                cudaMemcpyDeviceToDevice, stream);
    }
  float weights[LM_BLUR_RADIUS_MAX + 1];
  lm_blur_weights (p->sigma, radius, weights);
  // The copy is enqueued on the stream, so the previous blur has read its weights first.
  LM_CUDA_TRY (cudaMemcpyToSymbolAsync (c_weights, weights, (radius + 1) * sizeof (float), 0,
                                        cudaMemcpyHostToDevice, stream));
  return src->format == LM_K_GRAY8 ? launch<1> (src, dst, ws, radius, stream)
                                   : launch<4> (src, dst, ws, radius, stream);
}

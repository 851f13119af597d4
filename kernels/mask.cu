// Masks on the device (core/ops/mask-math.h, whose CPU reference is core/ops/mask.c): the
// drawn plane, the ranges and invert, the guided-filter feather and the blend. Built with
// --fmad=false like every kernel here: the drawn and parametric masks are bit-identical to the
// CPU's, and so is the feather, whose box sums run over the same fixed segments of
// LM_MASK_BOX_SEGMENT outputs in the same order (one thread a segment; the CPU interchanges
// its column loops, which keeps each column's sequence of additions).
#include "cuda-check.h"
#include "kernels.h"

namespace {

constexpr unsigned kBlockX = 32, kBlockY = 8;
constexpr unsigned kSegThreads = 128;
constexpr unsigned kMaxGridY = 65535;

__global__ void
drawn_kernel (LmMaskRender m, unsigned x0, unsigned y0, uint8_t *out, size_t stride, unsigned width,
              unsigned height)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y * blockDim.y)
    if (x < width)
      reinterpret_cast<float *> (out + (size_t) y * stride)[x] = lm_mask_drawn_at (&m, x0 + x, y0 + y);
}

// M0 (drawn × ranges, inverted when asked). Without a feather, the final mask into OUT; with
// one, the guided filter's four inputs (I, M0, I², I·M0) into G, tightly packed.
__global__ void
unfeathered_kernel (LmMaskRender m, const uint8_t *in, size_t in_stride, int format, const uint8_t *drawn,
                    size_t drawn_stride, uint8_t *out, size_t out_stride, float4 *g, unsigned width,
                    unsigned height)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y * blockDim.y)
    {
      if (x >= width)
        continue;
      float r, gr, b;
      lm_mask_read_rgb (in + (size_t) y * in_stride, format, x, &r, &gr, &b);
      LmMaskPixel p = lm_mask_pixel (r, gr, b, m.scene);
      float d = reinterpret_cast<const float *> (drawn + (size_t) y * drawn_stride)[x];
      float m0 = lm_mask_unfeathered (&m, d, &p);
      if (m.radius > 0)
        g[(size_t) y * width + x] = make_float4 (p.guide, m0, p.guide * p.guide, p.guide * m0);
      else
        reinterpret_cast<float *> (out + (size_t) y * out_stride)[x] = lm_mask_final (&m, m0);
    }
}

// Box sums along rows of a W × H plane of C floats a pixel: one thread per segment of a row,
// the segments of all rows numbered in one sequence so that narrow planes keep threads busy.
// C floats, moved as one.
template <int C> struct Texel {
  float v[C];
};

// IN (WIDTH × HEIGHT texels) into OUT (HEIGHT × WIDTH) through a shared tile, both sides
// coalesced: the row pass runs as a column pass on the transposed plane, since one thread per
// row segment read memory 32 texels apart across a warp (29.6 ms for a feathered mask at 50 MP
// on an H200, bench/bench-masks).
template <int C>
__global__ void
transpose (const Texel<C> *in, Texel<C> *out, unsigned width, unsigned height)
{
  __shared__ Texel<C> tile[32][33];
  unsigned x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(size_t) (y + j) * width + x];
  __syncthreads ();
  x = blockIdx.y * 32 + threadIdx.x, y = blockIdx.x * 32 + threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8)
    if (x < height && y + j < width)
      out[(size_t) (y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <int C>
__global__ void
box_columns (const float *in, float *out, int width, int height, int r, int origin)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int segments = lm_mask_box_segments (height, origin);
  if (x >= width)
    return;
  for (int s = blockIdx.y; s < segments; s += gridDim.y)
    {
      int lo, hi;
      lm_mask_box_segment_span (height, origin, s, &lo, &hi);
      lm_mask_box_segment (in + (size_t) x * C, (long) width * C, height, r, lo, hi, C, out + (size_t) x * C,
                           (long) width * C);
    }
}

// The box means of (I, M0, I², I·M0) in SUMS to the linear model's a and b in AB.
__global__ void
ab_kernel (LmMaskRender m, unsigned x0, unsigned y0, const float4 *sums, float2 *ab, unsigned width,
           unsigned height)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y * blockDim.y)
    {
      if (x >= width)
        continue;
      float count = lm_mask_box_count ((int) (x0 + x), m.radius, (int) m.full_w)
                    * lm_mask_box_count ((int) (y0 + y), m.radius, (int) m.full_h);
      float4 s = sums[(size_t) y * width + x];
      float mean[4] = { s.x / count, s.y / count, s.z / count, s.w / count };
      float a, b;
      lm_mask_guided_ab (mean, m.eps, &a, &b);
      ab[(size_t) y * width + x] = make_float2 (a, b);
    }
}

// The box means of a and b in SUMS and the guide of INPUT to the final mask in OUT.
__global__ void
guided_out_kernel (LmMaskRender m, unsigned x0, unsigned y0, const float2 *sums, const uint8_t *in, size_t in_stride,
                   int format, uint8_t *out, size_t out_stride, unsigned width, unsigned height)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y * blockDim.y)
    {
      if (x >= width)
        continue;
      float count = lm_mask_box_count ((int) (x0 + x), m.radius, (int) m.full_w)
                    * lm_mask_box_count ((int) (y0 + y), m.radius, (int) m.full_h);
      float2 s = sums[(size_t) y * width + x];
      float r, g, b;
      lm_mask_read_rgb (in + (size_t) y * in_stride, format, x, &r, &g, &b);
      float guide = lm_mask_pixel (r, g, b, m.scene).guide;
      reinterpret_cast<float *> (out + (size_t) y * out_stride)[x]
        = lm_mask_guided_out (&m, s.x / count, s.y / count, guide);
    }
}

__global__ void
blend_kernel (const uint8_t *in, size_t in_stride, const uint8_t *op, size_t op_stride, const uint8_t *mask,
              size_t mask_stride, uint8_t *out, size_t out_stride, int format, unsigned width, unsigned height)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned y = blockIdx.y * blockDim.y + threadIdx.y; y < height; y += gridDim.y * blockDim.y)
    if (x < width)
      lm_mask_blend_pixel (in + (size_t) y * in_stride, op + (size_t) y * op_stride, out + (size_t) y * out_stride,
                           format, x, reinterpret_cast<const float *> (mask + (size_t) y * mask_stride)[x]);
}

dim3
pixel_grid (unsigned width, unsigned height)
{
  unsigned rows = lm_div_up (height, kBlockY);
  return dim3 (lm_div_up (width, kBlockX), rows < kMaxGridY ? rows : kMaxGridY);
}

// A column pass of a WIDTH × HEIGHT plane (origin Y0 along the columns) from IN into OUT.
template <int C>
void
columns (const float *in, float *out, unsigned width, unsigned height, int r, unsigned y0, cudaStream_t stream)
{
  int segments = lm_mask_box_segments ((int) height, (int) y0);
  dim3 grid (lm_div_up (width, kSegThreads), (unsigned) segments < kMaxGridY ? segments : kMaxGridY);
  box_columns<C><<<grid, kSegThreads, 0, stream>>> (in, out, (int) width, (int) height, r, (int) y0);
}

template <int C>
void
transposed (const float *in, float *out, unsigned width, unsigned height, cudaStream_t stream)
{
  dim3 grid (lm_div_up (width, 32), lm_div_up (height, 32));
  transpose<C><<<grid, dim3 (32, 8), 0, stream>>> (reinterpret_cast<const Texel<C> *> (in),
                                                   reinterpret_cast<Texel<C> *> (out), width, height);
}

// The box sums of IN into OUT (may be IN), TMP a plane of the same size. The row pass is a
// column pass of the transposed plane: each sum adds the same samples in the same order as a
// pass along the rows (lm_mask_box_segment), so the CPU's bits are kept.
template <int C>
cudaError_t
box (float *in, float *tmp, float *out, unsigned width, unsigned height, int r, unsigned x0, unsigned y0,
     cudaStream_t stream)
{
  if (height > kMaxGridY * 32u || width > kMaxGridY * 32u)
    return cudaErrorInvalidValue; // beyond any image Lumen opens (2 M pixels a side)
  transposed<C> (in, tmp, width, height, stream);
  LM_CUDA_LAUNCHED ();
  columns<C> (tmp, in, height, width, r, x0, stream); // IN is read no more: it takes the row sums
  LM_CUDA_LAUNCHED ();
  transposed<C> (in, tmp, height, width, stream);
  LM_CUDA_LAUNCHED ();
  columns<C> (tmp, out, width, height, r, y0, stream);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

} // namespace

extern "C" cudaError_t
lm_k_mask_drawn (const LmMaskRender *mask, unsigned x0, unsigned y0, const LmKImage *drawn, cudaStream_t stream)
{
  if (drawn->width == 0 || drawn->height == 0)
    return cudaSuccess;
  drawn_kernel<<<pixel_grid (drawn->width, drawn->height), dim3 (kBlockX, kBlockY), 0, stream>>> (
    *mask, x0, y0, static_cast<uint8_t *> (drawn->data), drawn->stride, drawn->width, drawn->height);
  return cudaGetLastError ();
}

extern "C" size_t
lm_k_mask_scratch_size (unsigned width, unsigned height)
{
  return 2 * (size_t) width * height * sizeof (float4);
}

extern "C" cudaError_t
lm_k_mask_final (const LmMaskRender *mask, unsigned x0, unsigned y0, const LmKImage *input, const LmKImage *drawn,
                 const LmKImage *out, void *scratch, cudaStream_t stream)
{
  unsigned w = out->width, h = out->height;
  if (w == 0 || h == 0)
    return cudaSuccess;
  float4 *g = static_cast<float4 *> (scratch);
  float4 *t = g == nullptr ? nullptr : g + (size_t) w * h;
  if (mask->radius > 0 && scratch == nullptr)
    return cudaErrorInvalidValue;
  dim3 grid = pixel_grid (w, h), block (kBlockX, kBlockY);
  unfeathered_kernel<<<grid, block, 0, stream>>> (*mask, static_cast<const uint8_t *> (input->data), input->stride,
                                                  input->format, static_cast<const uint8_t *> (drawn->data),
                                                  drawn->stride, static_cast<uint8_t *> (out->data), out->stride, g,
                                                  w, h);
  LM_CUDA_LAUNCHED ();
  if (mask->radius <= 0)
    return cudaSuccess;
  // The same planes in the same turns as the CPU's feather: G → T → G, a and b into T, T → G → T.
  int r = mask->radius;
  LM_CUDA_TRY (box<4> (reinterpret_cast<float *> (g), reinterpret_cast<float *> (t), reinterpret_cast<float *> (g),
                       w, h, r, x0, y0, stream));
  float2 *ab = reinterpret_cast<float2 *> (t);
  ab_kernel<<<grid, block, 0, stream>>> (*mask, x0, y0, g, ab, w, h);
  LM_CUDA_LAUNCHED ();
  LM_CUDA_TRY (box<2> (reinterpret_cast<float *> (ab), reinterpret_cast<float *> (g), reinterpret_cast<float *> (ab),
                       w, h, r, x0, y0, stream));
  guided_out_kernel<<<grid, block, 0, stream>>> (*mask, x0, y0, ab, static_cast<const uint8_t *> (input->data),
                                                 input->stride, input->format, static_cast<uint8_t *> (out->data),
                                                 out->stride, w, h);
  return cudaGetLastError ();
}

extern "C" cudaError_t
lm_k_blend_mask (const LmKImage *in, const LmKImage *op, const LmKImage *mask, const LmKImage *out,
                 cudaStream_t stream)
{
  if (in->width == 0 || in->height == 0)
    return cudaSuccess;
  blend_kernel<<<pixel_grid (in->width, in->height), dim3 (kBlockX, kBlockY), 0, stream>>> (
    static_cast<const uint8_t *> (in->data), in->stride, static_cast<const uint8_t *> (op->data), op->stride,
    static_cast<const uint8_t *> (mask->data), mask->stride, static_cast<uint8_t *> (out->data), out->stride,
    in->format, in->width, in->height);
  return cudaGetLastError ();
}

// Gaussian blur on the GPU: the kernel, border and large-σ method of core/ops/blur-math.h.
//
// Direct method (σ ≤ 16): a horizontal pass stages a row segment and its apron in shared
// memory and writes half-float samples to the workspace; a vertical pass reads them down
// the columns and rounds to 8 bits. In both, each thread makes several neighbouring outputs
// from a window of inputs it slides through registers, so one load feeds several FMAs.
// Grid method (σ > 16): exact sums at every D-th row (vertical, straight from the 8-bit
// source), then at every D-th column, then the Catmull-Rom cubic through the 4×4 nodes
// around each pixel.
// 16-bit sources (S = uint16_t): the same kernels on raw u16 samples; the first pass's sums
// go to the 0..255 scale (lm_blur_u16_scale, as on the CPU) into a float intermediate (half
// floats would keep 11 of the 16 bits), and the output is rounded by lm_quantize_u16.
// Scene light (S = float, RGBA_F32): float intermediate, float output, nothing rounded.
// The weights (taps, and the grid's cubic) follow the buffers in the scratch: each launch reads
// its own, so two backends' streams blurring at once with different σ cannot see each other's.
#include <cuda_fp16.h>
#include <string.h>

#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr int kGridRowsPerThread = 8;
constexpr int kMaxStep = (int) (LM_BLUR_SIGMA_MAX / LM_BLUR_STEPS_PER_SIGMA);
// Zeros around the taps let the grid-row kernel apply every tap index it meets unguarded.
constexpr int kTapPad = (kGridRowsPerThread - 1) * kMaxStep;

// One pixel's samples in registers (T) and in float buffers (S): C = 1 for gray, 4 for RGBA,
// 3 for RGBA whose alpha is all opaque, which blurs to itself: its FMAs are skipped and 255
// is written.
template <int C> struct Px;
template <> struct Px<1> { using T = float; using S = float; };
template <> struct Px<3> { using T = float3; using S = float4; };
template <> struct Px<4> { using T = float4; using S = float4; };

__device__ inline float fma_px (float w, float v, float acc) { return fmaf (w, v, acc); }
__device__ inline float3
fma_px (float w, float3 v, float3 acc)
{
  return make_float3 (fmaf (w, v.x, acc.x), fmaf (w, v.y, acc.y), fmaf (w, v.z, acc.z));
}
__device__ inline float4
fma_px (float w, float4 v, float4 acc)
{
  return make_float4 (fmaf (w, v.x, acc.x), fmaf (w, v.y, acc.y), fmaf (w, v.z, acc.z), fmaf (w, v.w, acc.w));
}

template <int C> __device__ inline typename Px<C>::T zero ();
template <> __device__ inline float zero<1> () { return 0.0f; }
template <> __device__ inline float3 zero<3> () { return make_float3 (0.0f, 0.0f, 0.0f); }
template <> __device__ inline float4 zero<4> () { return make_float4 (0.0f, 0.0f, 0.0f, 0.0f); }

template <int C> __device__ inline typename Px<C>::T load_u8 (const uint8_t *row, int x);
template <> __device__ inline float load_u8<1> (const uint8_t *row, int x) { return row[x]; }
template <>
__device__ inline float3
load_u8<3> (const uint8_t *row, int x)
{
  uchar4 p = reinterpret_cast<const uchar4 *> (row)[x];
  return make_float3 (p.x, p.y, p.z);
}
template <>
__device__ inline float4
load_u8<4> (const uint8_t *row, int x)
{
  uchar4 p = reinterpret_cast<const uchar4 *> (row)[x];
  return make_float4 (p.x, p.y, p.z, p.w);
}

template <int C> __device__ inline void store_u8 (uint8_t *row, int x, typename Px<C>::T v);
template <> __device__ inline void store_u8<1> (uint8_t *row, int x, float v) { row[x] = lm_quantize_u8 (v); }
template <>
__device__ inline void
store_u8<3> (uint8_t *row, int x, float3 v)
{
  reinterpret_cast<uchar4 *> (row)[x] = make_uchar4 (lm_quantize_u8 (v.x), lm_quantize_u8 (v.y),
                                                     lm_quantize_u8 (v.z), 255);
}
template <>
__device__ inline void
store_u8<4> (uint8_t *row, int x, float4 v)
{
  reinterpret_cast<uchar4 *> (row)[x] = make_uchar4 (lm_quantize_u8 (v.x), lm_quantize_u8 (v.y),
                                                     lm_quantize_u8 (v.z), lm_quantize_u8 (v.w));
}

template <int C> __device__ inline typename Px<C>::T load_u16 (const uint8_t *row, int x);
template <> __device__ inline float load_u16<1> (const uint8_t *row, int x)
{
  return reinterpret_cast<const uint16_t *> (row)[x];
}
template <>
__device__ inline float3
load_u16<3> (const uint8_t *row, int x)
{
  ushort4 p = reinterpret_cast<const ushort4 *> (row)[x];
  return make_float3 (p.x, p.y, p.z);
}
template <>
__device__ inline float4
load_u16<4> (const uint8_t *row, int x)
{
  ushort4 p = reinterpret_cast<const ushort4 *> (row)[x];
  return make_float4 (p.x, p.y, p.z, p.w);
}

template <int C> __device__ inline void store_u16 (uint8_t *row, int x, typename Px<C>::T v);
template <> __device__ inline void store_u16<1> (uint8_t *row, int x, float v)
{
  reinterpret_cast<uint16_t *> (row)[x] = lm_quantize_u16 (v);
}
template <>
__device__ inline void
store_u16<3> (uint8_t *row, int x, float3 v)
{
  reinterpret_cast<ushort4 *> (row)[x] = make_ushort4 (lm_quantize_u16 (v.x), lm_quantize_u16 (v.y),
                                                       lm_quantize_u16 (v.z), 65535);
}
template <>
__device__ inline void
store_u16<4> (uint8_t *row, int x, float4 v)
{
  reinterpret_cast<ushort4 *> (row)[x] = make_ushort4 (lm_quantize_u16 (v.x), lm_quantize_u16 (v.y),
                                                       lm_quantize_u16 (v.z), lm_quantize_u16 (v.w));
}

// Float buffers of the grid method, and scene light's samples.
template <int C>
__device__ inline typename Px<C>::T
load_f (const uint8_t *row, int i)
{
  return reinterpret_cast<const typename Px<C>::T *> (row)[i];
}
template <>
__device__ inline float3
load_f<3> (const uint8_t *row, int i)
{
  float4 v = reinterpret_cast<const float4 *> (row)[i];
  return make_float3 (v.x, v.y, v.z);
}
template <int C>
__device__ inline void
store_f (uint8_t *row, int i, typename Px<C>::T v)
{
  reinterpret_cast<typename Px<C>::T *> (row)[i] = v;
}
template <>
__device__ inline void
store_f<3> (uint8_t *row, int i, float3 v)
{
  reinterpret_cast<float4 *> (row)[i] = make_float4 (v.x, v.y, v.z, 0.0f);
}

// The source's samples (S: uint8_t, uint16_t, or float for scene light) and the output's
// rounding (none for floats).
template <int C, typename S>
__device__ inline typename Px<C>::T
load_src (const uint8_t *row, int x)
{
  if constexpr (sizeof (S) == 4)
    return load_f<C> (row, x);
  else if constexpr (sizeof (S) == 2)
    return load_u16<C> (row, x);
  else
    return load_u8<C> (row, x);
}
template <int C, typename S>
__device__ inline void
store_dst (uint8_t *row, int x, typename Px<C>::T v)
{
  if constexpr (sizeof (S) == 4)
    store_f<C> (row, x, v);
  else if constexpr (sizeof (S) == 2)
    store_u16<C> (row, x, v);
  else
    store_u8<C> (row, x, v);
}

// A first-pass sum of raw 16-bit samples on the 0..255 scale; 8-bit sums are on it already.
template <typename S> __device__ inline float to_scale (float v)
{
  return sizeof (S) == 2 ? lm_blur_u16_scale (v) : v;
}
template <typename S> __device__ inline float3 to_scale (float3 v)
{
  return make_float3 (to_scale<S> (v.x), to_scale<S> (v.y), to_scale<S> (v.z));
}
template <typename S> __device__ inline float4 to_scale (float4 v)
{
  return make_float4 (to_scale<S> (v.x), to_scale<S> (v.y), to_scale<S> (v.z), to_scale<S> (v.w));
}

// The direct method's intermediate: half floats (8-bit values need 9 of their 11 bits).
template <int C> __device__ inline typename Px<C>::T load_half (const uint8_t *row, int x);
template <> __device__ inline float load_half<1> (const uint8_t *row, int x)
{
  return __half2float (reinterpret_cast<const __half *> (row)[x]);
}
template <>
__device__ inline float3
load_half<3> (const uint8_t *row, int x)
{
  uint2 raw = reinterpret_cast<const uint2 *> (row)[x];
  float2 a = __half22float2 (*reinterpret_cast<__half2 *> (&raw.x));
  return make_float3 (a.x, a.y, __low2float (*reinterpret_cast<__half2 *> (&raw.y)));
}
template <>
__device__ inline float4
load_half<4> (const uint8_t *row, int x)
{
  uint2 raw = reinterpret_cast<const uint2 *> (row)[x];
  float2 a = __half22float2 (*reinterpret_cast<__half2 *> (&raw.x));
  float2 b = __half22float2 (*reinterpret_cast<__half2 *> (&raw.y));
  return make_float4 (a.x, a.y, b.x, b.y);
}

template <int C> __device__ inline void store_half (uint8_t *row, int x, typename Px<C>::T v);
template <> __device__ inline void store_half<1> (uint8_t *row, int x, float v)
{
  reinterpret_cast<__half *> (row)[x] = __float2half_rn (v);
}
template <>
__device__ inline void
store_half<3> (uint8_t *row, int x, float3 v)
{
  __half2 a = __floats2half2_rn (v.x, v.y), b = __floats2half2_rn (v.z, 0.0f);
  uint2 raw;
  raw.x = *reinterpret_cast<uint32_t *> (&a);
  raw.y = *reinterpret_cast<uint32_t *> (&b);
  reinterpret_cast<uint2 *> (row)[x] = raw;
}
template <>
__device__ inline void
store_half<4> (uint8_t *row, int x, float4 v)
{
  __half2 a = __floats2half2_rn (v.x, v.y), b = __floats2half2_rn (v.z, v.w);
  uint2 raw;
  raw.x = *reinterpret_cast<uint32_t *> (&a);
  raw.y = *reinterpret_cast<uint32_t *> (&b);
  reinterpret_cast<uint2 *> (row)[x] = raw;
}

// The direct method's intermediate: half floats for 8-bit sources, floats for 16-bit and
// float ones.
template <int C, typename S>
__device__ inline typename Px<C>::T
load_mid (const uint8_t *row, int x)
{
  if constexpr (sizeof (S) != 1)
    return load_f<C> (row, x);
  else
    return load_half<C> (row, x);
}
template <int C, typename S>
__device__ inline void
store_mid (uint8_t *row, int x, typename Px<C>::T v)
{
  if constexpr (sizeof (S) != 1)
    store_f<C> (row, x, to_scale<S> (v));
  else
    store_half<C> (row, x, v);
}

template <typename S> constexpr size_t kMidBytes = sizeof (S) != 1 ? sizeof (float) : sizeof (__half);

// ---- direct method ----------------------------------------------------------------------

// The sliding window both passes share: N consecutive outputs of one thread, acc[k] =
// Σ_j taps[kTapPad + j] · sample (k + j), each tap reading one new sample into a window kept
// in registers. SAMPLE (i) is the i-th staged sample from the thread's first.
template <int C, int N, typename Sample>
__device__ __forceinline__ void
slide_taps (const float *__restrict__ taps, int radius, Sample sample, typename Px<C>::T (&acc)[N])
{
  typename Px<C>::T win[N];
#pragma unroll
  for (int k = 0; k < N; k++)
    acc[k] = zero<C> (), win[k] = sample (k);
#pragma unroll 2
  for (int j = 0; j <= 2 * radius; j++)
    {
      float w = taps[kTapPad + j];
#pragma unroll
      for (int k = 0; k < N; k++)
        acc[k] = fma_px (w, win[k], acc[k]);
#pragma unroll
      for (int k = 0; k < N - 1; k++)
        win[k] = win[k + 1];
      win[N - 1] = sample (j + N);
    }
}

constexpr int kRowThreads = 128, kRowPer = 8, kRowTile = kRowThreads * kRowPer;

// Each thread slides along kRowPer consecutive pixels, so neighbouring threads read shared
// memory kRowPer pixels apart; one pixel of padding after every kRowPer spreads those reads
// over all banks.
__device__ inline int
skewed (int i)
{
  return i + i / kRowPer;
}

template <int C, typename S>
__global__ void
rows_direct (const uint8_t *src, size_t src_stride, uint8_t *tmp, size_t tmp_stride, int width,
             int height, const float *__restrict__ taps, int radius)
{
  using T = typename Px<C>::T;
  extern __shared__ float smem[];
  T *seg = reinterpret_cast<T *> (smem); // kRowTile + 2·radius pixels and kRowPer of slack, skewed
  int x0 = blockIdx.x * kRowTile;
  int span = min (kRowTile, width - x0) + 2 * radius;
  bool inside = x0 - radius >= 0 && x0 - radius + span <= width; // no border in reach
  int p0 = threadIdx.x * kRowPer;
  // Rows by a grid-stride loop: any height (a grid's y is at most 65535). Every thread of the
  // block runs every iteration, for the barriers.
  for (int y = blockIdx.y; y < height; y += gridDim.y)
    {
      const uint8_t *row = src + (size_t) y * src_stride;
      for (int i = threadIdx.x; i < span + kRowPer; i += blockDim.x)
        {
          int x = x0 - radius + i;
          seg[skewed (i)] = i < span ? load_src<C, S> (row, inside ? x : lm_reflect101 (x, width)) : zero<C> ();
        }
      __syncthreads ();
      if (x0 + p0 < width)
        {
          T acc[kRowPer];
          slide_taps<C> (taps, radius, [&] (int i) { return seg[skewed (p0 + i)]; }, acc);
          uint8_t *out = tmp + (size_t) y * tmp_stride;
#pragma unroll
          for (int k = 0; k < kRowPer; k++)
            if (x0 + p0 + k < width)
              store_mid<C, S> (out, x0 + p0 + k, acc[k]);
        }
      __syncthreads (); // SEG is refilled for the next row
    }
}

// A block makes a tile of 32 columns × 64 rows: it stages the tile's rows and their apron in
// shared memory (a warp reads 32 neighbouring pixels of a row, conflict-free), then each
// thread slides down kColPer rows of its column.
constexpr int kColWidth = 32, kColGroups = 8, kColPer = 8, kColTile = kColGroups * kColPer;

template <int C, typename S>
__global__ void
columns_direct (const uint8_t *tmp, size_t tmp_stride, uint8_t *dst, size_t dst_stride, int width,
                int height, const float *__restrict__ taps, int radius)
{
  using T = typename Px<C>::T;
  extern __shared__ float smem[];
  T *tile = reinterpret_cast<T *> (smem); // (kColTile + 2·radius) rows × kColWidth
  int x = blockIdx.x * kColWidth + threadIdx.x;
  int top = blockIdx.y * kColTile - radius;
  int rows = min (kColTile, height - (int) blockIdx.y * kColTile) + 2 * radius;
  bool inside = top >= 0 && top + rows <= height;
  for (int r = threadIdx.y; r < rows; r += kColGroups)
    {
      int y = inside ? top + r : lm_reflect101 (top + r, height);
      tile[r * kColWidth + threadIdx.x] = x < width ? load_mid<C, S> (tmp + (size_t) y * tmp_stride, x) : zero<C> ();
    }
  __syncthreads ();

  int r0 = threadIdx.y * kColPer; // first output row in the tile
  if (x >= width || r0 + 2 * radius >= rows)
    return;
  const T *col = tile + threadIdx.x;
  T acc[kColPer];
  slide_taps<C> (taps, radius, [&] (int i) { return col[min (r0 + i, rows - 1) * kColWidth]; }, acc);
  int y0 = blockIdx.y * kColTile + r0;
#pragma unroll
  for (int k = 0; k < kColPer; k++)
    if (y0 + k < height)
      store_dst<C, S> (dst + (size_t) (y0 + k) * dst_stride, x, acc[k]);
}

// ---- grid method ------------------------------------------------------------------------

// Vertical sums at grid rows g0 … g0+7 (row k at (K0 + k − 1)·D of the whole image, whose
// height is FULL_H; SRC starts at its row OY: a tile's, or 0), every column, from the source.
// A tile's rows beyond its input (only its halo reads them) are clamped to it.
template <int C, typename S>
__global__ void
grid_rows (const uint8_t *src, size_t src_stride, float *cols, size_t cols_stride, int width,
           int height, int grid_h, const float *__restrict__ taps, int radius, int d, int k0, int oy, int full_h)
{
  using T = typename Px<C>::T;
  extern __shared__ float staged[]; // TAPS, where all threads read the same eight at once
  for (int i = threadIdx.x; i < 2 * kTapPad + 2 * radius + 1; i += blockDim.x)
    staged[i] = taps[i];
  __syncthreads ();
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int g0 = blockIdx.y * kGridRowsPerThread;
  if (x >= width)
    return;
  T acc[kGridRowsPerThread];
#pragma unroll
  for (int k = 0; k < kGridRowsPerThread; k++)
    acc[k] = zero<C> ();
  int first = (k0 + g0 - 1) * d - radius;
  int last = (k0 + g0 + kGridRowsPerThread - 2) * d + radius;
  bool inside = first >= oy && last < oy + height && last < full_h;
  for (int t = first; t <= last; t++)
    {
      int r = inside ? t - oy : min (max (lm_reflect101 (t, full_h) - oy, 0), height - 1);
      T v = load_src<C, S> (src + (size_t) r * src_stride, x);
      const float *w = staged + kTapPad + t - first; // tap of grid row g0
#pragma unroll
      for (int k = 0; k < kGridRowsPerThread; k++)
        acc[k] = fma_px (w[-k * d], v, acc[k]); // outside 0..2r reads a zero
    }
#pragma unroll
  for (int k = 0; k < kGridRowsPerThread; k++)
    if (g0 + k < grid_h)
      store_f<C> (reinterpret_cast<uint8_t *> (cols) + (size_t) (g0 + k) * cols_stride, x, to_scale<S> (acc[k]));
}

// Horizontal sums at grid columns (column i at (K0 + i − 1)·D of the whole image, whose width
// is FULL_W; the rows start at its column OX); a node beyond the border is its reflection
// inside.
template <int C>
__global__ void
grid_nodes (const float *cols, size_t cols_stride, float *grid, size_t grid_stride, int width,
            int grid_w, int grid_h, const float *__restrict__ taps, int radius, int d, int k0, int ox, int full_w)
{
  using T = typename Px<C>::T;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= grid_w)
    return;
  int whole = lm_reflect101 ((k0 + i - 1) * d, full_w);
  int centre = min (max (whole - ox, 0), width - 1);
  for (int k = blockIdx.y; k < grid_h; k += gridDim.y)
    {
      const uint8_t *row = reinterpret_cast<const uint8_t *> (cols) + (size_t) k * cols_stride;
      T acc = zero<C> ();
      if (centre - radius >= 0 && centre + radius < width)
        for (int j = -radius; j <= radius; j++)
          acc = fma_px (taps[kTapPad + radius + j], load_f<C> (row, centre + j), acc);
      else
        for (int j = -radius; j <= radius; j++)
          acc = fma_px (taps[kTapPad + radius + j],
                        load_f<C> (row, min (max (lm_reflect101 (whole + j, full_w) - ox, 0), width - 1)), acc);
      store_f<C> (reinterpret_cast<uint8_t *> (grid) + (size_t) k * grid_stride, i, acc);
    }
}

// Each pixel: the cubic through the 4×4 nodes around it, rows first as on the CPU. Pixel
// (x, y) is (OX + x, OY + y) of the whole image; the nodes start at node (KX0, KY0). CUBIC
// holds the four weights at each offset 0 … D − 1 from a node.
template <int C, typename S>
__global__ void
grid_interpolate (const float *grid, size_t grid_stride, uint8_t *dst, size_t dst_stride,
                  int width, int height, const float *__restrict__ cubic, int d, int ox, int oy, int kx0, int ky0)
{
  using T = typename Px<C>::T;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  int ax = ox + x;
  const float *wx = cubic + 4 * (ax % d);
  int ix = ax / d - kx0;
  for (int y = blockIdx.y; y < height; y += gridDim.y)
    {
      int ay = oy + y;
      const float *wy = cubic + 4 * (ay % d);
      const uint8_t *base = reinterpret_cast<const uint8_t *> (grid) + (size_t) (ay / d - ky0) * grid_stride;
      T sum = zero<C> ();
#pragma unroll
      for (int p = 0; p < 4; p++)
        {
          const T g0 = load_f<C> (base, ix + p);
          const T g1 = load_f<C> (base + grid_stride, ix + p);
          const T g2 = load_f<C> (base + 2 * grid_stride, ix + p);
          const T g3 = load_f<C> (base + 3 * grid_stride, ix + p);
          T between = fma_px (wy[3], g3, fma_px (wy[2], g2, fma_px (wy[1], g1, fma_px (wy[0], g0, zero<C> ()))));
          sum = fma_px (wx[p], between, sum);
        }
      store_dst<C, S> (dst + (size_t) y * dst_stride, x, sum);
    }
}

constexpr size_t
align64 (size_t n)
{
  return (n + 63) & ~(size_t) 63;
}

// A launch's weights, after the method's buffers in its scratch (whose bytes are multiples of
// 64): the whole kernel zero-padded on both sides, so that tap j (offset j − r) is
// taps[kTapPad + j], then the cubic's four weights at each offset from a node. Room for the
// largest radius and grid step, so that the need changes with σ only through the method and
// the step, as blur_workspace_max expects.
constexpr size_t kTapsFloats = kTapPad + 2 * LM_BLUR_RADIUS_MAX + 1 + kTapPad;
constexpr size_t kCubicAt = align64 (kTapsFloats * sizeof (float));
constexpr size_t kWeightsBytes = kCubicAt + align64 (kMaxStep * 4 * sizeof (float));

struct GridLayout {
  int d, grid_w, grid_h;
  int ox, oy, full_w, full_h, kx0, ky0; // where the input lies in the whole image, its first node
  size_t cols_stride, grid_stride, cols_bytes, grid_bytes;
};

// TILE (tile-math.h): the input is a tile's, its nodes those of the whole image around it.
GridLayout
grid_layout (unsigned width, unsigned height, int channels, int d, const LmTileFrame *tile)
{
  channels = channels == 1 ? 1 : 4; // opaque RGBA keeps four floats a pixel in buffers
  GridLayout g;
  g.d = d;
  int tiled = lm_tile_frame_active (tile);
  g.ox = tiled ? (int) tile->in_x : 0, g.oy = tiled ? (int) tile->in_y : 0;
  g.full_w = tiled ? (int) tile->full_w : (int) width, g.full_h = tiled ? (int) tile->full_h : (int) height;
  g.kx0 = g.ox / d, g.ky0 = g.oy / d;
  g.grid_w = lm_blur_grid_count_at (g.ox, (int) width, d);
  g.grid_h = lm_blur_grid_count_at (g.oy, (int) height, d);
  g.cols_stride = align64 ((size_t) width * channels * sizeof (float));
  g.grid_stride = align64 ((size_t) g.grid_w * channels * sizeof (float));
  g.cols_bytes = g.cols_stride * g.grid_h;
  g.grid_bytes = g.grid_stride * g.grid_h;
  return g;
}

// 3: RGBA with every alpha opaque (blurred alpha stays opaque, as on the CPU). Scene light's
// floats blur all four, as on the CPU.
int
channels_of (const LmKImage *image)
{
  if (image->format == LM_K_RGBA_F32)
    return 4;
  return image->format == LM_K_GRAY8 || image->format == LM_K_GRAY16 ? 1 : image->opaque ? 3 : 4;
}

bool
is_deep (const LmKImage *image)
{
  return image->format == LM_K_RGBA16 || image->format == LM_K_GRAY16;
}

// Bytes of one sample of IMAGE.
size_t
sample_bytes (const LmKImage *image)
{
  return image->format == LM_K_RGBA_F32 ? 4 : is_deep (image) ? 2 : 1;
}

template <int C, typename S>
cudaError_t
launch_direct (const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch, const float *taps, int radius,
               cudaStream_t stream)
{
  int width = (int) src->width, height = (int) src->height;
  uint8_t *tmp = static_cast<uint8_t *> (scratch->data);
  constexpr int stored = C == 1 ? 1 : 4;
  size_t tmp_stride = align64 ((size_t) width * stored * kMidBytes<S>);
  size_t span = kRowTile + 2 * (size_t) radius + kRowPer;
  size_t shared = (span + span / kRowPer + 1) * sizeof (typename Px<C>::T);
  LM_CUDA_TRY (cudaFuncSetAttribute (rows_direct<C, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared));
  dim3 rows_grid (lm_div_up (width, kRowTile), height < 65535 ? height : 65535);
  rows_direct<C, S><<<rows_grid, kRowThreads, shared, stream>>> (static_cast<const uint8_t *> (src->data),
                                                             src->stride, tmp, tmp_stride, width, height, taps,
                                                             radius);
  LM_CUDA_LAUNCHED ();
  size_t tile = (kColTile + 2 * (size_t) radius) * kColWidth * sizeof (typename Px<C>::T);
  LM_CUDA_TRY (cudaFuncSetAttribute (columns_direct<C, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) tile));
  dim3 cols_grid (lm_div_up (width, kColWidth), lm_div_up (height, kColTile));
  columns_direct<C, S><<<cols_grid, dim3 (kColWidth, kColGroups), tile, stream>>> (
    tmp, tmp_stride, static_cast<uint8_t *> (dst->data), dst->stride, width, height, taps, radius);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

template <int C, typename S>
cudaError_t
launch_grid (const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch, const float *taps,
             const float *cubic, int radius, int d, const LmTileFrame *tile, cudaStream_t stream)
{
  int width = (int) src->width, height = (int) src->height;
  GridLayout g = grid_layout (src->width, src->height, C, d, tile);
  float *cols = static_cast<float *> (scratch->data);
  float *grid = reinterpret_cast<float *> (static_cast<uint8_t *> (scratch->data) + g.cols_bytes);
  constexpr unsigned kThreads = 128;
  dim3 rows_grid (lm_div_up (width, kThreads), lm_div_up (g.grid_h, kGridRowsPerThread));
  size_t taps_bytes = (2 * kTapPad + 2 * (size_t) radius + 1) * sizeof (float);
  grid_rows<C, S><<<rows_grid, kThreads, taps_bytes, stream>>> (static_cast<const uint8_t *> (src->data), src->stride,
                                                    cols, g.cols_stride, width, height, g.grid_h, taps, radius,
                                                    d, g.ky0, g.oy, g.full_h);
  LM_CUDA_LAUNCHED ();
  dim3 nodes_grid (lm_div_up (g.grid_w, kThreads), g.grid_h < 65535 ? g.grid_h : 65535);
  grid_nodes<C><<<nodes_grid, kThreads, 0, stream>>> (cols, g.cols_stride, grid, g.grid_stride, width,
                                                      g.grid_w, g.grid_h, taps, radius, d, g.kx0, g.ox, g.full_w);
  LM_CUDA_LAUNCHED ();
  dim3 out_grid (lm_div_up (width, kThreads), height < 65535 ? height : 65535);
  grid_interpolate<C, S><<<out_grid, kThreads, 0, stream>>> (grid, g.grid_stride, static_cast<uint8_t *> (dst->data),
                                                          dst->stride, width, height, cubic, d, g.ox, g.oy, g.kx0,
                                                          g.ky0);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

// The method (D = 1: direct) and channel count of SRC, whose samples are S.
template <typename S>
cudaError_t
launch_depth (const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch, const float *taps,
              const float *cubic, int radius, int d, const LmTileFrame *tile, cudaStream_t stream)
{
  if (d == 1)
    switch (channels_of (src))
      {
      case 1: return launch_direct<1, S> (src, dst, scratch, taps, radius, stream);
      case 3: return launch_direct<3, S> (src, dst, scratch, taps, radius, stream);
      default: return launch_direct<4, S> (src, dst, scratch, taps, radius, stream);
      }
  switch (channels_of (src))
    {
    case 1: return launch_grid<1, S> (src, dst, scratch, taps, cubic, radius, d, tile, stream);
    case 3: return launch_grid<3, S> (src, dst, scratch, taps, cubic, radius, d, tile, stream);
    default: return launch_grid<4, S> (src, dst, scratch, taps, cubic, radius, d, tile, stream);
    }
}

// Bytes of the method's buffers (direct: the intermediate; grid: sums at grid rows, then
// nodes) for P on SRC, where a blur does something; a multiple of 64.
size_t
buffers_bytes (const LmBlurParams *p, const LmKImage *src)
{
  int channels = channels_of (src);
  int d = lm_blur_decimation (p->sigma);
  if (d == 1)
    return align64 ((size_t) src->width * (channels == 1 ? 1 : 4)
                    * (sample_bytes (src) > 1 ? sizeof (float) : sizeof (__half))) * src->height;
  GridLayout g = grid_layout (src->width, src->height, channels, d, &p->tile);
  return g.cols_bytes + g.grid_bytes;
}

} // namespace

/* Bytes of scratch that blur with PARAMS needs on SRC: its buffers, then its weights. */
static size_t
blur_workspace (const void *params, const LmKImage *src)
{
  const LmBlurParams *p = static_cast<const LmBlurParams *> (params);
  if (lm_blur_radius (p->sigma) == 0)
    return 0;
  return buffers_bytes (p, src) + kWeightsBytes;
}

/* The most blur's scratch can need on an image of SRC's size: any σ up to the cap (it
 * matters only through the method and grid step it picks, which change at multiples of
 * LM_BLUR_STEPS_PER_SIGMA: every half pixel of σ meets each) and either format of SRC's depth
 * (RGBA with alpha needs the most; a 16-bit source's direct method keeps floats where an
 * 8-bit one keeps half floats). About 12 bytes a pixel, at the finest grid. Its need depends on
 * σ (the grid step) and the format: grown to each new largest need, the device memory would
 * grow again at whatever late edit first picked a σ of a larger need; reserved once, no edit
 * after the first blur on a photo grows it. */
static size_t
blur_workspace_max (const LmKImage *src)
{
  LmKImage rgba = *src;
  rgba.format = src->format == LM_K_RGBA_F32 ? LM_K_RGBA_F32 : is_deep (src) ? LM_K_RGBA16 : LM_K_RGBA8;
  rgba.opaque = 0;
  size_t most = 0;
  for (int half = 1; half <= (int) (2 * LM_BLUR_SIGMA_MAX); half++)
    {
      LmBlurParams p = {};
      p.sigma = half / 2.0f;
      size_t need = blur_workspace (&p, &rgba);
      most = need > most ? need : most;
    }
  return most;
}

static cudaError_t
blur_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
             cudaStream_t stream)
{
  const LmBlurParams *p = static_cast<const LmBlurParams *> (params);
  int radius = lm_blur_radius (p->sigma);
  if (radius == 0)
    {
      size_t row = (size_t) src->width * (channels_of (src) == 1 ? 1 : 4) * sample_bytes (src);
      return cudaMemcpy2DAsync (dst->data, dst->stride, src->data, src->stride, row, src->height,
                                cudaMemcpyDeviceToDevice, stream);
    }
  if (scratch->size < blur_workspace (p, src))
    return cudaErrorInvalidValue;

  // The kernels read the taps up to the padding after the last (grid_rows stages them all).
  float taps[kTapsFloats];
  float half_taps[LM_BLUR_RADIUS_MAX + 1];
  lm_blur_weights (p->sigma, radius, half_taps);
  memset (taps, 0, sizeof taps);
  for (int j = -radius; j <= radius; j++)
    taps[kTapPad + radius + j] = half_taps[j < 0 ? -j : j];
  uint8_t *weights = static_cast<uint8_t *> (scratch->data) + buffers_bytes (p, src);
  float *taps_on_device = reinterpret_cast<float *> (weights);
  float *cubic_on_device = reinterpret_cast<float *> (weights + kCubicAt);
  // Copies from pageable memory return once the data is staged, so TAPS and CUBIC can go; the
  // stream orders them after the previous launch's kernels, which read the scratch's last
  // weights.
  LM_CUDA_TRY (cudaMemcpyAsync (taps_on_device, taps, (2 * kTapPad + 2 * (size_t) radius + 1) * sizeof (float),
                                cudaMemcpyHostToDevice, stream));

  int d = lm_blur_decimation (p->sigma);
  if (d > 1)
    {
      float cubic[kMaxStep][4];
      for (int t = 0; t < d; t++)
        lm_blur_cubic_weights ((float) t / (float) d, cubic[t]);
      LM_CUDA_TRY (cudaMemcpyAsync (cubic_on_device, cubic, sizeof (cubic[0]) * d, cudaMemcpyHostToDevice, stream));
    }
  if (src->format == LM_K_RGBA_F32)
    return launch_depth<float> (src, dst, scratch, taps_on_device, cubic_on_device, radius, d, &p->tile, stream);
  return is_deep (src)
           ? launch_depth<uint16_t> (src, dst, scratch, taps_on_device, cubic_on_device, radius, d, &p->tile, stream)
           : launch_depth<uint8_t> (src, dst, scratch, taps_on_device, cubic_on_device, radius, d, &p->tile, stream);
}

extern "C" const LmKOp lm_k_blur_op = { blur_workspace, blur_workspace_max, blur_launch };

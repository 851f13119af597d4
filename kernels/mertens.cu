// Mertens' exposure fusion on the GPU: the arithmetic of core/hdr/mertens-math.h in the order
// of the CPU reference (core/hdr/mertens.c), so that the two differ only where expf and powf
// round differently, by an ulp or two.
//
// As on the CPU, the exposures stream through one set of buffers, and the output pyramid
// accumulates them; memory does not grow with the number of exposures:
//   weight_sum     every exposure's weight of each pixel, summed in exposure order (4 B a pixel);
//   then for each exposure:
//   pyr_down       level 1 of its Gaussian pyramid straight from the 8-bit exposure and the sum:
//                  level 0 (values / 255, weight / sum) is never stored, but recomputed where read;
//                  then levels 2 … L−1;
//   blend_level    each level ≥ 1 of its Laplacian pyramid (G_l − up G_l+1), times the weights'
//                  Gaussian pyramid, added to the accumulating pyramid;
//   blend_base     level 0 the same way, added into the output itself.
// After the last exposure's levels ≥ 1, the accumulators collapse (coarsest first) down to
// level 1, and the last exposure's level-0 pass also adds the collapsed level 1: the output
// is read and written once per exposure and never after.
//
// The image and weight pyramids travel together: R, G, B in x, y, z and the weight in w of one
// float4, which pyrDown filters alike (the CPU's image pyramid has a zero alpha there, unused).
#include "core/hdr/mertens-math.h"
#include "kernels/cuda-check.h"
#include "kernels/gamma-correct.cuh"
#include "kernels/hdr-reduce.cuh"

using namespace lm_hdr;

namespace {

constexpr int kMaxLevels = LM_K_MERTENS_MAX_LEVELS;
constexpr int kTileX = 32, kTileY = 8, kTileThreads = kTileX * kTileY;
// The source pixels of a tile of pyrDown's output: 5 taps, stride 2.
constexpr int kSpanX = 2 * kTileX + 3, kSpanY = 2 * kTileY + 3;
constexpr float kInv255 = 1.0f / 255.0f;

// One level of a pyramid, rows packed.
struct Level {
  float4 *px;
  int w, h;
};

struct Exposure {
  const uint8_t *px;
  size_t stride;
  int w, h;
};

// Where the workspace's buffers lie: the weights' sum, then levels 1 … L−1 of the exposure's
// Gaussian pyramid and of the accumulators (level 0 of the accumulators is the output).
struct Layout {
  float *wsum;
  Level g[kMaxLevels], acc[kMaxLevels];
  size_t bytes;
};

Layout
layout (void *base, unsigned width, unsigned height, int levels)
{
  Layout lay = {};
  size_t at = 0;
  auto take = [&] (size_t bytes) {
    char *p = base ? static_cast<char *> (base) + at : nullptr;
    at += (bytes + 255) & ~(size_t) 255;
    return p;
  };
  lay.wsum = reinterpret_cast<float *> (take ((size_t) width * height * sizeof (float)));
  int w = (int) width, h = (int) height;
  for (int l = 1; l < levels; l++)
    {
      w = (w + 1) / 2, h = (h + 1) / 2; // the CPU's (and OpenCV's pyrDown's) sizes
      size_t bytes = (size_t) w * h * sizeof (float4);
      lay.g[l] = Level { reinterpret_cast<float4 *> (take (bytes)), w, h };
      lay.acc[l] = Level { reinterpret_cast<float4 *> (take (bytes)), w, h };
    }
  lay.bytes = at;
  return lay;
}

// ---------------------------------------------------------------------------------------
// Level 0: an exposure's values and weights, as the CPU's value_of and exposure_weights.

template <bool Gray>
__device__ inline float3
rgb_at (const Exposure &e, int x, int y)
{
  const uint8_t *row = e.px + (size_t) y * e.stride;
  if (Gray)
    {
      float v = (float) __ldg (row + x) * kInv255;
      return make_float3 (v, v, v);
    }
  uint32_t p = __ldg (reinterpret_cast<const uint32_t *> (row) + x);
  return make_float3 (lm_px_channel (p, 0) * kInv255, lm_px_channel (p, 1) * kInv255,
                      lm_px_channel (p, 2) * kInv255);
}

template <bool Gray>
__device__ inline float
luma (float3 c)
{
  return Gray ? c.x : lm_mertens_luma (c.x, c.y, c.z);
}

// The weight of pixel (X, Y), whose values are C: a gray stack has no saturation, and its one
// channel is exposed once.
template <bool Gray>
__device__ inline float
weight_at (const Exposure &e, const LmKMertens &p, int x, int y, float3 c)
{
  int up = lm_reflect101 (y - 1, e.h), down = lm_reflect101 (y + 1, e.h);
  int left = lm_reflect101 (x - 1, e.w), right = lm_reflect101 (x + 1, e.w);
  float contrast = lm_mertens_contrast (luma<Gray> (rgb_at<Gray> (e, x, up)), luma<Gray> (rgb_at<Gray> (e, left, y)),
                                        luma<Gray> (c), luma<Gray> (rgb_at<Gray> (e, right, y)),
                                        luma<Gray> (rgb_at<Gray> (e, x, down)));
  float saturation = 1.0f, exposedness;
  if (Gray)
    exposedness = lm_mertens_exposedness (c.x);
  else
    {
      saturation = lm_mertens_saturation (c.x, c.y, c.z);
      exposedness = lm_mertens_exposedness (c.x) * lm_mertens_exposedness (c.y) * lm_mertens_exposedness (c.z);
    }
  return lm_mertens_weight (contrast, saturation, exposedness, p.contrast, p.saturation, p.exposedness);
}

// Level 0 of the exposure's pyramids at (X, Y): its values, and its weight over the sum.
template <bool Gray>
__device__ inline float4
base_pixel (const Exposure &e, const float *wsum, const LmKMertens &p, int x, int y)
{
  float3 c = rgb_at<Gray> (e, x, y);
  float w = weight_at<Gray> (e, p, x, y, c) / __ldg (wsum + (size_t) y * e.w + x);
  return make_float4 (c.x, c.y, c.z, w);
}

// Launch parameters: the stack's pointers, read in place.
struct Stack {
  const uint8_t *images[LM_K_HDR_MAX_EXPOSURES];
  size_t stride;
  int w, h;
  unsigned n;
};

template <bool Gray>
__global__ void __launch_bounds__ (kTileThreads)
weight_sum (const __grid_constant__ Stack s, LmKMertens p, float *wsum)
{
  int x = blockIdx.x * kTileX + threadIdx.x, y = blockIdx.y * kTileY + threadIdx.y;
  if (x >= s.w || y >= s.h)
    return;
  float sum = 0.0f;
  for (unsigned i = 0; i < s.n; i++)
    {
      Exposure e = { s.images[i], s.stride, s.w, s.h };
      float w = weight_at<Gray> (e, p, x, y, rgb_at<Gray> (e, x, y));
      sum = i == 0 ? w : sum + w;
    }
  wsum[(size_t) y * s.w + x] = sum;
}

// ---------------------------------------------------------------------------------------
// pyrDown and pyrUp, per component, with the CPU's taps in the CPU's order: across first,
// then down.

__device__ inline float4
down_taps (float4 a, float4 b, float4 c, float4 d, float4 e)
{
  return make_float4 (lm_pyr_down_taps (a.x, b.x, c.x, d.x, e.x), lm_pyr_down_taps (a.y, b.y, c.y, d.y, e.y),
                      lm_pyr_down_taps (a.z, b.z, c.z, d.z, e.z), lm_pyr_down_taps (a.w, b.w, c.w, d.w, e.w));
}

__device__ inline float4
up_even (float4 a, float4 b, float4 c)
{
  return make_float4 (lm_pyr_up_even (a.x, b.x, c.x), lm_pyr_up_even (a.y, b.y, c.y), lm_pyr_up_even (a.z, b.z, c.z),
                      lm_pyr_up_even (a.w, b.w, c.w));
}

__device__ inline float4
up_odd (float4 b, float4 c)
{
  return make_float4 (lm_pyr_up_odd (b.x, c.x), lm_pyr_up_odd (b.y, c.y), lm_pyr_up_odd (b.z, c.z),
                      lm_pyr_up_odd (b.w, c.w));
}

__device__ inline float4
scaled (float4 v, float s)
{
  return make_float4 (v.x * s, v.y * s, v.z * s, v.w * s);
}

// pyrUp of level L at pixel (X, Y) of level L − 1 (three source rows and columns at most,
// reflected at the borders of the doubled size), with its 1/64.
__device__ inline float4
up_at (const Level &src, int x, int y)
{
  int jx = x / 2, j = y / 2;
  bool odd_x = x & 1;
  int before = lm_pyr_up_neighbour (jx, -1, src.w), after = lm_pyr_up_neighbour (jx, 1, src.w);
  auto across = [&] (int r) {
    const float4 *row = src.px + (size_t) r * src.w;
    return odd_x ? up_odd (__ldg (row + jx), __ldg (row + after))
                 : up_even (__ldg (row + before), __ldg (row + jx), __ldg (row + after));
  };
  float4 b = across (j), c = across (lm_pyr_up_neighbour (j, 1, src.h));
  float4 v = y & 1 ? up_odd (b, c) : up_even (across (lm_pyr_up_neighbour (j, -1, src.h)), b, c);
  return scaled (v, 1.0f / 64.0f);
}

// The Laplacian of pixel V at (X, Y): V − up (COARSER), or V itself at the top (no COARSER).
__device__ inline float3
laplacian (float4 v, const Level &coarser, int x, int y)
{
  if (coarser.px == nullptr)
    return make_float3 (v.x, v.y, v.z);
  float4 u = up_at (coarser, x, y);
  return make_float3 (v.x + -1.0f * u.x, v.y + -1.0f * u.y, v.z + -1.0f * u.z);
}

// Where pyrDown reads: a stored level, or level 0 made from an exposure on the fly.
struct LevelSource {
  const float4 *px;
  int w, h;
  __device__ float4
  operator() (int x, int y) const
  {
    return __ldg (px + (size_t) y * w + x);
  }
};

template <bool Gray> struct ExposureSource {
  Exposure e;
  const float *wsum;
  LmKMertens p;
  int w, h;
  __device__ float4
  operator() (int x, int y) const
  {
    return base_pixel<Gray> (e, wsum, p, x, y);
  }
};

// DST = pyrDown (SRC), a tile of DST per block: the source pixels it needs (reflected at the
// borders) into shared memory, then the taps across into shared memory, then down.
template <class Source>
__global__ void __launch_bounds__ (kTileThreads)
pyr_down (const Source src, Level dst)
{
  __shared__ float4 in[kSpanY][kSpanX];
  __shared__ float4 across[kSpanY][kTileX];
  int t = threadIdx.y * kTileX + threadIdx.x;
  int x0 = blockIdx.x * kTileX, y0 = blockIdx.y * kTileY;
  int nx = min (kTileX, dst.w - x0), ny = min (kTileY, dst.h - y0);
  int span_x = 2 * nx + 3, span_y = 2 * ny + 3;
  for (int i = t; i < span_x * span_y; i += kTileThreads)
    {
      int r = i / span_x, c = i % span_x;
      in[r][c] = src (lm_reflect101 (2 * x0 - 2 + c, src.w), lm_reflect101 (2 * y0 - 2 + r, src.h));
    }
  __syncthreads ();
  for (int i = t; i < nx * span_y; i += kTileThreads)
    {
      int r = i / nx, c = i % nx;
      const float4 *s = &in[r][2 * c];
      across[r][c] = down_taps (s[0], s[1], s[2], s[3], s[4]);
    }
  __syncthreads ();
  int tx = threadIdx.x, ty = threadIdx.y;
  if (tx < nx && ty < ny)
    {
      const float4 *col = &across[2 * ty][tx];
      float4 v = down_taps (col[0], col[kTileX], col[2 * kTileX], col[3 * kTileX], col[4 * kTileX]);
      dst.px[(size_t) (y0 + ty) * dst.w + x0 + tx] = scaled (v, 1.0f / 256.0f);
    }
}

// ---------------------------------------------------------------------------------------
// Blending and collapsing

// ACC += Laplacian (G) · weight (G) on a level ≥ 1; the first exposure starts from 0 (the
// CPU's zeroed accumulators: 0 + x, which is x but for the sign of a zero).
__global__ void __launch_bounds__ (kTileThreads)
blend_level (Level g, Level coarser, Level acc, int first)
{
  int x = blockIdx.x * kTileX + threadIdx.x, y = blockIdx.y * kTileY + threadIdx.y;
  if (x >= g.w || y >= g.h)
    return;
  size_t i = (size_t) y * g.w + x;
  float4 v = g.px[i];
  float3 l = laplacian (v, coarser, x, y);
  float4 a = first ? make_float4 (0.0f, 0.0f, 0.0f, 0.0f) : acc.px[i];
  acc.px[i] = make_float4 (a.x + l.x * v.w, a.y + l.y * v.w, a.z + l.z * v.w, 0.0f);
}

// FINE += up (COARSE), the collapse of two accumulating levels ≥ 1.
__global__ void __launch_bounds__ (kTileThreads)
collapse (Level coarse, Level fine)
{
  int x = blockIdx.x * kTileX + threadIdx.x, y = blockIdx.y * kTileY + threadIdx.y;
  if (x >= fine.w || y >= fine.h)
    return;
  float4 u = up_at (coarse, x, y), *o = fine.px + (size_t) y * fine.w + x;
  float4 v = *o;
  *o = make_float4 (v.x + 1.0f * u.x, v.y + 1.0f * u.y, v.z + 1.0f * u.z, v.w);
}

struct BaseArgs {
  Exposure e;
  const float *wsum;
  LmKMertens p;
  Level g1;   // level 1 of the exposure's Gaussian pyramid; none with one level
  Level acc1; // the collapsed level 1, which the last exposure adds; none otherwise
  uint8_t *out;
  size_t out_stride;
  int first, want_max;
};

// Level 0, one block per row: OUT += Laplacian · weight of the exposure (the first one
// starts from 0), plus the collapsed level 1 after the last; alpha 1. With WANT_MAX, each
// row's largest colour sample for the gamma correction.
template <bool Gray>
__global__ void __launch_bounds__ (kRowThreads)
blend_base (const BaseArgs a, RangeRow *rows)
{
  int y = blockIdx.x;
  float4 *out = reinterpret_cast<float4 *> (a.out + (size_t) y * a.out_stride);
  float hi = -INFINITY;
  for (int x = threadIdx.x; x < a.e.w; x += blockDim.x)
    {
      float4 v = base_pixel<Gray> (a.e, a.wsum, a.p, x, y);
      float3 l = laplacian (v, a.g1, x, y);
      float4 o = a.first ? make_float4 (0.0f, 0.0f, 0.0f, 0.0f) : out[x];
      float4 r = make_float4 (o.x + l.x * v.w, o.y + l.y * v.w, o.z + l.z * v.w, 1.0f);
      if (a.acc1.px != nullptr)
        {
          float4 u = up_at (a.acc1, x, y);
          r.x = r.x + 1.0f * u.x, r.y = r.y + 1.0f * u.y, r.z = r.z + 1.0f * u.z;
        }
      out[x] = r;
      hi = fmaxf (hi, fmaxf (r.x, fmaxf (r.y, r.z)));
    }
  if (a.want_max)
    {
      __shared__ float scratch[kRowThreads / 32];
      hi = block_reduce (hi, Max (), scratch);
      if (threadIdx.x == 0)
        rows[y] = RangeRow { 0.0f, hi };
    }
}

dim3
tiles (int w, int h)
{
  return dim3 (lm_div_up ((size_t) w, kTileX), lm_div_up ((size_t) h, kTileY));
}

template <bool Gray>
cudaError_t
fuse (const LmKStack *stack, const LmKMertens &params, int levels, float gamma_correction, const LmKImage *out,
      void *pyramids, const LmKHdrScratch *scratch, cudaStream_t stream)
{
  int w = (int) stack->width, h = (int) stack->height;
  Layout lay = layout (pyramids, stack->width, stack->height, levels);
  const dim3 tile (kTileX, kTileY);
  bool correct = gamma_correction > 0.0f;
  RangeRow *rows = static_cast<RangeRow *> (scratch->rows);

  Stack s;
  for (unsigned i = 0; i < stack->n; i++)
    s.images[i] = static_cast<const uint8_t *> (stack->images[i]);
  s.stride = stack->stride, s.w = w, s.h = h, s.n = stack->n;
  weight_sum<Gray><<<tiles (w, h), tile, 0, stream>>> (s, params, lay.wsum);
  LM_CUDA_LAUNCHED ();

  for (unsigned i = 0; i < stack->n; i++)
    {
      bool first = i == 0, last = i + 1 == stack->n;
      Exposure e = { s.images[i], s.stride, w, h };
      if (levels > 1)
        {
          ExposureSource<Gray> base = { e, lay.wsum, params, w, h };
          pyr_down<<<tiles (lay.g[1].w, lay.g[1].h), tile, 0, stream>>> (base, lay.g[1]);
          LM_CUDA_LAUNCHED ();
          for (int l = 1; l + 1 < levels; l++)
            {
              LevelSource src = { lay.g[l].px, lay.g[l].w, lay.g[l].h };
              pyr_down<<<tiles (lay.g[l + 1].w, lay.g[l + 1].h), tile, 0, stream>>> (src, lay.g[l + 1]);
              LM_CUDA_LAUNCHED ();
            }
          for (int l = 1; l < levels; l++)
            {
              Level coarser = l + 1 < levels ? lay.g[l + 1] : Level {};
              blend_level<<<tiles (lay.g[l].w, lay.g[l].h), tile, 0, stream>>> (lay.g[l], coarser, lay.acc[l], first);
              LM_CUDA_LAUNCHED ();
            }
          for (int l = levels - 1; last && l >= 2; l--)
            {
              collapse<<<tiles (lay.acc[l - 1].w, lay.acc[l - 1].h), tile, 0, stream>>> (lay.acc[l], lay.acc[l - 1]);
              LM_CUDA_LAUNCHED ();
            }
        }
      BaseArgs a = { e, lay.wsum, params, levels > 1 ? lay.g[1] : Level {},
                     last && levels > 1 ? lay.acc[1] : Level {}, static_cast<uint8_t *> (out->data), out->stride,
                     first, last && correct };
      blend_base<Gray><<<h, kRowThreads, 0, stream>>> (a, rows);
      LM_CUDA_LAUNCHED ();
    }

  if (!correct)
    return cudaSuccess;
  State *state = static_cast<State *> (scratch->state);
  return launch_gamma_correct (rows, state, static_cast<uint8_t *> (out->data), out->stride, w, h, gamma_correction,
                               stream);
}

} // namespace

extern "C" size_t
lm_k_mertens_workspace_size (unsigned width, unsigned height, int levels)
{
  return layout (nullptr, width, height, levels < kMaxLevels ? levels : kMaxLevels).bytes;
}

extern "C" cudaError_t
lm_k_mertens (const LmKStack *stack, const LmKMertens *params, int levels, float gamma_correction,
              const LmKImage *out, void *pyramids, const LmKHdrScratch *scratch, cudaStream_t stream)
{
  if (stack->n < 1 || stack->n > LM_K_HDR_MAX_EXPOSURES || levels < 1 || levels > kMaxLevels
      || out->format != LM_K_RGBA_F32 || out->width != stack->width || out->height != stack->height)
    return cudaErrorInvalidValue;
  if (stack->width == 0 || stack->height == 0)
    return cudaSuccess;
  if (stack->format == LM_K_GRAY8)
    return fuse<true> (stack, *params, levels, gamma_correction, out, pyramids, scratch, stream);
  return fuse<false> (stack, *params, levels, gamma_correction, out, pyramids, scratch, stream);
}

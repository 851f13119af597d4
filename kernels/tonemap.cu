// Tone mapping on the GPU: core/hdr/tonemap.c's operators with the arithmetic of
// core/hdr/tonemap-math.h, and no round trip to the host.
//
// Each stage of the CPU's chain needs a number taken over the whole image before its first
// pixel can be computed: the radiance's range, then (Reinhard, Drago) the log-luminance sums
// of the stretched image, then the range of the operator's result. So instead of storing
// intermediate images, every pass reads the radiance (16 B a pixel) and recomputes the stages
// before it in registers, which costs less than writing and reading them back:
//   range of the radiance → sums of the stretched radiance → range of the operator's result
//   → the final value, quantised and written (4 B a pixel).
// Each pass ends in per-row partial results, folded by one block into the State (hdr-reduce.cuh).
// The sigmoid (core/hdr/sigmoid-math.h) needs no pass over the image: one kernel, pixel by
// pixel, with the CPU's bits.
#include "core/hdr/sigmoid-math.h"
#include "kernels/cuda-check.h"
#include "kernels/grid-rows.cuh"
#include "kernels/hdr-reduce.cuh"

using namespace lm_hdr;

namespace {

constexpr unsigned kPixelThreads = 256;

// How far along the chain a pass evaluates a pixel.
enum Stage { RADIANCE, OPERATED, DISPLAY };

__device__ inline void
evaluate (Stage stage, int kind, const State &s, float inv_gamma, float4 in, float q[3])
{
  q[0] = in.x, q[1] = in.y, q[2] = in.z;
  if (stage == RADIANCE || kind == LM_K_TONEMAP_NONE)
    return;
  for (int c = 0; c < 3; c++)
    q[c] = lm_tm_stretch (q[c], s.first);
  if (kind == LM_K_TONEMAP_GAMMA)
    {
      for (int c = 0; c < 3; c++)
        q[c] = lm_tm_gamma (q[c], inv_gamma);
      return;
    }
  if (kind == LM_K_TONEMAP_REINHARD)
    lm_tm_reinhard (&s.reinhard, q);
  else
    lm_tm_drago (&s.drago, q);
  if (stage == OPERATED)
    return;
  for (int c = 0; c < 3; c++)
    q[c] = lm_tm_gamma (lm_tm_stretch (q[c], s.second), inv_gamma);
}

__device__ inline float4
load (const uint8_t *image, size_t stride, unsigned x, unsigned y)
{
  return __ldg (reinterpret_cast<const float4 *> (image + (size_t) y * stride) + x);
}

// Each row's smallest and largest colour sample at STAGE.
template <Stage S>
__global__ void __launch_bounds__ (kRowThreads)
range_rows (const uint8_t *image, size_t stride, unsigned width, int kind, const State *state, RangeRow *rows)
{
  __shared__ float scratch[kRowThreads / 32];
  const State &s = *state; // not read at all for the radiance's own range
  float lo = INFINITY, hi = -INFINITY;
#pragma unroll 4
  for (unsigned x = threadIdx.x; x < width; x += blockDim.x)
    {
      float q[3];
      evaluate (S, kind, s, 1.0f, load (image, stride, x, blockIdx.x), q);
      lo = fminf (lo, fminf (q[0], fminf (q[1], q[2])));
      hi = fmaxf (hi, fmaxf (q[0], fmaxf (q[1], q[2])));
    }
  lo = block_reduce (lo, Min (), scratch);
  hi = block_reduce (hi, Max (), scratch);
  if (threadIdx.x == 0)
    rows[blockIdx.x] = RangeRow { lo, hi };
}

// The range folded into the State's first or second stretch.
__global__ void __launch_bounds__ (kFoldThreads)
fold_stretch (const RangeRow *rows, unsigned height, State *state, int second)
{
  RangeRow r = fold_range (rows, height);
  if (threadIdx.x == 0)
    {
      LmTmStretch s = lm_tm_stretch_of (r.min, r.max);
      if (second)
        state->second = s;
      else
        state->first = s;
    }
}

// Each row's sums over the stretched radiance (tonemap.c's stats_of).
__global__ void __launch_bounds__ (kRowThreads)
stats_rows (const uint8_t *image, size_t stride, unsigned width, const State *state, StatsRow *rows)
{
  __shared__ double dscratch[kRowThreads / 32];
  __shared__ float fscratch[kRowThreads / 32];
  LmTmStretch first = state->first;
  double log_sum = 0.0, sum[3] = { 0.0, 0.0, 0.0 }, gray_sum = 0.0;
  float log_min = INFINITY, log_max = -INFINITY, max_luminance = 0.0f;
#pragma unroll 4
  for (unsigned x = threadIdx.x; x < width; x += blockDim.x)
    {
      float4 p = load (image, stride, x, blockIdx.x);
      float q[3] = { lm_tm_stretch (p.x, first), lm_tm_stretch (p.y, first), lm_tm_stretch (p.z, first) };
      float g = lm_tm_luminance (q[0], q[1], q[2]);
      float l = lm_tm_log_luminance (g);
      log_sum += l;
      log_min = fminf (log_min, l);
      log_max = fmaxf (log_max, l);
      for (int c = 0; c < 3; c++)
        sum[c] += q[c];
      gray_sum += g;
      max_luminance = fmaxf (max_luminance, g);
    }
  StatsRow r;
  r.log_sum = block_reduce (log_sum, Sum (), dscratch);
  for (int c = 0; c < 3; c++)
    r.sum[c] = block_reduce (sum[c], Sum (), dscratch);
  r.gray_sum = block_reduce (gray_sum, Sum (), dscratch);
  r.log_min = block_reduce (log_min, Min (), fscratch);
  r.log_max = block_reduce (log_max, Max (), fscratch);
  r.max_luminance = block_reduce (max_luminance, Max (), fscratch);
  if (threadIdx.x == 0)
    rows[blockIdx.x] = r;
}

// The rows' sums folded, and the operator's constants derived from them.
__global__ void __launch_bounds__ (kFoldThreads)
fold_stats (const StatsRow *rows, unsigned height, double n, LmKTonemap p, State *state)
{
  __shared__ double dscratch[kFoldThreads / 32];
  __shared__ float fscratch[kFoldThreads / 32];
  unsigned first, last;
  fold_span (height, &first, &last);
  double log_sum = 0.0, sum[3] = { 0.0, 0.0, 0.0 }, gray_sum = 0.0;
  float log_min = INFINITY, log_max = -INFINITY, max_luminance = 0.0f;
  for (unsigned y = first; y < last; y++)
    {
      const StatsRow &r = rows[y];
      log_sum += r.log_sum;
      for (int c = 0; c < 3; c++)
        sum[c] += r.sum[c];
      gray_sum += r.gray_sum;
      log_min = fminf (log_min, r.log_min);
      log_max = fmaxf (log_max, r.log_max);
      max_luminance = fmaxf (max_luminance, r.max_luminance);
    }
  LmTmStats t;
  t.log_sum = block_reduce (log_sum, Sum (), dscratch);
  for (int c = 0; c < 3; c++)
    t.sum[c] = block_reduce (sum[c], Sum (), dscratch);
  t.gray_sum = block_reduce (gray_sum, Sum (), dscratch);
  t.log_min = block_reduce (log_min, Min (), fscratch);
  t.log_max = block_reduce (log_max, Max (), fscratch);
  t.max_luminance = block_reduce (max_luminance, Max (), fscratch);
  if (threadIdx.x != 0)
    return;
  if (p.kind == LM_K_TONEMAP_REINHARD)
    state->reinhard = lm_tm_reinhard_setup (p.intensity, p.light_adapt, p.color_adapt, &t, n);
  else
    state->drago = lm_tm_drago_setup (p.bias, p.saturation, &t, n);
}

// Q (0..1) quantised to 8 bits (alpha 255) or, WIDE, to 16 (alpha 65535), as pixel X of ROW.
template <bool Wide>
__device__ inline void
store (uint8_t *row, unsigned x, const float q[3])
{
  if (Wide)
    reinterpret_cast<ushort4 *> (row)[x]
      = make_ushort4 (lm_tm_quantize16 (q[0]), lm_tm_quantize16 (q[1]), lm_tm_quantize16 (q[2]), 65535);
  else
    reinterpret_cast<uint32_t *> (row)[x]
      = lm_px_pack (lm_tm_quantize (q[0]), lm_tm_quantize (q[1]), lm_tm_quantize (q[2]), 0xff000000u);
}

// One pixel per thread: the whole chain, quantised.
template <bool Wide>
__global__ void
display (const uint8_t *image, size_t stride, uint8_t *out, size_t out_stride, unsigned width, unsigned height,
         int kind, const State *state, float inv_gamma)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  LM_FOR_ROWS (y, height)
    {
      float q[3];
      evaluate (DISPLAY, kind, *state, inv_gamma, load (image, stride, x, (unsigned) y), q);
      store<Wide> (out + y * out_stride, x, q);
    }
}

// The sigmoid, one pixel per thread; its constants derived here as on the CPU, from P.
template <bool Wide>
__global__ void
sigmoid (const uint8_t *image, size_t stride, uint8_t *out, size_t out_stride, unsigned width, unsigned height,
         LmKTonemap p)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  LmTmSigmoid s = lm_tm_sigmoid_setup (p.exposure, p.contrast, p.hue_preservation);
  LM_FOR_ROWS (y, height)
    {
      float4 in = load (image, stride, x, (unsigned) y);
      float q[3] = { in.x, in.y, in.z };
      lm_tm_sigmoid (&s, q);
      store<Wide> (out + y * out_stride, x, q);
    }
}

// The sigmoid's parameters as tonemap.c's check_sigmoid accepts them.
bool
sigmoid_params_valid (const LmKTonemap *p)
{
  return p->contrast > 0.0f && isfinite (p->contrast) && isfinite (p->exposure) && p->hue_preservation >= 0.0f
         && p->hue_preservation <= 1.0f;
}

} // namespace

extern "C" cudaError_t
lm_k_tonemap (const LmKTonemap *p, const LmKImage *radiance, const LmKImage *out, const LmKHdrScratch *scratch,
              cudaStream_t stream)
{
  if (radiance->format != LM_K_RGBA_F32 || (out->format != LM_K_RGBA8 && out->format != LM_K_RGBA16) || !(p->gamma > 0.0f)
      || p->kind < LM_K_TONEMAP_NONE || p->kind > LM_K_TONEMAP_SIGMOID
      || (p->kind == LM_K_TONEMAP_SIGMOID && !sigmoid_params_valid (p)))
    return cudaErrorInvalidValue;
  unsigned w = radiance->width, h = radiance->height;
  if (w == 0 || h == 0)
    return cudaSuccess;
  const uint8_t *in = static_cast<const uint8_t *> (radiance->data);
  uint8_t *dst = static_cast<uint8_t *> (out->data);
  if (p->kind == LM_K_TONEMAP_SIGMOID)
    {
      dim3 grid = lm_rows_grid (lm_div_up (w, kPixelThreads), h);
      if (out->format == LM_K_RGBA16)
        sigmoid<true><<<grid, kPixelThreads, 0, stream>>> (in, radiance->stride, dst, out->stride, w, h, *p);
      else
        sigmoid<false><<<grid, kPixelThreads, 0, stream>>> (in, radiance->stride, dst, out->stride, w, h, *p);
      LM_CUDA_LAUNCHED ();
      return cudaSuccess;
    }
  State *state = static_cast<State *> (scratch->state);
  RangeRow *ranges = static_cast<RangeRow *> (scratch->rows);
  bool has_operator = p->kind == LM_K_TONEMAP_REINHARD || p->kind == LM_K_TONEMAP_DRAGO;

  if (p->kind != LM_K_TONEMAP_NONE)
    {
      range_rows<RADIANCE><<<h, kRowThreads, 0, stream>>> (in, radiance->stride, w, p->kind, state, ranges);
      LM_CUDA_LAUNCHED ();
      fold_stretch<<<1, kFoldThreads, 0, stream>>> (ranges, h, state, 0);
      LM_CUDA_LAUNCHED ();
    }
  if (has_operator)
    {
      StatsRow *stats = static_cast<StatsRow *> (scratch->rows);
      stats_rows<<<h, kRowThreads, 0, stream>>> (in, radiance->stride, w, state, stats);
      LM_CUDA_LAUNCHED ();
      fold_stats<<<1, kFoldThreads, 0, stream>>> (stats, h, (double) w * h, *p, state);
      LM_CUDA_LAUNCHED ();
      range_rows<OPERATED><<<h, kRowThreads, 0, stream>>> (in, radiance->stride, w, p->kind, state, ranges);
      LM_CUDA_LAUNCHED ();
      fold_stretch<<<1, kFoldThreads, 0, stream>>> (ranges, h, state, 1);
      LM_CUDA_LAUNCHED ();
    }
  // As the CPU: the operators' first stretch has gamma 1, the last stage the user's gamma.
  float inv_gamma = 1.0f / p->gamma;
  dim3 grid = lm_rows_grid (lm_div_up (w, kPixelThreads), h);
  if (out->format == LM_K_RGBA16)
    display<true><<<grid, kPixelThreads, 0, stream>>> (in, radiance->stride, dst, out->stride, w, h, p->kind,
                                                       state, inv_gamma);
  else
    display<false><<<grid, kPixelThreads, 0, stream>>> (in, radiance->stride, dst, out->stride, w, h, p->kind,
                                                        state, inv_gamma);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

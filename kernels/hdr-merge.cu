// The radiance merges on the GPU, Debevec's (core/hdr/merge-math.h) and Robertson's
// (core/hdr/robertson-math.h) of 8-bit exposures, the linear merge of 16-bit ones
// (merge-math.h), and the normalised gamma correction after them.
//
// One pass reads each exposure's pixel once (4 B each) and writes the radiance once (16 B):
// the memory floor. The stack's pointers, exposure times and response tables travel as
// launch parameters (__grid_constant__, read in place), so a merge copies nothing to the
// device and allocates nothing. With a gamma correction the same pass also leaves each row's
// largest sample; one block folds them and a second pass corrects in place.
#include "core/hdr/robertson-math.h"
#include "kernels/cuda-check.h"
#include "kernels/gamma-correct.cuh"
#include "kernels/hdr-reduce.cuh"

using namespace lm_hdr;

namespace {

constexpr int kLevels = LM_HDR_MERGE_LEVELS;

// Debevec: ln f⁻¹ per channel and level; the exposures' ln t.
struct Debevec {
  static constexpr int kTable = 3 * kLevels;
  static constexpr bool kLogarithms = true;
  LmDebevecSums s = {};

  __device__ void
  add (const float *table, uint32_t p, float log_time, bool is_longest)
  {
    lm_debevec_add (&s, table, p, log_time, is_longest);
  }
  __device__ float4
  radiance (const LmHdrClipEnds &e) const
  {
    return make_float4 (lm_debevec_radiance (&s, &e, 0), lm_debevec_radiance (&s, &e, 1),
                        lm_debevec_radiance (&s, &e, 2), 1.0f);
  }
};

// Robertson: f⁻¹ per channel and level, then the 256 weights; the exposures' t.
struct Robertson {
  static constexpr int kTable = 4 * kLevels;
  static constexpr bool kLogarithms = false;
  float num[3] = { 0.0f, 0.0f, 0.0f }, den[3] = { 0.0f, 0.0f, 0.0f };
  int longest_z[3] = { 0, 0, 0 };

  __device__ void
  add (const float *table, uint32_t p, float t, bool is_longest)
  {
    const float *weight = table + 3 * kLevels;
#pragma unroll
    for (int c = 0; c < 3; c++)
      {
        int z = (int) ((p >> (8 * c)) & 0xffu);
        lm_robertson_add (t, weight[z], table[c * kLevels + z], &num[c], &den[c]);
        if (is_longest)
          longest_z[c] = z;
      }
  }
  __device__ float4
  radiance (const LmHdrClipEnds &e) const
  {
    return make_float4 (lm_robertson_merged (num[0], den[0], &e, 0, longest_z[0]),
                        lm_robertson_merged (num[1], den[1], &e, 1, longest_z[1]),
                        lm_robertson_merged (num[2], den[2], &e, 2, longest_z[2]), 1.0f);
  }
};

template <class Method> struct MergeArgs {
  const uint8_t *images[LM_K_HDR_MAX_EXPOSURES];
  float time[LM_K_HDR_MAX_EXPOSURES]; // as the method takes it
  float table[Method::kTable];
  LmHdrClipEnds ends; // what a channel clipped in every exposure becomes (merge-math.h)
  uint8_t *out;
  size_t stride, out_stride;
  unsigned width, n, longest;
};
// Since CUDA 12.1, launch parameters may take 32764 bytes on Volta and newer (every device
// this build targets; its runtime needs a driver that allows it). Debevec's fit the old 4 KiB.
static_assert (sizeof (MergeArgs<Debevec>) <= 4096, "Debevec's arguments fit any launch");
static_assert (sizeof (MergeArgs<Robertson>) <= 32764, "Robertson's arguments must fit the launch parameters");

template <class Method, bool Gray, bool WantMax>
__global__ void __launch_bounds__ (kRowThreads)
merge_rows (const __grid_constant__ MergeArgs<Method> a, RangeRow *rows)
{
  // Per-lane lookups with scattered indices: shared memory, not the constant bank.
  __shared__ float table[Method::kTable];
  for (unsigned i = threadIdx.x; i < Method::kTable; i += blockDim.x)
    table[i] = a.table[i];
  __syncthreads ();

  unsigned y = blockIdx.x;
  size_t offset = (size_t) y * a.stride;
  float4 *out = reinterpret_cast<float4 *> (a.out + (size_t) y * a.out_stride);
  float hi = -INFINITY;
  for (unsigned x = threadIdx.x; x < a.width; x += blockDim.x)
    {
      Method m;
      // Unrolled so that several exposures' loads are in flight at once.
#pragma unroll 4
      for (unsigned i = 0; i < a.n; i++)
        {
          const uint8_t *row = a.images[i] + offset;
          uint32_t p = Gray ? lm_hdr_gray_word (__ldg (row + x)) : __ldg (reinterpret_cast<const uint32_t *> (row) + x);
          m.add (table, p, a.time[i], i == a.longest);
        }
      float4 v = m.radiance (a.ends);
      out[x] = v;
      if (WantMax)
        hi = fmaxf (hi, fmaxf (v.x, fmaxf (v.y, v.z)));
    }
  if (WantMax)
    {
      __shared__ float scratch[kRowThreads / 32];
      hi = block_reduce (hi, Max (), scratch);
      if (threadIdx.x == 0)
        rows[y] = RangeRow { 0.0f, hi };
    }
}

template <class Method, bool Gray>
void
launch_rows (const MergeArgs<Method> &a, unsigned height, bool want_max, RangeRow *rows, cudaStream_t stream)
{
  if (want_max)
    merge_rows<Method, Gray, true><<<height, kRowThreads, 0, stream>>> (a, rows);
  else
    merge_rows<Method, Gray, false><<<height, kRowThreads, 0, stream>>> (a, rows);
}

// The merge with TABLE (host memory, Method::kTable floats), then the gamma correction.
template <class Method>
cudaError_t
merge (const LmKStack *stack, const float *table, float gamma_correction, const LmKImage *out,
       const LmKHdrScratch *scratch, cudaStream_t stream)
{
  if (stack->n < 1 || stack->n > LM_K_HDR_MAX_EXPOSURES || out->format != LM_K_RGBA_F32)
    return cudaErrorInvalidValue;
  if (stack->width == 0 || stack->height == 0)
    return cudaSuccess;

  MergeArgs<Method> a;
  for (unsigned i = 0; i < stack->n; i++)
    {
      a.images[i] = static_cast<const uint8_t *> (stack->images[i]);
      a.time[i] = stack->time[i];
    }
  for (int i = 0; i < Method::kTable; i++)
    a.table[i] = table[i];
  a.ends = lm_hdr_clip_ends (table, a.time, stack->n, Method::kLogarithms);
  a.longest = lm_hdr_longest (a.time, stack->n);
  a.out = static_cast<uint8_t *> (out->data);
  a.stride = stack->stride;
  a.out_stride = out->stride;
  a.width = stack->width;
  a.n = stack->n;

  bool correct = gamma_correction > 0.0f;
  RangeRow *rows = static_cast<RangeRow *> (scratch->rows);
  State *state = static_cast<State *> (scratch->state);
  if (stack->format == LM_K_GRAY8)
    launch_rows<Method, true> (a, stack->height, correct, rows, stream);
  else
    launch_rows<Method, false> (a, stack->height, correct, rows, stream);
  LM_CUDA_LAUNCHED ();
  if (!correct)
    return cudaSuccess;

  return launch_gamma_correct (rows, state, a.out, out->stride, stack->width, stack->height, gamma_correction,
                               stream);
}

// The linear merge of 16-bit exposures: one thread a pixel, the exposures in stack order (as
// the CPU adds them), 8 B (RGBA16) or 2 B (GRAY16) read from each. Nothing to look up: the
// scales and the two ends travel as launch parameters.
struct LinearArgs {
  const uint8_t *images[LM_K_HDR_MAX_EXPOSURES];
  float scale[LM_K_HDR_MAX_EXPOSURES];
  uint8_t *out;
  size_t stride, out_stride;
  unsigned width, n, shortest, longest;
};
static_assert (sizeof (LinearArgs) <= 4096, "the linear merge's arguments fit any launch");

template <bool Gray, bool WantMax>
__global__ void __launch_bounds__ (kRowThreads)
linear_rows (const __grid_constant__ LinearArgs a, RangeRow *rows)
{
  unsigned y = blockIdx.x;
  size_t offset = (size_t) y * a.stride;
  float4 *out = reinterpret_cast<float4 *> (a.out + (size_t) y * a.out_stride);
  float hi = -INFINITY;
  for (unsigned x = threadIdx.x; x < a.width; x += blockDim.x)
    {
      LmHdrLinearSums s[3] = {};
#pragma unroll 4
      for (unsigned i = 0; i < a.n; i++)
        {
          const uint8_t *row = a.images[i] + offset;
          int v[3];
          if (Gray)
            v[0] = v[1] = v[2] = __ldg (reinterpret_cast<const unsigned short *> (row) + x);
          else
            {
              ushort4 p = __ldg (reinterpret_cast<const ushort4 *> (row) + x);
              v[0] = p.x, v[1] = p.y, v[2] = p.z;
            }
          for (int c = 0; c < 3; c++)
            lm_hdr_linear_add (&s[c], v[c], a.scale[i], i == a.shortest, i == a.longest);
        }
      float4 r = make_float4 (lm_hdr_linear_radiance (&s[0]), lm_hdr_linear_radiance (&s[1]),
                              lm_hdr_linear_radiance (&s[2]), 1.0f);
      out[x] = r;
      if (WantMax)
        hi = fmaxf (hi, fmaxf (r.x, fmaxf (r.y, r.z)));
    }
  if (WantMax)
    {
      __shared__ float scratch[kRowThreads / 32];
      hi = block_reduce (hi, Max (), scratch);
      if (threadIdx.x == 0)
        rows[y] = RangeRow { 0.0f, hi };
    }
}

template <bool Gray>
void
launch_linear (const LinearArgs &a, unsigned height, bool want_max, RangeRow *rows, cudaStream_t stream)
{
  if (want_max)
    linear_rows<Gray, true><<<height, kRowThreads, 0, stream>>> (a, rows);
  else
    linear_rows<Gray, false><<<height, kRowThreads, 0, stream>>> (a, rows);
}

} // namespace

extern "C" cudaError_t
lm_k_hdr_linear (const LmKStack *stack, float gamma_correction, const LmKImage *out,
                 const LmKHdrScratch *scratch, cudaStream_t stream)
{
  if (stack->n < 1 || stack->n > LM_K_HDR_MAX_EXPOSURES || out->format != LM_K_RGBA_F32
      || (stack->format != LM_K_RGBA16 && stack->format != LM_K_GRAY16))
    return cudaErrorInvalidValue;
  if (stack->width == 0 || stack->height == 0)
    return cudaSuccess;
  LinearArgs a;
  for (unsigned i = 0; i < stack->n; i++)
    {
      a.images[i] = static_cast<const uint8_t *> (stack->images[i]);
      a.scale[i] = stack->time[i];
    }
  lm_hdr_linear_ends (a.scale, stack->n, &a.shortest, &a.longest);
  a.out = static_cast<uint8_t *> (out->data);
  a.stride = stack->stride;
  a.out_stride = out->stride;
  a.width = stack->width;
  a.n = stack->n;

  bool correct = gamma_correction > 0.0f;
  RangeRow *rows = static_cast<RangeRow *> (scratch->rows);
  State *state = static_cast<State *> (scratch->state);
  if (stack->format == LM_K_GRAY16)
    launch_linear<true> (a, stack->height, correct, rows, stream);
  else
    launch_linear<false> (a, stack->height, correct, rows, stream);
  LM_CUDA_LAUNCHED ();
  if (!correct)
    return cudaSuccess;
  return launch_gamma_correct (rows, state, a.out, out->stride, stack->width, stack->height, gamma_correction,
                               stream);
}

extern "C" size_t
lm_k_hdr_rows_size (unsigned height)
{
  return (size_t) (height ? height : 1) * (sizeof (StatsRow) > sizeof (RangeRow) ? sizeof (StatsRow) : sizeof (RangeRow));
}

extern "C" size_t
lm_k_hdr_state_size (void)
{
  return sizeof (State);
}

extern "C" cudaError_t
lm_k_hdr_debevec (const LmKStack *stack, const float *log_response, float gamma_correction,
                  const LmKImage *out, const LmKHdrScratch *scratch, cudaStream_t stream)
{
  return merge<Debevec> (stack, log_response, gamma_correction, out, scratch, stream);
}

extern "C" cudaError_t
lm_k_hdr_robertson (const LmKStack *stack, const float *response_and_weights, float gamma_correction,
                    const LmKImage *out, const LmKHdrScratch *scratch, cudaStream_t stream)
{
  return merge<Robertson> (stack, response_and_weights, gamma_correction, out, scratch, stream);
}

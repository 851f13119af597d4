// The normalised gamma correction after a radiance merge (hdr-merge.cu) or an exposure fusion
// (mertens.cu): the per-row maxima that the merge pass left (hdr-reduce.cuh) folded into
// State::merge_max, then each colour sample corrected in place as the CPU corrects it
// (lm_hdr_gamma_correct, core/hdr/merge-math.h), alpha kept.
#pragma once

#include "kernels/cuda-check.h"
#include "kernels/grid-rows.cuh"
#include "kernels/hdr-reduce.cuh"

// Internal linkage, in the same unnamed namespace as the including file's own kernels: each
// kernel file that includes this compiles its own copy.
namespace {

constexpr unsigned kGammaThreads = 256; // one pixel per thread, rows down blockIdx.y

__global__ void __launch_bounds__ (lm_hdr::kFoldThreads)
fold_merge_max (const lm_hdr::RangeRow *rows, unsigned height, lm_hdr::State *state)
{
  lm_hdr::RangeRow r = lm_hdr::fold_range (rows, height);
  if (threadIdx.x == 0)
    state->merge_max = r.max;
}

__global__ void
gamma_correct (uint8_t *image, size_t stride, unsigned width, unsigned height, const lm_hdr::State *state,
               float gamma)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  float max = state->merge_max;
  if (x >= width || !(max > 0.0f))
    return;
  LM_FOR_ROWS (y, height)
    {
      float4 *p = reinterpret_cast<float4 *> (image + y * stride) + x;
      float4 v = *p;
      v.x = lm_hdr_gamma_correct (v.x, max, gamma);
      v.y = lm_hdr_gamma_correct (v.y, max, gamma);
      v.z = lm_hdr_gamma_correct (v.z, max, gamma);
      *p = v;
    }
}

// Both passes on the RGBA float IMAGE (WIDTH × HEIGHT, rows STRIDE bytes apart), whose rows'
// maxima are in ROWS; STATE is the device's scratch for the folded maximum.
cudaError_t
launch_gamma_correct (const lm_hdr::RangeRow *rows, lm_hdr::State *state, uint8_t *image, size_t stride, unsigned width,
                      unsigned height, float gamma, cudaStream_t stream)
{
  fold_merge_max<<<1, lm_hdr::kFoldThreads, 0, stream>>> (rows, height, state);
  LM_CUDA_LAUNCHED ();
  dim3 grid = lm_rows_grid (lm_div_up (width, kGammaThreads), height);
  gamma_correct<<<grid, kGammaThreads, 0, stream>>> (image, stride, width, height, state, gamma);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

} // namespace

/* κ-σ clipping of a whole image on the device, with core/astro/clip.c's rules (astropy's
 * sigma_clipped_stats; lm_astro_clip_pass in astro-common.cuh): the image's values are sorted once as ordered keys (CUB's radix sort),
 * after which every clipping pass is exact and cheap: what a pass keeps is a contiguous run
 * of the sorted keys, found by binary search; its median is read at the run's middle; its
 * count is the run's length; and its sums, in double, are one read of the run alone, over
 * tiles of fixed size added in tile order, by one kernel. A pass thus reads at most the kept
 * values once, under one read of the image, and the result does not depend on the launch. */
#include <cub/device/device_radix_sort.cuh>

#include "astro-common.cuh"
#include "astro-kernels.h"

#define TILE (LM_ASTRO_BLOCK * 16)
#define BATCH 16 /* clipping passes queued before the host looks */

/* The run of pass R is RUN[R % 2]: the pass's last block writes the next pass's into the
 * other slot, so that a block of the same launch that starts late still reads its own. */
typedef struct {
  LmAstroClipRun run[2];
  unsigned finished; /* the pass's blocks that have written their tile's sums */
} ClipState;

/* The ordered keys of the image, packed. */
__global__ static void
make_keys (const float *data, unsigned width, unsigned height, size_t pitch, uint32_t *keys)
{
  size_t n = (size_t) width * height;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
    {
      size_t y = i / width, x = i % width;
      keys[i] = lm_astro_key (data[y * pitch + x]);
    }
}

/* The finite values' run of the sorted keys (±inf and NaN are no values). */
__global__ static void
clip_start (const uint32_t *sorted, uint32_t n, ClipState *state, LmKClipStats *out)
{
  uint32_t i0 = lm_astro_key_lower_bound (sorted, 0, n, LM_KEY_FINITE_MIN);
  uint32_t end = lm_astro_key_lower_bound (sorted, i0, n, LM_KEY_FINITE_MAX + 1u);
  state->run[0] = state->run[1] = (LmAstroClipRun) { i0, end - 1, 0, end == i0 };
  state->finished = 0;
  *out = (LmKClipStats) { NAN, NAN, NAN, 0, 0, end != i0 };
}

/* One clipping pass, R: each block the sums of (v − median) and (v − median)² over its tile of
 * the kept run; the last block to finish adds the tiles in tile order (whatever the order
 * they finished in), leaves the pass's statistics in OUT and the next pass's run. */
__global__ static void
clip_pass (const uint32_t *sorted, ClipState *state, int r, double *partials, double kappa, int max_iterations,
           LmKClipStats *out)
{
  __shared__ double shared[LM_ASTRO_BLOCK];
  __shared__ unsigned ticket;
  LmAstroClipRun run = state->run[r % 2];
  uint32_t first_tile = run.i0 / TILE, last_tile = run.i1 / TILE;
  uint32_t tile = first_tile + blockIdx.x, tiles = last_tile - first_tile + 1;
  if (run.done || tile > last_tile)
    return;
  double pivot = lm_astro_run_median (sorted, run);
  uint32_t begin = max (tile * TILE, run.i0), end = min (tile * TILE + TILE - 1, run.i1);
  double s = 0.0, s2 = 0.0;
  for (uint32_t i = begin + threadIdx.x; i <= end; i += LM_ASTRO_BLOCK)
    {
      double d = (double) lm_astro_key_float (sorted[i]) - pivot;
      s += d;
      s2 += d * d;
    }
  s = lm_astro_block_sum (s, shared);
  s2 = lm_astro_block_sum (s2, shared);
  if (threadIdx.x == 0)
    {
      partials[2 * blockIdx.x] = s;
      partials[2 * blockIdx.x + 1] = s2;
      __threadfence ();
      ticket = atomicAdd (&state->finished, 1u);
    }
  __syncthreads ();
  if (ticket != tiles - 1)
    return;
  /* The last block: each thread a fixed run of tiles, in order, then the tree in order. */
  __threadfence ();
  s = s2 = 0.0;
  uint32_t per = (tiles + LM_ASTRO_BLOCK - 1) / LM_ASTRO_BLOCK;
  for (uint32_t k = threadIdx.x * per; k < min (tiles, (threadIdx.x + 1) * per); k++)
    {
      s += __ldcg (&partials[2 * k]);
      s2 += __ldcg (&partials[2 * k + 1]);
    }
  s = lm_astro_block_sum (s, shared);
  s2 = lm_astro_block_sum (s2, shared);
  if (threadIdx.x == 0)
    {
      lm_astro_clip_pass (sorted, &run, s, s2, kappa, max_iterations, out);
      state->run[(r + 1) % 2] = run;
      /* Ended: both slots say so, for every later pass. Late blocks of this launch are past
       * the last tile either way. */
      if (run.done)
        state->run[r % 2].done = 1;
      state->finished = 0;
    }
}

static cudaError_t
sort_keys (const uint32_t *keys, uint32_t *sorted, size_t n, void *temp, size_t temp_size, cudaStream_t stream)
{
  size_t bytes = temp_size;
  return cub::DeviceRadixSort::SortKeys (temp, bytes, keys, sorted, (int) n, 0, 32, stream);
}

extern "C" cudaError_t
lm_k_clip_sort_size (size_t n, size_t *bytes)
{
  *bytes = 0;
  return cub::DeviceRadixSort::SortKeys (NULL, *bytes, (const uint32_t *) NULL, (uint32_t *) NULL, (int) n, 0, 32);
}

extern "C" size_t
lm_k_clip_partials_size (size_t n)
{
  return 2 * sizeof (double) * (n / TILE + 2);
}

/* The clipping of the keys already made in WORK->keys (N of them). */
extern "C" cudaError_t
lm_k_clip_keys (size_t n, double kappa, int max_iterations, LmKDetectWork *work, cudaStream_t stream)
{
  ClipState *state = (ClipState *) work->clip_state;
  LM_CUDA_TRY (sort_keys (work->keys, work->sorted, n, work->sort_temp, work->sort_temp_size, stream));
  clip_start<<<1, 1, 0, stream>>> (work->sorted, (uint32_t) n, state, work->global);
  LM_CUDA_LAUNCHED ();
  unsigned tiles = lm_div_up (n, TILE) + 1;
  /* Passes are queued in batches without waiting (a pass after the last returns at once);
   * past a batch the host looks whether the clipping has ended. */
  for (int round = 0; round <= max_iterations; round++)
    {
      if (round > 0 && round % BATCH == 0)
        {
          int done = 0;
          LM_CUDA_TRY (cudaMemcpyAsync (&done, &state->run[round % 2].done, sizeof done, cudaMemcpyDeviceToHost,
                                        stream));
          LM_CUDA_TRY (cudaStreamSynchronize (stream));
          if (done)
            break;
        }
      clip_pass<<<tiles, LM_ASTRO_BLOCK, 0, stream>>> (work->sorted, state, round, work->partials, kappa,
                                                       max_iterations, work->global);
      LM_CUDA_LAUNCHED ();
    }
  return cudaSuccess;
}

extern "C" cudaError_t
lm_k_clip_make_keys (const float *data, unsigned width, unsigned height, size_t pitch, uint32_t *keys,
                     cudaStream_t stream)
{
  size_t n = (size_t) width * height;
  unsigned blocks = lm_div_up (n, 256);
  make_keys<<<blocks < 65535u * 8 ? blocks : 65535u * 8, 256, 0, stream>>> (data, width, height, pitch, keys);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" cudaError_t
lm_k_clip_stats (const float *data, size_t n, double kappa, int max_iterations, LmKDetectWork *work,
                 cudaStream_t stream)
{
  LM_CUDA_TRY (lm_k_clip_make_keys (data, (unsigned) n, 1, n, work->keys, stream));
  return lm_k_clip_keys (n, kappa, max_iterations, work, stream);
}

/* The memory floor's measure: one read of N floats (float4 loads where aligned), each block's
 * sum to PARTIALS (one float a block, GRID blocks) so that nothing is optimised away. */
__global__ static void
read_once (const float *data, size_t n, float *partials)
{
  __shared__ double shared[LM_ASTRO_BLOCK];
  size_t quads = n / 4;
  const float4 *q = (const float4 *) data;
  float s = 0.0f;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < quads; i += (size_t) gridDim.x * blockDim.x)
    {
      float4 v = q[i];
      s += v.x + v.y + v.z + v.w;
    }
  double sum = lm_astro_block_sum (s, shared);
  if (threadIdx.x == 0)
    partials[blockIdx.x] = (float) sum;
}

extern "C" cudaError_t
lm_k_astro_read_floor (const float *data, size_t n, float *partials, unsigned grid, cudaStream_t stream)
{
  read_once<<<grid, LM_ASTRO_BLOCK, 0, stream>>> (data, n, partials);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

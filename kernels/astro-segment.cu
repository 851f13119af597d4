/* Segmentation on the device, as core/astro/segment.c: the residual (data − background), the
 * optional matched filter (blur-math.h's Gaussian taps, detect-math.h's lm_astro_filter_at:
 * reflect-101 edges, float sums in tap order, rows then columns) and the threshold against
 * the noise map (lm_astro_above) into a byte mask, the same bits as the CPU's. */
#include "astro-common.cuh"
#include "astro-kernels.h"

static unsigned
grid_for (size_t n)
{
  unsigned blocks = lm_div_up (n, 256);
  return blocks < 65535u * 8 ? blocks : 65535u * 8;
}

/* The residual data − background, 0 at blank pixels (they neither raise nor lower their
 * neighbours through the filter). */
__global__ static void
residual (LmKDetectJob job, const float *background, float *out)
{
  size_t n = (size_t) job.width * job.height;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
    {
      unsigned y = (unsigned) (i / job.width), x = (unsigned) (i % job.width);
      float v = job.data[(size_t) y * job.pitch + x];
      out[i] = isfinite (v) ? v - background[i] : 0.0f;
    }
}

/* One pass of the matched filter along rows (STEP 1) or columns (STEP WIDTH). */
__global__ static void
filter_pass (unsigned width, unsigned height, const float *in, const float *taps, int radius, int along_rows,
             float *out)
{
  size_t n = (size_t) width * height;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
    {
      unsigned y = (unsigned) (i / width), x = (unsigned) (i % width);
      out[i] = along_rows ? lm_astro_filter_at (in + (size_t) y * width, 1, x, width, taps, radius)
                          : lm_astro_filter_at (in + x, width, y, height, taps, radius);
    }
}

/* FILTERED NULL: the plain residual. Blank pixels are never sources. */
__global__ static void
threshold (LmKDetectJob job, const float *background, const float *noise, const float *filtered, uint8_t *mask)
{
  size_t n = (size_t) job.width * job.height;
  for (size_t i = blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < n; i += (size_t) gridDim.x * blockDim.x)
    {
      unsigned y = (unsigned) (i / job.width), x = (unsigned) (i % job.width);
      float v = job.data[(size_t) y * job.pitch + x];
      float r = filtered ? filtered[i] : v - background[i];
      mask[i] = isfinite (v) && lm_astro_above (r, noise[i], job.threshold);
    }
}

extern "C" cudaError_t
lm_k_detect_filter (const LmKDetectJob *job, const float *weights, int radius, LmKDetectWork *work,
                    cudaStream_t stream)
{
  size_t n = (size_t) job->width * job->height;
  if (radius <= 0)
    return cudaSuccess;
  residual<<<grid_for (n), 256, 0, stream>>> (*job, work->background, work->filtered);
  LM_CUDA_LAUNCHED ();
  filter_pass<<<grid_for (n), 256, 0, stream>>> (job->width, job->height, work->filtered, weights, radius, 1,
                                                 work->row_pass);
  LM_CUDA_LAUNCHED ();
  filter_pass<<<grid_for (n), 256, 0, stream>>> (job->width, job->height, work->row_pass, weights, radius, 0,
                                                 work->filtered);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" cudaError_t
lm_k_detect_segment (const LmKDetectJob *job, LmKDetectWork *work, cudaStream_t stream)
{
  size_t n = (size_t) job->width * job->height;
  const float *filtered = job->filter_sigma > 0.0 ? work->filtered : NULL;
  threshold<<<grid_for (n), 256, 0, stream>>> (*job, work->background, work->noise, filtered, work->mask);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

// lm_ratio (core/ops/ratio-math.h) on the device against the correctly rounded division, over
// its domain: numerator 0 or within (2^-40, 2^64), divisor within it. MUFU.RCP's result
// cannot be reproduced on the CPU, so this is the check that the written-out refinement is
// the quotient there: every numerator mantissa (2^23) against 192 divisors, at random
// exponents; 2^30 random pairs (uniform over the range's bit patterns); the range's ends and
// neighbours of powers of two, each pair against the GPU's IEEE `/` (__fdiv_rn); and 2^25 of
// the random pairs brought back and divided again on the CPU. lm_ratio_reciprocal against
// __frcp_rn on every divisor within the range. In the gpu suite (built by nvcc,
// tests/meson.build); skipped (exit 77) where no device is usable.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/ops/ratio-math.h"
#include "skip-without-device.h"

// A failed CUDA call ends the test with its line: what it checks did not run.
#define CHECK(call)                                                                                \
  do                                                                                               \
    {                                                                                              \
      cudaError_t e_ = (call);                                                                     \
      if (e_ != cudaSuccess)                                                                       \
        {                                                                                          \
          printf ("test-ratio: %s at line %d: %s\n", #call, __LINE__, cudaGetErrorString (e_));     \
          exit (1);                                                                                \
        }                                                                                          \
    }                                                                                              \
  while (0)

constexpr uint32_t kLo = LM_RATIO_MIN_BITS + 1u, kSpan = LM_RATIO_MAX_BITS - 1u - kLo + 1u;

__host__ __device__ static uint32_t
mix (uint64_t v)
{
  v ^= v >> 33, v *= 0xff51afd7ed558ccdull, v ^= v >> 33, v *= 0xc4ceb93fe1a85ec9ull, v ^= v >> 33;
  return (uint32_t) v;
}

__host__ __device__ static float
in_range (uint32_t h)
{
  return lm_bits_float (kLo + h % kSpan);
}

__device__ unsigned long long bad_count;
__device__ float bad_pairs[16][2];

__device__ void
compare (float a, float b)
{
  float q = lm_ratio (a, b), want = __fdiv_rn (a, b);
  if (__float_as_uint (q) != __float_as_uint (want))
    {
      unsigned long long i = atomicAdd (&bad_count, 1ull);
      if (i < 16)
        bad_pairs[i][0] = a, bad_pairs[i][1] = b;
    }
}

// Pair i: every mantissa of the numerator against divisor i >> 23's mantissa, both at
// exponents the hash picks within the range.
__global__ void
every_mantissa (uint64_t n)
{
  for (uint64_t i = blockIdx.x * (uint64_t) blockDim.x + threadIdx.x; i < n; i += (uint64_t) gridDim.x * blockDim.x)
    {
      uint32_t am = (uint32_t) (i & 0x7fffffu), bm = mix (i >> 23) & 0x7fffffu, h = mix (i * 3 + 1);
      uint32_t ea = 88 + h % 102, eb = 88 + (h >> 8) % 102; // biased exponents 88..189: 2^-39..2^62
      compare (lm_bits_float (ea << 23 | am), lm_bits_float (eb << 23 | bm));
    }
}

__global__ void
random_pairs (uint64_t n, uint64_t seed, float *keep, uint64_t n_keep)
{
  for (uint64_t i = blockIdx.x * (uint64_t) blockDim.x + threadIdx.x; i < n; i += (uint64_t) gridDim.x * blockDim.x)
    {
      uint32_t h = mix (seed + 2 * i), k = mix (seed + 2 * i + 1);
      float a = (h & 63) == 0 ? 0.0f : in_range (h >> 6 | k << 26), b = in_range (k);
      compare (a, b);
      if (i < n_keep)
        keep[i] = lm_ratio (a, b);
    }
}

__device__ unsigned long long bad_reciprocals;
__device__ float bad_divisors[16];

// lm_ratio_reciprocal of every float within the range.
__global__ void
every_reciprocal ()
{
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < kSpan; i += gridDim.x * blockDim.x)
    {
      float b = lm_bits_float (kLo + i);
      if (__float_as_uint (lm_ratio_reciprocal (b)) != __float_as_uint (__frcp_rn (b)))
        {
          unsigned long long k = atomicAdd (&bad_reciprocals, 1ull);
          if (k < 16)
            bad_divisors[k] = b;
        }
    }
}

// The range's ends and what lies next to 1, 2 and the ends, numerator 0 too, all pairs.
__global__ void
edges (const float *values, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * n)
    {
      float a = values[i / n], b = values[i % n];
      if (lm_ratio_in_range (b) && (a == 0.0f || lm_ratio_in_range (a)))
        compare (a, b);
    }
}

int
main ()
{
  if (int skip = skip_without_device ())
    return skip;
  std::vector<float> values = { 0.0f };
  const uint32_t anchors[] = { kLo, LM_RATIO_MAX_BITS - 1u, 0x3f800000u, 0x40000000u, 0x3f000000u, 0x437f0000u };
  for (uint32_t a : anchors)
    for (int d = -40; d <= 40; d++)
      values.push_back (lm_bits_float (a + (uint32_t) d));
  for (int m = 1; m < 1024; m++) // mantissas of many ones and few
    values.push_back (lm_bits_float (0x3f800000u | (0x7fffffu >> (m % 23)) ^ (uint32_t) m));
  int n = (int) values.size ();
  float *dv, *keep;
  CHECK (cudaMalloc (&dv, n * sizeof (float)));
  CHECK (cudaMemcpy (dv, values.data (), n * sizeof (float), cudaMemcpyHostToDevice));
  edges<<<(n * n + 255) / 256, 256>>> (dv, n);
  CHECK (cudaGetLastError ());
  every_mantissa<<<132 * 32, 256>>> (192ull << 23);
  CHECK (cudaGetLastError ());
  const uint64_t random_n = 1ull << 30, keep_n = 1ull << 25, seed = 0x5eed;
  CHECK (cudaMalloc (&keep, keep_n * sizeof (float)));
  random_pairs<<<132 * 32, 256>>> (random_n, seed, keep, keep_n);
  CHECK (cudaGetLastError ());
  every_reciprocal<<<132 * 32, 256>>> ();
  CHECK (cudaGetLastError ());
  CHECK (cudaDeviceSynchronize ());
  unsigned long long bad = 0, bad_rcp = 0;
  float pairs[16][2], divisors[16];
  CHECK (cudaMemcpyFromSymbol (&bad_rcp, bad_reciprocals, sizeof bad_rcp));
  CHECK (cudaMemcpyFromSymbol (divisors, bad_divisors, sizeof divisors));
  CHECK (cudaMemcpyFromSymbol (&bad, bad_count, sizeof bad));
  CHECK (cudaMemcpyFromSymbol (pairs, bad_pairs, sizeof pairs));
  std::vector<float> kept (keep_n);
  CHECK (cudaMemcpy (kept.data (), keep, keep_n * sizeof (float), cudaMemcpyDeviceToHost));
  CHECK (cudaFree (dv));
  CHECK (cudaFree (keep));
  unsigned long long cpu_bad = 0;
  for (uint64_t i = 0; i < keep_n; i++)
    {
      uint32_t h = mix (seed + 2 * i), k = mix (seed + 2 * i + 1);
      float a = (h & 63) == 0 ? 0.0f : in_range (h >> 6 | k << 26), b = in_range (k);
      cpu_bad += lm_float_bits (a / b) != lm_float_bits (kept[i]);
    }
  unsigned long long pairs_run = (unsigned long long) n * n + (192ull << 23) + random_n;
  printf ("lm_ratio: %llu pairs against __fdiv_rn, %llu differ; %llu against the CPU's '/', %llu differ\n",
          pairs_run, bad, (unsigned long long) keep_n, cpu_bad);
  for (unsigned long long i = 0; i < bad && i < 16; i++)
    printf ("  %a / %a\n", pairs[i][0], pairs[i][1]);
  printf ("lm_ratio_reciprocal: %u divisors against __frcp_rn, %llu differ\n", kSpan, bad_rcp);
  for (unsigned long long i = 0; i < bad_rcp && i < 16; i++)
    printf ("  1 / %a\n", divisors[i]);
  return bad || cpu_bad || bad_rcp;
}

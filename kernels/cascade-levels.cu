/* A group of pyramid levels on the device (cascade-kernels.h): each resized from the photo with
 * the integer steps of core/detect/resize-linear.c, then integrated as core/detect/integral.c
 * integrates (sums wrap in 32 bits, so the order of the additions changes nothing). Each step
 * is one launch for the whole group, each thread finding its level among the group's. */
#include <math.h>

#include "cascade-kernels.h"
#include "cuda-check.h"

#define FRAC_BITS 8
#define ONE       (1 << FRAC_BITS)
#define WARP      32

/* The level whose run of FIRST (one of the descriptor's prefix fields) holds V. */
template <unsigned LmKCascadeLevel::*FIRST>
__device__ static int
level_of (const LmKCascadeGroup &g, unsigned v)
{
  int lo = 0, hi = g.n_levels - 1;
  while (lo < hi)
    {
      int mid = (lo + hi + 1) / 2;
      if (g.levels[mid].*FIRST <= v)
        lo = mid;
      else
        hi = mid - 1;
    }
  return lo;
}

/* One axis of the bilinear resize at destination D: how a source line maps there. */
struct Tap {
  int mode; /* 0: the first source pixel, 1: the last, 2: between OFFSET and OFFSET + 1 */
  int offset;
  uint32_t c0, c1;
};

__device__ static Tap
tap (unsigned src, unsigned dst, unsigned d)
{
  double scale = 1.0 / ((double) dst / src);
  double f = scale * ((double) d + 0.5) - 0.5;
  int i = (int) floor (f);
  Tap t = { 0, 0, ONE, 0 };
  if (i >= 0 && src > 1)
    {
      if (i < (int) src - 1)
        {
          uint32_t c1 = (uint16_t) rint ((f - i) * ONE);
          t = { 2, i, ONE - c1, c1 };
        }
      else
        t = { 1, (int) src - 1, ONE, 0 };
    }
  return t;
}

__device__ static uint32_t
horizontal (const uint8_t *row, unsigned sw, const Tap &x)
{
  if (x.mode == 0)
    return (uint32_t) row[0] << FRAC_BITS;
  if (x.mode == 1)
    return (uint32_t) row[sw - 1] << FRAC_BITS;
  return (uint16_t) (x.c0 * row[x.offset] + x.c1 * row[x.offset + 1]);
}

__global__ static void
resize (const uint8_t *gray, size_t pitch, unsigned sw, unsigned sh, LmKCascadeGroup g)
{
  unsigned r = blockIdx.x; /* the rows outnumber what a grid's y can count */
  const LmKCascadeLevel &L = g.levels[level_of<&LmKCascadeLevel::first_row> (g, r)];
  unsigned dy = r - L.first_row, dw = (unsigned) L.width, dh = (unsigned) L.height;
  uint8_t *out = g.gray + L.gray + (size_t) dy * dw;
  for (unsigned dx = blockIdx.y * blockDim.x + threadIdx.x; dx < dw; dx += gridDim.y * blockDim.x)
    {
      if (sw == dw && sh == dh)
        {
          out[dx] = gray[(size_t) dy * pitch + dx];
          continue;
        }
      if ((double) dw / sw == 0.5 && (double) dh / sh == 0.5)
        {
          /* INTER_LINEAR_EXACT at half size is INTER_AREA's mean of four. */
          const uint8_t *a = gray + (size_t) (2 * dy) * pitch, *b = a + pitch;
          out[dx] = (uint8_t) ((a[2 * dx] + a[2 * dx + 1] + b[2 * dx] + b[2 * dx + 1] + 2) >> 2);
          continue;
        }
      Tap x = tap (sw, dw, dx), y = tap (sh, dh, dy);
      if (y.mode != 2)
        {
          uint32_t h = horizontal (gray + (size_t) y.offset * pitch, sw, x);
          out[dx] = (uint8_t) min ((h + (ONE >> 1)) >> FRAC_BITS, 255u);
        }
      else
        {
          uint32_t h0 = horizontal (gray + (size_t) y.offset * pitch, sw, x);
          uint32_t h1 = horizontal (gray + (size_t) (y.offset + 1) * pitch, sw, x);
          uint32_t v = (h0 * y.c0 + h1 * y.c1 + (1u << (2 * FRAC_BITS - 1))) >> (2 * FRAC_BITS);
          out[dx] = (uint8_t) min (v, 255u);
        }
    }
}

/* A warp's inclusive prefix sum of V over its lanes. */
__device__ static uint32_t
warp_scan (uint32_t v, int lane)
{
  for (int d = 1; d < WARP; d *= 2)
    {
      uint32_t up = __shfl_up_sync (0xffffffffu, v, d);
      if (lane >= d)
        v += up;
    }
  return v;
}

/* Each row's running sums (and of squares) into the integrals' row below it; a warp a row. */
__global__ static void
row_sums (LmKCascadeGroup g)
{
  unsigned r = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
  int lane = threadIdx.x % WARP;
  if (r >= g.pixel_rows)
    return;
  const LmKCascadeLevel &L = g.levels[level_of<&LmKCascadeLevel::first_row> (g, r)];
  unsigned y = r - L.first_row, w = (unsigned) L.width;
  const uint8_t *row = g.gray + L.gray + (size_t) y * w;
  size_t at = L.cells + (size_t) (y + 1) * (w + 1);
  uint32_t *s = g.sum + at, *q = g.sqsum ? g.sqsum + at : NULL;
  if (lane == 0)
    {
      s[0] = 0;
      if (q)
        q[0] = 0;
    }
  uint32_t carry_s = 0, carry_q = 0;
  for (unsigned base = 0; base < w; base += 4 * WARP)
    {
      uint32_t p[4], ps = 0, pq = 0;
      unsigned x0 = base + 4 * lane;
      for (int k = 0; k < 4; k++)
        {
          p[k] = x0 + k < w ? row[x0 + k] : 0;
          ps += p[k];
          pq += p[k] * p[k];
        }
      uint32_t es = warp_scan (ps, lane) - ps + carry_s, eq = q ? warp_scan (pq, lane) - pq + carry_q : 0;
      for (int k = 0; k < 4 && x0 + k < w; k++)
        {
          es += p[k];
          s[x0 + k + 1] = es;
          if (q)
            {
              eq += p[k] * p[k];
              q[x0 + k + 1] = eq;
            }
        }
      carry_s = __shfl_sync (0xffffffffu, es, WARP - 1);
      if (q)
        carry_q = __shfl_sync (0xffffffffu, eq, WARP - 1);
    }
}

/* The running sums down each column of the integrals, row 0 zero: a thread a column. */
__global__ static void
column_sums (LmKCascadeGroup g)
{
  unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= g.columns)
    return;
  const LmKCascadeLevel &L = g.levels[level_of<&LmKCascadeLevel::first_column> (g, c)];
  size_t step = (size_t) L.width + 1, at = L.cells + (c - L.first_column);
  for (int k = 0; k < 2; k++)
    {
      uint32_t *p = (k == 0 ? g.sum : g.sqsum);
      if (p == NULL)
        continue;
      p += at;
      p[0] = 0;
      uint32_t run = 0;
      int h = L.height, y = 1;
      /* Four rows' loads issued before their adds wait on them. */
      for (; y + 3 <= h; y += 4)
        {
          uint32_t a = p[y * step], b = p[(y + 1) * step], d = p[(y + 2) * step], e = p[(y + 3) * step];
          p[y * step] = run += a;
          p[(y + 1) * step] = run += b;
          p[(y + 2) * step] = run += d;
          p[(y + 3) * step] = run += e;
        }
      for (; y <= h; y++)
        p[y * step] = run += p[y * step];
    }
}

/* The tilted integrals, integral.c's recurrence a row at a time: a block a level. */
__global__ static void
tilted_sums (LmKCascadeGroup g)
{
  const LmKCascadeLevel &L = g.levels[blockIdx.x];
  unsigned w = (unsigned) L.width, h = (unsigned) L.height;
  size_t step = (size_t) w + 1;
  uint32_t *t0 = g.tilted + L.cells;
  const uint8_t *gray = g.gray + L.gray;
  for (unsigned x = threadIdx.x; x <= w; x += blockDim.x)
    t0[x] = 0;
  __syncthreads ();
  for (unsigned y = 1; y <= h; y++)
    {
      const uint8_t *row = gray + (size_t) (y - 1) * w;
      uint32_t *t = t0 + y * step;
      const uint32_t *t1 = t - step, *t2 = y >= 2 ? t - 2 * step : NULL;
      for (unsigned x = threadIdx.x + 1; x <= w; x += blockDim.x)
        {
          uint32_t right = x + 1 <= w ? t1[x + 1] : (t2 ? t2[w] : 0);
          uint32_t v = t1[x - 1] + right + row[x - 1];
          if (t2)
            v += row[(ptrdiff_t) x - 1 - (ptrdiff_t) w] - t2[x];
          t[x] = v;
        }
      if (threadIdx.x == 0)
        t[0] = w >= 1 ? t1[1] : 0;
      __syncthreads ();
    }
}

extern "C" cudaError_t
lm_k_cascade_levels (cudaStream_t stream, const uint8_t *gray, size_t pitch, unsigned width, unsigned height,
                     const LmKCascadeGroup *g)
{
  if (g->n_levels == 0)
    return cudaSuccess;
  /* A block a row: the group's levels differ in width, so a grid wide enough for the widest
   * would be mostly idle. */
  resize<<<dim3 (g->pixel_rows, 1), 256, 0, stream>>> (gray, pitch, width, height, *g);
  LM_CUDA_LAUNCHED ();
  row_sums<<<lm_div_up ((size_t) g->pixel_rows * WARP, 256), 256, 0, stream>>> (*g);
  LM_CUDA_LAUNCHED ();
  column_sums<<<lm_div_up (g->columns, 128), 128, 0, stream>>> (*g);
  LM_CUDA_LAUNCHED ();
  if (g->tilted)
    {
      tilted_sums<<<g->n_levels, 1024, 0, stream>>> (*g);
      LM_CUDA_LAUNCHED ();
    }
  return cudaSuccess;
}

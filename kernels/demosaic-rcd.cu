// RCD on the GPU: core/ops/demosaic-rcd-math.h's steps in one fused kernel, bit for bit the CPU
// reference (core/raw/demosaic-rcd.c). A block develops one tile: it reads the tile and
// LM_RCD_HALO sites around it into shared memory once (reflect-101 at the image's edges) and
// runs every step there, over regions that shrink by each step's reach, so that device memory
// sees 4 bytes read and 16 written per pixel (the halo's re-reads come from L2) and no
// intermediate plane. Built with --fmad=false and IEEE division (no fast math): never
// -ffp-contract=fast or intrinsics here.
#include "kernels/cuda-check.h"
#include "kernels/demosaic-kernels.h"
#include "core/ops/demosaic-fast-math.h"
#include "core/ops/demosaic-rcd-math.h"

namespace {

constexpr int kHalo = LM_RCD_HALO;

// The tile and block shape. The halo costs (TW + 12)(TH + 12) / (TW × TH) in the first steps;
// shared memory (102 KB at 64 × 48) bounds an SM to 2 blocks. Measured on an H200 at 24 and
// 61 MP: 64 × 48 with 512 threads 0.627 and 1.536 ms; 64 × 32 with 384 0.628 and 1.549; 64 × 40
// with 512 0.647 and 1.598; 96 × 32 with 384 0.662 and 1.609.
constexpr int kTileW = 64, kTileH = 48, kThreads = 512;
constexpr int kSpan = kTileW + 2 * kHalo; // the row stride of every plane

// Shared memory: each plane holds the rows of its widest use, at one stride. L holds the
// low-pass, then (after its last read) step 4c's other colour.
constexpr int kMarginC = kHalo, kMarginL = kHalo - 3, kMarginVH = kHalo - 4, kMarginG = kHalo - 5,
              kMarginPQ = kHalo - 6;
constexpr int rows_of (int margin) { return kTileH + 2 * margin; }
constexpr int kOffC = 0;
constexpr int kOffL = kOffC + rows_of (kMarginC) * kSpan;
constexpr int kOffVH = kOffL + rows_of (kMarginL) * kSpan;
constexpr int kOffG = kOffVH + rows_of (kMarginVH) * kSpan;
constexpr int kOffPQ = kOffG + rows_of (kMarginG) * kSpan;
constexpr int kSharedFloats = kOffPQ + rows_of (kMarginPQ) * kSpan;
constexpr size_t kSharedBytes = kSharedFloats * sizeof (float);

struct Bayer {
  int color[2][2]; // colour of a site by the parity of its row and column
  int ng_x[2];     // the column parity of red and blue sites by the row's parity
};

// Tile coordinates (X, Y), -margin ≤ X < TW + margin, of the plane at OFF whose rows start
// MARGIN above the tile.
__device__ __forceinline__ float *
at (float *shared, int off, int margin, int x, int y)
{
  return shared + off + (y + margin) * kSpan + x + kHalo;
}

// Every site of the region MARGIN around the tile, one a thread in turn. A thread's next site
// is kThreads on, stepped without a division.
template <int M, typename F>
__device__ __forceinline__ void
each_site (F f)
{
  constexpr int w = kTileW + 2 * M, h = kTileH + 2 * M, dx = kThreads % w, dy = kThreads / w;
  int x = threadIdx.x % w, y = threadIdx.x / w;
  while (y < h)
    {
      f (x - M, y - M);
      x += dx;
      y += dy;
      if (x >= w)
        x -= w, y++;
    }
}

// Every site (X, Y) of the region MARGIN around the tile with Y − MARGIN even, for work on
// (X, Y) and (X, Y + 1).
template <int M, typename F>
__device__ __forceinline__ void
each_pair (F f)
{
  constexpr int w = kTileW + 2 * M, h = (kTileH + 2 * M) / 2, dx = kThreads % w, dy = kThreads / w;
  static_assert ((kTileH + 2 * M) % 2 == 0, "rows pair up");
  int x = threadIdx.x % w, y = threadIdx.x / w;
  while (y < h)
    {
      f (x - M, 2 * y - M);
      x += dx;
      y += dy;
      if (x >= w)
        x -= w, y++;
    }
}

// Every red or blue site of the region MARGIN around the tile (half of each row: the region's
// width and height are even); with the green site beside it in the row. Consecutive threads
// alternate between two rows: one row's red or blue sites lie on even banks of shared memory,
// the next row's on odd ones (the stride is even), so a warp's 16 + 16 reads never collide.
// Thread I takes the (I mod 2)th row of band ⌊I / BAND⌋ of two rows, site ⌊(I mod BAND) / 2⌋;
// kThreads being even, its row parity stays.
template <int M, typename F>
__device__ __forceinline__ void
each_ng (const Bayer &b, F f)
{
  constexpr int band = kTileW + 2 * M, bands = (kTileH + 2 * M) / 2, dj = kThreads % band, dq = kThreads / band;
  static_assert (kThreads % 2 == 0 && band % 2 == 0 && (kTileH + 2 * M) % 2 == 0, "sites pair up");
  int j = threadIdx.x % band, q = threadIdx.x / band;
  const int row = (int) (threadIdx.x & 1), ng_x = (row + M) & 1 ? b.ng_x[1] : b.ng_x[0];
  const int first = -M + ((ng_x + M) & 1);
  const int green = first == -M ? 1 : -1;
  while (q < bands)
    {
      int x = first + 2 * (j >> 1);
      f (x, 2 * q + row - M, x + green);
      j += dj;
      q += dq;
      if (j >= band)
        j -= band, q++;
    }
}

__global__ void __launch_bounds__ (kThreads)
rcd_kernel (const float *__restrict__ plane, int width, int height, Bayer b, float *__restrict__ rgba,
            size_t rgba_stride, int tiles_y)
{
  extern __shared__ float sh[];
  const ptrdiff_t s = kSpan;
  const int tx = blockIdx.x * kTileW; // even: a tile's parities are the image's
  for (int tile_y = blockIdx.y; tile_y < tiles_y; tile_y += gridDim.y)
    {
      const int ty = tile_y * kTileH;
      __syncthreads (); // the previous tile's last reads
      if (tx >= kHalo && ty >= kHalo && tx + kTileW + kHalo <= width && ty + kTileH + kHalo <= height)
        each_site<kMarginC> ([&] (int x, int y) {
          *at (sh, kOffC, kMarginC, x, y)
              = lm_rcd_sample (__ldg (plane + (size_t) (ty + y) * (size_t) width + (tx + x)));
        });
      else
        each_site<kMarginC> ([&] (int x, int y) {
          int gy = lm_demosaic_reflect (ty + y, height), gx = lm_demosaic_reflect (tx + x, width);
          *at (sh, kOffC, kMarginC, x, y) = lm_rcd_sample (__ldg (plane + (size_t) gy * (size_t) width + gx));
        });
      __syncthreads ();
      // The high-pass energies are summed where they are made, three a direction, rather than
      // kept in planes of their own: fewer reads of shared memory, and room for more blocks.
      // Two sites of a column a thread: they share two of their four vertical energies.
      each_pair<kHalo - 4> ([&] (int x, int y) {
        const float *c = at (sh, kOffC, kMarginC, x, y);
        float hv[4] = { lm_rcd_highpass (c - s, s), lm_rcd_highpass (c, s), lm_rcd_highpass (c + s, s),
                        lm_rcd_highpass (c + 2 * s, s) };
        float hh[3] = { lm_rcd_highpass (c - 1, 1), lm_rcd_highpass (c, 1), lm_rcd_highpass (c + 1, 1) };
        *at (sh, kOffVH, kMarginVH, x, y) = lm_rcd_direction (hv + 1, 1, hh + 1, 1);
        c += s;
        float hh2[3] = { lm_rcd_highpass (c - 1, 1), lm_rcd_highpass (c, 1), lm_rcd_highpass (c + 1, 1) };
        *at (sh, kOffVH, kMarginVH, x, y + 1) = lm_rcd_direction (hv + 2, 1, hh2 + 1, 1);
      });
      each_ng<kHalo - 3> (b, [&] (int x, int y, int) {
        *at (sh, kOffL, kMarginL, x, y) = lm_rcd_lowpass (at (sh, kOffC, kMarginC, x, y), s);
      });
      __syncthreads ();
      each_ng<kHalo - 5> (b, [&] (int x, int y, int gx) {
        const float *c = at (sh, kOffC, kMarginC, x, y);
        float vhd = lm_rcd_refine (at (sh, kOffVH, kMarginVH, x, y), s);
        *at (sh, kOffG, kMarginG, x, y) = lm_rcd_green (c, at (sh, kOffL, kMarginL, x, y), s, vhd);
        *at (sh, kOffG, kMarginG, gx, y) = *at (sh, kOffC, kMarginC, gx, y);
      });
      each_ng<kHalo - 6> (b, [&] (int x, int y, int) {
        const float *c = at (sh, kOffC, kMarginC, x, y);
        const ptrdiff_t p = s + 1, q = s - 1;
        float hp[3] = { lm_rcd_highpass (c - p, p), lm_rcd_highpass (c, p), lm_rcd_highpass (c + p, p) };
        float hq[3] = { lm_rcd_highpass (c - q, q), lm_rcd_highpass (c, q), lm_rcd_highpass (c + q, q) };
        *at (sh, kOffPQ, kMarginPQ, x, y) = lm_rcd_direction (hp + 1, 1, hq + 1, 1);
      });
      __syncthreads ();
      each_ng<kHalo - 7> (b, [&] (int x, int y, int) {
        float pqd = lm_rcd_refine (at (sh, kOffPQ, kMarginPQ, x, y), s);
        *at (sh, kOffL, kMarginL, x, y)
            = lm_rcd_other (at (sh, kOffC, kMarginC, x, y), at (sh, kOffG, kMarginG, x, y), s, pqd);
      });
      __syncthreads ();
      // The output: a red or blue site and the green beside it a thread, so that a warp's
      // threads take the same branches; 16-byte stores.
      each_ng<0> (b, [&] (int x, int y, int gx) {
        const int gy = ty + y;
        if (gy >= height)
          return;
        const int *row_color = b.color[y & 1];
        float *row = rgba + (size_t) gy * rgba_stride;
        int k = row_color[x & 1];
        const float *c = at (sh, kOffC, kMarginC, x, y);
        float v[3];
        v[k] = *c;
        v[1] = *at (sh, kOffG, kMarginG, x, y);
        v[2 - k] = *at (sh, kOffL, kMarginL, x, y);
        if (tx + x < width)
          reinterpret_cast<float4 *> (row)[tx + x]
              = make_float4 (lm_rcd_store (v[0]), lm_rcd_store (v[1]), lm_rcd_store (v[2]), 1.0f);
        // At the green site, left and right hold colour K, raw; above and below the other.
        c = at (sh, kOffC, kMarginC, gx, y);
        const float *o = at (sh, kOffL, kMarginL, gx, y), *g = at (sh, kOffG, kMarginG, gx, y);
        float vhd = lm_rcd_refine (at (sh, kOffVH, kMarginVH, gx, y), s);
        v[k] = lm_rcd_at_green (o, c, g, s, vhd);
        v[1] = *c;
        v[2 - k] = lm_rcd_at_green (c, o, g, s, vhd);
        if (tx + gx < width)
          reinterpret_cast<float4 *> (row)[tx + gx]
              = make_float4 (lm_rcd_store (v[0]), lm_rcd_store (v[1]), lm_rcd_store (v[2]), 1.0f);
      });
    }
}

} // namespace

extern "C" size_t
lm_k_demosaic_rcd_scratch (int width, int height)
{
  return 0; // one fused kernel: nothing between its steps leaves shared memory
}

extern "C" cudaError_t
lm_k_demosaic_rcd (const float *plane, int width, int height, const LmCfa *cfa, float *rgba, size_t rgba_stride,
                   void *scratch, cudaStream_t stream)
{
  if (width < 1 || height < 1 || !lm_cfa_is_bayer (cfa) || rgba_stride < (size_t) width * 4)
    return cudaErrorInvalidValue;
  if (width < 2 || height < 2)
    return lm_k_demosaic_bilinear (plane, width, height, cfa, rgba, rgba_stride, scratch, stream);
  Bayer b;
  for (int py = 0; py < 2; py++)
    {
      for (int px = 0; px < 2; px++)
        b.color[py][px] = lm_cfa_color (cfa, px, py);
      b.ng_x[py] = b.color[py][0] == LM_CFA_G ? 1 : 0;
    }
  LM_CUDA_TRY (cudaFuncSetAttribute (rcd_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) kSharedBytes));
  int tiles_x = (width + kTileW - 1) / kTileW, tiles_y = (height + kTileH - 1) / kTileH;
  dim3 grid (tiles_x, tiles_y < 65535 ? tiles_y : 65535);
  rcd_kernel<<<grid, kThreads, kSharedBytes, stream>>> (plane, width, height, b, rgba, rgba_stride, tiles_y);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

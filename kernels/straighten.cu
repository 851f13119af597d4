// Straighten on the GPU: the bicubic sample of core/ops/straighten-math.h at each output
// pixel's inverse image.
//
// Each of a pixel's 16 taps needs its four bytes as floats: 64 conversions a pixel, which
// made the kernel bound by instruction issue. So 8-bit sources go by tiles: a block of 32 × 8
// output pixels first copies the source pixels its taps reach (a turn keeps the box small)
// into shared memory as floats, converting each once and clamping each index once, then
// samples from there. The taps, weights and sums are the reference's, in its order, so the
// bytes are the CPU's.
#include <climits>

#include "kernels/cuda-check.h"
#include "kernels/float-pixel.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 128;
constexpr unsigned kTileW = 32, kTileH = 8;
// The source box's most pixels: at 45° a 32 × 8 tile's taps span about 33 × 33 pixels.
constexpr unsigned kBoxPixels = 40 * 40;

// 8-bit sources (C = 4: RGBA8, 1: GRAY8), by tiles of kTileW × kTileH output pixels.
// The box is laid out by the taps' own indices, before the reference's clamps: its pixel at
// (X, Y) holds the source pixel the reference reads for a tap at (X, Y) (its indices clamped
// to the image, then to the piece of it that is there), so the edge pixels repeat in it as
// in the reference's taps, and sampling reads four runs of four pixels with no clamps.
template <int C>
__global__ void __launch_bounds__ (kTileW * kTileH)
straighten_tiles (const uint8_t *src, size_t src_stride, LmStraightenSource s, uint8_t *dst, size_t dst_stride,
                  unsigned out_w, unsigned out_h, unsigned ox, unsigned oy, LmStraightenMap m)
{
  __shared__ LmFloatPx<C> box[kBoxPixels];
  __shared__ int bounds[4]; // the box: first column, first row, last column, last row
  unsigned i = blockIdx.x * kTileW + threadIdx.x % kTileW, j = blockIdx.y * kTileH + threadIdx.x / kTileW;
  bool inside = i < out_w && j < out_h;
  if (threadIdx.x == 0)
    bounds[0] = bounds[1] = INT_MAX, bounds[2] = bounds[3] = INT_MIN;
  __syncthreads ();
  // lm_cubic_taps's first taps and weights.
  float sx = lm_straighten_src_x (&m, ox + i, oy + j), sy = lm_straighten_src_y (&m, ox + i, oy + j);
  float fx = floorf (sx), fy = floorf (sy);
  int x0 = (int) fx - 1, y0 = (int) fy - 1;
  if (inside)
    {
      atomicMin (&bounds[0], x0), atomicMin (&bounds[1], y0);
      atomicMax (&bounds[2], x0 + 3), atomicMax (&bounds[3], y0 + 3);
    }
  __syncthreads ();
  int bx = bounds[0], by = bounds[1], bw = bounds[2] - bx + 1, bh = bounds[3] - by + 1;
  if (bw <= 0) // no pixel of this tile is inside the output
    return;
  bool boxed = (int64_t) bw * bh <= (int64_t) kBoxPixels;
  if (boxed)
    {
      // The box's pixels in turn, every thread busy (rows of ~36 pixels would leave most
      // of a warp idle on their last 32).
      float inv = 1.0f / (float) bw;
      for (int k = threadIdx.x; k < bw * bh; k += blockDim.x)
        {
          int r = lm_box_row (k, inv);
          box[k] = lm_float_px<C> (src + (size_t) lm_straighten_tap_y (&s, by + r) * src_stride,
                                   lm_straighten_tap_x (&s, bx + (k - r * bw)));
        }
    }
  __syncthreads ();
  if (!inside)
    return;
  uint8_t *out = dst + (size_t) j * dst_stride;
  if (!boxed) // a box larger than any angle up to 45° gives: read the source directly
    {
      if (C == 1)
        out[i] = lm_straighten_gray (src, src_stride, &s, sx, sy);
      else
        reinterpret_cast<uint32_t *> (out)[i] = lm_straighten_rgba (src, src_stride, &s, sx, sy);
      return;
    }
  float kx[4], ky[4];
  lm_cubic_weights (sx - fx, kx);
  lm_cubic_weights (sy - fy, ky);
  // Each row's four taps weighted by KX, then the four rows by KY (lm_straighten_rgba's order).
  const LmFloatPx<C> *taps = box + (y0 - by) * bw + (x0 - bx);
  float rows[C][4];
  for (int t = 0; t < 4; t++)
    {
      const LmFloatPx<C> *row = taps + t * bw;
      LmFloatPx<C> p0 = row[0], p1 = row[1], p2 = row[2], p3 = row[3];
      for (int c = 0; c < C; c++)
        {
          float v[4] = { p0[c], p1[c], p2[c], p3[c] };
          rows[c][t] = lm_cubic_sum (v, kx);
        }
    }
  float acc[C];
  for (int c = 0; c < C; c++)
    acc[c] = lm_cubic_sum (rows[c], ky);
  lm_store_px<C> (out, i, acc);
}

// 16-bit sources, CH channels (4 or 1).
__global__ void
straighten16 (const uint8_t *src, size_t src_stride, LmStraightenSource s, int ch, uint8_t *dst, size_t dst_stride,
              unsigned out_w, unsigned out_h, unsigned ox, unsigned oy, LmStraightenMap m)
{
  for (unsigned j = blockIdx.y; j < out_h; j += gridDim.y)
    {
      uint16_t *out = reinterpret_cast<uint16_t *> (dst + (size_t) j * dst_stride);
      for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < out_w; i += gridDim.x * blockDim.x)
        lm_straighten16 (src, src_stride, &s, ch, lm_straighten_src_x (&m, ox + i, oy + j),
                         lm_straighten_src_y (&m, ox + i, oy + j), out + (size_t) i * ch);
    }
}

} // namespace

static cudaError_t
straighten_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
                   cudaStream_t stream)
{
  const LmStraightenParams *p = static_cast<const LmStraightenParams *> (params);
  int deep = src->format == LM_K_RGBA16 || src->format == LM_K_GRAY16;
  if (src->format != LM_K_GRAY8 && src->format != LM_K_RGBA8 && !deep)
    return cudaErrorInvalidValue;
  LmStraightenSource s;
  unsigned ox, oy;
  LmStraightenMap m = lm_straighten_setup (p, src->width, src->height, dst->width, dst->height, &s, &ox, &oy);
  dim3 grid (lm_div_up (dst->width, kThreads) < 65535u ? lm_div_up (dst->width, kThreads) : 65535u,
             dst->height < 65535u ? dst->height : 65535u);
  const uint8_t *in = static_cast<const uint8_t *> (src->data);
  uint8_t *out = static_cast<uint8_t *> (dst->data);
  if (deep)
    straighten16<<<grid, kThreads, 0, stream>>> (in, src->stride, s, src->format == LM_K_GRAY16 ? 1 : 4, out,
                                                 dst->stride, dst->width, dst->height, ox, oy, m);
  else
    {
      dim3 tiles (lm_div_up (dst->width, kTileW), lm_div_up (dst->height, kTileH));
      if (src->format == LM_K_GRAY8)
        straighten_tiles<1><<<tiles, kTileW * kTileH, 0, stream>>> (in, src->stride, s, out, dst->stride, dst->width,
                                                                    dst->height, ox, oy, m);
      else
        straighten_tiles<4><<<tiles, kTileW * kTileH, 0, stream>>> (in, src->stride, s, out, dst->stride, dst->width,
                                                                    dst->height, ox, oy, m);
    }
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

/* Reads the source directly: no scratch. */
extern "C" const LmKOp lm_k_straighten_op = { NULL, NULL, straighten_launch };

// Tone equalizer on the GPU: the steps of core/ops/toneeq-math.h, as core/ops/toneeq.c runs
// them. (a) One thread per block of the mask's grid adds its pixels' ℓ row by row; (b) the
// low-resolution guided filter, one thread per block for each of its four box passes (row
// sums, column means and the coefficients, row sums, column means), every sum in double and
// in the CPU's order; (c) one thread per pixel: M, the gain from the host's table, the store
// through the host's curve tables. The same double operations as the CPU (--fmad=false): the
// same bits.
#include <mutex>
#include <stdlib.h>
#include <string.h>

#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 256;
constexpr size_t kAlign = 256;

inline size_t
align_up (size_t n)
{
  return (n + kAlign - 1) / kAlign * kAlign;
}

// What the kernels read besides the pixels (device memory, from the scratch).
struct Tables {
  const float *gain;
  const float *decode[3];
  const float *thresholds[3];
  unsigned maxcode; // 0: float samples, no curve
  double weight[3];
  double mask_exposure;
};

// Where the scratch's parts lie: the gains, the curve tables, five planes of blocks.
struct Layout {
  LmToneeqGrid grid;
  LmToneeqWindow window;
  unsigned maxcode;
  int curves;
  size_t curve_at, planes_at, plane_bytes, total;
};

bool
is_float (int format)
{
  return format == LM_K_RGBA_F32 || format == LM_K_GRAY_F32;
}

Layout
layout_of (const LmToneeqParams *p, const LmKImage *src)
{
  Layout l;
  lm_toneeq_layout (p, src->width, src->height, &l.grid, &l.window);
  l.maxcode = is_float (src->format) ? 0u : (src->format == LM_K_RGBA16 || src->format == LM_K_GRAY16) ? 65535u : 255u;
  l.curves = l.maxcode ? lm_toneeq_curve_count (&p->color) : 0;
  l.curve_at = align_up ((LM_TONEEQ_TABLE_STEPS + 1) * sizeof (float));
  l.planes_at = l.curve_at + align_up ((size_t) l.curves * (2 * (size_t) l.maxcode + 1) * sizeof (float));
  l.plane_bytes = align_up ((size_t) l.window.nx * l.window.ny * sizeof (double));
  l.total = l.planes_at + 5 * l.plane_bytes;
  return l;
}

// Pixel X of ROW in linear light (a gray one's value three times), and its ℓ: toneeq.c's
// pixel_level.
__device__ inline double
pixel_level (int format, const Tables &t, const uint8_t *row, unsigned x, float l[3])
{
  switch (format)
    {
    case LM_K_RGBA8:
      for (int c = 0; c < 3; c++)
        l[c] = t.decode[c][row[4 * x + c]];
      break;
    case LM_K_RGBA16:
      for (int c = 0; c < 3; c++)
        l[c] = t.decode[c][reinterpret_cast<const uint16_t *> (row)[4 * x + c]];
      break;
    case LM_K_RGBA_F32:
      for (int c = 0; c < 3; c++)
        l[c] = reinterpret_cast<const float *> (row)[4 * x + c];
      break;
    case LM_K_GRAY8:
      l[0] = l[1] = l[2] = t.decode[1][row[x]];
      return lm_toneeq_level_gray (l[1], t.mask_exposure);
    case LM_K_GRAY16:
      l[0] = l[1] = l[2] = t.decode[1][reinterpret_cast<const uint16_t *> (row)[x]];
      return lm_toneeq_level_gray (l[1], t.mask_exposure);
    default:
      l[0] = l[1] = l[2] = reinterpret_cast<const float *> (row)[x];
      return lm_toneeq_level_gray (l[1], t.mask_exposure);
    }
  return lm_toneeq_level_rgb (t.weight, l[0], l[1], l[2], t.mask_exposure);
}

__device__ inline void
pixel_store (int format, const Tables &t, const uint8_t *in, uint8_t *out, unsigned x, const float l[3], double gain)
{
  switch (format)
    {
    case LM_K_RGBA8:
      for (int c = 0; c < 3; c++)
        out[4 * x + c] = (uint8_t) lm_toneeq_encode (t.thresholds[c], t.maxcode, l[c] * gain);
      out[4 * x + 3] = in[4 * x + 3];
      break;
    case LM_K_RGBA16:
      for (int c = 0; c < 3; c++)
        reinterpret_cast<uint16_t *> (out)[4 * x + c] = (uint16_t) lm_toneeq_encode (t.thresholds[c], t.maxcode,
                                                                                    l[c] * gain);
      reinterpret_cast<uint16_t *> (out)[4 * x + 3] = reinterpret_cast<const uint16_t *> (in)[4 * x + 3];
      break;
    case LM_K_RGBA_F32:
      for (int c = 0; c < 3; c++)
        reinterpret_cast<float *> (out)[4 * x + c] = (float) (l[c] * gain);
      reinterpret_cast<float *> (out)[4 * x + 3] = reinterpret_cast<const float *> (in)[4 * x + 3];
      break;
    case LM_K_GRAY8:
      out[x] = (uint8_t) lm_toneeq_encode (t.thresholds[1], t.maxcode, l[1] * gain);
      break;
    case LM_K_GRAY16:
      reinterpret_cast<uint16_t *> (out)[x] = (uint16_t) lm_toneeq_encode (t.thresholds[1], t.maxcode, l[1] * gain);
      break;
    default:
      reinterpret_cast<float *> (out)[x] = (float) (l[1] * gain);
    }
}

// (a) ℓ_s: each block's mean, its pixels added row by row.
__global__ void
block_means (LmKImage src, Tables t, LmToneeqGrid g, LmToneeqWindow w, double *level)
{
  size_t k = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= (size_t) w.nx * w.ny)
    return;
  int i = (int) (k % w.nx), j = (int) (k / w.nx);
  LmToneeqSpan sx, sy;
  lm_toneeq_block_span (&g, &w, src.width, src.height, i, j, &sx, &sy);
  const uint8_t *base = static_cast<const uint8_t *> (src.data);
  double sum = 0.0;
  for (unsigned y = sy.lo; y < sy.hi; y++)
    {
      const uint8_t *row = base + y * src.stride;
      for (unsigned x = sx.lo; x < sx.hi; x++)
        {
          float l[3];
          sum += pixel_level (src.format, t, row, x, l);
        }
    }
  level[k] = sum / ((double) (sx.hi - sx.lo) * (double) (sy.hi - sy.lo));
}

// (b) The box passes, as toneeq.c's mask_coefficients.
__global__ void
row_sums (const double *in0, const double *in1, int square, LmToneeqWindow w, int rs, double *out0, double *out1)
{
  size_t k = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= (size_t) w.nx * w.ny)
    return;
  lm_toneeq_row_sums (in0, in1, square, w.nx, rs, (int) (k / w.nx), (int) (k % w.nx), out0, out1);
}

__global__ void
column_means (const double *h0, const double *h1, LmToneeqGrid g, LmToneeqWindow w, int coef, double edges,
              double *out0, double *out1)
{
  size_t k = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= (size_t) w.nx * w.ny)
    return;
  lm_toneeq_column_means (h0, h1, &g, &w, (int) (k / w.nx), (int) (k % w.nx), coef, edges, out0, out1);
}

// (c) Every pixel: M, its gain, the store.
__global__ void
apply (LmKImage src, LmKImage dst, Tables t, LmToneeqGrid g, LmToneeqWindow w, const double *abar,
       const double *bbar)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= src.width)
    return;
  for (; y < src.height; y += gridDim.y)
    {
      const uint8_t *in = static_cast<const uint8_t *> (src.data) + y * src.stride;
      uint8_t *out = static_cast<uint8_t *> (dst.data) + y * dst.stride;
      float l[3];
      double level = pixel_level (src.format, t, in, x, l);
      double m = lm_toneeq_mask (&g, &w, abar, bbar, x, y, level);
      pixel_store (src.format, t, in, out, x, l, lm_toneeq_gain (t.gain, m));
    }
}

bool
supported (int format)
{
  return format == LM_K_RGBA8 || format == LM_K_RGBA16 || format == LM_K_GRAY8 || format == LM_K_GRAY16
         || is_float (format);
}

// sRGB's tables at MAXCODE (255 or 65535), the same for every photo without a profile: built
// once on the host (131071 pow at 16 bits would cost milliseconds at every launch); NULL when
// memory runs out.
const float *
srgb_tables (unsigned maxcode)
{
  static std::once_flag once8, once16;
  static float *tables8, *tables16;
  float **tables = maxcode == 255u ? &tables8 : &tables16;
  std::call_once (maxcode == 255u ? once8 : once16, [tables, maxcode] () {
    float *t = static_cast<float *> (malloc ((2 * (size_t) maxcode + 1) * sizeof (float)));
    LmOpColor srgb = {};
    if (t != NULL)
      lm_toneeq_curve_tables (&srgb, 1, maxcode, t, t + maxcode + 1);
    *tables = t;
  });
  return *tables;
}

// The host's tables (toneeq-math.h builds them for both backends) into the scratch. Copies
// from pageable memory return once staged, so the host copies can go at once.
cudaError_t
upload_tables (const LmToneeqParams *p, const Layout &l, char *scratch, cudaStream_t stream)
{
  size_t each = 2 * (size_t) l.maxcode + 1;
  int own = l.curves == 3;
  size_t floats = LM_TONEEQ_TABLE_STEPS + 1 + (own ? 3 * each : 0);
  float *host = static_cast<float *> (malloc (floats * sizeof (float)));
  if (host == NULL)
    return cudaErrorMemoryAllocation;
  lm_toneeq_gain_table (p, host);
  const float *curves = NULL;
  if (own)
    {
      float *mine = host + LM_TONEEQ_TABLE_STEPS + 1;
      for (int c = 0; c < 3; c++)
        lm_toneeq_curve_tables (&p->color, c, l.maxcode, mine + c * each, mine + c * each + l.maxcode + 1);
      curves = mine;
    }
  else if (l.curves == 1 && (curves = srgb_tables (l.maxcode)) == NULL)
    {
      free (host);
      return cudaErrorMemoryAllocation;
    }
  cudaError_t err = cudaMemcpyAsync (scratch, host, (LM_TONEEQ_TABLE_STEPS + 1) * sizeof (float),
                                     cudaMemcpyHostToDevice, stream);
  if (err == cudaSuccess && curves != NULL)
    err = cudaMemcpyAsync (scratch + l.curve_at, curves, l.curves * each * sizeof (float), cudaMemcpyHostToDevice,
                           stream);
  free (host);
  return err;
}

} // namespace

static size_t
toneeq_workspace (const void *params, const LmKImage *src)
{
  return layout_of (static_cast<const LmToneeqParams *> (params), src).total;
}

/* The most: the finest grid (the least smoothing) and a curve per channel at SRC's depth. */
static size_t
toneeq_workspace_max (const LmKImage *src)
{
  LmToneeqParams p = {};
  p.smoothing = 0.5f;
  LmKImage rgba = *src;
  rgba.format = is_float (src->format) ? LM_K_RGBA_F32
                : (src->format == LM_K_RGBA16 || src->format == LM_K_GRAY16) ? LM_K_RGBA16 : LM_K_RGBA8;
  Layout l = layout_of (&p, &rgba);
  size_t curves = l.maxcode ? align_up (3 * (2 * (size_t) l.maxcode + 1) * sizeof (float)) : 0;
  return l.curve_at + curves + 5 * l.plane_bytes;
}

static cudaError_t
toneeq_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
               cudaStream_t stream)
{
  const LmToneeqParams *p = static_cast<const LmToneeqParams *> (params);
  if (!supported (src->format) || dst->format != src->format || dst->width != src->width
      || dst->height != src->height)
    return cudaErrorInvalidValue;
  Layout l = layout_of (p, src);
  if (scratch->size < l.total)
    return cudaErrorInvalidValue;
  char *base = static_cast<char *> (scratch->data);
  LM_CUDA_TRY (upload_tables (p, l, base, stream));

  Tables t = {};
  t.gain = reinterpret_cast<const float *> (base);
  const float *curves = reinterpret_cast<const float *> (base + l.curve_at);
  size_t each = 2 * (size_t) l.maxcode + 1;
  for (int c = 0; c < 3 && l.curves > 0; c++)
    {
      t.decode[c] = curves + (l.curves == 1 ? 0 : c) * each;
      t.thresholds[c] = t.decode[c] + l.maxcode + 1;
    }
  t.maxcode = l.maxcode;
  lm_toneeq_weights (&p->color, t.weight);
  t.mask_exposure = p->mask_exposure;

  double *plane[5];
  for (int k = 0; k < 5; k++)
    plane[k] = reinterpret_cast<double *> (base + l.planes_at + k * l.plane_bytes);
  // The CPU's planes: ℓ_s then ā in 0, b and b̄ in 1, the row sums in 2 and 3, a in 4.
  double *abar = plane[0], *bbar = plane[1], *h1 = plane[2], *h2 = plane[3], *a = plane[4];
  size_t n = (size_t) l.window.nx * l.window.ny;
  unsigned blocks = lm_div_up (n, kThreads);
  double edges = p->edges;

  block_means<<<blocks, kThreads, 0, stream>>> (*src, t, l.grid, l.window, abar);
  LM_CUDA_LAUNCHED ();
  row_sums<<<blocks, kThreads, 0, stream>>> (abar, abar, 1, l.window, l.grid.rs, h1, h2);
  LM_CUDA_LAUNCHED ();
  column_means<<<blocks, kThreads, 0, stream>>> (h1, h2, l.grid, l.window, 1, edges, a, bbar);
  LM_CUDA_LAUNCHED ();
  row_sums<<<blocks, kThreads, 0, stream>>> (a, bbar, 0, l.window, l.grid.rs, h1, h2);
  LM_CUDA_LAUNCHED ();
  column_means<<<blocks, kThreads, 0, stream>>> (h1, h2, l.grid, l.window, 0, edges, abar, bbar);
  LM_CUDA_LAUNCHED ();

  dim3 grid (lm_div_up (src->width, kThreads), src->height < 65535u ? src->height : 65535u);
  apply<<<grid, kThreads, 0, stream>>> (*src, *dst, t, l.grid, l.window, abar, bbar);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" const LmKOp lm_k_toneeq_op = { toneeq_workspace, toneeq_workspace_max, toneeq_launch };

// Lens correction on the GPU: one thread per output pixel, core/ops/lens-math.h's models at
// its own coordinates and its three channels' devignetted bicubic samples. The host gives the
// map (lensfun's coefficients, found when the pipeline was committed) and, for 8- and 16-bit
// sources, the photo's curve as tables in the scratch: no lensfun here.
#include <vector>

#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 128;

// Rows by a grid-stride loop (any height), 64-bit offsets; a tile's pixels are its place in
// the whole output (OX, OY) plus (I, J).
__global__ void
lens (LmLensMap m, LmLensPixels px, LmStraightenSource s, uint8_t *dst, size_t dst_stride, unsigned out_w,
      unsigned out_h, unsigned ox, unsigned oy, unsigned bytes)
{
  for (unsigned j = blockIdx.y; j < out_h; j += gridDim.y)
    {
      uint8_t *out = dst + (size_t) j * dst_stride;
      float fj = (float) (int) (oy + j);
      for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < out_w; i += gridDim.x * blockDim.x)
        lm_lens_pixel (&m, &px, &s, (float) (int) (ox + i), fj, out + (size_t) i * bytes);
    }
}

int
lens_format (int format)
{
  switch (format)
    {
    case LM_K_RGBA8: return LM_LENS_RGBA8;
    case LM_K_RGBA16: return LM_LENS_RGBA16;
    case LM_K_RGBA_F32: return LM_LENS_RGBA_F32;
    case LM_K_GRAY8: return LM_LENS_GRAY8;
    case LM_K_GRAY16: return LM_LENS_GRAY16;
    default: return -1;
    }
}

// The curve's tables of P for LEVELS levels.
std::vector<float>
tables_of (const LmLensParams *p, int levels)
{
  std::vector<float> t (lm_lens_tables_size (levels) / sizeof (float));
  lm_lens_tables (p, levels, t.data (), t.data () + 3 * (size_t) levels);
  return t;
}

// sRGB's tables (no profile: most photos), built once a process (65536 levels take ~10 ms);
// another profile's at each launch, its curve being a pointer a later profile may reuse.
const float *
srgb_tables (const LmLensParams *p, int levels)
{
  if (levels == 256)
    {
      static const std::vector<float> t8 = tables_of (p, 256);
      return t8.data ();
    }
  static const std::vector<float> t16 = tables_of (p, 65536);
  return t16.data ();
}

} // namespace

// The photo's curve for an 8- or 16-bit source; none for scene light.
static size_t
lens_workspace (const void *params, const LmKImage *src)
{
  int format = lens_format (src->format);
  int levels = format < 0 ? 0 : lm_lens_levels (format);
  return levels ? lm_lens_tables_size (levels) : 0;
}

static size_t
lens_workspace_max (const LmKImage *src)
{
  return lm_lens_tables_size (65536);
}

static cudaError_t
lens_launch (const void *params, const LmKImage *src, const LmKImage *dst, const LmKScratch *scratch,
             cudaStream_t stream)
{
  const LmLensParams *p = static_cast<const LmLensParams *> (params);
  int format = lens_format (src->format);
  if (format < 0)
    return cudaErrorInvalidValue;
  unsigned bytes = (unsigned) lm_k_bytes_per_pixel (src->format);
  LmStraightenSource s;
  unsigned ox, oy;
  LmLensMap m = lm_lens_setup (p, src->width, src->height, &s, &ox, &oy);
  if (!lm_lens_active (&m))
    {
      // Nothing to correct: the output is the input (a tile's place in it).
      size_t dx = 0, dy = 0;
      if (lm_tile_frame_active (&p->tile))
        dx = p->tile.out_x - p->tile.in_x, dy = p->tile.out_y - p->tile.in_y;
      const uint8_t *from = static_cast<const uint8_t *> (src->data) + dy * src->stride + dx * bytes;
      LM_CUDA_TRY (cudaMemcpy2DAsync (dst->data, dst->stride, from, src->stride, (size_t) dst->width * bytes,
                                      dst->height, cudaMemcpyDeviceToDevice, stream));
      return cudaSuccess;
    }
  LmLensPixels px = { src->data, src->stride, format, NULL, NULL, 0 };
  int levels = lm_lens_levels (format);
  if (levels)
    {
      size_t size = lm_lens_tables_size (levels);
      if (scratch == NULL || scratch->size < size)
        return cudaErrorInvalidValue;
      // Pageable host memory: the copy has taken the bytes when the call returns.
      std::vector<float> own;
      if (p->curve.space != NULL)
        own = tables_of (p, levels);
      const float *tables = p->curve.space == NULL ? srgb_tables (p, levels) : own.data ();
      LM_CUDA_TRY (cudaMemcpyAsync (scratch->data, tables, size, cudaMemcpyHostToDevice, stream));
      px.levels = levels;
      px.lin = static_cast<const float *> (scratch->data);
      px.edges = px.lin + 3 * (size_t) levels;
    }
  dim3 grid (lm_div_up (dst->width, kThreads) < 65535u ? lm_div_up (dst->width, kThreads) : 65535u,
             dst->height < 65535u ? dst->height : 65535u);
  lens<<<grid, kThreads, 0, stream>>> (m, px, s, static_cast<uint8_t *> (dst->data), dst->stride, dst->width,
                                       dst->height, ox, oy, bytes);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" const LmKOp lm_k_lens_op = { lens_workspace, lens_workspace_max, lens_launch };

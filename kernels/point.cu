// The fused point pass on the GPU: core/ops/point-math.h on every pixel, four pixels per
// thread so that RGBA input is read and written with 16-byte accesses. What a kernel reads of
// the pass travels as a launch parameter (the host's recipe stays on the host): RGBA8 its
// table and pixel parts, GRAY8 its gray table, RGBA16 its pixel parts. Each block copies its
// table (3 KiB) into shared memory, where the data-dependent lookups of neighbouring threads
// do not serialize as they would in the parameter bank. A block then walks down many rows:
// with one row a block, the tables' copies moved more bytes than the image (24,000 blocks ×
// 3 KiB for 24 MP) and the pass ran at 2.5 times a plain copy.
//
// The passes that edits make most (white balance, exposure, contrast, a luma curve,
// saturation: no colormix) run in a kernel made for their pixel parts (point_rgba_parts):
// the general one tests each part's flag and carries colormix's code per pixel, and reads
// the curve's nodes from the parameter bank, where neighbouring threads' different nodes
// serialize. What the specialization computes is lm_point_rgba's arithmetic, bit for bit
// (tests/kernels-cpu/test-point-emulated.cpp, tests/gpu/test-parity.c).
#include <cstring>
#ifdef __CUDACC__
#include <cuda_pipeline_primitives.h>
#endif

#include "kernels/cuda-check.h"
#include "kernels/kernels.h"

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kPixelsPerThread = 4;

// What point_rgba reads: the table of the channel parts, then the pixel parts; 5.2 KiB with
// today's operations. Launch parameters may take 32764 bytes since CUDA 12.1 on Volta and
// newer (every device this build targets), room for pixel parts to come.
struct RgbaPass {
  float table[3][256];
  LmPointPixels px;
};
static_assert (sizeof (RgbaPass) <= 32764, "the RGBA8 pass must fit the launch parameters");

// What point_gray reads: the gray table alone.
struct GrayPass {
  float gray[256];
};

__device__ void
load_table (const RgbaPass &pass, float (*table)[256])
{
  for (unsigned i = threadIdx.x; i < 3 * 256; i += blockDim.x)
    table[i / 256][i % 256] = pass.table[i / 256][i % 256];
  __syncthreads ();
}

// V · SCALE + SHIFT, which is exact for the two forms the curve uses (SHIFT -0: v · scale
// rounded once; SCALE 1: v + shift rounded once), so one fused instruction on the GPU gives
// the separate operations' bits.
__device__ __forceinline__ float
scale_or_shift (float v, float scale, float shift)
{
#ifdef __CUDA_ARCH__
  return __fmaf_rn (v, scale, shift);
#else
  return v * scale + shift;
#endif
}

// lm_point_rgba for a pass whose pixel parts are the luma curve if CURVE and saturation if
// SATURATION, in that order, with the curve's nodes NODE in shared memory. A channel's
// entry is found by its byte (one permute) and one shift-and-add, where a shift, a mask and
// an addition would take three.
template <bool kCurve, bool kSaturation>
__device__ __forceinline__ uint32_t
point_parts (const LmPointPixels &px, const float (*table)[256], const float (*node)[2], uint32_t p)
{
  float r = table[0][__byte_perm (p, 0, 0x4440)], g = table[1][__byte_perm (p, 0, 0x4441)],
        b = table[2][__byte_perm (p, 0, 0x4442)];
  if (kCurve && kSaturation)
    return lm_point_rgba_pair (&px, node, r, g, b, p);
  if (kCurve)
    {
      // lm_curve_pixel with its two branches as one multiply-add: the division's operands
      // are made valid where its result is not used, so that it needs no branch.
      float y = lm_weighted_sum (r, g, b, LM_BT709_R, LM_BT709_G, LM_BT709_B);
      float mapped = lm_curve_luma_map (node, y);
      bool ratio = lm_ratio_in_range (y);
      float k = lm_ratio (lm_ratio_numerator (mapped), ratio ? y : 1.0f);
      float scale = ratio ? k : 1.0f, shift = ratio ? -0.0f : mapped - y;
      r = scale_or_shift (r, scale, shift), g = scale_or_shift (g, scale, shift), b = scale_or_shift (b, scale, shift);
    }
  if (kSaturation)
    lm_saturation_pixel (&px.saturation, NAN, &r, &g, &b);
  return lm_point_pack (r, g, b, p);
}

// Rows of a thread in flight: its 16 bytes of the next rows are copied into shared memory
// (cp.async) while it computes the current one. A load into registers a row ahead did the
// same until the compiler sank it to its use, to save registers: the pass then waited out
// each load, a quarter of its stalls (ncu, at the H200).
constexpr unsigned kStages = 3;

// point_rgba_parts's blocks a multiprocessor, which its launch bounds promise registers
// for: 64 a thread, where eight blocks would leave 32. A thread then computes its four
// pixels side by side, where with 32 it computed them one after another, each waiting on its
// lookups and divisions: the five-edit pass took 0.095-0.098 ms at the H200 against
// 0.099-0.103 with twice the warps. The grid is one wave of such blocks.
constexpr unsigned kPartsBlocksPerSm = 4;

// 16 bytes from global into shared memory, asynchronously: committed as a group, waited for
// by group (the CUDA pipeline primitives). Each thread copies and reads only its own slot, so
// no barrier is needed.
__device__ __forceinline__ void
copy_row_async (uint4 *slot, const uint8_t *from, bool valid)
{
  if (valid)
    __pipeline_memcpy_async (slot, from, sizeof (uint4));
  __pipeline_commit ();
}

// The pass with the pixel parts of point_parts: each block copies the table and the curve's
// nodes, then walks its rows with pointers that step by whole strides, kStages - 1 rows loaded
// ahead of the one it computes.
template <bool kCurve, bool kSaturation>
__global__ void __launch_bounds__ (kThreads, kPartsBlocksPerSm)
point_rgba_parts (const __grid_constant__ RgbaPass pass, const uint8_t *src, size_t src_stride, uint8_t *dst,
                  size_t dst_stride, unsigned width, unsigned height)
{
  __shared__ float table[3][256];
  __shared__ __align__ (8) float node[kCurve ? 256 : 1][2];
  __shared__ uint4 ring[kStages][kThreads];
  if (kCurve)
    for (unsigned i = threadIdx.x; i < 256; i += blockDim.x)
      node[i][0] = pass.px.curve.node[i][0], node[i][1] = pass.px.curve.node[i][1];
  load_table (pass, table); // its barrier also covers the nodes
  unsigned x0 = (blockIdx.x * blockDim.x + threadIdx.x) * kPixelsPerThread;
  if (x0 >= width || blockIdx.y >= height)
    return;
  const uint8_t *in = src + blockIdx.y * src_stride + (size_t) x0 * 4;
  uint8_t *out = dst + blockIdx.y * dst_stride + (size_t) x0 * 4;
  size_t in_step = gridDim.y * src_stride, out_step = gridDim.y * dst_stride;
  auto one = [&] (uint32_t p) { return point_parts<kCurve, kSaturation> (pass.px, table, node, p); };
  if (x0 + kPixelsPerThread > width) // the row's last pixels
    {
      for (unsigned y = blockIdx.y; y < height; y += gridDim.y, in += in_step, out += out_step)
        for (unsigned x = 0; x < width - x0; x++)
          reinterpret_cast<uint32_t *> (out)[x] = one (reinterpret_cast<const uint32_t *> (in)[x]);
      return;
    }
  unsigned ahead = blockIdx.y; // the next row to load
  const uint8_t *ahead_in = in;
  for (unsigned s = 0; s + 1 < kStages; s++, ahead += gridDim.y, ahead_in += in_step)
    copy_row_async (&ring[s][threadIdx.x], ahead_in, ahead < height);
  unsigned stage = 0;
  for (unsigned y = blockIdx.y; y < height; y += gridDim.y, out += out_step)
    {
      unsigned fill = stage == 0 ? kStages - 1 : stage - 1;
      copy_row_async (&ring[fill][threadIdx.x], ahead_in, ahead < height);
      ahead += gridDim.y, ahead_in += in_step;
      __pipeline_wait_prior (kStages - 1);
      uint4 px = ring[stage][threadIdx.x];
      __stcs (reinterpret_cast<uint4 *> (out), make_uint4 (one (px.x), one (px.y), one (px.z), one (px.w)));
      stage = stage + 1 == kStages ? 0 : stage + 1;
    }
}

__global__ void
point_rgba (const __grid_constant__ RgbaPass pass, const uint8_t *src, size_t src_stride, uint8_t *dst,
            size_t dst_stride, unsigned width, unsigned height)
{
  __shared__ float table[3][256];
  load_table (pass, table);
  unsigned x0 = (blockIdx.x * blockDim.x + threadIdx.x) * kPixelsPerThread;
  if (x0 >= width)
    return;
  for (size_t y = blockIdx.y; y < height; y += gridDim.y)
    {
      const uint32_t *in = reinterpret_cast<const uint32_t *> (src + y * src_stride);
      uint32_t *out = reinterpret_cast<uint32_t *> (dst + y * dst_stride);
      if (x0 + kPixelsPerThread <= width)
        {
          uint4 px = __ldcs (reinterpret_cast<const uint4 *> (in + x0));
          uint4 res = make_uint4 (lm_point_rgba (&pass.px, table, px.x), lm_point_rgba (&pass.px, table, px.y),
                                  lm_point_rgba (&pass.px, table, px.z), lm_point_rgba (&pass.px, table, px.w));
          __stcs (reinterpret_cast<uint4 *> (out + x0), res);
          continue;
        }
      for (unsigned x = x0; x < width; x++)
        out[x] = lm_point_rgba (&pass.px, table, in[x]);
    }
}

// A gray source stays gray: its own table, four pixels (one 32-bit word) per thread.
__global__ void
point_gray (const __grid_constant__ GrayPass pass, const uint8_t *src, size_t src_stride, uint8_t *dst,
            size_t dst_stride, unsigned width, unsigned height)
{
  __shared__ float gray[256];
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x)
    gray[i] = pass.gray[i];
  __syncthreads ();
  unsigned x0 = (blockIdx.x * blockDim.x + threadIdx.x) * kPixelsPerThread;
  if (x0 >= width)
    return;
  for (size_t y = blockIdx.y; y < height; y += gridDim.y)
    {
      const uint8_t *in = src + y * src_stride;
      uint8_t *out = dst + y * dst_stride;
      if (x0 + kPixelsPerThread <= width) // rows start LM_ROW_ALIGN-aligned: a word access
        {
          uchar4 px = *reinterpret_cast<const uchar4 *> (in + x0);
          *reinterpret_cast<uchar4 *> (out + x0)
            = make_uchar4 (lm_point_gray (gray, px.x), lm_point_gray (gray, px.y), lm_point_gray (gray, px.z),
                           lm_point_gray (gray, px.w));
          continue;
        }
      for (unsigned x = x0; x < width; x++)
        out[x] = lm_point_gray (gray, in[x]);
    }
}

// 16-bit sources: the table (3 × 65536 floats, 768 KiB) is too large for shared memory and
// is read from global memory, where it stays in L2; two RGBA16 pixels per thread, so that
// loads and stores are 16 bytes as for RGBA8.
__global__ void
point_rgba16 (const __grid_constant__ LmPointPixels px, const float *__restrict__ table16, const uint8_t *src,
              size_t src_stride, uint8_t *dst, size_t dst_stride, unsigned width, unsigned height)
{
  unsigned x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
  if (x0 >= width)
    return;
  for (size_t y = blockIdx.y; y < height; y += gridDim.y)
    {
      const unsigned long long *in = reinterpret_cast<const unsigned long long *> (src + y * src_stride);
      unsigned long long *out = reinterpret_cast<unsigned long long *> (dst + y * dst_stride);
      if (x0 + 2 <= width)
        {
          ulonglong2 p = __ldcs (reinterpret_cast<const ulonglong2 *> (in + x0));
          ulonglong2 res = make_ulonglong2 (lm_point_rgba16 (&px, table16, p.x),
                                            lm_point_rgba16 (&px, table16, p.y));
          __stcs (reinterpret_cast<ulonglong2 *> (out + x0), res);
          continue;
        }
      out[x0] = lm_point_rgba16 (&px, table16, in[x0]);
    }
}

// GRAY16: TABLE16 is the gray source's (LM_POINT_TABLE16_SIZE floats); gray out.
__global__ void
point_gray16 (const float *__restrict__ table16, const uint8_t *src, size_t src_stride, uint8_t *dst,
              size_t dst_stride, unsigned width, unsigned height)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width)
    return;
  for (size_t y = blockIdx.y; y < height; y += gridDim.y)
    reinterpret_cast<uint16_t *> (dst + y * dst_stride)[x]
      = lm_point_gray16 (table16, reinterpret_cast<const uint16_t *> (src + y * src_stride)[x]);
}

// Rows per block: enough blocks to fill the GPU several times over (4,096), each walking
// down its share of the rows.
dim3
grid_of (unsigned columns_of_blocks, unsigned height, unsigned blocks = 4096)
{
  unsigned rows = columns_of_blocks >= blocks ? 1 : blocks / columns_of_blocks;
  return dim3 (columns_of_blocks, rows < height ? rows : height);
}

// The RGBA8 pass: point_rgba_parts where its pixel parts are the curve's and saturation's,
// point_rgba otherwise.
cudaError_t
launch_rgba (const RgbaPass &pass, const uint8_t *in, size_t in_stride, uint8_t *out, size_t out_stride,
             unsigned width, unsigned height, cudaStream_t stream)
{
  uint32_t curve = LM_OP_BIT (CURVE), saturation = LM_OP_BIT (SATURATION), parts = pass.px.pixel_ops;
  unsigned columns = lm_div_up (width, kThreads * kPixelsPerThread);
  if ((parts & ~(curve | saturation)) != 0)
    {
      point_rgba<<<grid_of (columns, height), kThreads, 0, stream>>> (pass, in, in_stride, out, out_stride, width,
                                                                     height);
      return cudaSuccess;
    }
  int device, sms;
  LM_CUDA_TRY (cudaGetDevice (&device));
  LM_CUDA_TRY (cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, device));
  dim3 grid = grid_of (columns, height, (unsigned) sms * kPartsBlocksPerSm);
  if (parts == (curve | saturation))
    point_rgba_parts<true, true><<<grid, kThreads, 0, stream>>> (pass, in, in_stride, out, out_stride, width, height);
  else if (parts == curve)
    point_rgba_parts<true, false><<<grid, kThreads, 0, stream>>> (pass, in, in_stride, out, out_stride, width, height);
  else if (parts == saturation)
    point_rgba_parts<false, true><<<grid, kThreads, 0, stream>>> (pass, in, in_stride, out, out_stride, width, height);
  else
    point_rgba_parts<false, false><<<grid, kThreads, 0, stream>>> (pass, in, in_stride, out, out_stride, width, height);
  return cudaSuccess;
}

} // namespace

extern "C" cudaError_t
lm_k_point (const float (*table)[256], const float *gray, const LmPointPixels *px, const LmKImage *src,
            const LmKImage *dst, cudaStream_t stream)
{
  const uint8_t *in = static_cast<const uint8_t *> (src->data);
  uint8_t *out = static_cast<uint8_t *> (dst->data);
  if (src->width == 0 || src->height == 0)
    return cudaSuccess;
  dim3 grid = grid_of (lm_div_up (src->width, kThreads * kPixelsPerThread), src->height);
  if (src->format == LM_K_GRAY8)
    {
      GrayPass pass;
      memcpy (pass.gray, gray, sizeof pass.gray);
      point_gray<<<grid, kThreads, 0, stream>>> (pass, in, src->stride, out, dst->stride, src->width, src->height);
    }
  else
    {
      RgbaPass pass;
      memcpy (pass.table, table, sizeof pass.table);
      pass.px = *px;
      LM_CUDA_TRY (launch_rgba (pass, in, src->stride, out, dst->stride, src->width, src->height, stream));
    }
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

extern "C" cudaError_t
lm_k_point16 (const float *table16, const LmPointPixels *px, const LmKImage *src, const LmKImage *dst,
              cudaStream_t stream)
{
  const uint8_t *in = static_cast<const uint8_t *> (src->data);
  uint8_t *out = static_cast<uint8_t *> (dst->data);
  if (src->width == 0 || src->height == 0)
    return cudaSuccess;
  if (src->format == LM_K_GRAY16)
    {
      dim3 grid = grid_of (lm_div_up (src->width, kThreads), src->height);
      point_gray16<<<grid, kThreads, 0, stream>>> (table16, in, src->stride, out, dst->stride, src->width,
                                                   src->height);
    }
  else
    {
      dim3 grid = grid_of (lm_div_up (src->width, kThreads * 2), src->height);
      point_rgba16<<<grid, kThreads, 0, stream>>> (*px, table16, in, src->stride, out, dst->stride, src->width,
                                                   src->height);
    }
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

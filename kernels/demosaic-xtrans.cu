// The X-Trans demosaic on the GPU, in strips of whole rows: each strip's buffers hold the
// mosaic with the method's halo (mirrored outside the image), three planes per candidate,
// their derivatives and counts; one kernel per step of core/ops/demosaic-xtrans-math.h, in the
// CPU tiles' order and over the same margins, so that every site is computed from the same
// operands as on the CPU. The pattern's tables and the Lab matrix travel as launch parameters
// (__grid_constant__, read in place).
#include "core/ops/demosaic-xtrans-math.h"
#include "kernels/cuda-check.h"
#include "kernels/demosaic-xtrans-kernels.h"

namespace {

constexpr int kStrip = 512; // output rows per strip: the halo adds 10 % (3 passes)
constexpr int kBlockX = 32, kBlockY = 8;

struct LabMatrix {
  float m[3][3];
};

enum Step { kGreen, kRegreen, kSolo, kRb, kBlock };

size_t
plane_floats (int width, int height, int halo)
{
  int rows = height < kStrip ? height : kStrip;
  return ((size_t) width + 2 * (size_t) halo) * ((size_t) rows + 2 * (size_t) halo);
}

__global__ void
load_kernel (const __grid_constant__ LmXtBuf b, const float *plane, int width, int height, int xlo, int xhi, int ylo,
             int yhi, int bw, int bh)
{
  int bx = blockIdx.x * blockDim.x + threadIdx.x, by = blockIdx.y * blockDim.y + threadIdx.y;
  if (bx < bw && by < bh)
    b.raw[(ptrdiff_t) by * b.stride + bx] = lm_xt_load (plane, width, height, b.x0 + bx, b.y0 + by, xlo, xhi, ylo, yhi);
}

// STEP at every site of the region [IN, BW − IN) × [IN, BH − IN), directions D0 .. D0 + 3.
__global__ void
step_kernel (const __grid_constant__ LmXtBuf b, const __grid_constant__ LmXtrans xt, int step, int in, int bw, int bh,
             int d0)
{
  int bx = in + blockIdx.x * blockDim.x + threadIdx.x, by = in + blockIdx.y * blockDim.y + threadIdx.y;
  if (bx >= bw - in || by >= bh - in)
    return;
  if (step == kGreen)
    {
      lm_xt_green (&xt, &b, bx, by);
      return;
    }
  for (int d = d0; d < d0 + 4; d++)
    switch (step)
      {
      case kRegreen:
        lm_xt_regreen (&xt, &b, bx, by, d);
        break;
      case kSolo:
        lm_xt_solo (&xt, &b, bx, by, d);
        break;
      case kRb:
        lm_xt_rb (&xt, &b, bx, by, d);
        break;
      default:
        lm_xt_block (&xt, &b, bx, by, d);
        break;
      }
}

__global__ void
drv_kernel (const __grid_constant__ LmXtBuf b, int in, int bw, int bh, int ndir, const __grid_constant__ LabMatrix lab,
            const float *table)
{
  int bx = in + blockIdx.x * blockDim.x + threadIdx.x, by = in + blockIdx.y * blockDim.y + threadIdx.y;
  if (bx >= bw - in || by >= bh - in)
    return;
  for (int d = 0; d < ndir; d++)
    lm_xt_drv (&b, bx, by, d, lab.m, table);
}

__global__ void
homo_kernel (const __grid_constant__ LmXtBuf b, int in, int bw, int bh, int ndir)
{
  int bx = in + blockIdx.x * blockDim.x + threadIdx.x, by = in + blockIdx.y * blockDim.y + threadIdx.y;
  if (bx < bw - in && by < bh - in)
    lm_xt_homo (&b, bx, by, ndir);
}

// The strip's output: rows TY .. TY + TH of RGBA, buffer site (x + M, y + M).
__global__ void
vote_kernel (const __grid_constant__ LmXtBuf b, int halo, int width, int th, int ty, int ndir, float *rgba,
             size_t rgba_stride)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < th)
    lm_xt_vote (&b, x + halo, y + halo, ndir, rgba + (size_t) (ty + y) * rgba_stride + (size_t) x * 4);
}

__global__ void
bilinear_kernel (const float *plane, int width, int height, const __grid_constant__ LmCfa cfa, float *rgba,
                 size_t rgba_stride)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    lm_xt_bilinear (plane, width, height, &cfa, x, y, rgba + (size_t) y * rgba_stride + (size_t) x * 4);
}

__global__ void
third_kernel (const float *plane, int width, int height, const __grid_constant__ LmCfa cfa, float *rgba,
              size_t rgba_stride, int ow, int oh)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < ow && y < oh)
    lm_xt_third (plane, width, height, &cfa, x, y, rgba + (size_t) y * rgba_stride + (size_t) x * 4);
}

dim3
grid_of (int w, int h)
{
  return dim3 (lm_div_up ((size_t) (w > 0 ? w : 1), kBlockX), lm_div_up ((size_t) (h > 0 ? h : 1), kBlockY));
}

cudaError_t
run_step (const LmXtBuf &b, const LmXtrans &xt, Step step, int in, int bw, int bh, int d0, cudaStream_t stream)
{
  step_kernel<<<grid_of (bw - 2 * in, bh - 2 * in), dim3 (kBlockX, kBlockY), 0, stream>>> (b, xt, step, in, bw, bh, d0);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

} // namespace

size_t
lm_k_markesteijn_scratch (int width, int height, int passes)
{
  if (width <= 0 || height <= 0)
    return 0;
  int ndir = passes == 1 ? 4 : 8, halo = passes == 1 ? LM_XT_HALO_1 : LM_XT_HALO_3;
  size_t plane = plane_floats (width, height, halo);
  return plane * sizeof (float) * (1 + 4 * (size_t) ndir) + plane * (size_t) ndir;
}

cudaError_t
lm_k_markesteijn (const float *plane, int width, int height, const LmCfa *cfa, int passes,
                  const float cam_to_xyz[3][3], const float *cbrt_table, float *rgba, size_t rgba_stride,
                  void *scratch, cudaStream_t stream)
{
  if (width <= 0 || height <= 0)
    return cudaSuccess;
  LmXtrans xt;
  int xlo, xhi, ylo, yhi;
  if (!lm_xtrans_prepare (cfa, &xt) || !lm_xt_axes (width, xt.ax, &xlo, &xhi)
      || !lm_xt_axes (height, xt.ay, &ylo, &yhi))
    {
      bilinear_kernel<<<grid_of (width, height), dim3 (kBlockX, kBlockY), 0, stream>>> (plane, width, height, *cfa,
                                                                                        rgba, rgba_stride);
      LM_CUDA_LAUNCHED ();
      return cudaSuccess;
    }
  passes = passes == 1 ? 1 : 3;
  int ndir = passes == 1 ? 4 : 8, M = passes == 1 ? LM_XT_HALO_1 : LM_XT_HALO_3;
  LabMatrix lab;
  lm_xtrans_lab_matrix (cam_to_xyz, lab.m);
  size_t plane_size = plane_floats (width, height, M);
  float *mem = (float *) scratch;
  LmXtBuf b;
  b.raw = mem;
  b.rgb = mem + plane_size;
  b.drv = mem + plane_size * (1 + 3 * (size_t) ndir);
  b.homo = (uint8_t *) (mem + plane_size * (1 + 4 * (size_t) ndir));
  b.plane = (ptrdiff_t) plane_size;
  int bw = width + 2 * M;
  b.stride = bw;
  b.x0 = -M;
  const dim3 block (kBlockX, kBlockY);
  for (int ty = 0; ty < height; ty += kStrip)
    {
      int th = height - ty < kStrip ? height - ty : kStrip, bh = th + 2 * M;
      b.y0 = ty - M;
      load_kernel<<<grid_of (bw, bh), block, 0, stream>>> (b, plane, width, height, xlo, xhi, ylo, yhi, bw, bh);
      LM_CUDA_LAUNCHED ();
      // Pass k's block fill reaches BASE sites beyond the strip, its other steps further out.
      for (int k = 0; k < passes; k++)
        {
          int base = 4 + 7 * (passes - 1 - k), d0 = k ? 4 : 0, in = M - base;
          if (k == 0)
            LM_CUDA_TRY (run_step (b, xt, kGreen, in - 5, bw, bh, 0, stream));
          else
            {
              if (k == 1) // the refined candidates start as copies of the first four
                LM_CUDA_TRY (cudaMemcpyAsync (b.rgb + 12 * b.plane, b.rgb, 12 * plane_size * sizeof (float),
                                              cudaMemcpyDeviceToDevice, stream));
              LM_CUDA_TRY (run_step (b, xt, kRegreen, in - 5, bw, bh, d0, stream));
            }
          LM_CUDA_TRY (run_step (b, xt, kSolo, in - 3, bw, bh, d0, stream));
          LM_CUDA_TRY (run_step (b, xt, kRb, in - 2, bw, bh, d0, stream));
          LM_CUDA_TRY (run_step (b, xt, kBlock, in, bw, bh, d0, stream));
        }
      drv_kernel<<<grid_of (bw - 2 * (M - 3), bh - 2 * (M - 3)), block, 0, stream>>> (b, M - 3, bw, bh, ndir, lab,
                                                                                      cbrt_table);
      LM_CUDA_LAUNCHED ();
      homo_kernel<<<grid_of (bw - 2 * (M - 2), bh - 2 * (M - 2)), block, 0, stream>>> (b, M - 2, bw, bh, ndir);
      LM_CUDA_LAUNCHED ();
      vote_kernel<<<grid_of (width, th), block, 0, stream>>> (b, M, width, th, ty, ndir, rgba, rgba_stride);
      LM_CUDA_LAUNCHED ();
    }
  return cudaSuccess;
}

cudaError_t
lm_k_xtrans_third (const float *plane, int width, int height, const LmCfa *cfa, float *rgba, size_t rgba_stride,
                   cudaStream_t stream)
{
  if (width <= 0 || height <= 0)
    return cudaSuccess;
  int ow = (width + 2) / 3, oh = (height + 2) / 3;
  third_kernel<<<grid_of (ow, oh), dim3 (kBlockX, kBlockY), 0, stream>>> (plane, width, height, *cfa, rgba,
                                                                          rgba_stride, ow, oh);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

cudaError_t
lm_k_xtrans_bilinear (const float *plane, int width, int height, const LmCfa *cfa, float *rgba, size_t rgba_stride,
                      cudaStream_t stream)
{
  if (width <= 0 || height <= 0)
    return cudaSuccess;
  bilinear_kernel<<<grid_of (width, height), dim3 (kBlockX, kBlockY), 0, stream>>> (plane, width, height, *cfa, rgba,
                                                                                    rgba_stride);
  LM_CUDA_LAUNCHED ();
  return cudaSuccess;
}

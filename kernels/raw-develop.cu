// The raw development's last step on the device (core/ops/raw-matrix-math.h): each pixel of
// the demosaiced RGBA_F32 through the camera → Rec. 2020 matrix, in place.
#include "cuda-check.h"
#include "raw-develop-kernels.h"
#include "core/ops/raw-matrix-math.h"

namespace {

struct Matrix {
  float m[3][3];
};

__global__ void
matrix_kernel (float *rgba, size_t stride, int width, int height, Matrix m)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float4 *p = reinterpret_cast<float4 *> (rgba + (size_t) y * stride) + x;
  float4 v = *p;
  float px[4] = { v.x, v.y, v.z, v.w };
  lm_raw_matrix_pixel (m.m, px);
  *p = make_float4 (px[0], px[1], px[2], px[3]);
}

} // namespace

extern "C" cudaError_t
lm_k_raw_matrix (float *rgba, size_t rgba_stride, int width, int height, const float matrix[3][3],
                 cudaStream_t stream)
{
  if (width <= 0 || height <= 0)
    return cudaSuccess;
  Matrix m;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      m.m[i][j] = matrix[i][j];
  dim3 block (32, 8);
  dim3 grid ((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  matrix_kernel<<<grid, block, 0, stream>>> (rgba, rgba_stride, width, height, m);
  return cudaGetLastError ();
}

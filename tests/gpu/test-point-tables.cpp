// The fused point pass on the device against the CPU's pixel: point-cases.h's cases (random
// tables up to the ±2^24 bound, tiny and negative values, random curves), which reach what
// real photos in test-parity do not: the device's own paths (its rounded-down floor for the
// curve's nodes, its selects, its saturating packs, the pair's reciprocal) at the ends of
// their ranges. In the gpu suite; skipped (exit 77) where no device is usable.
#include <cuda_runtime.h>

#include "../kernels-cpu/point-cases.h"
#include "skip-without-device.h"

// A failed CUDA call: the case fails with it.
static cudaError_t
run_on_device (const float (*table)[256], const float *gray, const LmPointPixels *px, const LmKImage *in,
               const LmKImage *out)
{
  size_t bytes = in->stride * in->height;
  void *d_in = NULL, *d_out = NULL;
  cudaError_t e = cudaMalloc (&d_in, bytes);
  if (e == cudaSuccess)
    e = cudaMalloc (&d_out, bytes);
  if (e == cudaSuccess)
    e = cudaMemcpy (d_in, in->data, bytes, cudaMemcpyHostToDevice);
  if (e == cudaSuccess)
    e = cudaMemcpy (d_out, out->data, bytes, cudaMemcpyHostToDevice); // the poison, where nothing is written
  LmKImage din = *in, dout = *out;
  din.data = d_in, dout.data = d_out;
  if (e == cudaSuccess)
    e = lm_k_point (table, gray, px, &din, &dout, NULL);
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize ();
  if (e == cudaSuccess)
    e = cudaMemcpy (out->data, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaError_t freed = cudaFree (d_in), freed_out = cudaFree (d_out);
  if (e != cudaSuccess)
    printf ("  %s\n", cudaGetErrorString (e));
  return e != cudaSuccess ? e : freed != cudaSuccess ? freed : freed_out;
}

int
main ()
{
  if (int skip = skip_without_device ())
    return skip;
  return point_cases (run_on_device) != 0;
}

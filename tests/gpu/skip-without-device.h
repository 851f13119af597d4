// A gpu-suite test where no CUDA device is usable: it says so and exits 77 (meson's skip).
#pragma once

#include <cstdio>

#include <cuda_runtime.h>

// 0 where a device is usable, 77 (after the message) where not.
static inline int
skip_without_device ()
{
  int devices = 0;
  if (cudaGetDeviceCount (&devices) == cudaSuccess && devices > 0)
    return 0;
  printf ("SKIP: no CUDA device\n");
  return 77;
}

// The GPU's fused point pass (kernels/point.cu) run on the CPU (cuda-emu.h) through
// lm_k_point: point-cases.h's cases. The emulation compiles the kernel's C++ paths, not those
// written for the device alone (__CUDA_ARCH__: its rounded-down floor, its selects and
// packs), which tests/gpu/test-point-tables.cpp runs on a GPU.
#include "point-cases.h"

static cudaError_t
run_emulated (const float (*table)[256], const float *gray, const LmPointPixels *px, const LmKImage *in,
              const LmKImage *out)
{
  return lm_k_point (table, gray, px, in, out, NULL);
}

int
main ()
{
  return point_cases (run_emulated) != 0;
}

// The cache behind lm_k_shared_optin: one entry a device (the batch launches from several
// threads, on several devices).
#include <atomic>

#include "kernels/shared-optin.h"

namespace {

constexpr int kDevices = 64;
std::atomic<size_t> known[kDevices]; // 0: not asked yet

} // namespace

cudaError_t
lm_k_shared_optin (size_t *bytes)
{
  int device;
  cudaError_t err = cudaGetDevice (&device);
  if (err != cudaSuccess)
    return err;
  size_t cached = device < kDevices ? known[device].load (std::memory_order_relaxed) : 0;
  if (cached)
    {
      *bytes = cached;
      return cudaSuccess;
    }
  int optin;
  err = cudaDeviceGetAttribute (&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  if (err != cudaSuccess)
    return err;
  *bytes = (size_t) optin;
  if (device < kDevices)
    known[device].store (*bytes, std::memory_order_relaxed);
  return cudaSuccess;
}

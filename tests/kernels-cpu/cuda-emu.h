// Lumen's kernels run on the CPU: the CUDA constructs their sources use, emulated, so that a
// machine without a GPU (CI's) still checks their logic against the CPU reference bit for
// bit. A launch runs its blocks one after another, a block's threads as OS threads (a pool
// made once a launch) meeting at __syncthreads; __shared__ variables are statics (one
// block at a time), dynamic shared memory is filled with NaN bytes before each block, so
// that a value read before it is written shows. The arithmetic is the host compiler's
// IEEE single precision with no contraction, as the kernels are built (--fmad=false): what
// this cannot check is the device compiler itself, which the GPU parity tests do.
//
// emulate-source.py turns a kernel file into C++ for this header: launches become
// emu::launch (kernel, grid, block, shared, stream) (args...).
#pragma once

#include <atomic>
#include <barrier>
#include <cstring>
#include <cuda_runtime.h>
#include <functional>
#include <thread>
#include <vector>

inline thread_local uint3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;

namespace emu {
// The block's barrier: threads that return from the kernel leave it, as on the device.
inline std::barrier<> *block_barrier;
alignas (16) inline unsigned char dynamic_shared[256 * 1024];
inline long blocks_run;
}

#undef __shared__
#define __shared__ static
#define __launch_bounds__(...)
#define EMU_DYNAMIC_SHARED (reinterpret_cast<float4 *> (emu::dynamic_shared))
// The runtime calls the kernels' host code makes, answered as a device would.
#define cudaFuncSetAttribute(...) cudaSuccess
#define cudaGetLastError() cudaSuccess
#define cudaMemcpy2DAsync emu::memcpy_2d
#define cudaGetDevice emu::get_device
#define cudaDeviceGetAttribute emu::device_attribute

inline void
__syncthreads ()
{
  emu::block_barrier->arrive_and_wait ();
}

inline int
atomicMin (int *p, int v)
{
  std::atomic_ref<int> a (*p);
  int old = a.load ();
  while (v < old && !a.compare_exchange_weak (old, v))
    ;
  return old;
}

inline int
atomicMax (int *p, int v)
{
  std::atomic_ref<int> a (*p);
  int old = a.load ();
  while (v > old && !a.compare_exchange_weak (old, v))
    ;
  return old;
}

template <class T>
inline T
__ldcs (const T *p)
{
  T v;
  memcpy (&v, p, sizeof v);
  return v;
}

template <class T>
inline void
__stcs (T *p, T v)
{
  memcpy (p, &v, sizeof v);
}

// The CUDA pipeline primitives (cp.async): the copy is done at once, so a commit and a wait
// have nothing left to do.
inline void
__pipeline_memcpy_async (void *dst, const void *src, size_t size, size_t = 0)
{
  memcpy (dst, src, size);
}

inline void
__pipeline_commit ()
{
}

inline void
__pipeline_wait_prior (size_t)
{
}

inline unsigned
__byte_perm (unsigned a, unsigned b, unsigned selector)
{
  unsigned char bytes[8];
  memcpy (bytes, &a, 4), memcpy (bytes + 4, &b, 4);
  unsigned r = 0;
  for (int i = 0; i < 4; i++)
    r |= (unsigned) bytes[(selector >> (4 * i)) & 7] << (8 * i);
  return r;
}

inline float
__uint_as_float (unsigned u)
{
  float f;
  memcpy (&f, &u, sizeof f);
  return f;
}

inline unsigned
__funnelshift_r (unsigned lo, unsigned hi, unsigned shift)
{
  return (unsigned) ((((unsigned long long) hi << 32) | lo) >> (shift & 31));
}

namespace emu {

inline cudaError_t
get_device (int *device)
{
  *device = 0;
  return cudaSuccess;
}

// A device of two multiprocessors: grids sized by it stay small, so that each block walks
// many rows, as on a large device with a large image.
inline cudaError_t
device_attribute (int *value, cudaDeviceAttr attr, int)
{
  *value = attr == cudaDevAttrMultiProcessorCount ? 2 : 0;
  return cudaSuccess;
}

// Device memory is host memory here.
inline cudaError_t
memcpy_2d (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, cudaMemcpyKind,
           cudaStream_t = 0)
{
  for (size_t r = 0; r < height; r++)
    memcpy (static_cast<char *> (dst) + r * dpitch, static_cast<const char *> (src) + r * spitch, width);
  return cudaSuccess;
}

template <class Kernel> struct Launch {
  Kernel kernel;
  dim3 grid, block;

  template <class... Args>
  void
  operator() (Args... args)
  {
    gridDim = grid, blockDim = block;
    unsigned n = block.x * block.y * block.z;
    uint3 at {};
    bool done = false;
    // Workers and this thread meet at STEP before each block and after it.
    std::barrier<> step (n + 1);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < n; t++)
      pool.emplace_back ([&, t] {
        threadIdx = uint3 { t % block.x, t / block.x % block.y, t / (block.x * block.y) };
        for (;;)
          {
            step.arrive_and_wait ();
            if (done)
              return;
            blockIdx = at;
            kernel (args...);
            block_barrier->arrive_and_drop ();
            step.arrive_and_wait ();
          }
      });
    for (at.z = 0; at.z < grid.z; at.z++)
      for (at.y = 0; at.y < grid.y; at.y++)
        for (at.x = 0; at.x < grid.x; at.x++)
          {
            memset (dynamic_shared, 0xff, sizeof dynamic_shared);
            std::barrier<> b (n);
            block_barrier = &b;
            step.arrive_and_wait (); // go
            step.arrive_and_wait (); // every thread has left the kernel
            blocks_run++;
          }
    done = true;
    step.arrive_and_wait ();
    for (auto &t : pool)
      t.join ();
  }
};

template <class Kernel>
Launch<Kernel>
launch (Kernel kernel, dim3 grid, dim3 block, size_t = 0, cudaStream_t = 0)
{
  return Launch<Kernel> { kernel, grid, block };
}

} // namespace emu

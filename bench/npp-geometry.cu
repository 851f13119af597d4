// NPP's geometry, timed as bench-ops times Lumen's: the peer a CUDA programmer would call for
// the same work (nppiCopy for a crop, nppiTranspose + nppiMirror and nppiRotate for a quarter
// turn, nppiRotate with bicubic for straightening, nppiResize with super sampling and with
// Lanczos for the export's resize), on RGBA images of 24 and 50 MP, median of 30 runs with
// CUDA events. Built and run on the GPU machine by tests/gpu/device-run.sh (step bench):
//   nvcc -O2 -o npp-geometry bench/npp-geometry.cu -lnppc -lnppig -lnppidei -lnppist
#include <cuda_runtime.h>
#include <npp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define PEER_NAME "npp-geometry"
#include "peer-check.h"

#define NK(x)                                                                                      \
  do                                                                                               \
    {                                                                                              \
      NppStatus s_ = (x);                                                                          \
      if (s_ < 0)                                                                                  \
        {                                                                                          \
          std::printf ("npp-geometry: NPP status %d at line %d\n", (int) s_, __LINE__);             \
          std::exit (1);                                                                           \
        }                                                                                          \
    }                                                                                              \
  while (0)

// LUMEN_BENCH_RUNS=N times N runs (30 by default): 1 lets a profiler see each kernel once.
static int
runs ()
{
  const char *env = std::getenv ("LUMEN_BENCH_RUNS");
  return env && std::atoi (env) > 0 ? std::atoi (env) : 30;
}

template <class F>
static float
median_ms (F f, int n = runs ())
{
  cudaEvent_t a, b;
  CK (cudaEventCreate (&a));
  CK (cudaEventCreate (&b));
  for (int i = 0; i < (n > 1 ? 3 : 0); i++)
    f ();
  std::vector<float> t;
  for (int i = 0; i < n; i++)
    {
      CK (cudaEventRecord (a));
      f ();
      CK (cudaEventRecord (b));
      CK (cudaEventSynchronize (b));
      float ms;
      CK (cudaEventElapsedTime (&ms, a, b));
      t.push_back (ms);
    }
  std::sort (t.begin (), t.end ());
  CK (cudaEventDestroy (a));
  CK (cudaEventDestroy (b));
  return t[n / 2];
}

// NPP 13 has no nppGetStreamContext: the context comes from the device's properties.
static NppStreamContext
stream_context ()
{
  NppStreamContext c = {};
  int dev;
  CK (cudaGetDevice (&dev));
  cudaDeviceProp p;
  CK (cudaGetDeviceProperties (&p, dev));
  c.hStream = 0;
  c.nCudaDeviceId = dev;
  c.nMultiProcessorCount = p.multiProcessorCount;
  c.nMaxThreadsPerMultiProcessor = p.maxThreadsPerMultiProcessor;
  c.nMaxThreadsPerBlock = p.maxThreadsPerBlock;
  c.nSharedMemPerBlock = p.sharedMemPerBlock;
  c.nCudaDevAttrComputeCapabilityMajor = p.major;
  c.nCudaDevAttrComputeCapabilityMinor = p.minor;
  return c;
}

int
main ()
{
  const int sizes[2][2] = { { 6000, 4000 }, { 8660, 5773 } };
  const char *names[2] = { "24mp", "50mp" };
  NppStreamContext ctx = stream_context ();
  for (int s = 0; s < 2; s++)
    {
      int w = sizes[s][0], h = sizes[s][1];
      int step, step_t, step_o;
      Npp8u *src = nppiMalloc_8u_C4 (w, h, &step);
      Npp8u *turned = nppiMalloc_8u_C4 (h, w, &step_t);
      Npp8u *mirrored = nppiMalloc_8u_C4 (h, w, &step_t);
      Npp8u *out = nppiMalloc_8u_C4 (w, h, &step_o);
      if (!src || !turned || !mirrored || !out)
        {
          std::printf ("npp-geometry: out of device memory\n");
          return 1;
        }
      std::vector<Npp8u> host ((size_t) step * h);
      for (size_t i = 0; i < host.size (); i++)
        host[i] = (Npp8u) (((i * 2654435761u) >> 24) / 2 + (i / step) % 97);
      CK (cudaMemcpy (src, host.data (), host.size (), cudaMemcpyHostToDevice));
      NppiSize size = { w, h };
      NppiRect all = { 0, 0, w, h };

      // Crop: from (300, 200) to the edges, as bench-ops' case.
      int cw = w - 300, ch = h - 200;
      const Npp8u *corner = src + (size_t) 200 * step + (size_t) 300 * 4;
      float crop = median_ms ([&] { NK (nppiCopy_8u_C4R_Ctx (corner, step, out, step_o, NppiSize { cw, ch }, ctx)); });

      // A quarter turn clockwise: transpose, then mirror about the vertical axis.
      float quarter = median_ms ([&] {
        NK (nppiTranspose_8u_C4R_Ctx (src, step, turned, step_t, size, ctx));
        NK (nppiMirror_8u_C4R_Ctx (turned, step_t, mirrored, step_t, NppiSize { h, w }, NPP_VERTICAL_AXIS, ctx));
      });
      // The same through nppiRotate (nearest neighbour, 90°, shifted back into the frame).
      float quarter_rotate = median_ms ([&] {
        NK (nppiRotate_8u_C4R_Ctx (src, size, step, all, turned, step_t, NppiRect { 0, 0, h, w }, 90.0, 0.0,
                                   (double) w - 1.0, NPPI_INTER_NN, ctx));
      });

      // Straighten by 1.5°, bicubic, about the centre, into the same size (Lumen's autocrop
      // rectangle is smaller; this is an upper bound of NPP's work).
      double a = 1.5 * M_PI / 180.0, cx = (w - 1) / 2.0, cy = (h - 1) / 2.0;
      double shift_x = cx - (cx * std::cos (a) + cy * std::sin (a));
      double shift_y = cy - (-cx * std::sin (a) + cy * std::cos (a));
      float straighten = median_ms ([&] {
        NK (nppiRotate_8u_C4R_Ctx (src, size, step, all, out, step_o, all, 1.5, shift_x, shift_y, NPPI_INTER_CUBIC,
                                   ctx));
      });

      // The export's resize: to 3000×2000 (a shrink of 2× or more: super sampling, Lumen's
      // area), and to 4500×3000 (under 2×: Lanczos), as bench-ops' cases.
      NppiSize small = { 3000, 2000 }, three_q = { 4500, 3000 };
      float area = median_ms ([&] {
        NK (nppiResize_8u_C4R_Ctx (src, step, size, all, out, step_o, small, NppiRect { 0, 0, small.width, small.height },
                                   NPPI_INTER_SUPER, ctx));
      });
      float lanczos = median_ms ([&] {
        NK (nppiResize_8u_C4R_Ctx (src, step, size, all, out, step_o, three_q,
                                   NppiRect { 0, 0, three_q.width, three_q.height }, NPPI_INTER_LANCZOS, ctx));
      });

      std::printf ("npp %s %dx%d: crop from 300,200 %.3f ms, rotate 90 (transpose+mirror) %.3f ms, rotate 90 "
                   "(nppiRotate) %.3f ms, straighten 1.5 cubic %.3f ms, resize to 3000x2000 super %.3f ms, resize "
                   "to 4500x3000 lanczos %.3f ms\n",
                   names[s], w, h, crop, quarter, quarter_rotate, straighten, area, lanczos);
      nppiFree (src);
      nppiFree (turned);
      nppiFree (mirrored);
      nppiFree (out);
    }
  return 0;
}

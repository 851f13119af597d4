/* CPU/GPU parity of the demosaic's refinement: kernels/demosaic-refine.cu against
 * core/raw/demosaic-refine.c, 0 ulp (the bytes of every float equal), on Bayer mosaics of all
 * four phases and X-Trans, sizes from 1 × 1 (no neighbours) to one of several thousand blocks,
 * over a colourful scene with sharp hue edges and noise whose "demosaic" is the scene perturbed
 * (any finite RGBA is a valid input). The samples and alpha of the input are NaN, so a site the
 * kernels leave unwritten, or a read of the output's samples instead of the mosaic's, fails.
 * Without a usable CUDA device it prints the reason and exits 77 (meson: SKIP). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "core/raw/demosaic-refine.h"
#include "kernels/demosaic-refine-kernels.h"
#include "parity-util.h"

static const unsigned char xtrans[6][6] = {
  { 1, 1, 0, 1, 1, 2 }, { 1, 1, 2, 1, 1, 0 }, { 2, 0, 1, 0, 2, 1 },
  { 1, 1, 2, 1, 1, 0 }, { 1, 1, 0, 1, 1, 2 }, { 0, 2, 1, 2, 0, 1 },
};
static const char *const names[] = { "RGGB", "GRBG", "GBRG", "BGGR", "X-Trans" };

static LmCfa
pattern (int which)
{
  LmCfa cfa = { 2, 2, { { 0 } } };
  if (which == 4)
    {
      cfa.w = cfa.h = 6;
      memcpy (cfa.color, xtrans, sizeof xtrans);
      return cfa;
    }
  static const unsigned char bayer[4][4] = { { 0, 1, 3, 2 }, { 1, 0, 2, 3 }, { 1, 2, 0, 3 }, { 2, 1, 3, 0 } };
  for (int i = 0; i < 4; i++)
    cfa.color[i / 2][i % 2] = bayer[which][i];
  return cfa;
}

static guint32
next (guint32 *state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

static float
noise (guint32 *state, float amount)
{
  return amount * ((float) (next (state) & 0xffff) / 65536.0f - 0.5f);
}

/* Sectors of two hues around the centre over a ramp, noisy: the mosaic in PLANE, a rough
 * demosaic in RGBA (the scene perturbed, NaN where the site sampled and in alpha). */
static void
scene (const LmCfa *cfa, int w, int h, guint32 seed, float *plane, float *rgba)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        float t = (float) (x + y) / (float) (w + h);
        int sector = (int) floorf (atan2f ((float) y - 0.5f * h, (float) x - 0.5f * w) * 3.0f) & 1;
        float rgb[3] = { sector ? 0.7f * t : 0.05f, 0.25f + 0.2f * t, sector ? 0.05f : 0.6f };
        int c = lm_cfa_color (cfa, x, y);
        plane[(size_t) y * w + x] = rgb[c] + noise (&seed, 0.02f);
        float *px = rgba + 4 * ((size_t) y * w + x);
        for (int k = 0; k < 3; k++)
          px[k] = k == c ? NAN : rgb[k] + noise (&seed, 0.05f);
        px[3] = NAN;
      }
}

static gboolean
device_check (cudaError_t e, const char *what, const char *name)
{
  if (e == cudaSuccess)
    return TRUE;
  parity_fail ("%s: %s: %s", name, what, cudaGetErrorString (e));
  return FALSE;
}

static void
run_case (int which, int w, int h, guint32 seed)
{
  char name[64];
  g_snprintf (name, sizeof name, "%s %d × %d", names[which], w, h);
  LmCfa cfa = pattern (which);
  size_t plane_bytes = (size_t) w * h * sizeof (float), rgba_bytes = 4 * plane_bytes;
  g_autofree float *plane = g_new (float, (gsize) w * h);
  g_autofree float *cpu = g_new (float, (gsize) 4 * w * h);
  g_autofree float *gpu = g_new (float, (gsize) 4 * w * h);
  scene (&cfa, w, h, seed, plane, cpu);
  float *d_plane = NULL, *d_rgba = NULL;
  if (device_check (cudaMalloc ((void **) &d_plane, plane_bytes), "cudaMalloc", name)
      && device_check (cudaMalloc ((void **) &d_rgba, rgba_bytes), "cudaMalloc", name)
      && device_check (cudaMemcpy (d_plane, plane, plane_bytes, cudaMemcpyHostToDevice), "upload", name)
      && device_check (cudaMemcpy (d_rgba, cpu, rgba_bytes, cudaMemcpyHostToDevice), "upload", name)
      && device_check (lm_k_demosaic_refine (d_plane, w, h, &cfa, d_rgba, 4 * (size_t) w, 0), "refine", name)
      && device_check (cudaMemcpy (gpu, d_rgba, rgba_bytes, cudaMemcpyDeviceToHost), "download", name))
    {
      lm_demosaic_refine_cpu (plane, w, h, &cfa, cpu, 4 * (size_t) w);
      gsize nan = 0;
      for (gsize i = 0; i < (gsize) 4 * w * h; i++)
        nan += isnan (cpu[i]);
      parity_record (nan == 0, "%s: every sample written (%" G_GSIZE_FORMAT " NaN on the CPU)", name, nan);
      parity_record (memcmp (cpu, gpu, rgba_bytes) == 0, "%s: bit for bit", name);
    }
  cudaFree (d_plane);
  cudaFree (d_rgba);
}

int
main (void)
{
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount (&devices);
  if (e != cudaSuccess || devices == 0)
    {
      printf ("SKIP demosaic refine parity: %s\n", e != cudaSuccess ? cudaGetErrorString (e) : "no CUDA device");
      return 77;
    }
  static const int sizes[][2] = { { 1, 1 }, { 2, 2 }, { 3, 5 }, { 37, 29 }, { 641, 479 } };
  guint32 seed = 17;
  for (int p = 0; p < 5; p++)
    for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
      run_case (p, sizes[i][0], sizes[i][1], seed++);
  printf ("%" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT " failed\n", parity_cases (), parity_failures ());
  return parity_failures () ? 1 : 0;
}

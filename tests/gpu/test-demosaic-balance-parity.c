/* CPU/GPU parity of the demosaic's channel balance: kernels/demosaic-balance.cu against
 * core/raw/demosaic-balance.c, exact (the sums equal, the scaled mosaic's floats and the folded
 * matrix 0 ulp), on Bayer and X-Trans mosaics of colourful noise with clipped, negative and NaN
 * samples, at odd sizes from 1 × 1 up to more rows than the measuring kernel has blocks. Without
 * a usable CUDA device it prints the reason and exits 77 (meson: SKIP). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "core/raw/demosaic-balance.h"
#include "kernels/demosaic-balance-kernels.h"
#include "parity-util.h"

static const unsigned char xtrans[6][6] = {
  { 1, 1, 0, 1, 1, 2 }, { 1, 1, 2, 1, 1, 0 }, { 2, 0, 1, 0, 2, 1 },
  { 1, 1, 2, 1, 1, 0 }, { 1, 1, 0, 1, 1, 2 }, { 0, 2, 1, 2, 0, 1 },
};

static LmCfa
pattern (gboolean is_xtrans)
{
  LmCfa cfa = { 2, 2, { { 0 } } };
  if (is_xtrans)
    {
      cfa.w = cfa.h = 6;
      memcpy (cfa.color, xtrans, sizeof xtrans);
    }
  else
    {
      cfa.color[0][0] = LM_CFA_G, cfa.color[0][1] = LM_CFA_R;
      cfa.color[1][0] = LM_CFA_B, cfa.color[1][1] = LM_CFA_G2;
    }
  return cfa;
}

static guint32
next (guint32 *state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

/* A green-heavy scene of noise: levels by colour, a tenth of the sites past the clip, a few
 * negative, one NaN. */
static float *
mosaic (const LmCfa *cfa, int w, int h, guint32 seed)
{
  static const float level[3] = { 0.12f, 0.45f, 0.07f };
  float *m = g_new (float, (gsize) w * h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        float u = (float) (next (&seed) & 0xffff) / 65536.0f;
        float v = level[lm_cfa_color (cfa, x, y)] * (0.5f + u);
        guint32 r = next (&seed) % 20;
        m[(size_t) y * w + x] = r == 0 ? 1.2f * u + 0.9f : r == 1 ? -0.01f * u : v;
      }
  if (w * h > 3)
    m[3] = NAN;
  return m;
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
run_case (gboolean is_xtrans, int w, int h, guint32 seed)
{
  char name[64];
  g_snprintf (name, sizeof name, "%s %d × %d", is_xtrans ? "X-Trans" : "Bayer", w, h);
  LmCfa cfa = pattern (is_xtrans);
  g_autofree float *cpu = mosaic (&cfa, w, h, seed);
  g_autofree float *gpu = g_new (float, (gsize) w * h);
  size_t bytes = (size_t) w * h * sizeof (float);
  float *d_plane = NULL;
  LmBalanceSums cs, gs;
  lm_demosaic_balance_measure_cpu (cpu, w, h, &cfa, &cs);
  float cm[3][3] = { { 1.5f, -0.3f, -0.2f }, { -0.1f, 1.2f, -0.1f }, { 0.05f, -0.4f, 1.35f } };
  float gm[3][3];
  memcpy (gm, cm, sizeof cm);
  if (device_check (cudaMalloc ((void **) &d_plane, bytes), "cudaMalloc", name)
      && device_check (cudaMemcpy (d_plane, cpu, bytes, cudaMemcpyHostToDevice), "upload", name)
      && device_check (lm_k_demosaic_balance_measure (d_plane, w, h, &cfa, &gs, 0), "measure", name))
    {
      parity_record (memcmp (&cs, &gs, sizeof cs) == 0, "%s: sums (R %llu/%llu on the CPU, %llu/%llu on the GPU)",
                     name, cs.sum[0], cs.count[0], gs.sum[0], gs.count[0]);
      lm_demosaic_balance_cpu (cpu, w, h, &cfa, cm);
      if (device_check (lm_k_demosaic_balance (d_plane, w, h, &cfa, gm, 0), "balance", name)
          && device_check (cudaMemcpy (gpu, d_plane, bytes, cudaMemcpyDeviceToHost), "download", name))
        {
          parity_record (memcmp (cpu, gpu, bytes) == 0, "%s: the balanced mosaic, bit for bit", name);
          parity_record (memcmp (cm, gm, sizeof cm) == 0, "%s: the folded matrix", name);
        }
    }
  cudaFree (d_plane);
}

int
main (void)
{
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount (&devices);
  if (e != cudaSuccess || devices == 0)
    {
      printf ("SKIP demosaic balance parity: %s\n", e != cudaSuccess ? cudaGetErrorString (e) : "no CUDA device");
      return 77;
    }
  static const int sizes[][2] = { { 1, 1 }, { 2, 3 }, { 7, 5 }, { 517, 263 }, { 33, 5003 }, { 1999, 1201 } };
  guint32 seed = 31;
  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (int x = 0; x < 2; x++)
      run_case (x, sizes[i][0], sizes[i][1], seed++);
  printf ("%" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT " failed\n", parity_cases (), parity_failures ());
  return parity_failures () ? 1 : 0;
}

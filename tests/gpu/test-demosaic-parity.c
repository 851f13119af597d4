/* CPU/GPU parity of the Bayer demosaics (core/raw/demosaic.h against kernels/demosaic-kernels.h):
 * RCD, bilinear and half size must give the CPU's floats bit for bit (0 ulp: RCD's direction
 * choices would turn one ulp into a visible difference), on random mosaics (zeros, negative
 * samples, values above white) of odd and tiny sizes and on the corpus's photos linearised and
 * mosaicked, in all four CFA phases, with padded output rows. Both outputs start poisoned (NaN
 * on the CPU, all bits set on the GPU), so a pixel either side leaves unwritten differs. Exit 77
 * (SKIP) without a usable device. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "core/ops/demosaic-fast-math.h"
#include "core/raw/demosaic.h"
#include "demosaic-scene.h"
#include "kernels/demosaic-kernels.h"
#include "parity-util.h"

typedef void (*CpuDemosaic) (const float *, int, int, const LmCfa *, float *, size_t);
typedef cudaError_t (*GpuDemosaic) (const float *, int, int, const LmCfa *, float *, size_t, void *, cudaStream_t);

static const struct {
  const char *name;
  CpuDemosaic cpu;
  GpuDemosaic gpu;
  size_t (*scratch) (int, int);
  gboolean half;
} methods[] = {
  { "rcd", lm_demosaic_rcd_cpu, lm_k_demosaic_rcd, lm_k_demosaic_rcd_scratch, FALSE },
  { "bilinear", lm_demosaic_bilinear_cpu, lm_k_demosaic_bilinear, lm_k_demosaic_bilinear_scratch, FALSE },
  { "half", lm_demosaic_half_cpu, lm_k_demosaic_half, lm_k_demosaic_half_scratch, TRUE },
};

static const char *const phases[] = { "RGGB", "GRBG", "GBRG", "BGGR" };

static gboolean
cuda_ok (cudaError_t err, const char *what, const char *name)
{
  if (err != cudaSuccess)
    parity_fail ("%s: %s: %s", name, what, cudaGetErrorString (err));
  return err == cudaSuccess;
}

/* Ulps between two floats of one sign (the outputs are ≥ 0 and finite where both agree). */
static guint64
ulps (float a, float b)
{
  guint32 ua, ub;
  memcpy (&ua, &a, 4);
  memcpy (&ub, &b, 4);
  return ua > ub ? ua - ub : ub - ua;
}

static void
compare (const char *label, const float *plane, int w, int h)
{
  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    for (guint p = 0; p < G_N_ELEMENTS (phases); p++)
      {
        g_autofree char *name = g_strdup_printf ("%s %d×%d %s %s", label, w, h, methods[m].name, phases[p]);
        LmCfa cfa = demosaic_cfa (phases[p]);
        int ow = methods[m].half ? lm_demosaic_half_size (w) : w;
        int oh = methods[m].half ? lm_demosaic_half_size (h) : h;
        size_t stride = 4 * (size_t) ow + 8, floats = stride * oh;
        g_autofree float *cpu = g_new (float, floats), *gpu = g_new (float, floats);
        for (size_t i = 0; i < floats; i++)
          cpu[i] = NAN;
        methods[m].cpu (plane, w, h, &cfa, cpu, stride);

        float *d_plane = NULL, *d_out = NULL;
        void *d_scratch = NULL;
        size_t scratch = methods[m].scratch (w, h);
        gboolean ok = cuda_ok (cudaMalloc ((void **) &d_plane, (size_t) w * h * sizeof (float)), "cudaMalloc", name)
                      && cuda_ok (cudaMalloc ((void **) &d_out, floats * sizeof (float)), "cudaMalloc", name)
                      && (scratch == 0 || cuda_ok (cudaMalloc (&d_scratch, scratch), "cudaMalloc", name))
                      && cuda_ok (cudaMemcpy (d_plane, plane, (size_t) w * h * sizeof (float), cudaMemcpyHostToDevice),
                                  "upload", name)
                      && cuda_ok (cudaMemset (d_out, 0xff, floats * sizeof (float)), "cudaMemset", name)
                      && cuda_ok (methods[m].gpu (d_plane, w, h, &cfa, d_out, stride, d_scratch, 0), "launch", name)
                      && cuda_ok (cudaMemcpy (gpu, d_out, floats * sizeof (float), cudaMemcpyDeviceToHost), "download",
                                  name);
        cudaFree (d_plane);
        cudaFree (d_out);
        cudaFree (d_scratch);
        if (!ok)
          continue;
        guint64 differ = 0, worst = 0, unwritten = 0;
        int first_x = -1, first_y = -1;
        for (int y = 0; y < oh; y++)
          for (int x = 0; x < 4 * ow; x++)
            {
              float a = cpu[y * stride + x], b = gpu[y * stride + x];
              if (isnan (a) || isnan (b))
                unwritten++;
              if (memcmp (&a, &b, 4) != 0)
                {
                  if (differ++ == 0)
                    first_x = x / 4, first_y = y;
                  if (!isnan (a) && !isnan (b))
                    worst = MAX (worst, ulps (a, b));
                }
            }
        parity_record (differ == 0 && unwritten == 0,
                       "%s: %" G_GUINT64_FORMAT " samples differ (worst %" G_GUINT64_FORMAT " ulp, first at %d, %d), %"
                       G_GUINT64_FORMAT " unwritten",
                       name, differ, worst, first_x, first_y, unwritten);
      }
}

/* Uniform 0..1.2 with 3 % zeros, 1 % negative samples and 1 % at 4 (a highlight above white). */
static float *
random_plane (int w, int h, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  float *p = g_new (float, (gsize) w * h);
  for (gsize i = 0; i < (gsize) w * h; i++)
    {
      double u = g_rand_double (rand);
      p[i] = u < 0.03 ? 0.0f : u < 0.04 ? -0.05f : u < 0.05 ? 4.0f : (float) (g_rand_double (rand) * 1.2);
    }
  g_rand_free (rand);
  return p;
}

int
main (void)
{
  LmBackend *cpu_backend, *gpu_backend;
  int skip = parity_open ("demosaic parity", FALSE, &cpu_backend, &gpu_backend);
  if (skip)
    return skip;

  /* Tiny sizes (the bilinear fallback), odd ones, and sizes across the kernel's 32 × 32 tiles. */
  static const int sizes[][2] = { { 1, 1 }, { 1, 9 }, { 8, 1 }, { 2, 2 }, { 3, 5 }, { 17, 13 }, { 31, 33 },
                                  { 65, 47 }, { 257, 129 }, { 1001, 333 }, { 3001, 2001 } };
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree float *plane = random_plane (sizes[i][0], sizes[i][1], 17 + i);
      compare ("random", plane, sizes[i][0], sizes[i][1]);
    }

  /* The corpus's photos as linear scenes, mosaicked (RGGB sites; each phase reads them as its
   * own), whole and cut to odd sides. */
  static const char *const photos[] = { "chelsea.png", "astronaut.tif", "forest-path.jpg", "pier-fog.jpg" };
  for (guint i = 0; i < G_N_ELEMENTS (photos); i++)
    {
      int w, h;
      g_autofree float *scene = demosaic_scene (photos[i], &w, &h);
      if (scene == NULL)
        {
          parity_fail ("%s: not loaded", photos[i]);
          continue;
        }
      LmCfa rggb = demosaic_cfa ("RGGB");
      g_autofree float *plane = demosaic_mosaic (scene, w, h, &rggb);
      compare (photos[i], plane, w, h);
      /* W − 1 × H − 3 out of the same rows. */
      g_autofree float *cut = g_new (float, (gsize) (w - 1) * (h - 3));
      for (int y = 0; y < h - 3; y++)
        memcpy (cut + (gsize) y * (w - 1), plane + (gsize) y * w, (w - 1) * sizeof (float));
      compare (photos[i], cut, w - 1, h - 3);
    }

  /* A CFA that is no Bayer array is refused, not run. */
  LmCfa bad = demosaic_cfa ("RGBG");
  bad.color[1][0] = LM_CFA_R;
  parity_record (lm_k_demosaic_rcd (NULL, 4, 4, &bad, NULL, 16, NULL, 0) == cudaErrorInvalidValue,
                 "rcd refuses a CFA that is not Bayer");

  printf ("demosaic parity: %" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT " failed\n", parity_cases (),
          parity_failures ());
  lm_backend_free (cpu_backend);
  lm_backend_free (gpu_backend);
  return parity_failures () ? 1 : 0;
}

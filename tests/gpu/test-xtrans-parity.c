/* CPU/GPU parity of the X-Trans demosaic: the CUDA kernels (kernels/demosaic-xtrans.cu) must
 * give the CPU reference's floats (core/raw/demosaic-xtrans.c) to the bit, for 1 and 3
 * passes, the third-size preview and the bilinear-class demosaic, on random mosaics (values above 1 and zeros included)
 * and the corpus's photos, at sizes from 1 × 1 to three strips of odd shape, two pattern
 * phases, a camera-like Lab matrix. Both outputs start as NaN. Then the time of each at
 * 40 MP. Exit 77 (SKIP) without a usable device. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/ops/demosaic-xtrans-math.h"
#include "core/raw/demosaic-xtrans.h"
#include "kernels/demosaic-xtrans-kernels.h"
#include "xtrans-scene.h"

/* sRGB's D65 matrix: any camera-like matrix does; it makes Lab's three axes differ. */
static const float cam_to_xyz[3][3] = {
  { 0.4124f, 0.3576f, 0.1805f }, { 0.2126f, 0.7152f, 0.0722f }, { 0.0193f, 0.1192f, 0.9505f }
};

static int cases, failures;
static float *cbrt_device;

#define CHECK(call)                                                                                            \
  do                                                                                                           \
    {                                                                                                          \
      cudaError_t e_ = (call);                                                                                 \
      if (e_ != cudaSuccess)                                                                                   \
        {                                                                                                      \
          printf ("FAIL %s: %s (%s:%d)\n", #call, cudaGetErrorString (e_), __FILE__, __LINE__);                \
          failures++;                                                                                          \
          goto out;                                                                                            \
        }                                                                                                      \
    }                                                                                                          \
  while (0)

/* METHOD 1 or 3: Markesteijn's passes; 0: the third-size preview; 2: the bilinear-class one. */
static void
compare (const char *name, const float *plane, int w, int h, const LmCfa *cfa, int method)
{
  int ow = method ? w : (w + 2) / 3, oh = method ? h : (h + 2) / 3, passes = method == 2 ? 0 : method;
  size_t stride = (size_t) ow * 4 + 4; /* rows with a gap, which neither side may touch */
  size_t out_bytes = stride * oh * sizeof (float);
  float *want = g_malloc (out_bytes), *got = g_malloc (out_bytes);
  float *d_plane = NULL, *d_out = NULL;
  void *scratch = NULL;
  for (size_t i = 0; i < stride * oh; i++)
    want[i] = NAN;
  if (passes)
    lm_demosaic_markesteijn_cpu (plane, w, h, cfa, passes, cam_to_xyz, want, stride);
  else if (method == 2)
    lm_demosaic_xtrans_bilinear_cpu (plane, w, h, cfa, want, stride);
  else
    lm_demosaic_xtrans_third_cpu (plane, w, h, cfa, want, stride);
  size_t scratch_bytes = passes ? lm_k_markesteijn_scratch (w, h, passes) : 0;
  CHECK (cudaMalloc ((void **) &d_plane, (size_t) w * h * sizeof (float)));
  CHECK (cudaMalloc ((void **) &d_out, out_bytes));
  CHECK (cudaMalloc (&scratch, scratch_bytes ? scratch_bytes : 1));
  CHECK (cudaMemcpy (d_plane, plane, (size_t) w * h * sizeof (float), cudaMemcpyHostToDevice));
  CHECK (cudaMemset (d_out, 0xff, out_bytes)); /* NaN */
  if (passes)
    CHECK (lm_k_markesteijn (d_plane, w, h, cfa, passes, cam_to_xyz, cbrt_device, d_out, stride, scratch, 0));
  else if (method == 2)
    CHECK (lm_k_xtrans_bilinear (d_plane, w, h, cfa, d_out, stride, 0));
  else
    CHECK (lm_k_xtrans_third (d_plane, w, h, cfa, d_out, stride, 0));
  CHECK (cudaMemcpy (got, d_out, out_bytes, cudaMemcpyDeviceToHost));
  {
    long differ = 0, unwritten = 0;
    for (int y = 0; y < oh; y++)
      for (int x = 0; x < ow * 4; x++)
        {
          float a = want[y * stride + x], b = got[y * stride + x];
          unwritten += isnan (a) || isnan (b);
          differ += memcmp (&a, &b, sizeof a) != 0;
        }
    /* The gap stays as it was on both sides. */
    for (int y = 0; y < oh; y++)
      for (size_t x = (size_t) ow * 4; x < stride; x++)
        unwritten += !isnan (want[y * stride + x]) || !isnan (got[y * stride + x]);
    cases++;
    gboolean ok = differ == 0 && unwritten == 0;
    failures += !ok;
    printf ("%s %s %d × %d, %s: %ld samples differ, %ld unwritten or written outside\n", ok ? "ok  " : "FAIL", name, w,
            h, method == 3 ? "3 passes" : method == 1 ? "1 pass" : method == 2 ? "bilinear" : "third-size", differ,
            unwritten);
  }
out:
  cudaFree (d_plane);
  cudaFree (d_out);
  cudaFree (scratch);
  g_free (want);
  g_free (got);
}

static float *
random_plane (int w, int h, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);
  float *plane = g_new (float, (gsize) w * h);
  for (gsize i = 0; i < (gsize) w * h; i++)
    {
      double r = g_rand_double (rand);
      plane[i] = r < 0.05 ? 0.0f : (float) (1.3 * g_rand_double (rand));
    }
  g_rand_free (rand);
  return plane;
}

/* The GPU's time for each method at 7728 × 5152 (40 MP), best of 5 after a warm-up. */
static void
bench (void)
{
  const int w = 7728, h = 5152;
  g_autofree float *plane = random_plane (w, h, 7);
  LmCfa cfa = xt_cfa_rolled (0, 0);
  float *d_plane = NULL, *d_out = NULL;
  void *scratch = NULL;
  cudaEvent_t start = NULL, stop = NULL;
  CHECK (cudaMalloc ((void **) &d_plane, (size_t) w * h * sizeof (float)));
  CHECK (cudaMalloc ((void **) &d_out, (size_t) w * h * 4 * sizeof (float)));
  CHECK (cudaMalloc (&scratch, lm_k_markesteijn_scratch (w, h, 3)));
  CHECK (cudaMemcpy (d_plane, plane, (size_t) w * h * sizeof (float), cudaMemcpyHostToDevice));
  CHECK (cudaEventCreate (&start));
  CHECK (cudaEventCreate (&stop));
  for (int method = 0; method <= 3; method++)
    {
      int passes = method == 2 ? 0 : method;
      float best = INFINITY;
      for (int run = 0; run < 6; run++)
        {
          CHECK (cudaEventRecord (start, 0));
          if (passes)
            CHECK (lm_k_markesteijn (d_plane, w, h, &cfa, passes, cam_to_xyz, cbrt_device, d_out, (size_t) w * 4,
                                     scratch, 0));
          else if (method == 2)
            CHECK (lm_k_xtrans_bilinear (d_plane, w, h, &cfa, d_out, (size_t) w * 4, 0));
          else
            CHECK (lm_k_xtrans_third (d_plane, w, h, &cfa, d_out, (size_t) (w + 2) / 3 * 4, 0));
          CHECK (cudaEventRecord (stop, 0));
          CHECK (cudaEventSynchronize (stop));
          float ms;
          CHECK (cudaEventElapsedTime (&ms, start, stop));
          if (run > 0 && ms < best)
            best = ms;
        }
      printf ("time %s at %d × %d: %.2f ms (scratch %.0f MB)\n",
              method == 3 ? "3 passes" : method == 1 ? "1 pass" : method == 2 ? "bilinear" : "third-size", w, h, best,
              passes ? lm_k_markesteijn_scratch (w, h, passes) / 1e6 : 0.0);
    }
out:
  cudaEventDestroy (start);
  cudaEventDestroy (stop);
  cudaFree (d_plane);
  cudaFree (d_out);
  cudaFree (scratch);
}

int
main (void)
{
  int devices = 0;
  if (cudaGetDeviceCount (&devices) != cudaSuccess || devices == 0)
    {
      printf ("SKIP xtrans parity: no usable CUDA device\n");
      return 77;
    }
  printf ("xtrans parity: gpu against cpu\n");
  float table[LM_XT_CBRT_ENTRIES];
  lm_xtrans_cbrt_fill (table);
  if (cudaMalloc ((void **) &cbrt_device, sizeof table) != cudaSuccess
      || cudaMemcpy (cbrt_device, table, sizeof table, cudaMemcpyHostToDevice) != cudaSuccess)
    {
      printf ("FAIL: the cube-root table could not be uploaded\n");
      return 1;
    }
  static const int sizes[][2] = { { 1, 1 }, { 2, 3 }, { 5, 4 }, { 6, 6 }, { 7, 11 }, { 19, 17 },
                                  { 37, 23 }, { 300, 259 }, { 517, 601 }, { 41, 1100 } };
  static const int phases[][2] = { { 0, 0 }, { 3, 1 } };
  for (guint p = 0; p < G_N_ELEMENTS (phases); p++)
    {
      LmCfa cfa = xt_cfa_rolled (phases[p][0], phases[p][1]);
      char name[64];
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          int w = sizes[s][0], h = sizes[s][1];
          g_autofree float *plane = random_plane (w, h, 100 * p + s);
          g_snprintf (name, sizeof name, "random, phase (%d, %d),", phases[p][0], phases[p][1]);
          for (int method = 0; method <= 3; method++)
            compare (name, plane, w, h, &cfa, method);
        }
      static const char *photos[] = { "chelsea.png", "forest-path.jpg" };
      for (guint k = 0; k < G_N_ELEMENTS (photos); k++)
        {
          int w, h;
          g_autofree float *scene = xt_scene_load (photos[k], 600, &w, &h);
          if (scene == NULL)
            {
              printf ("FAIL %s: unreadable (LUMEN_TEST_DATA)\n", photos[k]);
              failures++;
              continue;
            }
          g_autofree float *plane = xt_mosaic (scene, w, h, &cfa);
          g_snprintf (name, sizeof name, "%s, phase (%d, %d),", photos[k], phases[p][0], phases[p][1]);
          for (int method = 0; method <= 3; method++)
            compare (name, plane, w, h, &cfa, method);
        }
    }
  bench ();
  cudaFree (cbrt_device);
  printf ("%d cases, %d failed\n", cases, failures);
  return failures ? 1 : 0;
}

/* The Bayer demosaic alone on the GPU: Lumen's RCD (the export's method), bilinear and half
 * size (kernels/demosaic-kernels.h) at 24 MP (6000 × 4000) and 61 MP (9504 × 6336), against
 * NPP's nppiCFAToRGB_16u_C1C3R (bilinear-class: 16-bit mosaic in, 16-bit RGB out) and the
 * memory floor, a device-to-device copy of 10 bytes a pixel (the 20 bytes of traffic a pixel
 * that RCD's 4-byte read and 16-byte RGBA_F32 write need at least). Each case: one warm-up,
 * then N runs timed with CUDA events, the median and the 95th percentile; the input rotates
 * among copies that together exceed the L2 cache.
 *
 * The mosaic is the corpus's forest-path.jpg linearised (sRGB EOTF) and mirrored out to the
 * size, RGGB: the content of a photo, so that RCD's direction choices branch as they do on one.
 * NPP is loaded at run time (libnppicc, or libnppidei, with libnppc); where it is absent its
 * rows say so and are skipped.
 *
 *   bench-demosaic [--sizes 24,61] [--repeat N] [--json FILE]
 *
 * Goal (issue 31): RCD within 4× of NPP's CFA-to-RGB (0.12 ms at 24 MP on an H200). */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gio/gio.h>
#include <glib.h>

#include "bench-util.h"
#include "config.h"
#include "core/image.h"
#include "core/io/io.h"
#include "core/ops/demosaic-fast-math.h"
#include "kernels/demosaic-kernels.h"

#define PROGRAM "bench-demosaic"
#define L2_BYTES (200u << 20) /* rotate among copies of at least this much: past any L2 */

static void
check (cudaError_t err, const char *what)
{
  if (err != cudaSuccess)
    {
      fprintf (stderr, PROGRAM ": %s: %s\n", what, cudaGetErrorString (err));
      exit (1);
    }
}

/* NPP's types, declared here so that the benchmark builds where NPP is not installed (nppdefs.h
 * of NPP 12 and 13). */
typedef struct {
  int width, height;
} NppiSize;
typedef struct {
  int x, y, width, height;
} NppiRect;
typedef struct {
  cudaStream_t hStream;
  int nCudaDeviceId;
  int nMultiProcessorCount;
  int nMaxThreadsPerMultiProcessor;
  int nMaxThreadsPerBlock;
  size_t nSharedMemPerBlock;
  int nCudaDevAttrComputeCapabilityMajor;
  int nCudaDevAttrComputeCapabilityMinor;
  unsigned int nStreamFlags;
  int nReserved0;
} NppStreamContext;
enum { NPPI_BAYER_RGGB = 1, NPPI_INTER_UNDEFINED = 0 };
typedef int (*CfaToRgbCtx) (const guint16 *src, int src_step, NppiSize size, NppiRect roi, guint16 *dst,
                            int dst_step, int grid, int interpolation, NppStreamContext ctx);
typedef int (*CfaToRgb) (const guint16 *src, int src_step, NppiSize size, NppiRect roi, guint16 *dst,
                         int dst_step, int grid, int interpolation);

typedef struct {
  CfaToRgbCtx with_ctx;
  CfaToRgb plain;
  NppStreamContext ctx;
  char *version;
} Npp;

static gboolean
npp_open (Npp *npp, char **why)
{
  /* nppiCFAToRGB is NPP's colour conversion (libnppicc); older notes place it in libnppidei. */
  static const char *const suffixes[] = { ".13", ".12", ".11", "" };
  static const char *const libraries[] = { "libnppicc.so", "libnppidei.so" };
  memset (npp, 0, sizeof *npp);
  g_autofree char *last = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    for (guint j = 0; j < G_N_ELEMENTS (libraries); j++)
      {
        g_autofree char *core = g_strconcat ("libnppc.so", suffixes[i], NULL);
        g_autofree char *name = g_strconcat (libraries[j], suffixes[i], NULL);
        void *lib = dlopen (core, RTLD_NOW | RTLD_GLOBAL) ? dlopen (name, RTLD_NOW) : NULL;
        if (lib != NULL)
          {
            npp->with_ctx = (CfaToRgbCtx) dlsym (lib, "nppiCFAToRGB_16u_C1C3R_Ctx");
            npp->plain = (CfaToRgb) dlsym (lib, "nppiCFAToRGB_16u_C1C3R");
          }
        if (npp->with_ctx == NULL && npp->plain == NULL)
          {
            const char *error = dlerror ();
            g_free (last);
            last = g_strdup (error ? error : name);
            continue;
          }
        npp->version = g_strdup (name);
        int dev;
        struct cudaDeviceProp p;
        check (cudaGetDevice (&dev), "cudaGetDevice");
        check (cudaGetDeviceProperties (&p, dev), "cudaGetDeviceProperties");
        npp->ctx.nCudaDeviceId = dev;
        npp->ctx.nMultiProcessorCount = p.multiProcessorCount;
        npp->ctx.nMaxThreadsPerMultiProcessor = p.maxThreadsPerMultiProcessor;
        npp->ctx.nMaxThreadsPerBlock = p.maxThreadsPerBlock;
        npp->ctx.nSharedMemPerBlock = p.sharedMemPerBlock;
        npp->ctx.nCudaDevAttrComputeCapabilityMajor = p.major;
        npp->ctx.nCudaDevAttrComputeCapabilityMinor = p.minor;
        return TRUE;
      }
  *why = g_steal_pointer (&last);
  return FALSE;
}

typedef struct {
  int w, h, copies;
  float **plane;      /* the mosaic, COPIES times */
  guint16 **plane16;  /* the same as 16-bit samples, for NPP */
  float *rgba;
  guint16 *rgb16;
  void *copy_src, *copy_dst;
  size_t copy_bytes;
  Npp *npp;
} Case;

typedef void (*Step) (Case *c, int copy);

static void
run_rcd (Case *c, int copy)
{
  LmCfa cfa = { 2, 2, { { LM_CFA_R, LM_CFA_G }, { LM_CFA_G2, LM_CFA_B } } };
  check (lm_k_demosaic_rcd (c->plane[copy], c->w, c->h, &cfa, c->rgba, 4 * (size_t) c->w, NULL, 0), "rcd");
}

static void
run_bilinear (Case *c, int copy)
{
  LmCfa cfa = { 2, 2, { { LM_CFA_R, LM_CFA_G }, { LM_CFA_G2, LM_CFA_B } } };
  check (lm_k_demosaic_bilinear (c->plane[copy], c->w, c->h, &cfa, c->rgba, 4 * (size_t) c->w, NULL, 0), "bilinear");
}

static void
run_half (Case *c, int copy)
{
  LmCfa cfa = { 2, 2, { { LM_CFA_R, LM_CFA_G }, { LM_CFA_G2, LM_CFA_B } } };
  check (lm_k_demosaic_half (c->plane[copy], c->w, c->h, &cfa, c->rgba, 4 * (size_t) lm_demosaic_half_size (c->w),
                             NULL, 0),
         "half");
}

static void
run_copy (Case *c, int copy)
{
  check (cudaMemcpyAsync (c->copy_dst, c->copy_src, c->copy_bytes, cudaMemcpyDeviceToDevice, 0), "copy");
}

static void
run_npp (Case *c, int copy)
{
  NppiSize size = { c->w, c->h };
  NppiRect roi = { 0, 0, c->w, c->h };
  int status = c->npp->with_ctx ? c->npp->with_ctx (c->plane16[copy], 2 * c->w, size, roi, c->rgb16, 6 * c->w,
                                                    NPPI_BAYER_RGGB, NPPI_INTER_UNDEFINED, c->npp->ctx)
                                : c->npp->plain (c->plane16[copy], 2 * c->w, size, roi, c->rgb16, 6 * c->w,
                                                 NPPI_BAYER_RGGB, NPPI_INTER_UNDEFINED);
  if (status != 0)
    {
      fprintf (stderr, PROGRAM ": nppiCFAToRGB_16u_C1C3R: NPP status %d\n", status);
      exit (1);
    }
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* The median and 95th percentile of REPEAT runs, in ms. */
static void
time_step (Case *c, Step step, int repeat, double *median, double *p95)
{
  cudaEvent_t a, b;
  check (cudaEventCreate (&a), "cudaEventCreate");
  check (cudaEventCreate (&b), "cudaEventCreate");
  double *ms = g_new (double, repeat);
  step (c, 0);
  check (cudaDeviceSynchronize (), "warm-up");
  for (int r = 0; r < repeat; r++)
    {
      check (cudaEventRecord (a, 0), "cudaEventRecord");
      step (c, (r + 1) % c->copies);
      check (cudaEventRecord (b, 0), "cudaEventRecord");
      check (cudaEventSynchronize (b), "cudaEventSynchronize");
      float t;
      check (cudaEventElapsedTime (&t, a, b), "cudaEventElapsedTime");
      ms[r] = t;
    }
  qsort (ms, repeat, sizeof (double), compare_double);
  *median = ms[repeat / 2];
  *p95 = ms[MIN (repeat - 1, (int) ceil (0.95 * repeat) - 1)];
  g_free (ms);
  cudaEventDestroy (a);
  cudaEventDestroy (b);
}

/* The corpus photo as linear light, 3 floats a pixel. */
static float *
load_scene (int *w, int *h)
{
  g_autoptr (GError) e = NULL;
  const char *dir = g_getenv ("LUMEN_TEST_DATA");
  g_autofree char *path = g_build_filename (dir ? dir : LUMEN_SOURCE_ROOT "/tests/data", "photos", "forest-path.jpg", NULL);
  g_autoptr (LmImage) image = lm_io_load (path, lm_allocator_host (), &e);
  if (image == NULL)
    lm_bench_die (PROGRAM, g_steal_pointer (&e));
  if (image->format != LM_FORMAT_RGBA8)
    lm_bench_die (PROGRAM, g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, "%s: not 8-bit RGBA", path));
  float eotf[256];
  for (int i = 0; i < 256; i++)
    {
      double u = i / 255.0;
      eotf[i] = (float) (u <= 0.04045 ? u / 12.92 : pow ((u + 0.055) / 1.055, 2.4));
    }
  *w = (int) image->width, *h = (int) image->height;
  float *rgb = g_new (float, (gsize) *w * *h * 3);
  for (int y = 0; y < *h; y++)
    for (int x = 0; x < *w * 3; x++)
      rgb[(gsize) y * *w * 3 + x] = eotf[lm_image_row (image, y)[x / 3 * 4 + x % 3]];
  return rgb;
}

/* The scene mirrored out to W × H, through RGGB. */
static void
mosaic (const float *scene, int sw, int sh, int w, int h, float *plane, guint16 *plane16)
{
  for (int y = 0; y < h; y++)
    {
      int sy = (y / sh) % 2 ? sh - 1 - y % sh : y % sh;
      for (int x = 0; x < w; x++)
        {
          int sx = (x / sw) % 2 ? sw - 1 - x % sw : x % sw;
          int c = (y & 1) + (x & 1); /* RGGB: 0 R, 1 G, 2 B */
          float v = scene[((gsize) sy * sw + sx) * 3 + c];
          plane[(gsize) y * w + x] = v;
          plane16[(gsize) y * w + x] = (guint16) lrintf (CLAMP (v, 0.0f, 1.0f) * 65535.0f);
        }
    }
}

static void
bench_size (int w, int h, const char *label, int repeat, Npp *npp, GString *json)
{
  int sw, sh;
  g_autofree float *scene = load_scene (&sw, &sh);
  size_t n = (size_t) w * h;
  g_autofree float *plane = g_new (float, n);
  g_autofree guint16 *plane16 = g_new (guint16, n);
  mosaic (scene, sw, sh, w, h, plane, plane16);

  Case c = { .w = w, .h = h, .npp = npp };
  c.copies = MAX (2, (int) ((L2_BYTES + n * 4 - 1) / (n * 4)));
  c.plane = g_new0 (float *, c.copies);
  c.plane16 = g_new0 (guint16 *, c.copies);
  for (int i = 0; i < c.copies; i++)
    {
      check (cudaMalloc ((void **) &c.plane[i], n * sizeof (float)), "cudaMalloc");
      check (cudaMemcpy (c.plane[i], plane, n * sizeof (float), cudaMemcpyHostToDevice), "upload");
      check (cudaMalloc ((void **) &c.plane16[i], n * sizeof (guint16)), "cudaMalloc");
      check (cudaMemcpy (c.plane16[i], plane16, n * sizeof (guint16), cudaMemcpyHostToDevice), "upload");
    }
  check (cudaMalloc ((void **) &c.rgba, n * 16), "cudaMalloc");
  check (cudaMalloc ((void **) &c.rgb16, n * 6), "cudaMalloc");
  c.copy_bytes = n * 10;
  check (cudaMalloc (&c.copy_src, c.copy_bytes), "cudaMalloc");
  check (cudaMalloc (&c.copy_dst, c.copy_bytes), "cudaMalloc");
  check (cudaMemset (c.copy_src, 0, c.copy_bytes), "cudaMemset");

  static const struct {
    const char *name, *what;
    Step step;
    double bytes_px; /* the device traffic a pixel at least */
  } rows[] = {
    { "copy", "device-to-device copy, 10 B a pixel (the floor of 4 B in, 16 B out)", run_copy, 20.0 },
    { "rcd", "Lumen RCD, float in, RGBA_F32 out", run_rcd, 20.0 },
    { "bilinear", "Lumen bilinear, float in, RGBA_F32 out", run_bilinear, 20.0 },
    { "half", "Lumen half size, float in, RGBA_F32 at a quarter", run_half, 8.0 },
    { "npp", "NPP nppiCFAToRGB_16u_C1C3R, u16 in, u16 RGB out", run_npp, 8.0 },
  };
  double median[G_N_ELEMENTS (rows)] = { 0 };
  printf ("%s (%d × %d), %d runs each:\n", label, w, h, repeat);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      if (rows[i].step == run_npp && npp->with_ctx == NULL && npp->plain == NULL)
        {
          printf ("  %-9s skipped: NPP is not installed (%s)\n", rows[i].name, npp->version);
          continue;
        }
      double p95;
      time_step (&c, rows[i].step, repeat, &median[i], &p95);
      double gbs = rows[i].bytes_px * n / (median[i] * 1e6);
      printf ("  %-9s median %7.3f ms  p95 %7.3f ms  %6.0f GB/s  %s\n", rows[i].name, median[i], p95, gbs, rows[i].what);
      lm_bench_json_add (json,
                         "\"program\": \"" PROGRAM "\", \"case\": \"%s\", \"size\": \"%s\", \"width\": %d, \"height\": %d, "
                         "\"median_ms\": %.4f, \"p95_ms\": %.4f, \"runs\": %d",
                         rows[i].name, label, w, h, median[i], p95, repeat);
    }
  printf ("  rcd / copy floor %.2f×", median[1] / median[0]);
  if (median[4] > 0.0)
    printf (", rcd / npp %.2f× (goal ≤ 4), bilinear / npp %.2f×", median[1] / median[4], median[2] / median[4]);
  printf ("\n");

  for (int i = 0; i < c.copies; i++)
    {
      cudaFree (c.plane[i]);
      cudaFree (c.plane16[i]);
    }
  g_free (c.plane);
  g_free (c.plane16);
  cudaFree (c.rgba);
  cudaFree (c.rgb16);
  cudaFree (c.copy_src);
  cudaFree (c.copy_dst);
}

int
main (int argc, char **argv)
{
  g_autofree char *sizes = NULL, *json_path = NULL;
  int repeat = 200;
  GOptionEntry entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes, "Sizes in megapixels: 24 (6000×4000), 61 (9504×6336)", "24,61" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "Timed runs per case (at least 100)", "N" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_path, "Write the records here", "FILE" },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- the Bayer demosaic on the GPU against NPP");
  g_option_context_add_main_entries (context, entries, NULL);
  GError *e = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &e))
    lm_bench_die (PROGRAM, e);
  if (repeat < 100)
    lm_bench_die (PROGRAM, g_error_new (G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--repeat: at least 100"));
  int count;
  if (cudaGetDeviceCount (&count) != cudaSuccess || count == 0)
    {
      printf (PROGRAM ": no CUDA device\n");
      return 0;
    }
  struct cudaDeviceProp p;
  check (cudaGetDeviceProperties (&p, 0), "cudaGetDeviceProperties");
  Npp npp;
  g_autofree char *why = NULL;
  if (!npp_open (&npp, &why))
    npp.version = g_steal_pointer (&why);
  printf ("%s; NPP: %s\n", p.name, npp.version);
  GString *json = lm_bench_json_new ();
  g_auto (GStrv) list = g_strsplit (sizes ? sizes : "24,61", ",", -1);
  for (int i = 0; list[i]; i++)
    {
      if (strcmp (list[i], "24") == 0)
        bench_size (6000, 4000, "24mp", repeat, &npp, json);
      else if (strcmp (list[i], "61") == 0)
        bench_size (9504, 6336, "61mp", repeat, &npp, json);
      else
        lm_bench_die (PROGRAM, g_error_new (G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--sizes: 24 or 61, not %s", list[i]));
    }
  if (!lm_bench_json_finish (json, json_path, &e))
    lm_bench_die (PROGRAM, e);
  g_free (npp.version);
  return 0;
}

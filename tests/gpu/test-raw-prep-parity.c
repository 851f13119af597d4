/* CPU/GPU parity of the raw development's first steps: kernels/raw-prep.cu against
 * core/raw/prep.c, 0 ulp (the bytes of every float equal), on random and on bright, clipped
 * sensor data, with Bayer and X-Trans arrays, a black table whose period is not the array's,
 * both highlight modes, odd sizes from 1 × 1; and the demosaic-free layouts (RGBA16 camera
 * RGB, GRAY16). The device's outputs start as NaN, so a site a kernel leaves unwritten
 * fails. Without a usable CUDA device it prints the reason and exits 77 (meson: SKIP). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "core/raw/prep.h"
#include "kernels/raw-prep-kernels.h"
#include "parity-util.h"

static const guint8 rggb[2][2] = { { LM_CFA_R, LM_CFA_G }, { LM_CFA_G2, LM_CFA_B } };
static const guint8 xtrans[6][6] = {
  { 1, 1, 0, 1, 1, 2 }, { 1, 1, 2, 1, 1, 0 }, { 2, 0, 1, 0, 2, 1 },
  { 1, 1, 2, 1, 1, 0 }, { 1, 1, 0, 1, 1, 2 }, { 0, 2, 1, 2, 0, 1 },
};

static LmRawInfo *
sensor (LmRawLayout layout)
{
  LmRawInfo *info = lm_raw_info_new ();
  info->layout = layout;
  if (layout == LM_RAW_XTRANS)
    {
      info->cfa_w = info->cfa_h = 6;
      memcpy (info->cfa, xtrans, sizeof xtrans);
    }
  else
    {
      info->cfa_w = info->cfa_h = 2;
      for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++)
          info->cfa[y][x] = rggb[y][x];
    }
  info->black_w = 3, info->black_h = 2;
  const float black[2][3] = { { 511.0f, 509.5f, 514.0f }, { 512.25f, 508.0f, 510.0f } };
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 3; x++)
      info->black[y][x] = black[y][x];
  info->white[0] = 15000.0f, info->white[1] = 15800.0f, info->white[2] = 14500.0f, info->white[3] = 15700.0f;
  return info;
}

static guint32
next (guint32 *state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

/* Random values over the whole range (a third of them past white), or a bright scene: soft
 * blobs of a warm colour whose greens clip, over noise. */
static LmImage *
sensor_data (LmFormat format, guint w, guint h, gboolean bright, guint32 seed)
{
  LmImage *image = lm_image_new (format, w, h, lm_allocator_host (), NULL);
  guint n = format == LM_FORMAT_RGBA16 ? 4 : 1;
  for (guint y = 0; y < h; y++)
    {
      guint16 *row = (guint16 *) lm_image_row (image, y);
      for (guint x = 0; x < w * n; x++)
        {
          guint32 r = next (&seed);
          if (!bright)
            row[x] = (guint16) (r % 65536);
          else
            {
              double px = (double) (x / n), s = 0.5 + 0.5 * sin (px * 0.05) * cos (y * 0.07);
              double gain = (x % 2 == 0) ? 0.55 : (y % 2 == 0 ? 1.3 : 0.8);
              row[x] = (guint16) MIN (65535.0, 500.0 + s * gain * 18000.0 + (r % 200));
            }
        }
    }
  return image;
}

static gboolean
device_check (cudaError_t e, const char *what, const char *name)
{
  if (e == cudaSuccess)
    return TRUE;
  parity_fail ("%s: %s: %s", name, what, cudaGetErrorString (e));
  return FALSE;
}

/* One source through both sides with each mode and two balances; every float's bits equal. */
static void
compare (const char *name, const LmRawInfo *info, const LmImage *src)
{
  gboolean cfa = src->format == LM_FORMAT_CFA16;
  guint w = src->width, h = src->height, floats = cfa ? 1 : 4;
  gsize out_bytes = (gsize) w * h * floats * sizeof (float);
  void *d_src = NULL, *d_out = NULL, *d_scratch = NULL;
  gsize src_pitch = (gsize) w * lm_format_bytes_per_pixel (src->format);
  if (!device_check (cudaMalloc (&d_src, src_pitch * h), "cudaMalloc", name)
      || !device_check (cudaMalloc (&d_out, out_bytes), "cudaMalloc", name)
      || !device_check (cudaMalloc (&d_scratch, MAX (lm_k_raw_prep_scratch (w, h, 1), 1)), "cudaMalloc", name)
      || !device_check (cudaMemcpy2D (d_src, src_pitch, src->data, src->stride, src_pitch, h, cudaMemcpyHostToDevice),
                        "upload", name))
    goto out;
  LmKImage k = { d_src, w, h, src_pitch, cfa ? LM_K_CFA16 : src->format == LM_FORMAT_RGBA16 ? LM_K_RGBA16 : LM_K_GRAY16, 0 };
  const float balances[2][4] = { { 2.1f, 1.0f, 1.45f, 1.0f }, { 0.8f, 1.0f, 3.2f, 0.0f } };
  for (int b = 0; b < 2; b++)
    for (int mode = LM_RAW_HIGHLIGHTS_CLIP; mode <= LM_RAW_HIGHLIGHTS_RECONSTRUCT; mode++)
      {
        LmRawPrep prep;
        lm_raw_prep_init (&prep, info, balances[b], mode);
        g_autofree float *want = g_malloc (out_bytes), *got = g_malloc (out_bytes);
        memset (want, 0xff, out_bytes);
        GError *e = NULL;
        gboolean ok = cfa ? lm_raw_prep_cpu (&prep, src, want, &e)
                          : lm_raw_prep_linear_cpu (&prep, src, want, (gsize) w * 4, &e);
        if (!ok)
          {
            parity_fail ("%s: CPU: %s", name, e->message);
            g_clear_error (&e);
            continue;
          }
        if (!device_check (cudaMemset (d_out, 0xff, out_bytes), "poison", name)
            || !device_check (cfa ? lm_k_raw_prep (&prep, &k, d_out, d_scratch, NULL)
                                  : lm_k_raw_prep_linear (&prep, &k, d_out, (gsize) w * 4, NULL),
                              "launch", name)
            || !device_check (cudaMemcpy (got, d_out, out_bytes, cudaMemcpyDeviceToHost), "download", name))
          continue;
        guint64 differ = 0, nonfinite = 0, clipped = 0;
        for (gsize i = 0; i < out_bytes / sizeof (float); i++)
          {
            differ += memcmp (&want[i], &got[i], sizeof (float)) != 0;
            nonfinite += !isfinite (got[i]);
            clipped += want[i] >= 1.0f;
          }
        parity_record (differ == 0 && nonfinite == 0,
                       "%s, balance %d, %s: %" G_GUINT64_FORMAT " values differ, %" G_GUINT64_FORMAT
                       " not finite (%" G_GUINT64_FORMAT " at or above 1)",
                       name, b, mode ? "reconstruct" : "clip", differ, nonfinite, clipped);
      }
out:
  cudaFree (d_src);
  cudaFree (d_out);
  cudaFree (d_scratch);
}

int
main (void)
{
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount (&devices);
  if (e != cudaSuccess || devices == 0)
    {
      printf ("SKIP raw prep parity: %s\n", e != cudaSuccess ? cudaGetErrorString (e) : "no CUDA device");
      return 77;
    }
  printf ("raw prep parity: kernels/raw-prep.cu against core/raw/prep.c\n");
  static const guint sizes[][2] = { { 1, 1 }, { 2, 1 }, { 1, 7 }, { 5, 3 }, { 13, 11 }, { 333, 211 }, { 1031, 97 } };
  guint32 seed = 1;
  for (LmRawLayout layout = LM_RAW_BAYER; layout <= LM_RAW_MONO; layout++)
    {
      g_autoptr (LmRawInfo) info = sensor (layout);
      LmFormat format = layout == LM_RAW_LINEAR ? LM_FORMAT_RGBA16 : layout == LM_RAW_MONO ? LM_FORMAT_GRAY16 : LM_FORMAT_CFA16;
      static const char *names[] = { "Bayer", "X-Trans", "camera RGB", "monochrome" };
      for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
        for (int bright = 0; bright <= 1; bright++)
          {
            g_autoptr (LmImage) src = sensor_data (format, sizes[i][0], sizes[i][1], bright, seed++);
            g_autofree char *name = g_strdup_printf ("%s %u×%u %s", names[layout], sizes[i][0], sizes[i][1],
                                                     bright ? "bright" : "random");
            compare (name, info, src);
          }
    }
  {
    /* A 24 MP Bayer frame of the bright scene: the reduction over 94 thousand blocks. */
    g_autoptr (LmRawInfo) info = sensor (LM_RAW_BAYER);
    g_autoptr (LmImage) src = sensor_data (LM_FORMAT_CFA16, 6000, 4000, TRUE, 99);
    compare ("Bayer 6000×4000 bright", info, src);
  }
  printf ("raw prep parity: %" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT " failed\n", parity_cases (),
          parity_failures ());
  return parity_failures () ? 1 : 0;
}

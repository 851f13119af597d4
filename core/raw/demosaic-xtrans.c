/* The X-Trans demosaic on the CPU: output tiles with the method's halo around them, one
 * buffer per thread, every step over the part of the tile that the next one reads (the
 * margins below), in the order the CUDA strips run them. */
#include "demosaic-xtrans.h"

#include <glib.h>
#include <math.h>
#include <stdint.h>

#include "core/ops/demosaic-xtrans-math.h"

#define XT_TILE 128

typedef struct {
  const float *plane;
  int width, height, passes, ndir, halo;
  int xlo, xhi, ylo, yhi;
  LmXtrans xt;
  float m[3][3];
  float table[LM_XT_CBRT_ENTRIES];
} XtJob;

/* Runs the statement at every site (bx, by) of a BW × BH buffer but a margin of INSET. */
#define XT_EACH(inset, bw, bh, ...)                                                            \
  for (int by = (inset); by < (bh) - (inset); by++)                                         \
    for (int bx = (inset); bx < (bw) - (inset); bx++)                                       \
      {                                                                                        \
        __VA_ARGS__;                                                                           \
      }

static void
xt_tile (const XtJob *job, LmXtBuf *b, int tx, int ty, int tw, int th, float *rgba, size_t rgba_stride)
{
  int M = job->halo, bw = tw + 2 * M, bh = th + 2 * M;
  b->x0 = tx - M, b->y0 = ty - M, b->stride = bw;
  for (int by = 0; by < bh; by++)
    for (int bx = 0; bx < bw; bx++)
      b->raw[by * bw + bx] = lm_xt_load (job->plane, job->width, job->height, b->x0 + bx, b->y0 + by, job->xlo,
                                         job->xhi, job->ylo, job->yhi);
  /* Pass k's block fill reaches BASE sites beyond the tile, its other steps further out. */
  for (int k = 0; k < job->passes; k++)
    {
      int base = 4 + 7 * (job->passes - 1 - k), d0 = k ? 4 : 0, in = M - base;
      if (k == 0)
        {
          XT_EACH (in - 5, bw, bh, lm_xt_green (&job->xt, b, bx, by));
        }
      else
        {
          /* The refined candidates start as copies of the first four. */
          if (k == 1)
            for (int p = 0; p < 12; p++)
              for (int j = 0; j < bw * bh; j++)
                b->rgb[(12 + p) * b->plane + j] = b->rgb[p * b->plane + j];
          for (int d = d0; d < d0 + 4; d++)
            XT_EACH (in - 5, bw, bh, lm_xt_regreen (&job->xt, b, bx, by, d));
        }
      for (int d = d0; d < d0 + 4; d++)
        XT_EACH (in - 3, bw, bh, lm_xt_solo (&job->xt, b, bx, by, d));
      for (int d = d0; d < d0 + 4; d++)
        XT_EACH (in - 2, bw, bh, lm_xt_rb (&job->xt, b, bx, by, d));
      for (int d = d0; d < d0 + 4; d++)
        XT_EACH (in, bw, bh, lm_xt_block (&job->xt, b, bx, by, d));
    }
  for (int d = 0; d < job->ndir; d++)
    XT_EACH (M - 3, bw, bh, lm_xt_drv (b, bx, by, d, job->m, job->table));
  XT_EACH (M - 2, bw, bh, lm_xt_homo (b, bx, by, job->ndir));
  for (int y = 0; y < th; y++)
    for (int x = 0; x < tw; x++)
      lm_xt_vote (b, x + M, y + M, job->ndir, rgba + (size_t) (ty + y) * rgba_stride + (size_t) (tx + x) * 4);
}

void
lm_demosaic_xtrans_bilinear_cpu (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                                 size_t rgba_stride)
{
#pragma omp parallel for schedule(static) if ((size_t) width * height > 65536)
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      lm_xt_bilinear (plane, width, height, cfa, x, y, rgba + (size_t) y * rgba_stride + (size_t) x * 4);
}

void
lm_demosaic_markesteijn_cpu_tiled (const float *plane, int width, int height, const LmCfa *cfa, int passes,
                                   const float cam_to_xyz[3][3], float *rgba, size_t rgba_stride, int tile)
{
  if (width <= 0 || height <= 0)
    return;
  g_autofree XtJob *job = g_new (XtJob, 1);
  job->plane = plane, job->width = width, job->height = height;
  job->passes = passes == 1 ? 1 : 3;
  job->ndir = job->passes == 1 ? 4 : 8;
  job->halo = job->passes == 1 ? LM_XT_HALO_1 : LM_XT_HALO_3;
  if (!lm_xtrans_prepare (cfa, &job->xt) || !lm_xt_axes (width, job->xt.ax, &job->xlo, &job->xhi)
      || !lm_xt_axes (height, job->xt.ay, &job->ylo, &job->yhi))
    {
      lm_demosaic_xtrans_bilinear_cpu (plane, width, height, cfa, rgba, rgba_stride);
      return;
    }
  lm_xtrans_cbrt_fill (job->table);
  lm_xtrans_lab_matrix (cam_to_xyz, job->m);
  if (tile < 1)
    tile = XT_TILE;
  int cols = (width + tile - 1) / tile, rows = (height + tile - 1) / tile;
  size_t halo = (size_t) job->halo;
  size_t plane_size = ((size_t) MIN (tile, width) + 2 * halo) * ((size_t) MIN (tile, height) + 2 * halo);
  /* Threads only where there are tiles to share: the small images' cost is the team's start. */
#pragma omp parallel if (cols * rows > 1)
  {
    /* One buffer per thread: the mosaic, 3 planes per candidate, their derivatives and counts. */
    size_t floats = plane_size * (1 + 4 * (size_t) job->ndir);
    float *mem = g_malloc (floats * sizeof (float) + plane_size * job->ndir);
    /* Huge where no step wrote, so that a read beyond the margins shows in the output (NaN
     * would not: the clamps drop it). */
    for (size_t i = 0; i < floats; i++)
      mem[i] = 1e30f;
    LmXtBuf b = { .raw = mem,
                  .rgb = mem + plane_size,
                  .drv = mem + plane_size * (1 + 3 * (size_t) job->ndir),
                  .homo = (uint8_t *) (mem + floats),
                  .plane = (ptrdiff_t) plane_size };
#pragma omp for schedule(dynamic)
    for (int t = 0; t < cols * rows; t++)
      {
        int tx = (t % cols) * tile, ty = (t / cols) * tile;
        int tw = width - tx < tile ? width - tx : tile, th = height - ty < tile ? height - ty : tile;
        xt_tile (job, &b, tx, ty, tw, th, rgba, rgba_stride);
      }
    g_free (mem);
  }
}

void
lm_demosaic_markesteijn_cpu (const float *plane, int width, int height, const LmCfa *cfa, int passes,
                             const float cam_to_xyz[3][3], float *rgba, size_t rgba_stride)
{
  lm_demosaic_markesteijn_cpu_tiled (plane, width, height, cfa, passes, cam_to_xyz, rgba, rgba_stride, XT_TILE);
}

void
lm_demosaic_xtrans_third_cpu (const float *plane, int width, int height, const LmCfa *cfa, float *rgba,
                              size_t rgba_stride)
{
  int ow = (width + 2) / 3, oh = (height + 2) / 3;
#pragma omp parallel for schedule(static) if ((size_t) ow * oh > 65536)
  for (int y = 0; y < oh; y++)
    for (int x = 0; x < ow; x++)
      lm_xt_third (plane, width, height, cfa, x, y, rgba + (size_t) y * rgba_stride + (size_t) x * 4);
}

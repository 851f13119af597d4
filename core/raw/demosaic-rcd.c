/* RCD on the CPU: the reference of kernels/demosaic-rcd.cu. The image is cut into tiles; each
 * thread develops its tiles in buffers of its own that hold the tile and LM_RCD_HALO sites
 * around it, read through reflect-101, so a tile's pixels depend on the mosaic alone, not on the
 * tiling or the thread count. The steps run over regions that shrink by each step's reach, as
 * the kernel's do. */
#include "demosaic.h"

#include <glib.h>

#include "../ops/demosaic-fast-math.h"
#include "../ops/demosaic-rcd-math.h"

#define TILE 128
#define HALO LM_RCD_HALO

/* The planes of core/ops/demosaic-rcd-math.h, each the largest tile and its halo. */
enum { C, HV, HH, VH, L, G, HP, HQ, PQ, O, N_PLANES };

typedef struct {
  float *plane[N_PLANES];
  ptrdiff_t span;      /* floats a row of each plane */
  int tx, ty, tw, th;  /* the tile in the image */
  int color[2][2];     /* colour of a site by the parity of its row and column */
  int ng_x[2];         /* the column parity of red and blue sites by the row's parity */
} Tile;

static inline float *
at (const Tile *t, int p, int x, int y)
{
  return t->plane[p] + (y + HALO) * t->span + x + HALO;
}

/* The first red or blue site of row Y at or right of -M. */
static inline int
first_ng (const Tile *t, int y, int m)
{
  int x = -m;
  return ((t->tx + x) & 1) == t->ng_x[(t->ty + y) & 1] ? x : x + 1;
}

#define FOR_SITES(t, x, y, m)                                                                      \
  for (int y = -(m); y < (t)->th + (m); y++)                                                       \
    for (int x = -(m); x < (t)->tw + (m); x++)
#define FOR_NG(t, x, y, m)                                                                         \
  for (int y = -(m); y < (t)->th + (m); y++)                                                       \
    for (int x = first_ng (t, y, m); x < (t)->tw + (m); x += 2)

static void
load (Tile *t, const float *plane, int width, int height)
{
  for (int y = -HALO; y < t->th + HALO; y++)
    {
      const float *src = plane + (size_t) lm_demosaic_reflect (t->ty + y, height) * (size_t) width;
      float *dst = at (t, C, -HALO, y);
      for (int i = 0; i < t->tw + 2 * HALO; i++)
        dst[i] = lm_rcd_sample (src[lm_demosaic_reflect (t->tx - HALO + i, width)]);
    }
}

static void
develop (Tile *t)
{
  const ptrdiff_t s = t->span;
  FOR_SITES (t, x, y, HALO - 3)
    {
      *at (t, HV, x, y) = lm_rcd_highpass (at (t, C, x, y), s);
      *at (t, HH, x, y) = lm_rcd_highpass (at (t, C, x, y), 1);
    }
  FOR_SITES (t, x, y, HALO - 4)
    *at (t, VH, x, y) = lm_rcd_direction (at (t, HV, x, y), s, at (t, HH, x, y), 1);
  FOR_NG (t, x, y, HALO - 3)
    *at (t, L, x, y) = lm_rcd_lowpass (at (t, C, x, y), s);
  FOR_SITES (t, x, y, HALO - 5)
    *at (t, G, x, y) = *at (t, C, x, y);
  FOR_NG (t, x, y, HALO - 5)
    {
      *at (t, G, x, y) = lm_rcd_green (at (t, C, x, y), at (t, L, x, y), s, lm_rcd_refine (at (t, VH, x, y), s));
      *at (t, HP, x, y) = lm_rcd_highpass (at (t, C, x, y), s + 1);
      *at (t, HQ, x, y) = lm_rcd_highpass (at (t, C, x, y), s - 1);
    }
  FOR_NG (t, x, y, HALO - 6)
    *at (t, PQ, x, y) = lm_rcd_direction (at (t, HP, x, y), s + 1, at (t, HQ, x, y), s - 1);
  FOR_NG (t, x, y, HALO - 7)
    *at (t, O, x, y) = lm_rcd_other (at (t, C, x, y), at (t, G, x, y), s, lm_rcd_refine (at (t, PQ, x, y), s));
}

static void
store (const Tile *t, float *rgba, size_t rgba_stride)
{
  const ptrdiff_t s = t->span;
  for (int y = 0; y < t->th; y++)
    {
      float *out = rgba + (size_t) (t->ty + y) * rgba_stride + (size_t) t->tx * 4;
      const int *row_color = t->color[(t->ty + y) & 1];
      for (int x = 0; x < t->tw; x++, out += 4)
        {
          int k = row_color[(t->tx + x) & 1];
          float v[3];
          if (k != LM_CFA_G)
            {
              v[k] = *at (t, C, x, y);
              v[1] = *at (t, G, x, y);
              v[2 - k] = *at (t, O, x, y);
            }
          else
            {
              /* Left and right: colour H, raw; above and below the other, raw there. */
              int h = row_color[(t->tx + x + 1) & 1];
              float vhd = lm_rcd_refine (at (t, VH, x, y), s);
              const float *c = at (t, C, x, y), *o = at (t, O, x, y), *g = at (t, G, x, y);
              v[h] = lm_rcd_at_green (o, c, g, s, vhd);
              v[1] = *c;
              v[2 - h] = lm_rcd_at_green (c, o, g, s, vhd);
            }
          out[0] = lm_rcd_store (v[0]);
          out[1] = lm_rcd_store (v[1]);
          out[2] = lm_rcd_store (v[2]);
          out[3] = 1.0f;
        }
    }
}

void
lm_demosaic_rcd_cpu (const float *plane, int width, int height, const LmCfa *cfa, float *rgba, size_t rgba_stride)
{
  g_return_if_fail (plane != NULL && rgba != NULL && cfa != NULL && width > 0 && height > 0);
  g_return_if_fail (lm_cfa_is_bayer (cfa) && rgba_stride >= (size_t) width * 4);
  if (width < 2 || height < 2)
    {
      lm_demosaic_bilinear_cpu (plane, width, height, cfa, rgba, rgba_stride);
      return;
    }
  int cols = (width + TILE - 1) / TILE, rows = (height + TILE - 1) / TILE;
#pragma omp parallel if (cols * rows > 1)
  {
    Tile t;
    t.span = MIN (TILE, width) + 2 * HALO;
    gsize size = (gsize) t.span * (MIN (TILE, height) + 2 * HALO);
    float *buffer = g_new (float, N_PLANES * size);
    for (int p = 0; p < N_PLANES; p++)
      t.plane[p] = buffer + p * size;
    for (int py = 0; py < 2; py++)
      {
        for (int px = 0; px < 2; px++)
          t.color[py][px] = lm_cfa_color (cfa, px, py);
        t.ng_x[py] = t.color[py][0] == LM_CFA_G ? 1 : 0;
      }
#pragma omp for schedule(dynamic)
    for (int i = 0; i < cols * rows; i++)
      {
        t.tx = i % cols * TILE;
        t.ty = i / cols * TILE;
        t.tw = MIN (TILE, width - t.tx);
        t.th = MIN (TILE, height - t.ty);
        load (&t, plane, width, height);
        develop (&t);
        store (&t, rgba, rgba_stride);
      }
    g_free (buffer);
  }
}

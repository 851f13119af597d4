/* The background and noise maps (lm_background_map).
 *
 * MESH 0: the κ-σ clipped median and σ of the whole image, as constant maps.
 *
 * MESH > 0: SExtractor's method (as sep 1.2 implements it), with exact statistics:
 * 1. The image is cut into MESH × MESH boxes from its top-left corner (the last row and column
 *    of boxes are shorter where the sides are not multiples of MESH). Each box's finite values
 *    are κ-σ clipped exactly as lm_clip_stats does (sep clips a 16-bit quantised histogram);
 *    its background is SExtractor's mode, 2.5·median − 1.5·mean where |mean − median| < 0.3σ,
 *    else the median (lm_astro_box_mode), its noise the clipped σ. A box with fewer than half
 *    of its pixels finite is "bad" and takes the mean of the nearest good boxes, as
 *    SExtractor's bad meshes do (lm_astro_fill_row, the GPU's too).
 * 2. Both meshes are median-filtered over MESH_FILTER × MESH_FILTER boxes (an even size acts as
 *    the next odd one), the window narrowed symmetrically near the mesh's edges (sep's rule:
 *    a box on the edge is filtered only along the edge).
 * 3. A natural cubic spline through the box centres, first down each column of the mesh,
 *    then along each image row through the column values at that row (sep's order), gives
 *    every pixel's value; outside the first and last centres the end pieces are extended.
 *    Box i's centre is at pixel (i + 0.5)·MESH − 0.5 on both axes (sep puts the row centres
 *    half a pixel lower, at (i + 0.5)·MESH, a difference of half a pixel's slope).
 * 4. The noise is held at or above the least σ of the boxes around each pixel: the spline
 *    overshoots where σ falls steeply, to 0 and below near the edges, where sep's map would
 *    let the noise itself through the threshold. */
#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "../error.h"
#include "detect-math.h"
#include "detect-private.h"

static void
box_statistics (const float *data, guint width, guint height, const LmDetectParams *params, LmAstroMesh *mesh)
{
  guint box = params->mesh;
#pragma omp parallel
  {
    float *values = g_new (float, (gsize) box * box);
#pragma omp for schedule(dynamic)
    for (guint index = 0; index < mesh->nx * mesh->ny; index++)
      {
        guint bx = index % mesh->nx, by = index / mesh->nx;
        guint x0 = bx * box, y0 = by * box;
        guint x1 = MIN (x0 + box, width), y1 = MIN (y0 + box, height);
        gsize n = 0;
        for (guint y = y0; y < y1; y++)
          for (guint x = x0; x < x1; x++)
            {
              float v = data[(gsize) y * width + x];
              if (isfinite (v))
                values[n++] = v;
            }
        LmClipStats stats;
        gsize pixels = (gsize) (x1 - x0) * (y1 - y0);
        if (2 * n < pixels || !lm_clip_values (values, n, params->kappa, params->max_iterations, &stats))
          {
            mesh->back[index] = mesh->sigma[index] = NAN; /* bad: filled by fill_bad_boxes */
            continue;
          }
        mesh->back[index] = (float) lm_astro_box_mode (stats.mean, stats.median, stats.std);
        mesh->sigma[index] = (float) stats.std;
      }
    g_free (values);
  }
}

/* Bad boxes take the mean of the good ones nearest to them; where no box is good (blank
 * pixels everywhere but too few in any one box), the whole image's median and σ. */
static void
fill_bad_boxes (LmAstroMesh *mesh, const LmClipStats *global)
{
  g_autofree LmAstroNearest *near = g_new (LmAstroNearest, (gsize) mesh->nx * mesh->ny);
  g_autofree int64_t *scratch = g_new (int64_t, 3 * (gsize) mesh->nx);
  for (guint x = 0; x < mesh->nx; x++)
    lm_astro_nearest_in_column (mesh, x, near);
  for (guint y = 0; y < mesh->ny; y++)
    lm_astro_fill_row (mesh, y, near, (float) global->median, (float) global->std, scratch);
}

static void
median_filter (float *grid, guint nx, guint ny, guint size)
{
  int half = (int) size / 2;
  if (half == 0)
    return;
  g_autofree float *out = g_new (float, (gsize) nx * ny);
  g_autofree float *window = g_new (float, (gsize) (2 * half + 1) * (2 * half + 1));
  for (int y = 0; y < (int) ny; y++)
    for (int x = 0; x < (int) nx; x++)
      {
        /* The window shrinks symmetrically near the edges, staying centred on its box: a
         * window cut on one side only would pull a sloped background towards the inside. */
        int hx = MIN (half, MIN (x, (int) nx - 1 - x));
        int hy = MIN (half, MIN (y, (int) ny - 1 - y));
        gsize n = 0;
        for (int v = y - hy; v <= y + hy; v++)
          for (int u = x - hx; u <= x + hx; u++)
            window[n++] = grid[(gsize) v * nx + u];
        out[(gsize) y * nx + x] = lm_median_select (window, n);
      }
  memcpy (grid, out, (gsize) nx * ny * sizeof (float));
}

/* Every pixel of MAP from the spline through GRID's box centres; for the noise (FLOORED),
 * never below the least of the boxes around the pixel (lm_astro_noise_at). */
static void
interpolate (const float *grid, guint nx, guint ny, guint box, guint width, guint height,
             gboolean floored, float *map)
{
  /* Second derivatives down each column of the mesh, once. */
  g_autofree float *d2y = g_new (float, (gsize) nx * ny);
  g_autofree double *scratch = g_new (double, 2 * (gsize) MAX (nx, ny));
  for (guint x = 0; x < nx; x++)
    lm_astro_spline_d2 (grid + x, nx, (int) ny, d2y + x, scratch);

#pragma omp parallel
  {
    float *nodes = g_new (float, nx);
    float *d2x = g_new (float, nx);
    double *row_scratch = g_new (double, 2 * (gsize) nx);
#pragma omp for schedule(static)
    for (guint y = 0; y < height; y++)
      {
        int ky = 0;
        if (ny > 1)
          {
            double t;
            ky = lm_astro_spline_interval (y, box, (int) ny, &t);
            for (guint x = 0; x < nx; x++)
              {
                gsize lo = (gsize) ky * nx + x, hi = lo + nx;
                nodes[x] = (float) lm_astro_spline_eval (grid[lo], grid[hi], d2y[lo], d2y[hi], t);
              }
          }
        else
          memcpy (nodes, grid, nx * sizeof (float));
        float *out = map + (gsize) y * width;
        if (nx == 1)
          {
            float v = floored ? lm_astro_noise_at (nodes[0], lm_astro_noise_least (grid, nx, ny, 0, ky)) : nodes[0];
            for (guint x = 0; x < width; x++)
              out[x] = v;
            continue;
          }
        lm_astro_spline_d2 (nodes, 1, (int) nx, d2x, row_scratch);
        for (guint x = 0; x < width; x++)
          {
            double t;
            int k = lm_astro_spline_interval (x, box, (int) nx, &t);
            float v = (float) lm_astro_spline_eval (nodes[k], nodes[k + 1], d2x[k], d2x[k + 1], t);
            out[x] = floored ? lm_astro_noise_at (v, lm_astro_noise_least (grid, nx, ny, k, ky)) : v;
          }
      }
    g_free (nodes);
    g_free (d2x);
    g_free (row_scratch);
  }
}

static void
fill_constant (float *map, gsize n, float value)
{
  for (gsize i = 0; i < n; i++)
    map[i] = value;
}

gboolean
lm_background_map (const float *data, guint width, guint height, const LmDetectParams *params,
                   float *background, float *noise, LmClipStats *global, GError **error)
{
  g_return_val_if_fail (data && params && background && noise && global, FALSE);
  gsize n = (gsize) width * height;
  if (!lm_clip_stats (data, n, params->kappa, params->max_iterations, global))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("every pixel is blank (NaN, infinite or BLANK): there is no background to measure"));
      return FALSE;
    }
  if (params->mesh == 0)
    {
      fill_constant (background, n, (float) global->median);
      fill_constant (noise, n, (float) global->std);
      return TRUE;
    }

  LmAstroMesh mesh = { .nx = (width + params->mesh - 1) / params->mesh,
                       .ny = (height + params->mesh - 1) / params->mesh };
  gsize boxes = (gsize) mesh.nx * mesh.ny;
  g_autofree float *back = mesh.back = g_new0 (float, boxes);
  g_autofree float *sigma = mesh.sigma = g_new0 (float, boxes);
  box_statistics (data, width, height, params, &mesh);
  fill_bad_boxes (&mesh, global);
  median_filter (back, mesh.nx, mesh.ny, params->mesh_filter);
  median_filter (sigma, mesh.nx, mesh.ny, params->mesh_filter);
  interpolate (back, mesh.nx, mesh.ny, params->mesh, width, height, FALSE, background);
  interpolate (sigma, mesh.nx, mesh.ny, params->mesh, width, height, TRUE, noise);
  return TRUE;
}

/* CPU/GPU parity of source detection (core/astro/detect.h's contract): the CUDA backend's
 * lm_detect against the CPU reference on the same image must give the same label image bit
 * for bit, the same sources (label, area, bounding box and peak position exactly; every other
 * field within 1e-5 relative), the same clipped statistics (count and passes exactly, mean,
 * median and σ within 1e-5) and background and noise maps within 1e-5 relative.
 *
 * Images: synthetic star fields made here deterministically (Gaussian stars of known flux on a
 * sloped background with Gaussian noise, a blank NaN patch in some), 1024² always, 2048² and
 * 8192² unless LUMEN_PARITY_QUICK is set; fields whose noise falls steeply towards the
 * corners (256² and 301 × 203), where the noise map is held at the boxes' least σ; and the real
 * FITS files found: tests/data/astro/ (LUMEN_TEST_DATA), and eso-midas-testdata's thar5s.fit
 * (4007 × 2671, an echelle arc: compact lines), NOT.fits[1] (its first extension: 2148 × 2052,
 * a flat field) and the ISAAC 1024² star field where installed or carried (LUMEN_ASTRO_EXTRA:
 * a directory). Each with 4- and 8-connectivity, with and without the matched filter and the
 * mesh.
 *
 * The device's buffers start poisoned (LUMEN_DETECT_POISON: NaN floats, 0xFFFFFFFF labels), so
 * a pixel a kernel leaves unwritten fails. Without a usable CUDA device it prints the reason and exits 77 (meson: SKIP);
 * LUMEN_PARITY_SELF_TEST=1 puts a second CPU backend in the GPU's place (the harness alone). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gio/gio.h>
#include <glib.h>

#include "core/astro/detect.h"
#include "core/io/fits.h"
#include "core/backend/backend.h"
#include "core/render/astro-run.h"
#include "parity-util.h"

#define TOLERANCE 1e-5

static LmBackend *cpu, *gpu;
static double worst_source, worst_stats, worst_map;

/* xorshift64*: the same field on every machine. */
static guint64
next_random (guint64 *state)
{
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 0x2545F4914F6CDD1DULL;
}

static double
uniform (guint64 *state)
{
  return (double) (next_random (state) >> 11) * (1.0 / 9007199254740992.0);
}

static double
gaussian (guint64 *state)
{
  double u = uniform (state), v = uniform (state);
  return sqrt (-2.0 * log (u + 1e-300)) * cos (2.0 * G_PI * v);
}

/* A W × H field: 100 + a slope, N_STARS Gaussian stars (σ 1–3 px, flux 300–60000), noise of
 * σ 5, and with BLANKS a NaN patch. */
static LmImage *
star_field (guint w, guint h, guint n_stars, gboolean blanks, guint64 seed)
{
  LmImage *image = lm_image_new (LM_FORMAT_GRAY_F32, w, h, lm_allocator_host (), NULL);
  guint64 state = seed * 0x9E3779B97F4A7C15ULL + 1;
  for (guint y = 0; y < h; y++)
    {
      float *row = (float *) lm_image_row (image, y);
      for (guint x = 0; x < w; x++)
        row[x] = (float) (100.0 + 0.01 * x + 0.005 * y + 5.0 * gaussian (&state));
    }
  for (guint s = 0; s < n_stars; s++)
    {
      double cx = uniform (&state) * w, cy = uniform (&state) * h;
      double sigma = 1.0 + 2.0 * uniform (&state), flux = 300.0 * pow (200.0, uniform (&state));
      int r = (int) ceil (5.0 * sigma);
      double norm = flux / (2.0 * G_PI * sigma * sigma);
      for (int y = MAX (0, (int) cy - r); y <= MIN ((int) h - 1, (int) cy + r); y++)
        {
          float *row = (float *) lm_image_row (image, y);
          for (int x = MAX (0, (int) cx - r); x <= MIN ((int) w - 1, (int) cx + r); x++)
            {
              double dx = x - cx, dy = y - cy;
              row[x] += (float) (norm * exp (-(dx * dx + dy * dy) / (2.0 * sigma * sigma)));
            }
        }
    }
  if (blanks)
    for (guint y = h / 3; y < h / 3 + h / 16; y++)
      {
        float *row = (float *) lm_image_row (image, y);
        for (guint x = w / 5; x < w / 5 + w / 10; x++)
          row[x] = NAN;
      }
  return image;
}

/* A W × H field of 1000 whose noise σ falls from 30 inside to 2 at the edges (a smoothstep
 * over 64 px), lowest at the corners, with nine stars: the bicubic noise map overshoots to 0
 * and below there unless held at the boxes' least σ (core/astro/detect-math.h). */
static LmImage *
steep_noise_field (guint w, guint h, guint64 seed)
{
  LmImage *image = lm_image_new (LM_FORMAT_GRAY_F32, w, h, lm_allocator_host (), NULL);
  guint64 state = seed * 0x9E3779B97F4A7C15ULL + 1;
  for (guint y = 0; y < h; y++)
    {
      float *row = (float *) lm_image_row (image, y);
      double dy = CLAMP (MIN (y, h - 1 - y) / 64.0, 0.0, 1.0);
      for (guint x = 0; x < w; x++)
        {
          double dx = CLAMP (MIN (x, w - 1 - x) / 64.0, 0.0, 1.0);
          double sigma = 2.0 + 28.0 * dx * dx * (3 - 2 * dx) * dy * dy * (3 - 2 * dy);
          row[x] = (float) (1000.0 + sigma * gaussian (&state));
        }
    }
  for (guint s = 0; s < 9; s++)
    {
      double cx = (0.25 + 0.25 * (s % 3)) * w, cy = (0.25 + 0.25 * (s / 3)) * h;
      for (int y = (int) cy - 8; y <= (int) cy + 8; y++)
        {
          float *row = (float *) lm_image_row (image, y);
          for (int x = (int) cx - 8; x <= (int) cx + 8; x++)
            row[x] += (float) (1500.0 * exp (-((x - cx) * (x - cx) + (y - cy) * (y - cy)) / 4.5));
        }
    }
  return image;
}

static double
relative (double a, double b, double scale)
{
  if (a == b || (isnan (a) && isnan (b)))
    return 0.0;
  double m = MAX (MAX (fabs (a), fabs (b)), scale);
  return m > 0.0 ? fabs (a - b) / m : INFINITY;
}

/* The largest relative difference of two maps of N floats, relative to each pixel's value or
 * SCALE, whichever is larger. */
static double
map_distance (const float *a, const float *b, gsize n, double scale)
{
  double worst = 0.0;
  for (gsize i = 0; i < n; i++)
    worst = MAX (worst, relative (a[i], b[i], scale));
  return worst;
}

/* The worst field of source I; its name into *FIELD. Integers must be equal. */
static double
source_distance (const LmSource *c, const LmSource *g, const char **field)
{
  if (c->label != g->label || c->area != g->area || c->xmin != g->xmin || c->ymin != g->ymin || c->xmax != g->xmax
      || c->ymax != g->ymax || c->peak_x != g->peak_x || c->peak_y != g->peak_y)
    {
      *field = "label, area, bounding box or peak position";
      return INFINITY;
    }
  /* Moments relative to the source's size; the angle only where the source is elongated
   * enough to have one (a round source's θ is any angle). */
  double size = c->x2 + c->y2;
  struct { const char *name; double a, b, scale; } f[] = {
    { "x", c->x, g->x, 1.0 }, { "y", c->y, g->y, 1.0 }, { "flux", c->flux, g->flux, 0.0 },
    { "flux_raw", c->flux_raw, g->flux_raw, 0.0 }, { "background", c->background, g->background, 0.0 },
    { "peak", c->peak, g->peak, 0.0 }, { "x2", c->x2, g->x2, size }, { "y2", c->y2, g->y2, size },
    { "xy", c->xy, g->xy, size }, { "a", c->a, g->a, 0.0 }, { "b", c->b, g->b, c->a },
    /* An axis, not a direction: θ and θ ± π are one orientation (near ±π/2 the two backends
     * may land on either side). */
    { "theta", 0.0, c->a - c->b > 1e-3 * c->a ? remainder (c->theta - g->theta, G_PI) : 0.0, 1.0 },
    { "fwhm", c->fwhm, g->fwhm, 0.0 },
  };
  double worst = 0.0;
  for (guint i = 0; i < G_N_ELEMENTS (f); i++)
    {
      double d = relative (f[i].a, f[i].b, f[i].scale);
      if (d > worst)
        worst = d, *field = f[i].name;
    }
  return worst;
}

static void
compare (const char *name, const LmImage *image, const LmDetectParams *p)
{
  g_autoptr (GError) e = NULL;
  g_autofree char *what = g_strdup_printf ("%s %u×%u conn %d filter %g mesh %u", name, image->width, image->height,
                                           p->connectivity, p->filter_sigma, p->mesh);
  g_autoptr (LmDetectResult) c = lm_detect (cpu, image, p, NULL, &e);
  if (!c)
    {
      parity_fail ("%s: CPU: %s", what, e->message);
      return;
    }
  g_autoptr (LmDetectResult) g = lm_detect (gpu, image, p, NULL, &e);
  if (!g)
    {
      parity_fail ("%s: GPU: %s", what, e->message);
      return;
    }
  gsize n = (gsize) image->width * image->height;
  double stats = MAX (MAX (relative (c->global.mean, g->global.mean, 0.0), relative (c->global.median, g->global.median, 0.0)),
                      relative (c->global.std, g->global.std, 0.0));
  gboolean counts = c->global.count == g->global.count && c->global.iterations == g->global.iterations;
  worst_stats = MAX (worst_stats, stats);
  parity_record (counts && stats <= TOLERANCE,
                 "%s: clipped statistics: count %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT ", passes %d/%d, worst %.2g",
                 what, c->global.count, g->global.count, c->global.iterations, g->global.iterations, stats);
  /* Maps relative to the noise level: a background near 0 has no relative digits of its own. */
  double noise_scale = c->global.std;
  double maps = MAX (map_distance (c->background, g->background, n, noise_scale),
                     map_distance (c->noise, g->noise, n, noise_scale));
  worst_map = MAX (worst_map, maps);
  parity_record (maps <= TOLERANCE, "%s: background and noise maps: worst %.2g", what, maps);
  gsize differing = 0;
  for (gsize i = 0; i < n; i++)
    differing += c->labels[i] != g->labels[i];
  parity_record (differing == 0 && c->n_sources == g->n_sources, "%s: labels: %u/%u sources, %" G_GSIZE_FORMAT " pixels differ",
                 what, c->n_sources, g->n_sources, differing);
  if (c->n_sources != g->n_sources)
    return;
  double worst = 0.0;
  const char *field = "";
  guint at = 0;
  for (guint i = 0; i < c->n_sources; i++)
    {
      const char *f = "";
      double d = source_distance (&c->sources[i], &g->sources[i], &f);
      if (d > worst)
        worst = d, field = f, at = i;
    }
  worst_source = MAX (worst_source, worst);
  parity_record (worst <= TOLERANCE, "%s: %u sources: worst %.2g (%s of label %u)", what, c->n_sources, worst, field,
                 at + 1);
  printf ("     %s: %u sources; GPU ms: background %.3f filter %.3f segment %.3f label %.3f measure %.3f total "
          "%.3f (CPU total %.1f)\n",
          what, g->n_sources, g->timings.background, g->timings.filter, g->timings.segment, g->timings.label,
          g->timings.measure, g->timings.total, c->timings.total);
}

/* Every combination of connectivity, filter and mesh on IMAGE (FULL), or the defaults and
 * their opposite (8-connectivity, filter 2, mesh 0). */
static void
compare_all (const char *name, const LmImage *image, gboolean full)
{
  LmDetectParams p;
  lm_detect_params_init (&p);
  for (int conn = 4; conn <= 8; conn += 4)
    for (int filter = 0; filter <= 1; filter++)
      for (int mesh = 0; mesh <= 1; mesh++)
        {
          if (!full && !((conn == 4 && !filter && mesh) || (conn == 8 && filter && !mesh)))
            continue;
          p.connectivity = conn;
          p.filter_sigma = filter ? 2.0 : 0.0;
          p.mesh = mesh ? 64 : 0;
          compare (name, image, &p);
        }
}

static void
real_images (void)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  const char *data = g_getenv ("LUMEN_TEST_DATA");
  g_autofree char *dir = g_build_filename (data ? data : "tests/data", "astro", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  for (const char *name; d && (name = g_dir_read_name (d));)
    if (g_str_has_suffix (name, ".fits") || g_str_has_suffix (name, ".fits.gz") || g_str_has_suffix (name, ".fit"))
      g_ptr_array_add (files, g_build_filename (dir, name, NULL));
  if (files->len == 0)
    parity_fail ("no FITS files in %s", dir);
  /* eso-midas-testdata's: the ThAr arc, a 2148 × 2052 flat field (the first extension, HDU 2, 32-bit with BZERO) and
   * a 1024² infrared star field. */
  const char *extra = g_getenv ("LUMEN_ASTRO_EXTRA");
  static const char *midas[][2] = { { "thar5s.fit", "" }, { "NOT.fits", "[1]" },
                                    { "ISAAC.2006-04-13T06:32:38.944.fits", "" } };
  for (guint i = 0; i < G_N_ELEMENTS (midas); i++)
    {
      g_autofree char *path = g_build_filename (extra ? extra : "/usr/lib/eso-midas/22FEB/test/prim", midas[i][0], NULL);
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        g_ptr_array_add (files, g_strconcat (path, midas[i][1], NULL));
      else
        printf ("     (no %s: skipped)\n", path);
    }
  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr (GError) e = NULL;
      g_autoptr (LmImage) image = lm_fits_load (files->pdata[i], NULL, NULL, &e);
      if (!image)
        {
          parity_fail ("%s: %s", (char *) files->pdata[i], e->message);
          continue;
        }
      g_autofree char *base = g_path_get_basename (files->pdata[i]);
      compare_all (base, image, TRUE);
    }
}

int
main (void)
{
  /* The device's buffers start poisoned (core/backend/cuda-detect.c). */
  g_setenv ("LUMEN_DETECT_POISON", "1", TRUE);
  int skip = parity_open ("detect parity", TRUE, &cpu, &gpu);
  if (skip)
    return skip;
  gboolean quick = g_getenv ("LUMEN_PARITY_QUICK") != NULL;
  {
    g_autoptr (LmImage) small = star_field (1024, 1024, 400, TRUE, 1);
    compare_all ("field", small, TRUE);
    /* Awkward sides: partial boxes, rows not a multiple of anything. */
    g_autoptr (LmImage) odd = star_field (1001, 777, 250, FALSE, 2);
    compare_all ("field", odd, FALSE);
    g_autoptr (LmImage) steep = steep_noise_field (256, 256, 5);
    compare_all ("steep-noise", steep, TRUE);
    g_autoptr (LmImage) steep_odd = steep_noise_field (301, 203, 6);
    compare_all ("steep-noise", steep_odd, FALSE);
  }
  if (!quick)
    {
      g_autoptr (LmImage) medium = star_field (2048, 2048, 2000, FALSE, 3);
      compare_all ("field", medium, TRUE);
      g_autoptr (LmImage) large = star_field (8192, 8192, 20000, TRUE, 4);
      compare_all ("field", large, FALSE);
    }
  real_images ();
  printf ("detect parity: %" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT " failed; worst relative: "
          "sources %.2g, statistics %.2g, maps %.2g (tolerance %g)\n",
          parity_cases (), parity_failures (), worst_source, worst_stats, worst_map, TOLERANCE);
  lm_backend_free (cpu);
  lm_backend_free (gpu);
  return parity_failures () ? 1 : 0;
}

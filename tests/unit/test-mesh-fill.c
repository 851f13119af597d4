/* The fill of the background mesh's bad boxes (core/astro/detect-math.h, which the CPU and the
 * CUDA mesh share): a bad box takes the mean of every good box at its least squared distance,
 * ties all counted, as SExtractor's bad meshes do; with no good box, the fallback values. Held
 * against hand-worked meshes and against that definition, box by box, on random masks. */
#include <math.h>
#include <string.h>

#include "core/astro/detect-math.h"
#include "test-util.h"

#define POISON_BYTE 0xa5

/* Fills MESH with the two passes, the scratch and the first pass's output poisoned. */
static void
fill (LmAstroMesh *mesh, float back_none, float sigma_none)
{
  gsize nb = (gsize) mesh->nx * mesh->ny;
  g_autofree LmAstroNearest *near = g_new (LmAstroNearest, nb);
  g_autofree int64_t *scratch = g_new (int64_t, 3 * (gsize) mesh->nx);
  memset (near, POISON_BYTE, nb * sizeof *near);
  memset (scratch, POISON_BYTE, 3 * (gsize) mesh->nx * sizeof *scratch);
  for (guint x = 0; x < mesh->nx; x++)
    lm_astro_nearest_in_column (mesh, x, near);
  for (guint y = 0; y < mesh->ny; y++)
    lm_astro_fill_row (mesh, y, near, back_none, sigma_none, scratch);
}

/* Corners good (back 1, 2, 3, 4; σ ten times those), the rest bad: an edge's middle box has two
 * nearest corners, the centre four. */
static void
test_corners (void)
{
  float back[9] = { 1, NAN, 2, NAN, NAN, NAN, 3, NAN, 4 };
  float sigma[9] = { 10, NAN, 20, NAN, NAN, NAN, 30, NAN, 40 };
  LmAstroMesh mesh = { back, sigma, 3, 3 };
  fill (&mesh, -1.0f, -1.0f);
  const float want[9] = { 1, 1.5f, 2, 2, 2.5f, 3, 3, 3.5f, 4 };
  for (int i = 0; i < 9; i++)
    {
      g_assert_cmpfloat (back[i], ==, want[i]);
      g_assert_cmpfloat (sigma[i], ==, 10.0f * want[i]);
    }
}

/* One good box far off a row of bad ones: the nearest is not in the box's row or column. */
static void
test_off_axis (void)
{
  float back[12] = { NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 7 };
  float sigma[12] = { NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0.5f };
  LmAstroMesh mesh = { back, sigma, 4, 3 };
  fill (&mesh, -1.0f, -1.0f);
  for (int i = 0; i < 12; i++)
    {
      g_assert_cmpfloat (back[i], ==, 7.0f);
      g_assert_cmpfloat (sigma[i], ==, 0.5f);
    }
}

/* No good box: every box the fallback (the whole image's figures in lm_background_map). */
static void
test_none_good (void)
{
  float back[6], sigma[6];
  for (int i = 0; i < 6; i++)
    back[i] = sigma[i] = NAN;
  LmAstroMesh mesh = { back, sigma, 3, 2 };
  fill (&mesh, 12.5f, 0.25f);
  for (int i = 0; i < 6; i++)
    {
      g_assert_cmpfloat (back[i], ==, 12.5f);
      g_assert_cmpfloat (sigma[i], ==, 0.25f);
    }
}

/* The definition box by box: every good box's squared distance, the least, the mean of those
 * at it. Whole-number values keep every sum exact, so that any order of adding agrees. */
static void
reference (const float *back, const float *sigma, guint nx, guint ny, guint i, float *want_back, float *want_sigma)
{
  gint64 best = G_MAXINT64;
  double sum_back = 0.0, sum_sigma = 0.0;
  guint count = 0;
  for (guint j = 0; j < nx * ny; j++)
    {
      if (isnan (back[j]))
        continue;
      gint64 dx = (gint64) (i % nx) - (gint64) (j % nx), dy = (gint64) (i / nx) - (gint64) (j / nx);
      gint64 d2 = dx * dx + dy * dy;
      if (d2 < best)
        {
          best = d2;
          sum_back = sum_sigma = 0.0;
          count = 0;
        }
      if (d2 == best)
        {
          sum_back += back[j];
          sum_sigma += sigma[j];
          count++;
        }
    }
  *want_back = count ? (float) (sum_back / count) : -1.0f;
  *want_sigma = count ? (float) (sum_sigma / count) : -1.0f;
}

static void
test_random_masks (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (30);
  for (int round = 0; round < 3000; round++)
    {
      guint nx = (guint) g_rand_int_range (rand, 1, 24), ny = (guint) g_rand_int_range (rand, 1, 24);
      double bad_share = g_rand_double (rand);
      g_autofree float *back = g_new (float, nx * ny);
      g_autofree float *sigma = g_new (float, nx * ny);
      for (guint i = 0; i < nx * ny; i++)
        {
          gboolean bad = g_rand_double (rand) < bad_share;
          back[i] = bad ? NAN : (float) g_rand_int_range (rand, -1000, 1000);
          sigma[i] = bad ? NAN : (float) g_rand_int_range (rand, 0, 1000);
        }
      g_autofree float *filled_back = g_memdup2 (back, nx * ny * sizeof (float));
      g_autofree float *filled_sigma = g_memdup2 (sigma, nx * ny * sizeof (float));
      LmAstroMesh mesh = { filled_back, filled_sigma, nx, ny };
      fill (&mesh, -1.0f, -1.0f);
      for (guint i = 0; i < nx * ny; i++)
        {
          float want_back = back[i], want_sigma = sigma[i];
          if (isnan (back[i]))
            reference (back, sigma, nx, ny, i, &want_back, &want_sigma);
          if (filled_back[i] != want_back || filled_sigma[i] != want_sigma)
            g_test_message ("round %d, %u × %u mesh, box (%u, %u): %g and %g, want %g and %g", round, nx, ny,
                            i % nx, i / nx, filled_back[i], filled_sigma[i], want_back, want_sigma);
          g_assert_cmpfloat (filled_back[i], ==, want_back);
          g_assert_cmpfloat (filled_sigma[i], ==, want_sigma);
          LM_TEST_RETURN_IF_FAILED ();
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/mesh-fill/corners", test_corners);
  g_test_add_func ("/mesh-fill/off-axis", test_off_axis);
  g_test_add_func ("/mesh-fill/none-good", test_none_good);
  g_test_add_func ("/mesh-fill/random-masks", test_random_masks);
  return g_test_run ();
}

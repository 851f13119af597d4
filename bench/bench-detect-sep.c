/* sep (libsep, the C core of SExtractor's algorithms) on a raw float32 field, for
 * bench/bench-detect-peers.py: sep_background (64-px boxes, a 3 × 3 median filter), the
 * background subtracted, sep_extract at THRESHOLD × the global σ with the minimum area and
 * no filter, deblending or cleaning (what lm_detect does), timed on one core: the median of
 * REPEAT runs after one warm-up. Not built by meson (libsep is no build dependency):
 * tests/gpu/device-pack.sh compiles it against libsep-dev's files and carries libsep.so.
 *
 *   bench-detect-sep FILE SIDE [REPEAT] [THRESHOLD] [MIN_AREA]
 * prints one JSON object. */
#include <stddef.h> /* sep.h uses size_t without it */
#include <sep.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double
now_ms (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int
by_value (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *v, int n)
{
  qsort (v, n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: bench-detect-sep FILE SIDE [REPEAT] [THRESHOLD] [MIN_AREA]\n");
      return 2;
    }
  int side = atoi (argv[2]), repeat = argc > 3 ? atoi (argv[3]) : 5;
  double threshold = argc > 4 ? atof (argv[4]) : 5.0;
  int min_area = argc > 5 ? atoi (argv[5]) : 5;
  size_t n = (size_t) side * side;
  float *data = malloc (n * sizeof (float)), *work = malloc (n * sizeof (float));
  FILE *f = fopen (argv[1], "rb");
  if (!f || fread (data, sizeof (float), n, f) != n)
    {
      fprintf (stderr, "bench-detect-sep: cannot read %d² floats from %s\n", side, argv[1]);
      return 1;
    }
  fclose (f);
  /* Room for every pixel above the threshold in a crowded field (the default is 300,000). */
  sep_set_extract_pixstack (n / 4 > 300000 ? n / 4 : 300000);
  double *bkg_ms = malloc ((repeat + 1) * sizeof (double)), *extract_ms = malloc ((repeat + 1) * sizeof (double));
  int nobj = 0;
  for (int r = 0; r <= repeat; r++)
    {
      sep_image image = { data, NULL, NULL, NULL, SEP_TFLOAT, 0, 0, 0, side, side, 0.0, SEP_NOISE_NONE, 1.0, 0.0 };
      sep_bkg *bkg = NULL;
      sep_catalog *catalog = NULL;
      double t0 = now_ms ();
      int status = sep_background (&image, 64, 64, 3, 3, 0.0, &bkg);
      memcpy (work, data, n * sizeof (float));
      if (status == 0)
        status = sep_bkg_subarray (bkg, work, SEP_TFLOAT);
      double t1 = now_ms ();
      sep_image sub = { work, NULL, NULL, NULL, SEP_TFLOAT, 0, 0, 0, side, side, 0.0, SEP_NOISE_NONE, 1.0, 0.0 };
      if (status == 0)
        status = sep_extract (&sub, (float) (threshold * sep_bkg_globalrms (bkg)), SEP_THRESH_ABS, min_area, NULL, 0,
                              0, SEP_FILTER_CONV, 32, 1.0, 0, 1.0, &catalog);
      double t2 = now_ms ();
      if (status != 0)
        {
          char message[61];
          sep_get_errmsg (status, message);
          fprintf (stderr, "bench-detect-sep: %s\n", message);
          return 1;
        }
      nobj = catalog->nobj;
      sep_catalog_free (catalog);
      sep_bkg_free (bkg);
      if (r > 0)
        {
          bkg_ms[r - 1] = t1 - t0;
          extract_ms[r - 1] = t2 - t1;
        }
    }
  double b = median (bkg_ms, repeat), e = median (extract_ms, repeat);
  printf ("{\"peer\": \"sep\", \"size\": %d, \"sources\": %d, \"background_ms\": %.3f, \"extract_ms\": %.3f, "
          "\"total_ms\": %.3f, \"threads\": 1}\n",
          side, nobj, b, e, b + e);
  return 0;
}

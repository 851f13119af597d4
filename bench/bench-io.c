/* One encode or decode of Lumen's, timed inside the process: what bench/bench-io.py pairs,
 * run by run, with OpenCV's imwrite or imread of the same image.
 *
 *   bench-io save IN OUT [--png-level N] [--quality Q] [--reps R]
 *   bench-io load IN [--reps R]
 *
 * IN is decoded once (not timed for save); each run's wall and CPU milliseconds (all
 * threads) go to stdout, one run a line: on a shared machine the CPU figure is the steadier.
 * A save is lm_io_save as lumen-cli calls it: the temporary file, the sync and the rename. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <glib.h>

#include "bench-util.h"
#include "core/io/io.h"

int
main (int argc, char **argv)
{
  int png_level = LM_PNG_LEVEL_DEFAULT, quality = 92, reps = 1;
  GOptionEntry entries[] = {
    { "png-level", 0, 0, G_OPTION_ARG_INT, &png_level, "PNG level 0..9", "N" },
    { "quality", 0, 0, G_OPTION_ARG_INT, &quality, "JPEG quality", "Q" },
    { "reps", 0, 0, G_OPTION_ARG_INT, &reps, "Timed runs", "R" },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("save IN OUT | load IN");
  g_option_context_add_main_entries (context, entries, NULL);
  GError *error = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &error))
    lm_bench_die ("bench-io", error);
  gboolean save = argc == 4 && g_str_equal (argv[1], "save");
  if (!save && !(argc == 3 && g_str_equal (argv[1], "load")))
    {
      fprintf (stderr, "usage: bench-io save IN OUT [--png-level N] [--quality Q] [--reps R] | load IN\n");
      return 2;
    }

  const LmAllocator *host = lm_allocator_host ();
  g_autoptr (LmImage) image = save ? lm_io_load (argv[2], host, &error) : NULL;
  if (save && image == NULL)
    lm_bench_die ("bench-io", error);
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  options.png_level = png_level;
  options.quality = quality;
  for (int r = 0; r < reps; r++)
    {
      gint64 t = g_get_monotonic_time ();
      clock_t cpu = clock ();
      if (save)
        {
          if (!lm_io_save (image, argv[3], &options, &error))
            lm_bench_die ("bench-io", error);
        }
      else
        {
          LmImage *loaded = lm_io_load (argv[2], host, &error);
          if (loaded == NULL)
            lm_bench_die ("bench-io", error);
          lm_image_unref (loaded);
        }
      printf ("%.3f %.3f\n", (g_get_monotonic_time () - t) / 1e3, (clock () - cpu) * 1e3 / CLOCKS_PER_SEC);
    }
  return 0;
}

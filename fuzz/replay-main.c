/* The fuzz harnesses without libFuzzer: each file named, or each file in each folder named
 * (sorted, not recursive), is fed once to LLVMFuzzerTestOneInput. This is how CI replays the
 * saved corpus and every past crash with any compiler (fuzz/README.md). A folder that does
 * not exist is skipped: a harness with no past crash has no crashes folder.
 *
 * CI's promise for any input is stricter than libFuzzer's limits (-timeout=10,
 * -rss_limit_mb=2048): a file that takes longer than LUMEN_FUZZ_TIMEOUT seconds (5), or
 * raises the process's peak memory by more than LUMEN_FUZZ_RSS_MB (512), fails the run; so
 * does, under ASan, a single allocation of more than 2 GB.
 * On any failure, a sanitizer's report included, the file being run is named.
 * LUMEN_FUZZ_VERBOSE=1 names each file as it runs, and what it came to. */
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>

#include "fuzz-util.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define HAVE_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define HAVE_SANITIZER 1
#endif
#endif
#ifdef HAVE_SANITIZER
#include <sanitizer/common_interface_defs.h>
#endif

static const char *current;

#ifdef HAVE_SANITIZER
/* As libFuzzer's -malloc_limit_mb (its -rss_limit_mb, 2048): asking for more at once is a
 * crash, whether or not the memory would be touched; the environment's ASAN_OPTIONS come on
 * top of these. */
__attribute__ ((used, no_sanitize_address)) const char *
__asan_default_options (void)
{
  return "max_allocation_size_mb=2048";
}
#endif

/* Async-signal-safe: write(2) only. */
static void
say_current (const char *why)
{
  if (current == NULL)
    return;
  const char *parts[] = { "\nreplay: ", why, " on ", current, "\n" };
  for (gsize i = 0; i < G_N_ELEMENTS (parts); i++)
    if (write (STDERR_FILENO, parts[i], strlen (parts[i])) < 0)
      return;
}

#ifdef HAVE_SANITIZER
/* Not async-signal-safe, but the process is dying anyway: a test's TMPDIR must be left
 * empty even then. */
static void
on_death (void)
{
  say_current ("crashed");
  current = NULL; /* the abort that follows need not say it again */
  lm_fuzz_remove_tmpdir ();
}
#endif

static void
on_signal (int sig)
{
  say_current (sig == SIGALRM ? "timed out" : "crashed");
  lm_fuzz_remove_tmpdir ();
  signal (SIGABRT, SIG_DFL);
  abort ();
}

static long
peak_rss_kb (void)
{
  struct rusage usage;
  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

static guint
env_uint (const char *name, guint fallback)
{
  const char *text = g_getenv (name);
  return text && *text ? (guint) g_ascii_strtoull (text, NULL, 10) : fallback;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
add_inputs (GPtrArray *files, const char *path)
{
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        g_ptr_array_add (files, g_strdup (path));
      else
        g_print ("replay: %s does not exist, skipped\n", path);
      return;
    }
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;
  guint first = files->len;
  while (dir && (name = g_dir_read_name (dir)))
    {
      char *child = g_build_filename (path, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (files, child);
      else
        g_free (child);
    }
  if (dir)
    g_dir_close (dir);
  qsort (files->pdata + first, files->len - first, sizeof (gpointer), compare_names);
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: %s FILE-OR-FOLDER…\n", argv[0]);
      return 2;
    }
#ifdef HAVE_SANITIZER
  __sanitizer_set_death_callback (on_death);
#endif
  signal (SIGALRM, on_signal);
  signal (SIGABRT, on_signal);
  signal (SIGSEGV, on_signal);
  guint timeout = env_uint ("LUMEN_FUZZ_TIMEOUT", 5);
  long rss_limit_kb = (long) env_uint ("LUMEN_FUZZ_RSS_MB", 512) * 1024;
  gboolean verbose = g_strcmp0 (g_getenv ("LUMEN_FUZZ_VERBOSE"), "1") == 0;

  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  for (int i = 1; i < argc; i++)
    add_inputs (files, argv[i]);

  gint64 start = g_get_monotonic_time ();
  gint64 slowest = 0;
  const char *slowest_name = "";
  for (guint i = 0; i < files->len; i++)
    {
      current = files->pdata[i];
      if (verbose)
        g_print ("replay: %s\n", current);
      char *contents;
      gsize len;
      GError *error = NULL;
      if (!g_file_get_contents (current, &contents, &len, &error))
        {
          fprintf (stderr, "replay: %s\n", error->message);
          return 1;
        }
      /* A copy of exactly LEN bytes, as libFuzzer gives: ASan sees a read past the end. Never
       * NULL, even for an empty file. */
      guint8 *input = g_malloc (MAX (len, 1));
      memcpy (input, contents, len);
      g_free (contents);
      long rss_before = peak_rss_kb ();
      gint64 t0 = g_get_monotonic_time ();
      alarm (timeout);
      LLVMFuzzerTestOneInput (input, len);
      alarm (0);
      gint64 took = g_get_monotonic_time () - t0;
      long grew = peak_rss_kb () - rss_before;
      if (grew > rss_limit_kb)
        {
          fprintf (stderr, "replay: %s raised the peak memory by %ld MB (at most %ld allowed)\n", current,
                   grew / 1024, rss_limit_kb / 1024);
          return 1;
        }
      if (took > slowest)
        {
          slowest = took;
          slowest_name = files->pdata[i];
        }
      g_free (input);
    }
  current = NULL;
  g_print ("replay: %u inputs in %.2f s (slowest %.3f s: %s)\n", files->len,
           (g_get_monotonic_time () - start) / 1e6, slowest / 1e6, slowest_name);
  return 0;
}

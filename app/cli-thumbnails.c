/* lumen-cli thumbnails: fills the freedesktop thumbnail cache for folders and photos, as the
 * folder view would, through the same queue (core/library/thumbnail-queue.h). */
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "core/io/raw-sniff.h"
#include "core/library/thumbnail-cache.h"
#include "core/library/thumbnail-queue.h"
#include "core/timing.h"

/* "Time to the first screen": about as many thumbnails as a window's grid shows at once. */
#define FIRST_SCREEN 30

typedef struct {
  int size;
  gboolean timings;
  char *backend;
  char **inputs;
} Options;

typedef struct {
  GMainLoop *loop;
  guint n, done, failed;
  gint64 start_us;
  double first_ms;
} Run;

static gboolean
has_photo_suffix (const char *name)
{
  static const char *const suffixes[] = { ".jpg", ".jpeg", ".png", ".tif", ".tiff", ".webp", ".bmp",
                                          ".gif", ".hdr", ".exr", ".fits", ".fit", ".fts" };
  const char *dot = strrchr (name, '.');
  for (guint i = 0; dot && i < G_N_ELEMENTS (suffixes); i++)
    if (g_ascii_strcasecmp (dot, suffixes[i]) == 0)
      return TRUE;
  return lm_raw_has_suffix (name);
}

typedef struct {
  char *key; /* g_utf8_collate_key_for_filename's */
  char *name;
} Entry;

static int
by_key (gconstpointer a, gconstpointer b)
{
  return strcmp (((const Entry *) a)->key, ((const Entry *) b)->key);
}

/* The photos of FOLDER (by their names' suffixes, not hidden), in the order a file manager
 * lists them. */
static gboolean
add_folder (const char *folder, GPtrArray *photos, GError **error)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, error);
  if (dir == NULL)
    return FALSE;
  g_autoptr (GArray) entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  const char *name;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.' && has_photo_suffix (name))
      {
        g_autofree char *utf8 = g_filename_display_name (name);
        Entry e = { g_utf8_collate_key_for_filename (utf8, -1), g_strdup (name) };
        g_array_append_val (entries, e);
      }
  g_array_sort (entries, by_key);
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);
      g_ptr_array_add (photos, g_build_filename (folder, e->name, NULL));
      g_free (e->key);
      g_free (e->name);
    }
  return TRUE;
}

static void
on_ready (const char *photo, LmImage *thumb, const GError *error, gpointer user_data)
{
  Run *run = user_data;
  if (thumb == NULL)
    {
      lm_cli_error ("%s", error->message);
      run->failed++;
    }
  g_clear_pointer (&thumb, lm_image_unref);
  run->done++;
  if (run->done == MIN (run->n, FIRST_SCREEN))
    run->first_ms = lm_ms_since (run->start_us);
  if (run->done == run->n)
    g_main_loop_quit (run->loop);
}

int
lm_cli_thumbnails_main (int argc, char **argv)
{
  Options o = { .size = 256 };
  const GOptionEntry entries[] = {
    LM_CLI_NUMBER_ENTRY ("size", N_("Longest side of the thumbnails, 1..1024 (default 256: the cache's “large”)"),
                         N_("N")),
    { "timings", 0, 0, G_OPTION_ARG_NONE, &o.timings, N_("Print the time to the first 30 thumbnails and to all"),
      NULL },
    { "backend", 0, 0, G_OPTION_ARG_STRING, &o.backend,
      N_("Where JPEGs are decoded and shrunk: auto (the CPU's cores, and nvJPEG on the GPU beside them), cpu, cuda "
         "(nvJPEG alone)"),
      N_("auto|cpu|cuda") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.inputs, NULL, NULL },
    { NULL },
  };
  static LmCliNumber numbers[1];
  numbers[0] = (LmCliNumber) { "--size", 1, LM_THUMBNAIL_SIZE_MAX, TRUE, &o.size };
  lm_cli_numbers_add (numbers, G_N_ELEMENTS (numbers));
  g_autoptr (GOptionContext) context
    = lm_cli_options_new (_("FOLDER|PHOTO…"),
                          _("Makes the thumbnails of photos (those of each FOLDER) in the freedesktop cache, "
                            "$XDG_CACHE_HOME/thumbnails, which file managers share; edited photos' in Lumen's own."),
                          NULL, NULL, entries);
  if (!lm_cli_options_parse (context, &argc, &argv))
    return LM_EXIT_USAGE;
  g_auto (GStrv) inputs = g_steal_pointer (&o.inputs);
  g_autofree char *backend = g_steal_pointer (&o.backend);
  LmThumbnailDevice device = LM_THUMBNAIL_AUTO;
  if (backend != NULL && g_str_equal (backend, "cpu"))
    device = LM_THUMBNAIL_CPU;
  else if (backend != NULL && g_str_equal (backend, "cuda"))
    device = LM_THUMBNAIL_GPU;
  else if (backend != NULL && !g_str_equal (backend, "auto"))
    return lm_cli_usage_error (_("--backend takes auto, cpu or cuda"));
  if (inputs == NULL || inputs[0] == NULL)
    return lm_cli_usage_error (_("no folder or photo given"));

  gboolean failed = FALSE;
  g_autoptr (GPtrArray) photos = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; inputs[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      if (g_file_test (inputs[i], G_FILE_TEST_IS_DIR) && !add_folder (inputs[i], photos, &error))
        {
          lm_cli_error ("%s", error->message);
          failed = TRUE;
        }
      else if (!g_file_test (inputs[i], G_FILE_TEST_IS_DIR))
        g_ptr_array_add (photos, g_strdup (inputs[i]));
    }

  Run run = { .n = photos->len, .start_us = g_get_monotonic_time () };
  if (photos->len > 0)
    {
      run.loop = g_main_loop_new (NULL, FALSE);
      LmThumbnailQueue *queue = lm_thumbnail_queue_new_full (o.size, 0, device, on_ready, &run);
      /* As a window asks: its first screen visible (served first), the rest for later. */
      guint first = MIN (photos->len, FIRST_SCREEN);
      lm_thumbnail_queue_hold (queue, TRUE);
      lm_thumbnail_queue_want (queue, (const char *const *) photos->pdata, first, TRUE);
      lm_thumbnail_queue_want (queue, (const char *const *) photos->pdata + first, photos->len - first, FALSE);
      lm_thumbnail_queue_hold (queue, FALSE);
      g_main_loop_run (run.loop);
      lm_thumbnail_queue_free (queue);
      g_main_loop_unref (run.loop);
    }
  double all_ms = lm_ms_since (run.start_us);
  if (o.timings)
    {
      printf (_("first %u: %.1f ms\n"), MIN (run.n, FIRST_SCREEN), run.first_ms);
      printf (_("all %u: %.1f ms\n"), run.n, all_ms);
    }
  if (run.failed > 0)
    lm_cli_error (ngettext ("%u of %u photos has no thumbnail", "%u of %u photos have no thumbnail", run.n),
                  run.failed, run.n);
  return failed || run.failed > 0 ? LM_EXIT_FAILURE : LM_EXIT_OK;
}

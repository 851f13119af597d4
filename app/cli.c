/* lumen-cli: Lumen's operations on files, without a window. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "cli-batch.h"
#include "config.h"
#include "core/error.h"
#include "core/i18n.h"
#include "core/io/io.h"
#include "core/io/raw-sniff.h"
#include "core/io/text-input.h"
#include "core/render/develop-one.h"
#include "core/timing.h"

void
lm_cli_error (const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *message = g_strdup_vprintf (format, args);
  va_end (args);
  /* One line, whatever a library put in the message, and nothing a terminal would act on
   * or could not show (a file name may hold escape sequences, GOption quotes raw bytes). */
  g_strdelimit (message, "\n", ' ');
  g_autofree char *shown = lm_text_escape (message, -1, -1);
  fprintf (stderr, "lumen-cli: %s\n", shown);
}

void
lm_cli_notes (const char *path, GPtrArray *notes)
{
  if (notes == NULL || notes->len == 0)
    return;
  g_autofree char *display = g_filename_display_name (path);
  for (guint i = 0; i < notes->len; i++)
    lm_cli_error (_("note: %s: %s"), display, (const char *) notes->pdata[i]);
}

int
lm_cli_usage_error (const char *message)
{
  lm_cli_error ("%s", message);
  fprintf (stderr, _("Try “lumen-cli --help” for the options.\n"));
  return LM_EXIT_USAGE;
}

GOptionContext *
lm_cli_options_new (const char *parameter, const char *summary, const char *description, GOptionGroup *group,
                    const GOptionEntry *entries)
{
  GOptionContext *context = g_option_context_new (parameter);
  g_option_context_set_summary (context, summary);
  if (description)
    g_option_context_set_description (context, description);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (group)
    g_option_context_set_main_group (context, group);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  return context;
}

gboolean
lm_cli_options_parse (GOptionContext *context, int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;
  if (g_option_context_parse (context, argc, argv, &error))
    return TRUE;
  lm_cli_usage_error (error->message);
  return FALSE;
}

/* GOption gives a callback its group's data alone, and the main groups these flags join
 * have none that could say where a value goes: the commands register their numbers here. */
static struct {
  const LmCliNumber *numbers;
  guint n;
} number_sets[4];
static guint n_number_sets;

void
lm_cli_numbers_add (const LmCliNumber *numbers, guint n)
{
  g_return_if_fail (n_number_sets < G_N_ELEMENTS (number_sets));
  number_sets[n_number_sets].numbers = numbers;
  number_sets[n_number_sets++].n = n;
}

static const LmCliNumber *
find_number (const char *name)
{
  for (guint s = 0; s < n_number_sets; s++)
    for (guint i = 0; i < number_sets[s].n; i++)
      if (g_str_equal (number_sets[s].numbers[i].name, name))
        return &number_sets[s].numbers[i];
  return NULL;
}

gboolean
lm_cli_number_flag (const char *name, const char *value, gpointer data, GError **error)
{
  const LmCliNumber *number = find_number (name);
  if (number == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION, _("unknown option %s"), name);
      return FALSE;
    }
  double v;
  GError *e = NULL;
  if (!lm_text_parse_double (value, &v, &e))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s: %s", name, e->message);
      g_error_free (e);
      return FALSE;
    }
  if (number->integer && v != floor (v))
    {
      g_autofree char *quoted = lm_text_quote (value, -1);
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s: “%s” is not a whole number"), name,
                   quoted);
      return FALSE;
    }
  if (v < number->min || v > number->max)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s: %g is outside %g..%g"), name, v,
                   number->min, number->max);
      return FALSE;
    }
  if (number->integer)
    *(int *) number->target = (int) v;
  else
    *(double *) number->target = v;
  return TRUE;
}

gboolean
lm_cli_fall_back_to_cpu (LmBackendKind asked, LmBackend *backend, const GError *error)
{
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  gboolean again = lm_develop_fall_back (asked, backend, error, said);
  for (guint i = 0; i < said->len; i++)
    lm_cli_error ("%s", (const char *) said->pdata[i]);
  return again;
}

gboolean
lm_cli_parse_backend (const char *text, LmBackendKind *kind, GError **error)
{
  if (text == NULL)
    {
      *kind = LM_BACKEND_AUTO;
      return TRUE;
    }
  if (lm_backend_kind_parse (text, kind))
    return TRUE;
  g_autofree char *quoted = lm_text_quote (text, -1);
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--backend: unknown backend “%s” (auto, cpu or cuda)"), quoted);
  return FALSE;
}

LmImage *
lm_cli_load_photo (const char *path, const LmAllocator *allocator, GError **error)
{
  return lm_cli_load_photo_telling (path, allocator, NULL, NULL, error);
}

LmImage *
lm_cli_load_photo_telling (const char *path, const LmAllocator *allocator, LmIoImageFunc told, gpointer data,
                           GError **error)
{
  g_autoptr (LmImage) image = lm_io_load_telling (path, allocator, told, data, error);
  if (image == NULL)
    return NULL;
  if (image->format == LM_FORMAT_RGBA_F32)
    {
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("%s: is an HDR radiance map; these operations work on 8-bit photos"), display);
      return NULL;
    }
  lm_cli_notes (path, image->notes);
  return g_steal_pointer (&image);
}

/* The extensions a command writes, as its messages list them: a wrong one is answered with
 * the ones that work for that command, not with every format Lumen knows. */
static const char *
output_extensions (gboolean radiance_too)
{
  if (!radiance_too)
    return _(".png, .jpg, .jpeg, .tif or .tiff");
  return LUMEN_HAVE_OPENEXR ? _(".png, .jpg, .jpeg, .tif, .tiff, .hdr or .exr")
                            : _(".png, .jpg, .jpeg, .tif, .tiff or .hdr");
}

gboolean
lm_cli_check_output (const char *path, gboolean radiance_too, GError **error)
{
  LmFileType type = lm_file_type_for_output (path);
  if (type != LM_FILE_UNKNOWN && (radiance_too || !lm_file_type_is_radiance (type)))
    return lm_io_check_output (path, error);
  g_autofree char *display = g_filename_display_name (path);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
               type == LM_FILE_UNKNOWN ? _("%s: unknown output format; use a name ending in %s")
                                       : _("%s: .hdr and .exr hold HDR radiance, which lumen-cli hdr writes; "
                                           "use a name ending in %s"),
               display, output_extensions (radiance_too));
  return FALSE;
}

gboolean
lm_cli_backend_transfers (LmBackend *backend)
{
  return lm_backend_work_allocator (backend)->memory == LM_MEMORY_DEVICE;
}

/* The commands, in the order --help lists them; the first is the one run when none is named. */
typedef struct {
  const char *name;
  int (*main) (int argc, char **argv);
  const char *synopsis;    /* what follows "lumen-cli " */
  const char *description; /* one line */
} Command;

static const Command commands[] = {
  { "process", lm_cli_process_main, N_("[process] -o OUT IN"),
    N_("one photo through the operations (the default)") },
  { "compare", lm_cli_compare_main, N_("compare IN"),
    N_("the operations on the CPU and on CUDA, timed and compared") },
  { "hdr", lm_cli_hdr_main, N_("hdr -o OUT IN1 IN2 …"),
    N_("bracketed exposures merged into HDR radiance or an 8-bit image") },
  { "batch", lm_cli_batch_main, N_("batch -o OUTDIR INPUT…"),
    N_("many stacks merged as hdr merges one; resumable, sharded") },
  { "detect", lm_cli_detect_main, N_("detect -o CAT IN.fits"),
    N_("sources in an astronomical image: background, segmentation, catalogue") },
  { "detect-objects", lm_cli_detect_objects_main, N_("detect-objects -o OUT IN"),
    N_("faces, people, plates… found with OpenCV's cascade models, as boxes") },
  { "tags", lm_cli_tags_main, N_("tags [OPTION…] PHOTO…"),
    N_("star ratings, rejects and colour labels in XMP sidecars") },
  { "thumbnails", lm_cli_thumbnails_main, N_("thumbnails FOLDER|PHOTO…"),
    N_("thumbnails made into the freedesktop cache that file managers share") },
  { "presets", lm_cli_presets_main, N_("presets [list | …]"),
    N_("the presets: listed, imported, exported, deleted") },
};

char *
lm_cli_commands_help (void)
{
  GString *text = g_string_new (_("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *synopsis = g_strconcat ("lumen-cli ", _(commands[i].synopsis), NULL);
      g_autofree char *padded = lm_pad_label (synopsis, 35);
      g_string_append_printf (text, "\n  %s %s", padded, _(commands[i].description));
    }
  g_string_append_printf (text, "\n%s", _("Each command's options: lumen-cli COMMAND --help."));
  return g_string_free (text, FALSE);
}

static gboolean
has_image_extension (const char *word)
{
  static const char *const exts[] = { ".jpg", ".jpeg", ".png", ".tif", ".tiff", ".webp",
                                      ".bmp", ".gif", ".hdr", ".exr" };
  const char *dot = strrchr (word, '.');
  for (guint i = 0; dot && i < G_N_ELEMENTS (exts); i++)
    if (g_ascii_strcasecmp (dot, exts[i]) == 0)
      return TRUE;
  return lm_raw_has_suffix (word);
}

/* A photo may come first (lumen-cli photo.jpg -o out.png), so a first word that is no
 * command is a mistyped one only when it cannot be meant as a file: it does not exist, has
 * no image extension and is no path. */
static gboolean
is_unknown_command (const char *word)
{
  return word[0] != '-' && strchr (word, G_DIR_SEPARATOR) == NULL && !has_image_extension (word)
         && !g_file_test (word, G_FILE_TEST_EXISTS);
}

static int
unknown_command (const char *word)
{
  g_autoptr (GString) names = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (names, "%s%s", i ? ", " : "", commands[i].name);
  g_autofree char *quoted = lm_text_quote (word, -1);
  g_autofree char *message = g_strdup_printf (_("unknown command “%s” (the commands: %s)"), quoted,
                                              names->str);
  return lm_cli_usage_error (message);
}

int
main (int argc, char **argv)
{
  lm_i18n_init ();
  g_set_prgname ("lumen-cli");

  if (argc < 2)
    return lm_cli_process_main (argc, argv);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      {
        /* process keeps the plain name: its help is the one of lumen-cli itself. */
        if (i > 0)
          {
            g_autofree char *prgname = g_strconcat ("lumen-cli ", commands[i].name, NULL);
            g_set_prgname (prgname);
          }
        return commands[i].main (argc - 1, argv + 1);
      }
  if (is_unknown_command (argv[1]))
    return unknown_command (argv[1]);
  return lm_cli_process_main (argc, argv);
}

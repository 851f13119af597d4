/* lumen-cli: Lumen's operations on files, without a window. */
#include <stdio.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "cli-batch.h"
#include "config.h"
#include "core/error.h"
#include "core/i18n.h"
#include "core/io.h"

void
lm_cli_error (const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *message = g_strdup_vprintf (format, args);
  va_end (args);
  /* One line, whatever a library put in the message. */
  g_strdelimit (message, "\n", ' ');
  fprintf (stderr, "lumen-cli: %s\n", message);
}

int
lm_cli_usage_error (const char *message)
{
  lm_cli_error ("%s", message);
  fprintf (stderr, _("Try “lumen-cli --help” for the options.\n"));
  return LM_EXIT_USAGE;
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
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--backend: unknown backend “%s” (auto, cpu or cuda)"), text);
  return FALSE;
}

LmImage *
lm_cli_load_photo (const char *path, const LmAllocator *allocator, GError **error)
{
  g_autoptr (LmImage) image = lm_io_load (path, allocator, error);
  if (image == NULL)
    return NULL;
  if (image->format == LM_FORMAT_RGBA_F32)
    {
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("%s: is an HDR radiance map; these operations work on 8-bit photos"), display);
      return NULL;
    }
  return g_steal_pointer (&image);
}

int
main (int argc, char **argv)
{
  lm_i18n_init ();
  g_set_prgname ("lumen-cli");

  /* Subcommands come first; anything else is the photo command. */
  if (argc > 1 && g_str_equal (argv[1], "compare"))
    {
      g_set_prgname ("lumen-cli compare");
      return lm_cli_compare_main (argc - 1, argv + 1);
    }
  if (argc > 1 && g_str_equal (argv[1], "hdr"))
    {
      g_set_prgname ("lumen-cli hdr");
      return lm_cli_hdr_main (argc - 1, argv + 1);
    }
  if (argc > 1 && g_str_equal (argv[1], "batch"))
    {
      g_set_prgname ("lumen-cli batch");
      return lm_cli_batch_main (argc - 1, argv + 1);
    }
  return lm_cli_process_main (argc, argv);
}

/* lumen-cli presets [list | import FILE [NAME] | export NAME FILE | delete NAME]: the
 * person's presets and the built-in ones (core/library/presets.h), as the window's Manage
 * Presets… dialog has them. `list` prints a line per preset: its name, a tab, "user" or
 * "built-in", a tab, its file. */
#include <stdio.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "core/library/presets.h"

static int
fail (GError *error)
{
  lm_cli_error ("%s", error->message);
  g_error_free (error);
  return LM_EXIT_FAILURE;
}

static int
list (void)
{
  GError *error = NULL;
  g_autoptr (GPtrArray) presets = lm_presets_list (&error);
  if (presets == NULL)
    return fail (error);
  for (guint i = 0; i < presets->len; i++)
    {
      const LmPreset *p = g_ptr_array_index (presets, i);
      printf ("%s\t%s\t%s\n", p->name, p->builtin ? "built-in" : "user", p->path);
    }
  return LM_EXIT_OK;
}

int
lm_cli_presets_main (int argc, char **argv)
{
  g_autofree char *summary = g_strdup (
    _("Lists, imports, exports and deletes presets: sidecars kept under a name in the user's data folder "
      "($XDG_DATA_HOME/lumen/presets), and the built-in ones. --preset NAME applies one to a photo.\n\n"
      "  list                   a line per preset: name, user or built-in, its file\n"
      "  import FILE [NAME]     FILE (a sidecar Lumen reads) kept as a preset named NAME (default: FILE's name)\n"
      "  export NAME FILE       the preset NAME (or a preset file) written to FILE\n"
      "  delete NAME            the user's preset NAME removed"));
  static const GOptionEntry none[] = { { NULL } };
  g_autoptr (GOptionContext) context
    = lm_cli_options_new (_("[list | import FILE [NAME] | export NAME FILE | delete NAME]"), summary, NULL, NULL, none);
  if (!lm_cli_options_parse (context, &argc, &argv))
    return LM_EXIT_USAGE;
  const char *what = argc > 1 ? argv[1] : "list";
  int n = argc > 1 ? argc - 2 : 0; /* arguments after the subcommand */
  GError *error = NULL;
  if (g_str_equal (what, "list") && n == 0)
    return list ();
  if (g_str_equal (what, "import") && (n == 1 || n == 2))
    {
      g_autofree char *path = lm_preset_import (argv[2], n == 2 ? argv[3] : NULL, &error);
      if (path == NULL)
        return fail (error);
      printf ("%s\n", path);
      return LM_EXIT_OK;
    }
  if (g_str_equal (what, "export") && n == 2)
    return lm_preset_export (argv[2], argv[3], &error) ? LM_EXIT_OK : fail (error);
  if (g_str_equal (what, "delete") && n == 1)
    return lm_preset_delete (argv[2], &error) ? LM_EXIT_OK : fail (error);
  return lm_cli_usage_error (
    _("presets takes list, import FILE [NAME], export NAME FILE or delete NAME"));
}

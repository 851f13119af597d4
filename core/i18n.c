#include "i18n.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "config.h"

/* Whether DIR holds Lumen's catalogue for one of the languages asked for (LANGUAGE,
 * LC_ALL, LC_MESSAGES, LANG). */
static gboolean
has_catalogue (const char *dir)
{
  const char *const *languages = g_get_language_names ();
  for (guint i = 0; languages[i]; i++)
    {
      g_autofree char *mo = g_build_filename (dir, languages[i], "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
      if (g_file_test (mo, G_FILE_TEST_IS_REGULAR))
        return TRUE;
    }
  return FALSE;
}

/* The build tree's catalogues (meson's i18n.gettext compiles them into po/<lang>/LC_MESSAGES
 * of the build folder) where this program runs uninstalled: it lies a level or two under a
 * folder with build.ninja. NULL otherwise. */
static char *
build_tree_localedir (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  if (exe == NULL)
    return NULL;
  g_autofree char *dir = g_path_get_dirname (exe);
  for (int up = 0; up < 3; up++)
    {
      g_autofree char *ninja = g_build_filename (dir, "build.ninja", NULL);
      if (g_file_test (ninja, G_FILE_TEST_IS_REGULAR))
        {
          char *po = g_build_filename (dir, "po", NULL);
          if (has_catalogue (po))
            return po;
          g_free (po);
          return NULL;
        }
      char *parent = g_path_get_dirname (dir);
      g_free (dir);
      dir = parent;
    }
  return NULL;
}

void
lm_i18n_init (void)
{
  setlocale (LC_ALL, "");
  /* LUMEN_LOCALEDIR first (tests, packaging checks); then the build tree's catalogue when
   * run from one, which matches the program's own strings (an installed one may be older,
   * or missing: `make run` needs no variable for German); then the installed one. */
  const char *localedir = g_getenv ("LUMEN_LOCALEDIR");
  g_autofree char *build = localedir ? NULL : build_tree_localedir ();
  bindtextdomain (GETTEXT_PACKAGE, localedir ? localedir : build ? build : LUMEN_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

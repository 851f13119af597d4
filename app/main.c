/* lumen: the editor window. */
#include <locale.h>
#include <glib/gi18n.h>

#include "config.h"
#include "ui/application.h"

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  /* LUMEN_LOCALEDIR: the build tree's catalogues, for tests and uninstalled runs. */
  const char *localedir = g_getenv ("LUMEN_LOCALEDIR");
  bindtextdomain (GETTEXT_PACKAGE, localedir ? localedir : LUMEN_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_application_name ("Lumen");

  g_autoptr (LmApplication) app = lm_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}

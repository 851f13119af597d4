#include "i18n.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "config.h"

void
lm_i18n_init (void)
{
  setlocale (LC_ALL, "");
  const char *localedir = g_getenv ("LUMEN_LOCALEDIR");
  bindtextdomain (GETTEXT_PACKAGE, localedir ? localedir : LUMEN_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

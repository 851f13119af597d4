/* lumen: the editor window. */

#include "config.h"
#include "core/i18n.h"
#include "ui/application.h"

int
main (int argc, char **argv)
{
  lm_i18n_init ();
  g_set_application_name ("Lumen");

  g_autoptr (LmApplication) app = lm_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}

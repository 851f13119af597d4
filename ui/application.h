/* LmApplication: the GtkApplication of the editor: app actions, accelerators, windows. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LM_TYPE_APPLICATION (lm_application_get_type ())
G_DECLARE_FINAL_TYPE (LmApplication, lm_application, LM, APPLICATION, GtkApplication)

LmApplication *lm_application_new (void);

G_END_DECLS

/* LmWindow's colour management of the view (window-color.c): the view transform from the
 * photo's profile to the monitor's, the Monitor Profile… action, the "as seen" histogram. */
#pragma once

#include "window.h"

G_BEGIN_DECLS

typedef struct _LmWindowColor LmWindowColor;

void lm_window_color_init (LmWindow *self);
void lm_window_color_free (LmWindow *self);
/* REQ (a preview) goes through the view transform of the photo and monitor now (made when
 * either changed) and asks for the histogram as seen where the toggle is on. */
void lm_window_color_prepare (LmWindow *self, LmRenderRequest *req);
void lm_window_monitor_profile_action (GSimpleAction *action, GVariant *param, gpointer data);

G_END_DECLS

/* LmWindow's raw development panel (window-raw.c): the raw stage's parameters (white balance,
 * highlights, demosaic, exposure), shown while the source is a camera raw, above the tone
 * mapping that turns its scene light into the display's. */
#pragma once

#include "window.h"

G_BEGIN_DECLS

/* The panel (self->raw_panel), packed into the side panel, hidden. */
void lm_window_build_raw_panel (LmWindow *self);
/* It shows where the source is a RAW. */
void lm_window_show_raw_panel (LmWindow *self, gboolean raw);

G_END_DECLS

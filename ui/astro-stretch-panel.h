/* The display stretch's controls for FITS data (curve, limits by percentile or zscale, the
 * percentiles) and the header's button. "changed" when the stretch changes; "show-header". */
#pragma once

#include <gtk/gtk.h>

#include "core/astro/stretch.h"

G_BEGIN_DECLS

#define LM_TYPE_ASTRO_STRETCH_PANEL (lm_astro_stretch_panel_get_type ())
G_DECLARE_FINAL_TYPE (LmAstroStretchPanel, lm_astro_stretch_panel, LM, ASTRO_STRETCH_PANEL, GtkBox)

GtkWidget *lm_astro_stretch_panel_new (void);
void lm_astro_stretch_panel_get (LmAstroStretchPanel *self, LmStretchParams *params);

G_END_DECLS

/* The sources of a detection as a sortable table: a GtkTreeView over a GtkListStore, one
 * column each of id, x, y, flux, peak, area, a, b and FWHM (clicking a header sorts). */
#pragma once

#include <gtk/gtk.h>


#include "core/astro/detect.h"

G_BEGIN_DECLS

enum { LM_SOURCE_COL_ID, LM_SOURCE_COL_X, LM_SOURCE_COL_Y, LM_SOURCE_COL_FLUX, LM_SOURCE_COL_PEAK,
       LM_SOURCE_COL_AREA, LM_SOURCE_COL_A, LM_SOURCE_COL_B, LM_SOURCE_COL_FWHM, LM_SOURCE_N_COLS };

GtkTreeView *lm_source_table_new (void);
/* RESULT's sources (NULL: none) replace those shown. */
void lm_source_table_set (GtkTreeView *table, const LmDetectResult *result);

G_END_DECLS

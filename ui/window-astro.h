/* LmWindow's FITS files (window-astro.c): their float data, display stretch and source
 * detection; the Detect Sources panel and the catalogue's export are in window.h. */
#pragma once

#include "window.h"

#include "core/io/fits.h"

G_BEGIN_DECLS

typedef struct _LmWindowAstro LmWindowAstro;

void lm_window_astro_init (LmWindow *self);
void lm_window_astro_free (LmWindow *self);
/* TRUE while a FITS file is open. */
gboolean lm_window_astro_active (LmWindow *self);
/* DATA (GRAY_F32, host) of FILE with INFO (taken) opens: shown once its first view is in. */
void lm_window_astro_open (LmWindow *self, LmImage *data, LmFitsInfo *info, GFile *file);
/* A photo opens instead. */
void lm_window_astro_close (LmWindow *self);
/* The data histogram over the preview's. */
void lm_window_astro_show_histogram (LmWindow *self);
void lm_window_astro_backend_changed (LmWindow *self);

G_END_DECLS

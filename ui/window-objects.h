/* LmWindow's object detection in photos (window-objects.c): the Detect Objects panel, the
 * detection as a job of the render worker on the window's backend, the boxes over the photo
 * wherever the view's geometry puts them, masks made of them, and the crop suggested from
 * them. */
#pragma once

#include "window.h"

G_BEGIN_DECLS

typedef struct _LmWindowObjects LmWindowObjects;

void lm_window_objects_init (LmWindow *self);
/* Stops a detection under way; no result comes after. */
void lm_window_objects_free (LmWindow *self);
/* A new photo (or none): a detection under way is stopped and the boxes are forgotten. */
void lm_window_objects_forget (LmWindow *self);
/* The panel, for the controls that FITS data makes insensitive; NULL once freed. */
GtkWidget *lm_window_objects_panel (LmWindow *self);

G_END_DECLS

/* LmObjectsPanel: the Detect Objects panel of a photo: which model (opencv-data's cascades,
 * core/detect/models.h), the smallest object looked for, the sensitivity, Detect; a line of
 * what the last detection found, in how long and where; the list of the boxes ("face 1", …);
 * a mask from the box selected or from them all, and a crop suggested from them. Signals:
 * "detect"; "box-selected" (int: the box's index, -1 for none); "mask" (gboolean: all boxes,
 * else the one selected); "suggest-crop". */
#pragma once

#include <gtk/gtk.h>

#include "core/detect/detect.h"

G_BEGIN_DECLS

#define LM_TYPE_OBJECTS_PANEL (lm_objects_panel_get_type ())
G_DECLARE_FINAL_TYPE (LmObjectsPanel, lm_objects_panel, LM, OBJECTS_PANEL, GtkBox)

GtkWidget *lm_objects_panel_new (void);

/* The model chosen (a name of lm_cascade_models). */
const char *lm_objects_panel_get_model (LmObjectsPanel *self);
/* PARAMS for a photo of WIDTH × HEIGHT from the controls (the rest at OpenCV's defaults). */
void lm_objects_panel_get_params (LmObjectsPanel *self, guint width, guint height, LmCascadeParams *params);

/* BOXES (LmCascadeBox; NULL: none) of model MODEL listed, none selected; STATUS the line above
 * them (NULL: none). */
void lm_objects_panel_show (LmObjectsPanel *self, const GArray *boxes, const char *model, const char *status);
/* STATUS as the line above the list, the boxes kept. */
void lm_objects_panel_set_status (LmObjectsPanel *self, const char *status);
/* The index of the box selected in the list, -1 where none is. */
int lm_objects_panel_get_selected (LmObjectsPanel *self);

/* What one object of MODEL is called, translated, for labels ("face" for faces). */
const char *lm_objects_noun (const char *model);
/* A box's label: the noun and its number from 1 ("face 1"); newly allocated. */
char *lm_objects_label (const char *model, guint index);

G_END_DECLS

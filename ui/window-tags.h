/* LmWindow's rating keys (ui/rating-keys.h) on the photo being edited: its stars, reject and
 * colour labels, written to its XMP sidecar at each key and shown in the status bar. */
#pragma once

#include "window.h"

G_BEGIN_DECLS

typedef struct _LmWindowTags LmWindowTags;

void lm_window_tags_init (LmWindow *self);
void lm_window_tags_free (LmWindow *self);

/* FILE (NULL: none; a merge, an astronomical session) is the photo the keys now tag: its tags
 * are read and shown, an unreadable sidecar said in the info bar. */
void lm_window_tags_open (LmWindow *self, GFile *file);

G_END_DECLS

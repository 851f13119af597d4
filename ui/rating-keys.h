/* The rating keys of darktable's lighttable, in both of Lumen's views: 0–5 set the stars,
 * R rejects (again: takes the reject back), F1–F5 toggle the red, yellow, green, blue and
 * purple labels. A pure mapping; the views write what it gives (core/library/photo-tags.h). */
#pragma once

#include <gdk/gdk.h>

#include "core/library/photo-tags.h"

G_BEGIN_DECLS

/* The tags a press of KEYVAL with STATE gives a photo tagged CURRENT, in *NEXT; FALSE (NEXT
 * untouched) for any other key, or with Ctrl, Alt or Super held (Shift is allowed: it gives
 * the digits on some layouts, AZERTY's among them). A reject taken back leaves no stars:
 * the sidecar holds the reject in place of the rating. */
gboolean lm_rating_keys_apply (guint keyval, GdkModifierType state, const LmPhotoTags *current, LmPhotoTags *next);

G_END_DECLS

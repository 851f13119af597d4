/* The thumbnail of an edited photo shows its edits: a render of its sidecar on a small
 * decode of the photo, kept in Lumen's own cache ($XDG_CACHE_HOME/lumen/thumbnails), since
 * the shared one must show the file as it is (the file manager shows it as such). */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

/* PHOTO's edited thumbnail (as lm_thumbnail_load's: RGBA8, upright, longest side <= SIZE)
 * when it has a sidecar with edits; NULL without an error when it has none (or one that
 * cannot be read: the editor says why when the photo opens), for lm_thumbnail_load.
 * A camera raw's edits are rendered on its embedded preview, display-referred: close to,
 * not the same as, its development. */
LmImage *lm_thumbnail_edited_load (const char *photo, int size, gboolean *edited, GError **error);

/* $XDG_CACHE_HOME/lumen/thumbnails/<folder>/<MD5 of the URI>.png: one file a photo, which a
 * new edit replaces. Its Thumb::URI is the photo's with "#lumen-edits=<MD5 of the sidecar's
 * text>" after it (lm_thumbnail_edited_uri), so that a thumbnail of other edits is stale, as
 * one of an older photo is by Thumb::MTime. */
char *lm_thumbnail_edited_path (const char *uri, int folder_size);
char *lm_thumbnail_edited_uri (const char *uri, GBytes *sidecar);

G_END_DECLS

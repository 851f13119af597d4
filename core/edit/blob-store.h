/* Content-addressed bytes for the whole process: a mask's brush strokes live here, named by a
 * 64-bit key, so that pipelines (copied by value into history and render requests) carry keys
 * rather than points. The main thread interns while render and Apply workers look up: every
 * call takes the store's lock. Blobs are never freed: a key in an old history state stays
 * valid, and a stroke is a few KB. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The key of LEN bytes at DATA (the first 64 bits of their SHA-256; never 0, which says
 * "none"), storing a copy unless the same bytes are there already. Equal bytes give equal keys
 * in every process, so a sidecar written, read and written again names the same keys. */
guint64 lm_blob_intern (const void *data, gsize len);

/* The bytes of KEY (a new reference), or NULL when no blob has it. */
GBytes *lm_blob_lookup (guint64 key);

G_END_DECLS

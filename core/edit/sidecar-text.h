/* A sidecar's lines as GKeyFile would read them, checked before it does: GKeyFile quotes a
 * bad line whole however long it is, and takes silently what a user's file must not say
 * (a group given twice is merged into the first, a key given twice keeps the last value), so
 * that a sidecar put together from two would apply half of each without a word. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* FALSE, naming the line (and the earlier one), for the first line of TEXT (LEN bytes) that
 * is neither blank, a # comment, a [group] nor a key=value pair, for a group given twice,
 * and for a key given twice in one group. */
gboolean lm_sidecar_text_check (const char *text, gsize len, GError **error);

G_END_DECLS

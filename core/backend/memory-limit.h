/* LUMEN_CUDA_MEMORY_LIMIT's form, parsed where every build (CPU-only CI included) can test it:
 * plain bytes ("8589934592") or a number with a binary suffix ("8G", "1.5G", "512M", "64K",
 * "1T"; a trailing "B" or "iB" is allowed), as GPUs' memory is counted in GiB. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The bytes TEXT names, at least 1; FALSE, and ERROR set (LM_ERROR_INVALID, naming
 * the variable and what it accepts), when it names none. */
gboolean lm_memory_limit_parse (const char *text, guint64 *bytes, GError **error);

G_END_DECLS

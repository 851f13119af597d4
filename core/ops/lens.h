/* Lens correction (lens.c) beyond its registration: what its commit found, said in words. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Why PARAMS (LmLensParams, committed) leave the photo uncorrected, one line, translated; NULL
 * when the lens was found (or nothing was committed). */
char *lm_lens_note (const void *params);

G_END_DECLS

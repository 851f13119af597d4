/* Selection of the K-th smallest of N floats (no NaN among them). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Puts the K-th smallest of V[0 … N) at V[K], smaller or equal ones before it, larger or equal
 * ones after. */
void lm_select_kth (float *v, gsize n, gsize k);

G_END_DECLS

/* Whether a cascade's stage sums can be added in any order. A stage adds its stumps' leaves
 * (floats) in double, in stump order, and compares the sum with its threshold; the GPU's late
 * stages add them a warp at a time, in another order. Both give the same double wherever every
 * partial sum is exact, and so the same outcome, window for window. */
#pragma once

#include <glib.h>

#include "cascade-types.h"

G_BEGIN_DECLS

/* TRUE where, in every stage, every leaf is a multiple of the smallest leaf's float ulp and the
 * sum of the largest leaves is below 2⁵³ of those ulps: then every partial sum is exact in
 * double, whatever the order (opencv-data's models all qualify). */
gboolean lm_cascade_sums_exact (const LmCascade *cascade);

G_END_DECLS

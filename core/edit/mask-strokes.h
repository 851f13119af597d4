/* An LmMask flattened for rendering with its brush strokes read from the blob store
 * (blob-store.h): the accessor core/ops/mask.h asks for, so that the renderer needs no
 * knowledge of where points live. */
#pragma once

#include <glib.h>

#include "../ops/mask.h"

G_BEGIN_DECLS

/* lm_mask_flatten of MASK, its strokes looked up in the blob store. A stroke list or stroke
 * that the store does not hold, or whose bytes do not fit a stroke, is refused with a
 * message. */
LmMaskFlat *lm_mask_flatten_stored (const LmMask *mask, gboolean scene, GError **error);

G_END_DECLS

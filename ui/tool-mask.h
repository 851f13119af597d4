/* The mask tools: brush, linear and radial gradient, drawn on the photo's view. */
#pragma once

#include "window.h"

G_BEGIN_DECLS

void lm_tool_mask_start (LmWindow *self, guint32 id, int kind);

G_END_DECLS

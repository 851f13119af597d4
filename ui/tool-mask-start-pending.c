/* Until the mask tools (ui/tool-mask.c) are in: their entry point, doing nothing. */
#include "tool-mask.h"

void
lm_tool_mask_start (LmWindow *self, guint32 id, int kind)
{
}

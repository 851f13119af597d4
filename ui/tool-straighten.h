/* The straighten tool on the image view (ui/tool-straighten.c): a line dragged along the
 * horizon (or along a vertical) tells how far the photo is tilted. */
#pragma once

#include "image-view.h"

G_BEGIN_DECLS

typedef struct _LmStraightenTool LmStraightenTool;

/* DONE gets the turn (degrees, counter-clockwise positive, as straighten's angle) that makes
 * the line drawn level or upright, whichever is nearer: within ±45°. */
typedef void (*LmStraightenDone) (gpointer data, double degrees);

LmStraightenTool *lm_straighten_tool_new (LmImageView *view, LmStraightenDone done, gpointer data);
void lm_straighten_tool_free (LmStraightenTool *tool);
void lm_straighten_tool_begin (LmStraightenTool *tool);
void lm_straighten_tool_end (LmStraightenTool *tool);

/* The turn that makes the line from (X0, Y0) to (X1, Y1) (image pixels, y down) level or
 * upright, the nearer: in (-45°, 45°], counter-clockwise positive. */
double lm_straighten_turn (double x0, double y0, double x1, double y1);

G_END_DECLS

/* The crop tool on the image view (ui/tool-crop.c): the crop rectangle over the image the
 * crop applies to (after rotation and straightening: the window renders that, crop off,
 * while the tool is on), the outside darkened, eight handles to drag, a drag inside to move
 * it, the rule of thirds while dragging; a ratio, when set, holds through every drag. The
 * rectangle is in that image's pixels (x, y, width, height), as crop's parameters are. */
#pragma once

#include "image-view.h"

G_BEGIN_DECLS

typedef struct _LmCropTool LmCropTool;

LmCropTool *lm_crop_tool_new (LmImageView *view);
void lm_crop_tool_free (LmCropTool *tool);

/* The tool takes the view's pointer, on an image of WIDTH × HEIGHT, starting from RECT
 * (clipped to the image), held to RATIO (width over height in the rectangle's own
 * orientation: 3:2 is 2:3 for a portrait rectangle; 0: free). */
void lm_crop_tool_begin (LmCropTool *tool, guint width, guint height, const double rect[4], double ratio);
/* The view's pointer goes back to panning. */
void lm_crop_tool_end (LmCropTool *tool);
gboolean lm_crop_tool_is_active (LmCropTool *tool);

/* The rectangle in whole pixels as crop cuts it (crop-math.h: edges rounded, held to the
 * ratio): what crop's parameters are to be. */
void lm_crop_tool_get_rect (LmCropTool *tool, double rect[4]);
/* A new ratio (as in begin): the rectangle shrinks about its centre to it. */
void lm_crop_tool_set_ratio (LmCropTool *tool, double ratio);
/* Portrait becomes landscape and back: the rectangle turns about its centre (made smaller
 * where it would not fit the image). */
void lm_crop_tool_swap (LmCropTool *tool);

/* RECT (x, y, width, height) shrunk about its centre to RATIO in its own orientation (0:
 * unchanged). */
void lm_crop_rect_fit_ratio (double rect[4], double ratio);

G_END_DECLS

/* What the files of LmImageView share: image-view.c (zoom, pan, painting the views) and
 * image-view-split.c (the before/after split: its halves, line, handle and labels, and
 * dragging the line). Not part of image-view.h. */
#pragma once

#include "image-view.h"

G_BEGIN_DECLS

struct _LmImageView {
  GtkDrawingArea parent_instance;

  guint image_width, image_height;
  gboolean fit;      /* follow the widget's size */
  double scale;      /* logical screen pixels per image pixel */
  double cx, cy;     /* image point at the centre */

  LmImage *pixels;   /* RGB24, of pixels_rect */
  LmViewRect pixels_rect;
  cairo_surface_t *surface;
  LmImage *mask;     /* ARGB32, of mask_rect: an instance's mask, under the overlay */
  LmViewRect mask_rect;
  cairo_surface_t *mask_surface;
  LmImage *overlay;  /* ARGB32, of overlay_rect */
  LmViewRect overlay_rect;
  cairo_surface_t *overlay_surface;
  LmImage *before;   /* RGB24, of before_rect: the unedited photo, left of the split line */
  LmViewRect before_rect;
  cairo_surface_t *before_surface;

  gboolean split;
  double split_pos;  /* the line, as a fraction of the width */
  gboolean dragging_line;
  double drag_line_x; /* the line's column less the pointer's, when it was taken */
  gboolean over_line; /* the pointer is where a drag takes the line: the cursor says so */

  gint64 changed_us, result_us; /* for LUMEN_TRACE */
  gboolean trace;

  GtkGesture *drag;
  double drag_cx, drag_cy;

  const LmViewTool *tool; /* NULL: none */
  gpointer tool_data;
  gboolean tool_pressed;  /* the tool took the press that is down */
};

/* image-view.c */

/* Paints SURFACE, made for RECT, where RECT lies on the screen now. */
void lm_image_view_paint_region (LmImageView *self, cairo_t *cr, cairo_surface_t *surface,
                                 const LmViewRect *rect);
/* Keeps VIEW (NULL: none) of RECT in *HELD and *HELD_RECT, with a cairo surface of FORMAT
 * over its words in *SURFACE, and lets go of what they held before. */
void lm_image_view_hold (LmImage **held, LmViewRect *held_rect, cairo_surface_t **surface, LmImage *view,
                         const LmViewRect *rect, cairo_format_t format);

/* image-view-split.c */

/* The two halves' views, each clipped to its side of the line. */
void lm_image_view_paint_halves (LmImageView *self, cairo_t *cr);
/* The line, its handle and the halves' names, over the views and the overlay. */
void lm_image_view_draw_split (LmImageView *self, cairo_t *cr, const cairo_rectangle_t *extent);

/* The pointer's part in the split line, at (X, Y): each TRUE when the line took the event. A
 * press on the line takes it; motion drags it while taken, else shows whether it is near. */
gboolean lm_image_view_split_press (LmImageView *self, double x, double y);
gboolean lm_image_view_split_release (LmImageView *self, double x, double y);
gboolean lm_image_view_split_motion (LmImageView *self, double x, double y);
void lm_image_view_split_leave (LmImageView *self);

G_END_DECLS

/* LmImageView: the photo at any zoom, dragged to pan wherever there is more of it to show
 * (at fit there is none); a click gives it the keyboard, whose arrow keys pan too. It asks
 * for the pixels of what it shows ("view-changed"), and paints the view the render worker
 * made of that region. In a split view it paints a second view, the unedited photo, left of
 * a vertical line that can be dragged, and the edited one right of it. */
#pragma once

#include <gtk/gtk.h>

#include "core/image.h"
#include "core/ops/compare-math.h"

G_BEGIN_DECLS

#define LM_TYPE_IMAGE_VIEW (lm_image_view_get_type ())
G_DECLARE_FINAL_TYPE (LmImageView, lm_image_view, LM, IMAGE_VIEW, GtkDrawingArea)

GtkWidget *lm_image_view_new (void);

/* A new photo of WIDTH × HEIGHT: the view fits it and forgets the old pixels. */
void lm_image_view_set_image_size (LmImageView *self, guint width, guint height);

/* The size of the image shown (what the pipeline renders); 0 × 0 before the first photo. */
void lm_image_view_get_image_size (LmImageView *self, guint *width, guint *height);

/* The image shown changed size (a crop, a rotation): the view keeps fitting where it did,
 * else its zoom, with its centre moved in proportion. It asks for no render: the caller is
 * about to. Pixels of the old size are kept, stretched to the new one, until new ones come,
 * unless the image turned from landscape to portrait or back (a rotation: they would show
 * the wrong way round). */
void lm_image_view_resize_image (LmImageView *self, guint width, guint height);

/* Where the image lies on the widget now, clipped to the widget; FALSE when nowhere. */
gboolean lm_image_view_image_extent (LmImageView *self, cairo_rectangle_t *extent);

/* Image pixels (of the rendered image) under the widget's point (WX, WY), and back. */
void lm_image_view_to_image (LmImageView *self, double wx, double wy, double *ix, double *iy);
void lm_image_view_to_widget (LmImageView *self, double ix, double iy, double *wx, double *wy);

/* A tool that takes the pointer over the photo (ui/tool-*.c: crop, straighten, the white
 * balance picker). Coordinates are the widget's. PRESS returns TRUE where the tool takes the
 * press (the pan does not start then), and the motion and the release after it go to the
 * tool too; MOTION also comes without a button held (for the cursor). DRAW paints over
 * the photo. Any may be NULL. */
typedef struct {
  gboolean (*press) (gpointer data, double x, double y);
  void (*motion) (gpointer data, double x, double y, gboolean pressed);
  void (*release) (gpointer data, double x, double y);
  void (*draw) (gpointer data, cairo_t *cr);
} LmViewTool;

/* TOOL (static, NULL for none) with DATA takes the pointer from now on. */
void lm_image_view_set_tool (LmImageView *self, const LmViewTool *tool, gpointer data);

/* The region shown now, with the view's size in device pixels; FALSE when there is nothing
 * to show (no photo, no room). */
gboolean lm_image_view_get_rect (LmImageView *self, LmViewRect *rect);

/* Pixels of RECT (RGB24 words in VIEW, which the view keeps a reference to). CHANGED_US is
 * when the change that made them happened, RESULT_US when the render worker had them ready:
 * with LUMEN_TRACE=1 the paint that shows them logs the latency ("painted" says it too). */
void lm_image_view_set_pixels (LmImageView *self, LmImage *view, const LmViewRect *rect,
                               gint64 changed_us, gint64 result_us);

/* The pixels shown now (RGB24 words) and their region; NULL before the first render. */
LmImage *lm_image_view_get_pixels (LmImageView *self, LmViewRect *rect);

/* A heatmap (premultiplied ARGB32 words) drawn over the photo, or NULL for none. */
void lm_image_view_set_overlay (LmImageView *self, LmImage *overlay, const LmViewRect *rect);

/* A mask shown over the photo (premultiplied ARGB32 words of RECT, kept by reference), under
 * the heatmap; NULL for none. The getter gives it and its region, NULL when none is shown. */
void lm_image_view_set_mask_overlay (LmImageView *self, LmImage *mask, const LmViewRect *rect);
LmImage *lm_image_view_get_mask_overlay (LmImageView *self, LmViewRect *rect);

/* Before/after split: whether it is shown, and where its line is, as a fraction of the
 * view's width (kept when the window is resized; dragging the line changes it). */
void lm_image_view_set_split (LmImageView *self, gboolean split);
gboolean lm_image_view_get_split (LmImageView *self);
void lm_image_view_set_split_position (LmImageView *self, double fraction);
double lm_image_view_get_split_position (LmImageView *self);

/* The unedited photo's pixels of RECT (RGB24 words, kept by reference), painted left of the
 * split line; NULL forgets them. A view of another region is drawn where that region lies,
 * as the edited one is, until one of the region shown arrives. */
void lm_image_view_set_before_pixels (LmImageView *self, LmImage *view, const LmViewRect *rect);
LmImage *lm_image_view_get_before_pixels (LmImageView *self, LmViewRect *rect);

void lm_image_view_zoom_fit (LmImageView *self);
void lm_image_view_zoom_actual (LmImageView *self);
void lm_image_view_zoom_by (LmImageView *self, double factor);

/* The image point (IX, IY) at the view's centre, at the zoom of now (a source picked in a
 * table: exactly there, even where that shows some background). */
void lm_image_view_center_on (LmImageView *self, double ix, double iy);

/* Image pixels per view pixel now (1 at 100 %). */
double lm_image_view_get_zoom (LmImageView *self);
/* Whether the view fits the photo to its size (and follows it), rather than a zoom chosen. */
gboolean lm_image_view_get_fit (LmImageView *self);

G_END_DECLS

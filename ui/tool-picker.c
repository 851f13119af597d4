/* The white balance picker (tool-picker.h). It reads the source rather than the render: the
 * colour under the pointer before white balance, exposure or curves changed it is the one
 * the light gave, which is what white balance corrects. */
#include "tool-picker.h"

#include <math.h>

#include <glib/gi18n.h>

#include "core/ops/pixel-math.h"

struct _LmPickerTool {
  LmImageView *view;
  LmPickerDone done;
  gpointer data;
  gboolean active;
};

/* Channel C (0..2) of pixel I of ROW, on the 0..255 scale that the operations
 * compute on (a 16-bit value / 257, as lm_u16_value): white balance's gains then mean the
 * same at either depth. */
static double
channel_value (const LmImage *source, const guint8 *row, int i, int c)
{
  switch (source->format)
    {
    case LM_FORMAT_RGBA8: return row[4 * i + c];
    case LM_FORMAT_RGBA16: return lm_u16_value (((const guint16 *) row)[4 * i + c]);
    default: g_return_val_if_reached (0.0);
    }
}

static gboolean
format_supported (LmFormat format)
{
  return format == LM_FORMAT_RGBA8 || format == LM_FORMAT_RGBA16;
}

gboolean
lm_picker_patch_mean (const LmImage *source, const LmPipeline *pipeline, double x, double y, int size,
                      double rgb[3], GError **error)
{
  if (lm_format_channels (source->format) == 1)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("This photo is gray: it has no colour for white balance to balance"));
      return FALSE;
    }
  if (!format_supported (source->format))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("The white balance picker reads 8- and 16-bit photos, not radiance in floating point"));
      return FALSE;
    }
  double sx, sy;
  if (!lm_pipeline_photo_point (pipeline, source, x, y, &sx, &sy))
    return FALSE;
  int cx = (int) lround (sx), cy = (int) lround (sy), half = size / 2;
  int x0 = MAX (0, cx - half), x1 = MIN ((int) source->width - 1, cx + half);
  int y0 = MAX (0, cy - half), y1 = MIN ((int) source->height - 1, cy + half);
  double sum[3] = { 0, 0, 0 };
  int n = 0;
  for (int j = y0; j <= y1; j++)
    {
      const guint8 *row = source->data + (gsize) j * source->stride;
      for (int i = x0; i <= x1; i++, n++)
        for (int c = 0; c < 3; c++)
          sum[c] += channel_value (source, row, i, c);
    }
  for (int c = 0; c < 3; c++)
    rgb[c] = sum[c] / MAX (n, 1);
  return n > 0;
}

static gboolean
on_press (gpointer data, double x, double y)
{
  LmPickerTool *t = data;
  double ix, iy;
  lm_image_view_to_image (t->view, x, y, &ix, &iy);
  t->done (t->data, ix, iy);
  return TRUE; /* a pick, not a pan */
}

static const LmViewTool picker_tool = { on_press, NULL, NULL, NULL };

LmPickerTool *
lm_picker_tool_new (LmImageView *view, LmPickerDone done, gpointer data)
{
  LmPickerTool *t = g_new0 (LmPickerTool, 1);
  t->view = view, t->done = done, t->data = data;
  return t;
}

void
lm_picker_tool_free (LmPickerTool *tool)
{
  if (tool == NULL)
    return;
  lm_picker_tool_end (tool);
  g_free (tool);
}

void
lm_picker_tool_begin (LmPickerTool *t)
{
  t->active = TRUE;
  lm_image_view_set_tool (t->view, &picker_tool, t);
  GdkWindow *window = gtk_widget_get_window (GTK_WIDGET (t->view));
  if (window)
    {
      g_autoptr (GdkCursor) cursor = gdk_cursor_new_from_name (gdk_window_get_display (window), "crosshair");
      gdk_window_set_cursor (window, cursor);
    }
}

void
lm_picker_tool_end (LmPickerTool *t)
{
  if (!t->active)
    return;
  t->active = FALSE;
  lm_image_view_set_tool (t->view, NULL, NULL);
  GdkWindow *window = gtk_widget_get_window (GTK_WIDGET (t->view));
  if (window)
    gdk_window_set_cursor (window, NULL);
}

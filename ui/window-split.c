/* LmWindow's before/after split (window-private.h): the "before" half is rendered with the
 * request that first shows a region and kept while only edits change; holding backslash shows
 * the original whole. */
#include "window-private.h"

static gboolean
same_rect (const LmViewRect *a, const LmViewRect *b)
{
  return a->rx == b->rx && a->ry == b->ry && a->rw == b->rw && a->rh == b->rh && a->out_w == b->out_w
         && a->out_h == b->out_h;
}

void
lm_window_forget_before (LmWindow *self)
{
  self->have_before = FALSE;
  lm_image_view_set_before_pixels (self->image_view, NULL, NULL);
}

/* Whether REQ should bring the "before" half too: the split is shown and the one held is of
 * another region or geometry, or tone mapped otherwise (a radiance source's tone mapping is part of its
 * "before"; an 8-bit source's is not used at all). */
gboolean
lm_window_needs_before (LmWindow *self, const LmRenderRequest *req)
{
  if (!self->split || self->before)
    return FALSE;
  if (self->source->format == LM_FORMAT_RGBA_F32 && !lm_stage_equal (&self->before_tonemap, &req->pipeline.tonemap))
    {
      self->before_tonemap = req->pipeline.tonemap;
      self->before_since = req->generation;
      self->have_before = FALSE; /* still painted until the new one comes: it is of the region */
    }
  /* The "before" keeps the edit's geometry (core/render/job-preview.c): a crop moved or a
   * turn makes it another image, even where the view's rectangle stays the same. */
  LmPipeline geometry = req->pipeline;
  lm_pipeline_geometry_only (&geometry);
  if (!lm_pipeline_equal (&geometry, &self->before_geometry))
    {
      self->before_geometry = geometry;
      self->before_since = req->generation;
      self->have_before = FALSE;
    }
  return !(self->have_before && same_rect (&self->before_rect, &req->view));
}


/* The "before" half that preview R brings, kept for its region where the split is shown and
 * R is of the current tone mapping. */
void
lm_window_show_before (LmWindow *self, const LmRenderResult *r)
{
  if (r->before_view && self->split && r->generation >= self->before_since)
    {
      lm_image_view_set_before_pixels (self->image_view, r->before_view, &r->view_rect);
      self->have_before = TRUE;
      self->before_rect = r->view_rect;
    }
}

/* Before/after split: the line shows where the photo as opened (left) meets the edited one. */
void
lm_window_split_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  LmWindow *self = data;
  g_simple_action_set_state (action, state);
  self->split = g_variant_get_boolean (state);
  lm_image_view_set_split (self->image_view, self->split && !self->before);
  if (self->split)
    lm_window_request_render (self);
  else
    lm_window_forget_before (self); /* a view's worth of memory, and stale by the next split anyway */
}

/* Holding the backslash key shows the photo as it was opened, whole, split view or not
 * (with Ctrl, backslash toggles the split view: that passes on to the accelerators). */
gboolean
lm_window_on_key (GtkWidget *widget, GdkEventKey *event, LmWindow *self)
{
  if (event->keyval != GDK_KEY_backslash || self->source == NULL)
    return GDK_EVENT_PROPAGATE;
  gboolean before = event->type == GDK_KEY_PRESS;
  if (before && (event->state & gtk_accelerator_get_default_mod_mask ()) != 0)
    return GDK_EVENT_PROPAGATE;
  if (before != self->before)
    {
      self->before = before;
      lm_image_view_set_split (self->image_view, self->split && !before);
      lm_window_request_render (self);
    }
  return GDK_EVENT_STOP;
}

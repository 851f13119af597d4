/* LmWindow's before/after split (window-split.h): the "before" half is rendered with the
 * request that first shows a region and kept while only edits change; a result carries it
 * with its own region, so that it is never painted over another. Holding backslash shows the
 * original whole. */
#include "window-split.h"
#include "window-private.h"

struct _LmWindowSplit {
  gboolean before;            /* the original is shown while the key is held */
  gboolean split;
  gboolean have_before;       /* the image view holds the "before" of before_rect */
  LmViewRect before_rect;
  LmStage before_tonemap;     /* what a radiance source's "before" is tone mapped with */
  guint64 before_since;       /* the first generation rendered with that tone mapping */
  LmPipeline before_geometry; /* and that geometry (crop, turns: the "before" keeps them) */
};

void
lm_window_split_init (LmWindow *self)
{
  self->split = g_new0 (LmWindowSplit, 1);
}

void
lm_window_split_free (LmWindow *self)
{
  g_clear_pointer (&self->split, g_free);
}

gboolean
lm_window_showing_original (LmWindow *self)
{
  return self->split->before;
}

static gboolean
same_rect (const LmViewRect *a, const LmViewRect *b)
{
  return a->rx == b->rx && a->ry == b->ry && a->rw == b->rw && a->rh == b->rh && a->out_w == b->out_w
         && a->out_h == b->out_h;
}

static void
forget_before (LmWindow *self)
{
  self->split->have_before = FALSE;
  lm_image_view_set_before_pixels (self->image_view, NULL, NULL);
}

void
lm_window_split_restart (LmWindow *self)
{
  forget_before (self);
  self->split->before_tonemap = self->pipeline.tonemap;
  self->split->before_since = self->generation + 1; /* results in flight are of the old source */
}

void
lm_window_split_since (LmWindow *self, guint64 generation)
{
  self->split->before_since = generation;
}

/* Whether REQ should bring the "before" half too: the split is shown and the one held is of
 * another region or geometry, or tone mapped otherwise (a radiance source's tone mapping is
 * part of its "before"; an 8-bit source's is not used at all). */
gboolean
lm_window_needs_before (LmWindow *self, const LmRenderRequest *req)
{
  LmWindowSplit *sp = self->split;
  if (!sp->split || sp->before)
    return FALSE;
  if (self->source->format == LM_FORMAT_RGBA_F32 && !lm_stage_equal (&sp->before_tonemap, &req->pipeline.tonemap))
    {
      sp->before_tonemap = req->pipeline.tonemap;
      sp->before_since = req->generation;
      sp->have_before = FALSE; /* still painted until the new one comes: it is of the region */
    }
  /* The "before" keeps the edit's geometry (core/render/job-preview.c): a crop moved or a
   * turn makes it another image, even where the view's rectangle stays the same. */
  LmPipeline geometry = req->pipeline;
  lm_pipeline_geometry_only (&geometry);
  if (!lm_pipeline_equal (&geometry, &sp->before_geometry))
    {
      sp->before_geometry = geometry;
      sp->before_since = req->generation;
      sp->have_before = FALSE;
    }
  return !(sp->have_before && same_rect (&sp->before_rect, &req->view));
}


/* The "before" half that preview R brings, kept for its region where the split is shown and
 * R is of the current tone mapping. */
void
lm_window_show_before (LmWindow *self, const LmRenderResult *r)
{
  LmWindowSplit *sp = self->split;
  if (r->before_view && sp->split && r->generation >= sp->before_since)
    {
      lm_image_view_set_before_pixels (self->image_view, r->before_view, &r->view_rect);
      sp->have_before = TRUE;
      sp->before_rect = r->view_rect;
    }
}

/* Before/after split: the line shows where the photo as opened (left) meets the edited one. */
void
lm_window_split_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  LmWindow *self = data;
  LmWindowSplit *sp = self->split;
  g_simple_action_set_state (action, state);
  sp->split = g_variant_get_boolean (state);
  lm_image_view_set_split (self->image_view, sp->split && !sp->before);
  if (sp->split)
    lm_window_request_render (self);
  else
    forget_before (self); /* a view's worth of memory, and stale by the next split anyway */
}

/* Holding the backslash key shows the photo as it was opened, whole, split view or not
 * (with Ctrl, backslash toggles the split view: that passes on to the accelerators). */
gboolean
lm_window_on_key (GtkWidget *widget, GdkEventKey *event, LmWindow *self)
{
  LmWindowSplit *sp = self->split;
  if (event->keyval != GDK_KEY_backslash || self->source == NULL)
    return GDK_EVENT_PROPAGATE;
  gboolean before = event->type == GDK_KEY_PRESS;
  if (before && (event->state & gtk_accelerator_get_default_mod_mask ()) != 0)
    return GDK_EVENT_PROPAGATE;
  if (before != sp->before)
    {
      sp->before = before;
      lm_image_view_set_split (self->image_view, sp->split && !before);
      lm_window_request_render (self);
    }
  return GDK_EVENT_STOP;
}

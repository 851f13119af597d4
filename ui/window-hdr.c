/* LmWindow's HDR merge (window-private.h): the Merge HDR dialog wired to the render worker,
 * its result made the photo being edited, and the tone mapping panel shown for radiance. */
#include "window-private.h"

#include <glib/gi18n.h>

void
lm_window_finish_merge (LmWindow *self, const LmRenderResult *r)
{
  g_clear_object (&self->merge_cancellable);
  g_autoptr (GFile) first = g_steal_pointer (&self->merge_first);
  if (r->error && g_error_matches (r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (r->error)
    {
      if (self->hdr_dialog)
        lm_hdr_dialog_finish (self->hdr_dialog, r->error, NULL);
      else
        lm_window_show_message (self, GTK_MESSAGE_ERROR, r->error->message);
      return;
    }

  g_autofree char *timings = lm_window_format_timings (&r->timings);
  g_autofree char *summary = g_strdup_printf (_("Merged %u exposures into %u×%u on the %s: %s"),
                                              self->merge_count, r->width, r->height,
                                              lm_window_backend_label (r->backend_name), timings);
  if (self->hdr_dialog)
    lm_hdr_dialog_finish (self->hdr_dialog, NULL, summary);
  if (r->notice)
    lm_window_show_message (self, GTK_MESSAGE_WARNING, r->notice);
  else
    gtk_info_bar_set_revealed (self->info_bar, FALSE);

  /* The worker has made the merged image its source; results made before are of no use. The
   * merge is in no file: its edits are kept in no sidecar (the exposure's stays its own). */
  lm_window_sidecar_close (self);
  lm_pipeline_init (&self->pipeline);
  if (r->method == LM_HDR_MERTENS)
    lm_pipeline_tonemap (&self->pipeline)->kind = LM_TONEMAP_NONE; /* fused: already 0..1 */
  /* Titled by its first exposure; under it, what it was made of: both lines whole, where one
   * line of both was cut. */
  g_autofree char *made = g_strdup_printf (ngettext ("HDR, %u exposure", "HDR, %u exposures", self->merge_count),
                                           self->merge_count);
  lm_window_astro_close (self); /* a merge after a FITS file: the editor as it was */
  lm_window_start_editing (self, lm_image_ref (r->image), first, made);
  /* A request sent while the merge ran was rendered from the merged image with the old
   * photo's view and pipeline: a new generation drops it. */
  self->shown = self->before_since = ++self->generation;
  gtk_stack_set_visible_child (self->view_stack, GTK_WIDGET (self->image_view));
  lm_image_view_set_image_size (self->image_view, r->width, r->height);
  lm_window_show_pipeline (self);
}

static void
on_hdr_merge (LmHdrDialog *dialog, LmWindow *self)
{
  LmMergeSpec spec;
  if (self->merge_cancellable || !lm_hdr_dialog_get_spec (dialog, &spec))
    return;
  self->merge_cancellable = g_cancellable_new ();
  g_clear_object (&self->merge_first);
  self->merge_first = g_file_new_for_path (spec.paths[0]);
  self->merge_count = spec.n;
  LmRenderRequest req = { .generation = self->generation, .backend = self->backend };
  lm_hdr_dialog_set_running (dialog, TRUE);
  lm_render_worker_merge (self->worker, &req, &spec, self->merge_cancellable);
}

static void
on_hdr_response (GtkDialog *dialog, int response, LmWindow *self)
{
  if (response == LM_HDR_RESPONSE_MERGE)
    return;
  /* Cancelled and forgotten at once: a dialog opened again may merge anew while the
   * worker winds the old job down (its result comes back cancelled and is dropped). */
  if (self->merge_cancellable)
    g_cancellable_cancel (self->merge_cancellable);
  g_clear_object (&self->merge_cancellable);
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

static void
merge_hdr_now (LmWindow *self, gpointer data)
{
  if (self->hdr_dialog)
    {
      gtk_window_present (GTK_WINDOW (self->hdr_dialog));
      return;
    }
  self->hdr_dialog = LM_HDR_DIALOG (lm_hdr_dialog_new (GTK_WINDOW (self)));
  g_object_add_weak_pointer (G_OBJECT (self->hdr_dialog), (gpointer *) &self->hdr_dialog);
  g_signal_connect (self->hdr_dialog, "merge", G_CALLBACK (on_hdr_merge), self);
  g_signal_connect (self->hdr_dialog, "response", G_CALLBACK (on_hdr_response), self);
  gtk_widget_show (GTK_WIDGET (self->hdr_dialog));
}

void
lm_window_merge_hdr_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  lm_window_confirm_discard (self, G_CALLBACK (merge_hdr_now), NULL);
}

/* The tone mapping panel, packed into the side panel where the operations follow; shown
 * only while the source is radiance. */
void
lm_window_build_tonemap_panel (LmWindow *self)
{
  self->tonemap_panel = LM_OP_PANEL (lm_op_panel_new (lm_tonemap_op_info ()));
  lm_op_panel_set_switchable (self->tonemap_panel, FALSE);
  gtk_widget_set_name (GTK_WIDGET (self->tonemap_panel), "tonemap");
  g_signal_connect (self->tonemap_panel, "changed", G_CALLBACK (lm_window_on_panel_changed), self);
  g_signal_connect (self->tonemap_panel, "committed", G_CALLBACK (lm_window_on_panel_committed), self);
  self->tonemap_separator = gtk_separator_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_box_pack_start (self->side_panel, self->tonemap_separator, FALSE, FALSE, 0);
  gtk_box_pack_start (self->side_panel, GTK_WIDGET (self->tonemap_panel), FALSE, FALSE, 0);
  /* Its insides shown now; the panel itself only while the source is radiance. */
  gtk_widget_show_all (GTK_WIDGET (self->tonemap_panel));
  gtk_widget_hide (GTK_WIDGET (self->tonemap_panel));
  gtk_widget_set_no_show_all (GTK_WIDGET (self->tonemap_panel), TRUE);
  gtk_widget_set_no_show_all (self->tonemap_separator, TRUE);
}

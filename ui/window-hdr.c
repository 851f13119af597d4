/* LmWindow's HDR merge (window-hdr.h): the Merge HDR dialog wired to the render worker,
 * its result made the photo being edited, and the tone mapping panel shown for radiance. */
#include "window-hdr.h"
#include "window-astro.h"
#include "window-open.h"
#include "window-private.h"
#include "window-sidecar.h"
#include "window-status.h"

#include <glib/gi18n.h>

#include "hdr-dialog.h"

struct _LmWindowHdr {
  LmHdrDialog *dialog;
  GCancellable *cancellable; /* of the merge under way; NULL: none */
  GFile *first;              /* the first exposure of the merge under way */
  guint count;
  GtkWidget *tonemap_separator;
};

void
lm_window_hdr_init (LmWindow *self)
{
  self->hdr = g_new0 (LmWindowHdr, 1);
}

void
lm_window_hdr_cancel (LmWindow *self)
{
  LmWindowHdr *h = self->hdr;
  if (h->cancellable)
    g_cancellable_cancel (h->cancellable);
}

void
lm_window_hdr_free (LmWindow *self)
{
  LmWindowHdr *h = self->hdr;
  if (h->dialog) /* it held a pointer into this state */
    g_object_remove_weak_pointer (G_OBJECT (h->dialog), (gpointer *) &h->dialog);
  g_clear_object (&h->cancellable);
  g_clear_object (&h->first);
  g_clear_pointer (&self->hdr, g_free);
}

void
lm_window_merge_progress (LmWindow *self, const LmRenderResult *r)
{
  LmWindowHdr *h = self->hdr;
  if (h->dialog)
    {
      lm_hdr_dialog_set_progress (h->dialog, r->fraction, r->step);
      if (r->response)
        lm_hdr_dialog_set_response (h->dialog, r->response);
    }
}

void
lm_window_finish_merge (LmWindow *self, const LmRenderResult *r)
{
  LmWindowHdr *h = self->hdr;
  g_clear_object (&h->cancellable);
  g_autoptr (GFile) first = g_steal_pointer (&h->first);
  if (r->error && g_error_matches (r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (r->error)
    {
      if (h->dialog)
        lm_hdr_dialog_finish (h->dialog, r->error, NULL);
      else
        lm_window_show_message (self, GTK_MESSAGE_ERROR, r->error->message);
      return;
    }

  g_autofree char *timings = lm_window_format_timings (&r->timings);
  g_autofree char *summary = g_strdup_printf (_("Merged %u exposures into %u×%u on the %s: %s"),
                                              h->count, r->width, r->height,
                                              lm_window_backend_label (r->backend_name), timings);
  if (h->dialog)
    lm_hdr_dialog_finish (h->dialog, NULL, summary);
  if (r->notice)
    lm_window_show_message (self, GTK_MESSAGE_WARNING, r->notice);
  else
    lm_window_clear_messages (self);

  /* The worker has made the merged image its source; results made before are of no use. The
   * merge is in no file: its edits are kept in no sidecar (the exposure's stays its own). */
  lm_window_sidecar_close (self);
  lm_pipeline_init (&self->pipeline);
  if (r->method == LM_HDR_MERTENS)
    lm_pipeline_tonemap (&self->pipeline)->kind = LM_TONEMAP_NONE; /* fused: already 0..1 */
  else if (r->raw)
    lm_pipeline_tonemap (&self->pipeline)->kind = LM_TONEMAP_SIGMOID; /* as a raw's own */
  /* Titled by its first exposure; under it, what it was made of: both lines whole, where one
   * line of both was cut. */
  g_autofree char *made = g_strdup_printf (ngettext ("HDR, %u exposure", "HDR, %u exposures", h->count), h->count);
  lm_window_astro_close (self); /* a merge after a FITS file: the editor as it was */
  lm_window_start_editing (self, lm_image_ref (r->image), first, made);
  /* A request sent while the merge ran was rendered from the merged image with the old
   * photo's view and pipeline: a new generation drops it. */
  lm_window_drop_results (self);
  gtk_stack_set_visible_child (self->view_stack, GTK_WIDGET (self->image_view));
  lm_image_view_set_image_size (self->image_view, r->width, r->height);
  lm_window_show_pipeline (self);
}

static void
on_hdr_merge (LmHdrDialog *dialog, LmWindow *self)
{
  LmWindowHdr *h = self->hdr;
  LmMergeSpec spec;
  if (h->cancellable || !lm_hdr_dialog_get_spec (dialog, &spec))
    return;
  h->cancellable = g_cancellable_new ();
  g_clear_object (&h->first);
  h->first = g_file_new_for_path (spec.paths[0]);
  h->count = spec.n;
  LmRenderRequest req = { .generation = self->generation, .backend = self->backend };
  lm_hdr_dialog_set_running (dialog, TRUE);
  lm_render_worker_merge (self->worker, &req, &spec, h->cancellable);
}

static void
on_hdr_response (GtkDialog *dialog, int response, LmWindow *self)
{
  LmWindowHdr *h = self->hdr;
  if (response == LM_HDR_RESPONSE_MERGE)
    return;
  /* Cancelled and forgotten at once: a dialog opened again may merge anew while the
   * worker winds the old job down (its result comes back cancelled and is dropped). */
  if (h->cancellable)
    g_cancellable_cancel (h->cancellable);
  g_clear_object (&h->cancellable);
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

static void
merge_hdr_now (LmWindow *self, gpointer data)
{
  LmWindowHdr *h = self->hdr;
  if (h->dialog)
    {
      gtk_window_present (GTK_WINDOW (h->dialog));
      return;
    }
  h->dialog = LM_HDR_DIALOG (lm_hdr_dialog_new (GTK_WINDOW (self)));
  g_object_add_weak_pointer (G_OBJECT (h->dialog), (gpointer *) &h->dialog);
  g_signal_connect (h->dialog, "merge", G_CALLBACK (on_hdr_merge), self);
  g_signal_connect (h->dialog, "response", G_CALLBACK (on_hdr_response), self);
  gtk_widget_show (GTK_WIDGET (h->dialog));
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
  LmWindowHdr *h = self->hdr;
  self->tonemap_panel = LM_OP_PANEL (lm_op_panel_new (lm_tonemap_op_info ()));
  lm_op_panel_set_switchable (self->tonemap_panel, FALSE);
  gtk_widget_set_name (GTK_WIDGET (self->tonemap_panel), "tonemap");
  g_signal_connect (self->tonemap_panel, "changed", G_CALLBACK (lm_window_on_panel_changed), self);
  g_signal_connect (self->tonemap_panel, "committed", G_CALLBACK (lm_window_on_panel_committed), self);
  h->tonemap_separator = gtk_separator_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_box_pack_start (self->side_panel, h->tonemap_separator, FALSE, FALSE, 0);
  gtk_box_pack_start (self->side_panel, GTK_WIDGET (self->tonemap_panel), FALSE, FALSE, 0);
  /* Its insides shown now; the panel itself only while the source is radiance. */
  gtk_widget_show_all (GTK_WIDGET (self->tonemap_panel));
  gtk_widget_hide (GTK_WIDGET (self->tonemap_panel));
  gtk_widget_set_no_show_all (GTK_WIDGET (self->tonemap_panel), TRUE);
  gtk_widget_set_no_show_all (h->tonemap_separator, TRUE);
}

void
lm_window_show_tonemap_panel (LmWindow *self, gboolean radiance)
{
  gtk_widget_set_visible (GTK_WIDGET (self->tonemap_panel), radiance);
  gtk_widget_set_visible (self->hdr->tonemap_separator, radiance);
}

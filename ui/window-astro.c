/* LmWindow's FITS files (window-astro.h): the float data stays with an LmAstroSession,
 * whose 8-bit stretched view becomes the source the render worker shows like a photo's; the
 * histogram shows the data values; the Display Stretch and Detect Sources panels, the FITS
 * header, the source markers over the view and the catalogue's export. Operations of photos
 * are insensitive meanwhile. */
#include "window-astro.h"
#include "window-objects.h"
#include "window-private.h"
#include "window-sidecar.h"
#include "window-status.h"
#include "window-tools.h"

#include <glib/gi18n.h>
#include <string.h>

#include "astro-session.h"
#include "astro-stretch-panel.h"
#include "core/astro/catalogue.h"
#include "core/error.h"
#include "detect-panel.h"
#include "fits-header-dialog.h"
#include "source-markers.h"

struct _LmWindowAstro {
  LmAstroSession *session;
  LmFitsInfo *info;
  GFile *file;
  guint width, height;
  gboolean started;          /* the first view is in: the window shows this file */
  guint64 stretch_asked, detect_asked;
  double low, high;
  LmHistogram histogram;
  gboolean have_histogram;
  LmDetectResult *result;    /* shown */
  guint highlight;
  LmAstroStretchPanel *stretch_panel;
  LmDetectPanel *detect_panel;
  GtkWidget *separators[2];
};

gboolean
lm_window_astro_active (LmWindow *self)
{
  return self->astro && self->astro->session;
}

/* The descendants of WIDGET (internal children too) with a tooltip of their own: each would
 * show its own and not why it is insensitive, so it says why while FITS data is shown and
 * gets its own back after. */
static void
explain_tooltips (GtkWidget *widget, gpointer why)
{
  const char *own = g_object_get_data (G_OBJECT (widget), "lumen-photo-tooltip");
  /* Markup, so that any tooltip comes back as it was; one made by a query-tooltip handler has
   * none and is left alone. */
  g_autofree char *markup = gtk_widget_get_tooltip_markup (widget);
  g_autofree char *text = gtk_widget_get_tooltip_text (widget);
  if (why && own == NULL && markup && g_strcmp0 (text, why) != 0)
    {
      g_object_set_data_full (G_OBJECT (widget), "lumen-photo-tooltip", g_steal_pointer (&markup), g_free);
      gtk_widget_set_tooltip_text (widget, why);
    }
  else if (why == NULL && own)
    {
      gtk_widget_set_tooltip_markup (widget, own);
      g_object_set_data (G_OBJECT (widget), "lumen-photo-tooltip", NULL);
    }
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), explain_tooltips, why);
}

/* Photo operations and tools work on colours to be edited; FITS data is measured, and only
 * how it is shown changes. Their actions (window.c, window-tools.c, window-geometry.c) ask
 * lm_window_astro_active; their widgets are made insensitive here, with why. */
static void
set_photo_controls (LmWindow *self, gboolean photo)
{
  const char *why = photo ? NULL
                          : _("Not for FITS data: its values are measurements, not a photo to edit; "
                              "Display Stretch sets how it looks");
  GtkWidget *photo_parts[LM_PIPELINE_MAX + 4];
  guint n = 0;
  for (guint i = 0; i < self->panels->len && n < LM_PIPELINE_MAX; i++)
    photo_parts[n++] = self->panels->pdata[i];
  photo_parts[n++] = GTK_WIDGET (self->instances_box); /* the panels of instances added later too */
  photo_parts[n++] = GTK_WIDGET (self->tonemap_panel);
  photo_parts[n++] = lm_window_tools_bar (self);
  if (lm_window_objects_panel (self)) /* objects are found in photos */
    photo_parts[n++] = lm_window_objects_panel (self);
  for (guint i = 0; i < n; i++)
    {
      gtk_widget_set_sensitive (photo_parts[i], photo);
      explain_tooltips (photo_parts[i], (gpointer) why);
      gtk_widget_set_tooltip_text (photo_parts[i], why);
    }
  LmWindowAstro *a = self->astro;
  gtk_widget_set_visible (GTK_WIDGET (a->stretch_panel), !photo);
  gtk_widget_set_visible (GTK_WIDGET (a->detect_panel), !photo);
  for (int i = 0; i < 2; i++)
    gtk_widget_set_visible (a->separators[i], !photo);
  lm_window_tools_update_actions (self);
}

static void
ask_stretch (LmWindow *self)
{
  LmStretchParams p;
  lm_astro_stretch_panel_get (self->astro->stretch_panel, &p);
  lm_astro_session_stretch (self->astro->session, ++self->astro->stretch_asked, &p, self->backend);
}

static void
ask_detect (LmWindow *self)
{
  LmDetectParams p;
  lm_detect_panel_get (self->astro->detect_panel, &p);
  g_autoptr (GError) e = NULL;
  if (!lm_detect_params_check (&p, &e))
    {
      lm_detect_panel_show_message (self->astro->detect_panel, e->message);
      return;
    }
  lm_astro_session_detect (self->astro->session, ++self->astro->detect_asked, &p, self->backend);
}

void
lm_window_astro_backend_changed (LmWindow *self)
{
  if (!lm_window_astro_active (self))
    return;
  ask_stretch (self);
  ask_detect (self);
}

/* The data histogram replaces the display's in every preview. */
void
lm_window_astro_show_histogram (LmWindow *self)
{
  LmWindowAstro *a = self->astro;
  if (!lm_window_astro_active (self) || !a->have_histogram)
    return;
  lm_histogram_view_set_histograms (self->histogram_view, &a->histogram, NULL);
  g_autofree char *origin = g_strdup_printf (_("Data values from %g to %g"), a->low, a->high);
  lm_histogram_view_set_origin (self->histogram_view, origin);
}

/* ERROR's message, naming the file where it is about the data (every pixel blank): every
 * message about a file names it. */
static char *
data_message (LmWindow *self, const GError *error)
{
  if (!g_error_matches (error, LUMEN_ERROR, LM_ERROR_INVALID))
    return g_strdup (error->message);
  g_autofree char *name = g_file_get_parse_name (self->astro->file);
  return g_strdup_printf ("%s: %s", name, error->message);
}

static void
on_stretch (LmWindow *self, LmAstroResult *r)
{
  LmWindowAstro *a = self->astro;
  if (r->generation < a->stretch_asked)
    return; /* a newer stretch is coming */
  if (r->error)
    {
      g_autofree char *message = data_message (self, r->error);
      lm_window_show_message_about (self, a->started ? LM_TOPIC_RENDER : LM_TOPIC_OPEN, GTK_MESSAGE_ERROR, message);
      return;
    }
  if (r->notice)
    lm_window_show_message_about (self, LM_TOPIC_RENDER, GTK_MESSAGE_WARNING, r->notice);
  a->low = r->low;
  a->high = r->high;
  a->histogram = r->histogram;
  a->have_histogram = TRUE;
  LmImage *view = g_steal_pointer (&r->view);
  if (!a->started)
    {
      a->started = TRUE;
      g_autofree char *subtitle = g_strdup_printf (_("FITS, HDU %d, BITPIX %d"), a->info->hdu, a->info->bitpix);
      lm_pipeline_init (&self->pipeline);
      lm_window_start_editing (self, view, a->file, subtitle);
      lm_window_drop_results (self);
      lm_window_clear_messages (self);
      lm_render_worker_set_source (self->worker, view);
      gtk_stack_set_visible_child (self->view_stack, GTK_WIDGET (self->image_view));
      lm_image_view_set_image_size (self->image_view, view->width, view->height);
      set_photo_controls (self, FALSE);
      lm_window_show_pipeline (self);
      ask_detect (self);
      return;
    }
  /* Only the view changed: the same edits (none) of a new source. */
  g_clear_pointer (&self->source, lm_image_unref);
  self->source = view;
  lm_render_worker_set_source (self->worker, view);
  lm_window_request_render (self);
}

static void
on_detect (LmWindow *self, LmAstroResult *r)
{
  LmWindowAstro *a = self->astro;
  if (r->generation < a->detect_asked)
    return;
  if (r->error)
    {
      g_autofree char *message = data_message (self, r->error);
      lm_detect_panel_show_message (a->detect_panel, "");
      lm_window_show_message_about (self, LM_TOPIC_RENDER, GTK_MESSAGE_ERROR, message);
      return;
    }
  g_clear_pointer (&a->result, lm_detect_result_free);
  a->result = g_steal_pointer (&r->detect);
  a->highlight = 0;
  lm_detect_panel_show (a->detect_panel, a->result, lm_window_backend_label (r->backend_name));
  gtk_widget_queue_draw (GTK_WIDGET (self->image_view));
}

static void
on_result (LmAstroResult *r, gpointer data)
{
  LmWindow *self = data;
  if (r->is_detect)
    on_detect (self, r);
  else
    on_stretch (self, r);
}

/* Closes the FITS session (a photo opens, or the window goes). */
void
lm_window_astro_close (LmWindow *self)
{
  LmWindowAstro *a = self->astro;
  if (a == NULL || a->session == NULL)
    return;
  g_clear_pointer (&a->session, lm_astro_session_free);
  g_clear_pointer (&a->info, lm_fits_info_free);
  g_clear_object (&a->file);
  g_clear_pointer (&a->result, lm_detect_result_free);
  a->started = a->have_histogram = FALSE;
  a->highlight = 0;
  lm_detect_panel_show_message (a->detect_panel, "");
  lm_histogram_view_set_origin (self->histogram_view, NULL);
  set_photo_controls (self, TRUE);
}

void
lm_window_astro_open (LmWindow *self, LmImage *data, LmFitsInfo *info, GFile *file)
{
  lm_window_astro_close (self);
  lm_window_sidecar_close (self); /* FITS data keeps no edits */
  LmWindowAstro *a = self->astro;
  a->info = info;
  a->file = g_object_ref (file);
  a->width = data->width;
  a->height = data->height;
  a->session = lm_astro_session_new (self->worker, data, info->flip_view, on_result, self);
  ask_stretch (self);
}

static void
on_show_header (LmWindow *self)
{
  if (!lm_window_astro_active (self))
    return;
  g_autofree char *name = g_file_get_basename (self->astro->file);
  lm_fits_header_dialog_show (GTK_WINDOW (self), name, self->astro->info->cards);
}

static void
on_source_selected (LmWindow *self, guint label)
{
  LmWindowAstro *a = self->astro;
  if (a->result == NULL || label == 0 || label > a->result->n_sources)
    return;
  const LmSource *s = &a->result->sources[label - 1];
  a->highlight = label;
  double iy = a->info->flip_view ? (double) a->height - 1.0 - s->y : s->y;
  lm_image_view_center_on (self->image_view, s->x + 0.5, iy + 0.5);
  gtk_widget_queue_draw (GTK_WIDGET (self->image_view));
}

static gboolean
draw_markers (GtkWidget *widget, cairo_t *cr, LmWindow *self)
{
  if (lm_window_astro_active (self) && self->astro->result)
    lm_source_markers_draw (cr, self->image_view, self->astro->result, self->astro->info->flip_view,
                            self->astro->highlight);
  return GDK_EVENT_PROPAGATE;
}

static void
on_export (LmWindow *self)
{
  LmWindowAstro *a = self->astro;
  if (a->result == NULL)
    return;
  g_autoptr (GtkFileChooserNative) chooser = gtk_file_chooser_native_new (
    _("Export the Catalogue"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (chooser), TRUE);
  g_autofree char *base = g_file_get_basename (a->file);
  char *dot = strrchr (base, '.');
  if (dot)
    *dot = '\0';
  g_autofree char *suggested = g_strconcat (base, "-sources.csv", NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), suggested);
  g_autoptr (GFile) folder = g_file_get_parent (a->file);
  if (folder)
    gtk_file_chooser_set_current_folder_file (GTK_FILE_CHOOSER (chooser), folder, NULL);
  if (gtk_native_dialog_run (GTK_NATIVE_DIALOG (chooser)) != GTK_RESPONSE_ACCEPT)
    return;
  g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (chooser));
  lm_window_astro_export_to (self, path);
}

gboolean
lm_window_astro_export_to (LmWindow *self, const char *path)
{
  LmWindowAstro *a = self->astro;
  g_autoptr (GError) e = NULL;
  gboolean fits = g_str_has_suffix (path, ".fits") || g_str_has_suffix (path, ".fit")
                  || g_str_has_suffix (path, ".fts");
  gboolean ok = a->result && (fits ? lm_catalogue_write_fits (path, a->result, &e)
                                   : lm_catalogue_write_csv (path, a->result, &e));
  lm_window_clear_message (self, LM_TOPIC_EXPORT);
  if (!ok && e)
    lm_window_show_message_about (self, LM_TOPIC_EXPORT, GTK_MESSAGE_ERROR, e->message);
  return ok;
}

void
lm_window_astro_init (LmWindow *self)
{
  LmWindowAstro *a = self->astro = g_new0 (LmWindowAstro, 1);
  a->stretch_panel = LM_ASTRO_STRETCH_PANEL (lm_astro_stretch_panel_new ());
  a->detect_panel = LM_DETECT_PANEL (lm_detect_panel_new ());
  /* Right under the histogram: what a FITS file is looked at and measured with. */
  GtkWidget *parts[] = { GTK_WIDGET (a->stretch_panel), a->separators[0] = gtk_separator_new (GTK_ORIENTATION_HORIZONTAL),
                         GTK_WIDGET (a->detect_panel), a->separators[1] = gtk_separator_new (GTK_ORIENTATION_HORIZONTAL) };
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      gtk_box_pack_start (self->side_panel, parts[i], FALSE, FALSE, 0);
      gtk_box_reorder_child (self->side_panel, parts[i], i);
      gtk_widget_show_all (parts[i]);
      gtk_widget_set_no_show_all (parts[i], TRUE);
      gtk_widget_hide (parts[i]);
    }
  g_signal_connect_swapped (a->stretch_panel, "changed", G_CALLBACK (ask_stretch), self);
  g_signal_connect_swapped (a->stretch_panel, "show-header", G_CALLBACK (on_show_header), self);
  g_signal_connect_swapped (a->detect_panel, "changed", G_CALLBACK (ask_detect), self);
  g_signal_connect_swapped (a->detect_panel, "source-selected", G_CALLBACK (on_source_selected), self);
  g_signal_connect_swapped (a->detect_panel, "export", G_CALLBACK (on_export), self);
  g_signal_connect_after (self->image_view, "draw", G_CALLBACK (draw_markers), self);
}

void
lm_window_astro_free (LmWindow *self)
{
  if (self->astro == NULL)
    return;
  lm_window_astro_close (self);
  g_clear_pointer (&self->astro, g_free);
}

GtkWidget *
lm_window_get_detect_panel (LmWindow *self)
{
  return GTK_WIDGET (self->astro->detect_panel);
}

guint
lm_window_astro_source_count (LmWindow *self)
{
  return lm_window_astro_active (self) && self->astro->result ? self->astro->result->n_sources : 0;
}

/* The window's colour management: the view transform from the photo's profile to the
 * monitor's (the monitor-profile preference, else the X server's profile of the monitor the
 * window is on, else sRGB), rebuilt when the photo, the preference or the monitor changes;
 * the Monitor Profile… action; the histogram's "as seen" toggle. */
#include "window-color.h"
#include "window-private.h"
#include "window-status.h"

#include <glib/gi18n.h>

#include "core/color/view-transform.h"
#include "core/io/monitor-profile.h"
#include "monitor-profile.h"

struct _LmWindowColor {
  LmViewTransform *xf;   /* of SOURCE's profile to the monitor's; NULL: to be made */
  LmImage *source;       /* the photo XF was made for (a reference) */
  int monitor;           /* the monitor the window was on when XF was made */
  char *preference;      /* without GSettings: the chosen file, "" for automatic */
};

/* The monitor profile to use now, or NULL for sRGB. A preference file that cannot serve is
 * named with its cause in the info bar; the automatic profile is used instead. */
static GBytes *
monitor_profile (LmWindow *self)
{
  LmWindowColor *c = self->color;
  g_autofree char *path = self->settings ? g_settings_get_string (self->settings, "monitor-profile")
                                         : g_strdup (c->preference);
  if (path && *path)
    {
      g_autoptr (GError) e = NULL;
      GBytes *icc = lm_monitor_profile_load (path, &e);
      if (icc)
        return icc;
      g_autofree char *message = g_strdup_printf (_("%s; the automatic monitor profile is used"), e->message);
      lm_window_show_message_about (self, LM_TOPIC_PHOTO, GTK_MESSAGE_WARNING, message);
    }
  return lm_monitor_profile_from_x (GTK_WIDGET (self), c->monitor);
}

/* XF for the photo being edited and the monitor now, given to the render worker. */
static void
rebuild (LmWindow *self)
{
  LmWindowColor *c = self->color;
  g_clear_pointer (&c->xf, lm_view_transform_unref);
  g_clear_pointer (&c->source, lm_image_unref);
  if (self->source == NULL)
    return;
  c->source = lm_image_ref (self->source);
  c->monitor = lm_monitor_index_of (GTK_WIDGET (self));
  g_autoptr (GBytes) monitor = monitor_profile (self);
  g_autoptr (GError) e = NULL;
  c->xf = lm_view_transform_new (self->source->icc_profile, monitor, LM_VIEW_LUT_GRID, &e);
  if (c->xf == NULL)
    {
      /* The X server's profile (a preference's was checked on loading). */
      g_autofree char *message = g_strdup_printf (_("The display's colour profile is not usable (%s); the photo is shown as on an sRGB monitor"),
                                                  e->message);
      lm_window_show_message_about (self, LM_TOPIC_PHOTO, GTK_MESSAGE_WARNING, message);
      c->xf = lm_view_transform_new (self->source->icc_profile, NULL, LM_VIEW_LUT_GRID, NULL);
    }
  if (lm_view_transform_note (c->xf))
    {
      g_autofree char *name = self->file ? g_file_get_basename (self->file) : g_strdup ("?");
      g_autofree char *message = g_strdup_printf (_("The colour profile of %s is not usable (%s); it is shown as sRGB"),
                                                  name, lm_view_transform_note (c->xf));
      lm_window_show_message_about (self, LM_TOPIC_PHOTO, GTK_MESSAGE_WARNING, message);
    }
  g_debug ("view transform: %s → %s%s", lm_view_transform_source_name (c->xf),
           lm_view_transform_monitor_name (c->xf), lm_view_transform_lut (c->xf) ? "" : " (none needed)");
  lm_render_worker_set_view_transform (self->worker, c->xf);
}

void
lm_window_color_prepare (LmWindow *self, LmRenderRequest *req)
{
  LmWindowColor *c = self->color;
  if (c->xf == NULL || c->source != self->source)
    rebuild (self);
  req->seen_histogram = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->seen_check));
}

static void
invalidate (LmWindow *self)
{
  g_clear_pointer (&self->color->xf, lm_view_transform_unref);
  lm_window_request_render (self);
}

static void
on_preference_changed (GSettings *settings, const char *key, LmWindow *self)
{
  invalidate (self);
}

/* Moved: re-read the profile only when it is another monitor's (cheap otherwise). */
static gboolean
on_configure (GtkWidget *widget, GdkEvent *event, LmWindow *self)
{
  if (self->color->xf != NULL && lm_monitor_index_of (widget) != self->color->monitor)
    invalidate (self);
  return GDK_EVENT_PROPAGATE;
}

static void
on_seen_toggled (GtkToggleButton *button, LmWindow *self)
{
  lm_window_request_render (self);
}

static void
chosen (const char *path, gpointer data)
{
  LmWindow *self = data;
  if (self->settings)
    g_settings_set_string (self->settings, "monitor-profile", path); /* changed:: follows */
  else
    {
      g_free (self->color->preference);
      self->color->preference = g_strdup (path);
      invalidate (self);
    }
}

void
lm_window_monitor_profile_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  g_autofree char *current = self->settings ? g_settings_get_string (self->settings, "monitor-profile")
                                            : g_strdup (self->color->preference);
  lm_monitor_profile_dialog (GTK_WINDOW (self), current, chosen, self);
}

void
lm_window_color_init (LmWindow *self)
{
  self->color = g_new0 (LmWindowColor, 1);
  self->color->preference = g_strdup ("");
  g_object_bind_property (self->seen_check, "active", self->histogram_view, "seen",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  if (self->settings)
    {
      g_settings_bind (self->settings, "histogram-seen", self->seen_check, "active", G_SETTINGS_BIND_DEFAULT);
      g_signal_connect (self->settings, "changed::monitor-profile", G_CALLBACK (on_preference_changed), self);
    }
  g_signal_connect (self->seen_check, "toggled", G_CALLBACK (on_seen_toggled), self);
  g_signal_connect (self, "configure-event", G_CALLBACK (on_configure), self);
}

void
lm_window_color_free (LmWindow *self)
{
  if (self->color == NULL)
    return;
  if (self->settings)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_pointer (&self->color->xf, lm_view_transform_unref);
  g_clear_pointer (&self->color->source, lm_image_unref);
  g_free (self->color->preference);
  g_clear_pointer (&self->color, g_free);
}

LmViewTransform *
lm_window_get_view_transform (LmWindow *self)
{
  return self->color ? self->color->xf : NULL;
}

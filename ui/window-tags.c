/* The editor's rating keys. The sidecar is read again at each key, so that a toggle toggles
 * what the file holds now (darktable or digiKam may have written it since), then written;
 * a sidecar that cannot be read or written is said in the info bar and left as it is. */
#include "window-tags.h"
#include "window-private.h"
#include "window-status.h"
#include "rating-keys.h"


struct _LmWindowTags {
  char *photo; /* the photo the keys tag; NULL: none */
};

/* The key handler, where no text field has the keyboard (there the digits are text). */
static gboolean
on_key (GtkWidget *widget, GdkEventKey *event, LmWindow *self)
{
  LmWindowTags *t = self->tags;
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));
  LmPhotoTags current = { 0, 0 }, next;
  if (t == NULL || t->photo == NULL || (focus && GTK_IS_EDITABLE (focus))
      || !lm_rating_keys_apply (event->keyval, event->state, &current, &next))
    return GDK_EVENT_PROPAGATE;
  g_autoptr (GError) error = NULL;
  if (!lm_photo_tags_read (t->photo, &current, &error)
      || (lm_rating_keys_apply (event->keyval, event->state, &current, &next)
          && !lm_photo_tags_write (t->photo, &next, &error)))
    {
      lm_window_show_message (self, GTK_MESSAGE_ERROR, error->message);
      return GDK_EVENT_STOP;
    }
  lm_window_show_tags (self, &next);
  return GDK_EVENT_STOP;
}

void
lm_window_tags_init (LmWindow *self)
{
  self->tags = g_new0 (LmWindowTags, 1);
  g_signal_connect (self, "key-press-event", G_CALLBACK (on_key), self);
  lm_window_show_tags (self, NULL);
}

void
lm_window_tags_free (LmWindow *self)
{
  if (self->tags == NULL)
    return;
  g_free (self->tags->photo);
  g_clear_pointer (&self->tags, g_free);
}

void
lm_window_tags_open (LmWindow *self, GFile *file)
{
  LmWindowTags *t = self->tags;
  g_clear_pointer (&t->photo, g_free);
  t->photo = file ? g_file_get_path (file) : NULL;
  LmPhotoTags tags;
  g_autoptr (GError) error = NULL;
  if (t->photo == NULL)
    lm_window_show_tags (self, NULL);
  else if (lm_photo_tags_read (t->photo, &tags, &error))
    lm_window_show_tags (self, &tags);
  else
    {
      lm_window_show_tags (self, NULL);
      lm_window_show_message (self, GTK_MESSAGE_WARNING, error->message);
    }
}

/* The folder view's changes to many photos, on a thread (folder-changes.h). */
#include "folder-changes.h"

#include "core/context-post.h"
#include "core/library/photo-tags.h"
#include "core/library/presets.h"
#include "rating-keys.h"

/* What reports share with the owner: dropped once it is freed. */
typedef struct {
  gboolean alive; /* the owner's thread only */
  LmFolderChangeDone done;
  gpointer user_data;
} Owner;

struct _LmFolderChanges {
  Owner *owner;
  GMainContext *context;
  GThreadPool *writer; /* one thread: changes in the order asked */
  gint stopping;       /* atomic */
  guint pending;       /* the owner's thread only */
};

typedef struct {
  LmFolderChanges *changes;
  GPtrArray *photos; /* of char * */
  guint keyval;
  GdkModifierType state;
  char *preset; /* NULL: a rating key */
  /* The report. */
  Owner *owner;
  GPtrArray *written;
  char *error;
} Change;

static void
change_free (Change *c)
{
  g_ptr_array_unref (c->photos);
  g_free (c->preset);
  g_ptr_array_unref (c->written);
  g_free (c->error);
  g_rc_box_release (c->owner);
  g_free (c);
}

/* Whether the key takes something away from a photo tagged CURRENT: a label or the reject
 * that F1–F5 or R toggle off. */
static gboolean
key_removes (guint keyval, GdkModifierType state, const LmPhotoTags *current)
{
  LmPhotoTags next;
  if (!lm_rating_keys_apply (keyval, state, current, &next))
    return FALSE;
  gboolean toggle = (keyval >= GDK_KEY_F1 && keyval <= GDK_KEY_F5) || keyval == GDK_KEY_r || keyval == GDK_KEY_R;
  return toggle
         && ((current->labels & ~next.labels) != 0
             || (current->rating == LM_RATING_REJECTED && next.rating != LM_RATING_REJECTED));
}

static gboolean
stopping (Change *c)
{
  return g_atomic_int_get (&c->changes->stopping);
}

/* Each sidecar is read again just before it is written: darktable or digiKam may have
 * changed it meanwhile. */
static void
write_tags (Change *c)
{
  gboolean all_have = TRUE;
  for (guint i = 0; i < c->photos->len && all_have && !stopping (c); i++)
    {
      LmPhotoTags current;
      all_have = lm_photo_tags_read (c->photos->pdata[i], &current, NULL) && key_removes (c->keyval, c->state, &current);
    }
  for (guint i = 0; i < c->photos->len && !stopping (c); i++)
    {
      const char *photo = c->photos->pdata[i];
      LmPhotoTags current, next;
      g_autoptr (GError) error = NULL;
      if (!lm_photo_tags_read (photo, &current, &error)
          || (!(key_removes (c->keyval, c->state, &current) && !all_have)
              && lm_rating_keys_apply (c->keyval, c->state, &current, &next)
              && !lm_photo_tags_write (photo, &next, &error)))
        {
          c->error = g_strdup (error->message);
          return;
        }
      g_ptr_array_add (c->written, g_strdup (photo));
    }
}

static void
write_preset (Change *c)
{
  for (guint i = 0; i < c->photos->len && !stopping (c); i++)
    {
      const char *photo = c->photos->pdata[i];
      g_autoptr (GError) error = NULL;
      if (!lm_preset_apply_to_photo (c->preset, photo, LM_PASTE_APPEND, &error))
        {
          c->error = g_strdup (error->message);
          return;
        }
      g_ptr_array_add (c->written, g_strdup (photo));
    }
}

static gboolean
report (gpointer data)
{
  Change *c = data;
  if (!c->owner->alive)
    return G_SOURCE_REMOVE;
  c->changes->pending--;
  c->owner->done (c->written, c->error, c->preset != NULL, c->owner->user_data);
  return G_SOURCE_REMOVE;
}

static void
write_change (gpointer data, gpointer user_data)
{
  Change *c = data;
  if (c->preset)
    write_preset (c);
  else
    write_tags (c);
  lm_context_post (c->changes->context, NULL, report, c, (GDestroyNotify) change_free);
}

LmFolderChanges *
lm_folder_changes_new (LmFolderChangeDone done, gpointer user_data)
{
  LmFolderChanges *changes = g_new0 (LmFolderChanges, 1);
  changes->owner = g_rc_box_new0 (Owner);
  *changes->owner = (Owner) { TRUE, done, user_data };
  changes->context = g_main_context_ref_thread_default ();
  changes->writer = g_thread_pool_new_full (write_change, changes, (GDestroyNotify) change_free, 1, FALSE, NULL);
  return changes;
}

void
lm_folder_changes_free (LmFolderChanges *changes)
{
  if (changes == NULL)
    return;
  g_atomic_int_set (&changes->stopping, TRUE);
  /* The change being written stops after its photo; those waiting are dropped unwritten. */
  g_thread_pool_free (changes->writer, TRUE, TRUE);
  changes->owner->alive = FALSE;
  g_rc_box_release (changes->owner);
  g_main_context_unref (changes->context);
  g_free (changes);
}

static void
push (LmFolderChanges *changes, const char *const *photos, guint n, guint keyval, GdkModifierType state,
      const char *preset)
{
  Change *c = g_new0 (Change, 1);
  c->changes = changes;
  c->photos = g_ptr_array_new_full (n, g_free);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (c->photos, g_strdup (photos[i]));
  c->keyval = keyval;
  c->state = state;
  c->preset = g_strdup (preset);
  c->owner = g_rc_box_acquire (changes->owner);
  c->written = g_ptr_array_new_with_free_func (g_free);
  changes->pending++;
  g_thread_pool_push (changes->writer, c, NULL);
}

void
lm_folder_changes_tag (LmFolderChanges *changes, const char *const *photos, guint n, guint keyval,
                       GdkModifierType state)
{
  push (changes, photos, n, keyval, state, NULL);
}

void
lm_folder_changes_preset (LmFolderChanges *changes, const char *const *photos, guint n, const char *preset)
{
  push (changes, photos, n, 0, 0, preset);
}

guint
lm_folder_changes_pending (LmFolderChanges *changes)
{
  return changes->pending;
}

#include "rating-keys.h"

#include <gtk/gtk.h>

gboolean
lm_rating_keys_apply (guint keyval, GdkModifierType state, const LmPhotoTags *current, LmPhotoTags *next)
{
  if ((state & gtk_accelerator_get_default_mod_mask () & ~GDK_SHIFT_MASK) != 0)
    return FALSE;
  LmPhotoTags tags = *current;
  if (keyval >= GDK_KEY_0 && keyval <= GDK_KEY_5)
    tags.rating = (int) (keyval - GDK_KEY_0);
  else if (keyval >= GDK_KEY_KP_0 && keyval <= GDK_KEY_KP_5)
    tags.rating = (int) (keyval - GDK_KEY_KP_0);
  else if (keyval == GDK_KEY_r || keyval == GDK_KEY_R)
    tags.rating = tags.rating == LM_RATING_REJECTED ? 0 : LM_RATING_REJECTED;
  else if (keyval >= GDK_KEY_F1 && keyval <= GDK_KEY_F5)
    tags.labels ^= 1u << (keyval - GDK_KEY_F1);
  else
    return FALSE;
  *next = tags;
  return TRUE;
}

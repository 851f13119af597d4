#include "history.h"

#define LM_HISTORY_MAX 500 /* steps kept; the oldest go first */

struct _LmHistory {
  GArray *states; /* of LmPipeline */
  guint current;  /* index into states */
  gint saved;     /* index of the saved state, -1 when none is */
};

LmHistory *
lm_history_new (const LmPipeline *initial)
{
  LmHistory *h = g_new0 (LmHistory, 1);
  h->states = g_array_new (FALSE, FALSE, sizeof (LmPipeline));
  g_array_append_val (h->states, *initial);
  h->saved = 0; /* a freshly opened photo has nothing to lose */
  return h;
}

LmHistory *
lm_history_new_steps (const LmPipeline *steps, guint n, guint current)
{
  g_return_val_if_fail (n >= 1 && current < n, NULL);
  LmHistory *h = lm_history_new (&steps[0]);
  g_array_append_vals (h->states, steps + 1, n - 1);
  while (h->states->len > LM_HISTORY_MAX && current > 0)
    {
      g_array_remove_index (h->states, 0);
      current--;
    }
  g_array_set_size (h->states, MIN (h->states->len, LM_HISTORY_MAX));
  h->current = current;
  h->saved = (gint) current;
  return h;
}

void
lm_history_free (LmHistory *h)
{
  if (h == NULL)
    return;
  g_array_unref (h->states);
  g_free (h);
}

void
lm_history_push (LmHistory *h, const LmPipeline *state)
{
  if (lm_pipeline_equal (&g_array_index (h->states, LmPipeline, h->current), state))
    return;
  g_array_set_size (h->states, h->current + 1);
  if ((gint) h->current < h->saved)
    h->saved = -1; /* the saved state was undone past and is now gone */
  g_array_append_val (h->states, *state);
  h->current++;
  if (h->states->len > LM_HISTORY_MAX)
    {
      g_array_remove_index (h->states, 0);
      h->current--;
      h->saved = h->saved > 0 ? h->saved - 1 : -1;
    }
}

gboolean
lm_history_can_undo (LmHistory *h)
{
  return h->current > 0;
}

gboolean
lm_history_can_redo (LmHistory *h)
{
  return h->current + 1 < h->states->len;
}

gboolean
lm_history_undo (LmHistory *h, LmPipeline *state)
{
  if (!lm_history_can_undo (h))
    return FALSE;
  *state = g_array_index (h->states, LmPipeline, --h->current);
  return TRUE;
}

gboolean
lm_history_redo (LmHistory *h, LmPipeline *state)
{
  if (!lm_history_can_redo (h))
    return FALSE;
  *state = g_array_index (h->states, LmPipeline, ++h->current);
  return TRUE;
}

void
lm_history_mark_saved (LmHistory *h)
{
  h->saved = (gint) h->current;
}

gboolean
lm_history_is_dirty (LmHistory *h)
{
  return h->saved != (gint) h->current;
}

guint
lm_history_n_steps (LmHistory *h)
{
  return h->states->len;
}

guint
lm_history_position (LmHistory *h)
{
  return h->current;
}

const LmPipeline *
lm_history_step (LmHistory *h, guint index)
{
  g_return_val_if_fail (index < h->states->len, NULL);
  return &g_array_index (h->states, LmPipeline, index);
}

/* LmWindow's Compare (window-compare.h): the CPU and the GPU render the same view, and their
 * difference, multiplied by the diff bar's gain, is painted over it. Its only state is the
 * compare action's: the action is disabled without a usable GPU. */
#include "window-compare.h"
#include "window-private.h"
#include "window-status.h"

#include <glib/gi18n.h>

static gboolean
comparing (LmWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "compare");
  g_autoptr (GVariant) state = action ? g_action_get_state (action) : NULL;
  return state && g_variant_get_boolean (state);
}

void
lm_window_compare_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  LmWindow *self = data;
  /* The action is disabled without a GPU; a state set from elsewhere is refused too. */
  if (g_variant_get_boolean (state) && !self->cuda_usable)
    return;
  g_simple_action_set_state (action, state);
  gboolean on = g_variant_get_boolean (state);
  gtk_revealer_set_reveal_child (self->diff_revealer, on);
  if (on)
    {
      gtk_label_set_text (self->diff_label, _("Comparing the CPU with the GPU…"));
      lm_window_request_render (self);
    }
  else
    lm_image_view_set_overlay (self->image_view, NULL, NULL);
}

void
lm_window_compare_request (LmWindow *self, const LmRenderRequest *req)
{
  if (comparing (self) && self->cuda_usable)
    lm_render_worker_compare (self->worker, req, LM_BACKEND_CPU, LM_BACKEND_CUDA,
                              (float) gtk_adjustment_get_value (self->gain_adjustment));
}

void
lm_window_compare_result (LmWindow *self, const LmRenderResult *r)
{
  if (comparing (self))
    lm_window_show_compare (self, r);
}

static void
on_gain_changed (GtkAdjustment *adjustment, LmWindow *self)
{
  if (comparing (self))
    lm_window_request_render (self);
}

void
lm_window_compare_init (LmWindow *self)
{
  g_signal_connect (self->gain_adjustment, "value-changed", G_CALLBACK (on_gain_changed), self);
}

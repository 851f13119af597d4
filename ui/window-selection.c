/* The selected instance (window-selection.h). */
#include "window-selection.h"

#include "window-private.h"

void
lm_window_select_instance (LmWindow *self, guint32 id)
{
  self->selected_instance = id;
}

guint32
lm_window_selected_instance (LmWindow *self)
{
  if (self->selected_instance == 0 || lm_pipeline_find (&self->pipeline, self->selected_instance) < 0)
    return 0;
  return self->selected_instance;
}

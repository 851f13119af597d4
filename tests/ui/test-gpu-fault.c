/* A GPU that fails in the middle of work, as a person meets it: the next kernel launch or
 * copy is made to fail (core/backend/cuda-fault.h, what LUMEN_CUDA_FAULT does for lumen-cli) just
 * before a switch is clicked. The window says so in its info bar, the view shows the CPU's
 * render instead (the same bytes as the CPU backend's), and the next change renders on the
 * GPU again, the notice gone. Needs a CUDA device: skipped without one. */
#include <string.h>

#include "config.h"
#include "ui-testlib.h"
#if LUMEN_HAVE_CUDA
#include "core/backend/cuda-fault.h"
#endif

static GtkWidget *
backend_button (const char *target)
{
  GtkWidget *bar = gtk_window_get_titlebar (GTK_WINDOW (ui_window));
  g_autoptr (GPtrArray) buttons = ui_find_all (bar, GTK_TYPE_BUTTON);
  for (guint i = 0; i < buttons->len; i++)
    {
      GtkActionable *b = g_ptr_array_index (buttons, i);
      GVariant *t = gtk_actionable_get_action_target_value (b);
      if (g_strcmp0 (gtk_actionable_get_action_name (b), "win.backend") == 0 && t
          && g_str_equal (g_variant_get_string (t, NULL), target))
        return GTK_WIDGET (b);
    }
  g_assert_not_reached ();
}

static gboolean
gpu_usable (void)
{
  return LUMEN_HAVE_CUDA && gtk_widget_get_sensitive (backend_button ("cuda"));
}

static void
click_switch (LmOpId op)
{
  GtkWidget *sw = ui_control (op, "enabled");
  gboolean was = gtk_switch_get_active (GTK_SWITCH (sw));
  ui_scroll_into_view (sw);
  ui_click (sw, gtk_widget_get_allocated_width (sw) / 2.0, gtk_widget_get_allocated_height (sw) / 2.0);
  for (int turn = 0; turn < 100 && gtk_switch_get_active (GTK_SWITCH (sw)) == was; turn++)
    ui_wait_ms (20); /* the switch slides over before it changes */
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (sw)) != was);
  ui_settle_tracked ();
}

static void
press_backend (guint key)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (key, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  ui_settle_tracked ();
}

static const char *
info (void)
{
  const char *text = lm_window_get_info_message (ui_window);
  return text ? text : "";
}

/* KIND fails once while OP's switch is clicked on the GPU. */
static void
fault_while_switching (int kind, LmOpId op)
{
  if (!gpu_usable ())
    {
      g_test_skip ("no usable CUDA device");
      return;
    }
#if LUMEN_HAVE_CUDA
  press_backend (GDK_KEY_G);
  g_assert_null (strstr (info (), "rendered on the CPU"));
  lm_cuda_fault_arm (kind, 1);
  click_switch (op);
  g_test_message ("after the fault: %s", info ());
  g_assert_nonnull (strstr (info (), "rendered on the CPU"));
  g_assert_nonnull (strstr (info (), "CUDA"));
  g_autoptr (GBytes) faulted = ui_view_pixels ();

  press_backend (GDK_KEY_C);
  g_autoptr (GBytes) cpu = ui_view_pixels ();
  g_assert_true (g_bytes_equal (faulted, cpu));

  /* Back on the GPU, which works again: the next change renders there, the notice goes. */
  press_backend (GDK_KEY_G);
  click_switch (op);
  g_test_message ("the next render on the GPU: info bar “%s”", info ());
  g_assert_null (strstr (info (), "rendered on the CPU"));
#endif
}

static void
test_launch (void)
{
#if LUMEN_HAVE_CUDA
  fault_while_switching (LM_CUDA_FAULT_LAUNCH, LM_OP_BLUR);
#else
  g_test_skip ("built without CUDA");
#endif
}

static void
test_copy (void)
{
#if LUMEN_HAVE_CUDA
  fault_while_switching (LM_CUDA_FAULT_COPY, LM_OP_GRAY);
#else
  g_test_skip ("built without CUDA");
#endif
}

int
main (int argc, char **argv)
{
  ui_test_init (&argc, &argv, "photos/chelsea.png");
  ui_track_results ();
  g_test_add_func ("/gpu-fault/launch", test_launch);
  g_test_add_func ("/gpu-fault/copy", test_copy);
  int rc = g_test_run ();
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  return rc;
}

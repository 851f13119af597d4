/* soak-window: the real window's memory over many edits. Opens PHOTO, then makes COUNT edits
 * as a person makes them, through the X server (XTest): a slider clicked on its knob, then
 * arrow and Page keys, or dragged by its knob; a choice moved with the arrow keys; an
 * operation's switch clicked off (the next edit switches it back on); a curve's point dragged,
 * each curve of the operation in turn. It goes round every
 * control of every operation that is in use (blur's σ, the gray mode and its amount, the
 * channel mix while it is chosen, equalize's mode and amount, and the tone mapping's controls
 * when the photo is radiance), so that every render path runs. Every SETTLE edits it waits for
 * the newest render; every SAMPLE edits, once settled, it reads the process's resident memory
 * (VmRSS: the window, its render worker and the backend are this process), what malloc has
 * in use and keeps free, and, on the GPU, the device memory in use (nvidia-smi). It prints a
 * table and a verdict: resident memory may grow by 5 % at most after the warm-up, device
 * memory not at all; exit status 1 if not.
 *
 *   soak-window [--backend auto|cpu|cuda] [--changes N] [--warmup N] [--sample N]
 *               [--settle N] [--max-sigma S] [--tsv FILE] [--verbose] [PHOTO]
 *
 * PHOTO: a file, or a name in the test corpus (LUMEN_TEST_DATA); photos/forest-path.jpg when
 * none. The backend is chosen with the window's own CPU and GPU buttons, clicked. Needs a
 * display (Xvfb) and the environment of the window tests: bench/soak.sh sets it up. Not a
 * test: it takes minutes; its figures go to bench/RESULTS.md. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gdk/gdkx.h>
#include <X11/extensions/XTest.h>

#include "ui-testlib.h"
#include "ui/curve-editor.h"
#include "ui/op-panel.h"

/* ---- what is measured ---------------------------------------------------------------------- */

typedef struct {
  guint changes;
  double seconds;
  double rss_mib;
  double in_use_mib; /* what malloc has handed out and not had back */
  double kept_mib;   /* what it has had back and keeps, free, in its heaps */
  double gpu_mib;    /* < 0: not measured */
} Sample;

static double
rss_mib (void)
{
  g_autofree char *status = NULL;
  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1.0;
  const char *line = strstr (status, "\nVmRSS:");
  return line ? g_ascii_strtod (line + strlen ("\nVmRSS:"), NULL) / 1024.0 : -1.0;
}

/* Resident memory may grow while nothing leaks: glibc keeps memory that was freed in the
 * middle of its heaps (and, once a large block has been freed, serves blocks of that size
 * from the heap instead of mapping them). What malloc has handed out tells the two apart. */
static void
malloc_mib (double *in_use, double *kept)
{
  struct mallinfo2 m = mallinfo2 ();
  *in_use = (m.uordblks + m.hblkhd) / (1024.0 * 1024.0);
  *kept = m.fordblks / (1024.0 * 1024.0);
}

/* Where the device memory figure comes from: this process's own line of nvidia-smi, or (in a
 * container whose process ids nvidia-smi does not see) the whole device's use, which is ours
 * alone on a machine lent for the run. */
static const char *gpu_source = "none";

static char *
run_nvidia_smi (const char *query)
{
  const char *argv[] = { "nvidia-smi", query, "--format=csv,noheader,nounits", NULL };
  char *out = NULL;
  int status = 0;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                     &out, NULL, &status, NULL)
      || !g_spawn_check_wait_status (status, NULL))
    {
      g_free (out);
      return NULL;
    }
  return out;
}

static double
gpu_mib (void)
{
  g_autofree char *apps = run_nvidia_smi ("--query-compute-apps=pid,used_memory");
  if (apps)
    {
      g_auto (GStrv) lines = g_strsplit (apps, "\n", -1);
      for (int i = 0; lines[i]; i++)
        {
          int pid = 0;
          double used = 0;
          if (sscanf (lines[i], "%d, %lf", &pid, &used) == 2 && pid == (int) getpid ())
            {
              gpu_source = "nvidia-smi, this process";
              return used;
            }
        }
    }
  g_autofree char *device = run_nvidia_smi ("--query-gpu=memory.used");
  if (device)
    {
      gpu_source = "nvidia-smi, the whole device";
      return g_ascii_strtod (device, NULL);
    }
  return -1.0;
}

/* ---- controls, used as a person uses them -------------------------------------------------- */

typedef enum { SLIDER, CHOICE, SWITCH, CURVE } ControlKind;

typedef struct {
  const char *name; /* "blur sigma": for messages */
  GtkWidget *widget; /* the slider (a length's position slider), the combo box or the switch */
  ControlKind kind;
  double low, high;  /* sliders: the values an edit stays within */
  LmOpPanel *panel;  /* curves: the panel whose buttons pick the curve shown */
  const LmOpInfo *op;
  int direction;     /* +1 or −1: where the next move goes */
  guint bursts;
} Control;

static GPtrArray *controls;
static guint changes;         /* edits that changed a value */
/* Blur's σ stays at most this: a larger one makes each render on the CPU slow, and the soak
 * is about memory. */
static double max_sigma = 50;
static gboolean verbose;

static gboolean
usable (GtkWidget *widget)
{
  return gtk_widget_is_sensitive (widget) && gtk_widget_is_visible (widget);
}

static void
add_control (const char *op, const char *param, GtkWidget *widget, ControlKind kind, double low,
             double high)
{
  Control *c = g_new0 (Control, 1);
  c->name = g_strdup_printf ("%s %s", op, param);
  c->widget = widget;
  c->kind = kind;
  c->low = low;
  c->high = high;
  c->direction = 1;
  g_ptr_array_add (controls, c);
}

static const LmParamSpec *
first_curve (const LmOpInfo *op)
{
  for (guint i = 0; i < op->n_params; i++)
    if (op->params[i].type == LM_PARAM_CURVE)
      return &op->params[i];
  return NULL;
}

/* Every control of PANEL (OP's), from its parameter table. */
static void
add_panel (LmOpPanel *panel, const LmOpInfo *op)
{
  add_control (op->name, "switch", lm_op_panel_get_control (panel, "enabled"), SWITCH, 0, 0);
  for (guint i = 0; i < op->n_params; i++)
    {
      const LmParamSpec *spec = &op->params[i];
      GtkWidget *control = lm_op_panel_get_control (panel, spec->name);
      if (spec->type == LM_PARAM_CURVE)
        {
          /* One editor for all the operation's curves: one control, which goes round them. */
          if (spec == first_curve (op))
            {
              add_control (op->name, "curves", control, CURVE, 0, 0);
              Control *c = controls->pdata[controls->len - 1];
              c->panel = panel, c->op = op;
            }
          continue;
        }
      if (spec->type == LM_PARAM_TEXT) /* a name: nothing a random walk types */
        continue;
      if (spec->type == LM_PARAM_ENUM)
        add_control (op->name, spec->name, control, CHOICE, 0, 0);
      else if (spec->in_pixels)
        {
          /* A length's visible slider runs over a position, its hidden range over the value:
           * where MAX_SIGMA lies is asked of a panel of its own, outside the window, so that
           * finding it edits nothing. */
          g_autofree char *slider_name = g_strdup_printf ("%s-slider", spec->name);
          GtkWidget *slider = ui_find_named (GTK_WIDGET (panel), slider_name);
          g_assert_nonnull (slider);
          GtkWidget *probe = g_object_ref_sink (lm_op_panel_new (op));
          GtkWidget *probe_slider = ui_find_named (probe, slider_name);
          GtkWidget *probe_value = lm_op_panel_get_control (LM_OP_PANEL (probe), spec->name);
          double high = 0.0;
          for (int p = 0; p <= 100; p++)
            {
              gtk_range_set_value (GTK_RANGE (probe_slider), p / 100.0);
              if (gtk_range_get_value (GTK_RANGE (probe_value)) > max_sigma)
                break;
              high = p / 100.0;
            }
          gtk_widget_destroy (probe);
          g_object_unref (probe);
          add_control (op->name, spec->name, slider, SLIDER, 0.0, high);
        }
      else
        add_control (op->name, spec->name, control, SLIDER, spec->min, spec->max);
    }
}

/* The knob's centre, in SLIDER's coordinates, from its value: the centre travels over the
 * trough but a pixel at each end (gtk_range_get_slider_range can be a frame behind a value
 * set before the slider was drawn). */
static void
knob_centre (GtkWidget *slider, double *x, double *y, double *pixels_per_unit)
{
  GdkRectangle trough;
  gtk_range_get_range_rect (GTK_RANGE (slider), &trough);
  GtkAdjustment *adj = gtk_range_get_adjustment (GTK_RANGE (slider));
  double lower = gtk_adjustment_get_lower (adj), upper = gtk_adjustment_get_upper (adj);
  double travel = MAX (1.0, trough.width - 2.0);
  *x = trough.x + 1.0 + travel * (gtk_adjustment_get_value (adj) - lower) / (upper - lower);
  *y = trough.y + trough.height / 2.0;
  if (pixels_per_unit)
    *pixels_per_unit = travel / (upper - lower);
}

static void
click_middle (GtkWidget *widget)
{
  ui_click (widget, gtk_widget_get_allocated_width (widget) / 2.0, gtk_widget_get_allocated_height (widget) / 2.0);
}

static double
control_value (const Control *c)
{
  switch (c->kind)
    {
    case SLIDER:
      return gtk_range_get_value (GTK_RANGE (c->widget));
    case CHOICE:
      return gtk_combo_box_get_active (GTK_COMBO_BOX (c->widget));
    case SWITCH:
      return gtk_switch_get_active (GTK_SWITCH (c->widget));
    case CURVE:
      {
        /* Any move of any point changes this. */
        const LmCurvePoints *p = lm_curve_editor_get_points (LM_CURVE_EDITOR (c->widget));
        double v = p->n * 1e7;
        for (int i = 0; i < p->n; i++)
          v += (i + 1) * (p->x[i] * 256 + p->y[i]);
        return v;
      }
    }
  g_assert_not_reached ();
}

/* Counts the edit that took C from BEFORE, if it changed anything. */
static gboolean
changed (const Control *c, double before)
{
  if (control_value (c) == before)
    return FALSE;
  changes++;
  return TRUE;
}

/* ---- input as fast as the window takes it --------------------------------------------------
 * ui-testlib's ui_key and ui_pointer_move wait 30 ms after each event: over 10,000 edits that
 * alone is five minutes, and the GPU machine lends a command ten. These send the same events
 * through the X server and return once GTK has handled them: when the control's value has
 * moved, or after a while where the event moves nothing (an end of the range). */

#define NO_MOVE_MS 200

static Display *
xdisplay (void)
{
  return GDK_DISPLAY_XDISPLAY (gdk_display_get_default ());
}

static gboolean
tick (gpointer data)
{
  return G_SOURCE_CONTINUE; /* wakes the loop, so that the deadline is checked */
}

/* Runs the main loop until C's value is no longer BEFORE, or for MS milliseconds. */
static void
await_change (const Control *c, double before, guint ms)
{
  guint timer = g_timeout_add (2, tick, NULL);
  gint64 deadline = g_get_monotonic_time () + ms * 1000;
  while (control_value (c) == before && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timer);
  ui_flush ();
}

/* KEYVAL pressed and released, to the widget with the keyboard (C's). */
static void
send_key (const Control *c, guint keyval)
{
  double before = control_value (c);
  KeyCode code = XKeysymToKeycode (xdisplay (), keyval);
  g_assert_cmpuint (code, !=, 0);
  XTestFakeKeyEvent (xdisplay (), code, True, CurrentTime);
  XTestFakeKeyEvent (xdisplay (), code, False, CurrentTime);
  XSync (xdisplay (), False);
  await_change (c, before, NO_MOVE_MS);
}

/* The pointer to (X, Y) of C's widget (one without a window of its own, as sliders are). */
static void
send_motion (const Control *c, double x, double y)
{
  double before = control_value (c);
  int ox, oy;
  gdk_window_get_origin (gtk_widget_get_window (c->widget), &ox, &oy);
  GtkAllocation a;
  gtk_widget_get_allocation (c->widget, &a);
  if (gtk_widget_get_has_window (c->widget))
    a.x = a.y = 0; /* a curve editor: its own window's origin is its allocation's */
  XTestFakeMotionEvent (xdisplay (), -1, ox + a.x + (int) x, oy + a.y + (int) y, CurrentTime);
  XSync (xdisplay (), False);
  await_change (c, before, NO_MOVE_MS);
}

/* A slider focused by a click on its knob (which moves nothing), then keys: arrows mostly,
 * a Page key every fifth press, turning round at the ends of its range. */
static void
keys_on_slider (Control *c, guint presses, guint limit)
{
  double x, y;
  knob_centre (c->widget, &x, &y, NULL);
  double before = control_value (c);
  ui_click (c->widget, x, y);
  changed (c, before);
  if (!gtk_widget_has_focus (c->widget))
    g_error ("soak-window: a click on %s's knob did not give it the keyboard", c->name);
  GtkAdjustment *adj = gtk_range_get_adjustment (GTK_RANGE (c->widget));
  for (guint i = 0; i < presses && changes < limit; i++)
    {
      gboolean page = i % 5 == 4;
      double step = page ? gtk_adjustment_get_page_increment (adj) : gtk_adjustment_get_step_increment (adj);
      double value = control_value (c);
      if (value + c->direction * step > c->high + 1e-9 || value + c->direction * step < c->low - 1e-9)
        c->direction = -c->direction;
      /* A horizontal GtkScale: Right and Page Down move up, Left and Page Up down. */
      guint key = c->direction > 0 ? (page ? GDK_KEY_Page_Down : GDK_KEY_Right) : (page ? GDK_KEY_Page_Up : GDK_KEY_Left);
      send_key (c, key);
      if (!changed (c, value) && !page)
        c->direction = -c->direction; /* at an end */
    }
}

/* A slider dragged by its knob, a few pixels a move, within its range. */
static void
drag_slider (Control *c, guint moves, guint limit)
{
  double x, y, per_unit;
  knob_centre (c->widget, &x, &y, &per_unit);
  double value = control_value (c);
  ui_pointer_move (c->widget, x, y);
  ui_pointer_button (1, TRUE);
  double at = x;
  for (guint i = 0; i < moves && changes < limit; i++)
    {
      double dx = 4.0 * c->direction;
      double next = value + dx / per_unit;
      if (next > c->high || next < c->low)
        {
          c->direction = -c->direction;
          dx = -dx;
        }
      double before = control_value (c);
      at += dx;
      send_motion (c, at, y);
      changed (c, before);
      value = control_value (c);
    }
  double before = control_value (c);
  ui_pointer_button (1, FALSE);
  changed (c, before);
}

/* A curve: each burst shows the next of the operation's curves (its button clicked), gives it
 * a point in the middle where it has only its ends (a click on the diagonal), and drags that
 * point up or down by the pointer, between a quarter and three quarters of the levels. */
static void
drag_curve (Control *c, guint moves, guint limit)
{
  guint n = 0, pick = c->bursts;
  for (guint i = 0; i < c->op->n_params; i++)
    n += c->op->params[i].type == LM_PARAM_CURVE;
  for (guint i = 0, k = 0; i < c->op->n_params; i++)
    if (c->op->params[i].type == LM_PARAM_CURVE && k++ == pick % n)
      {
        GtkWidget *button = lm_op_panel_get_curve_button (c->panel, c->op->params[i].name);
        if (button && !gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)))
          {
            ui_scroll_into_view (button);
            click_middle (button);
          }
      }
  ui_scroll_into_view (c->widget);
  LmCurveEditor *editor = LM_CURVE_EDITOR (c->widget);
  double x, y;
  if (lm_curve_editor_get_points (editor)->n == 2)
    {
      double before = control_value (c);
      lm_curve_editor_to_widget (editor, 128, 128, &x, &y);
      ui_click (c->widget, x, y);
      changed (c, before);
    }
  const LmCurvePoints *p = lm_curve_editor_get_points (editor);
  lm_curve_editor_to_widget (editor, p->x[1], p->y[1], &x, &y);
  double top, bottom, unused;
  lm_curve_editor_to_widget (editor, 0, 192, &unused, &top);
  lm_curve_editor_to_widget (editor, 0, 64, &unused, &bottom);
  ui_pointer_move (c->widget, x, y);
  ui_pointer_button (1, TRUE);
  for (guint i = 0; i < moves && changes < limit; i++)
    {
      double dy = -4.0 * c->direction; /* up the screen: a higher level */
      if (y + dy < top || y + dy > bottom)
        {
          c->direction = -c->direction;
          dy = -dy;
        }
      double before = control_value (c);
      y += dy;
      send_motion (c, x, y);
      changed (c, before);
    }
  double before = control_value (c);
  ui_pointer_button (1, FALSE);
  changed (c, before);
}

/* A choice: a click opens its menu, Escape closes it with the choice focused, then Down or
 * Up steps to the next entry, as many times as asked. */
static void
keys_on_choice (Control *c, guint presses, guint limit)
{
  double before = control_value (c);
  click_middle (c->widget);
  ui_key (GDK_KEY_Escape, 0);
  changed (c, before);
  int n = gtk_tree_model_iter_n_children (gtk_combo_box_get_model (GTK_COMBO_BOX (c->widget)), NULL);
  for (guint i = 0; i < presses && changes < limit; i++)
    {
      double value = control_value (c);
      if ((c->direction > 0 && value >= n - 1) || (c->direction < 0 && value <= 0))
        c->direction = -c->direction;
      send_key (c, c->direction > 0 ? GDK_KEY_Down : GDK_KEY_Up);
      if (!changed (c, value))
        g_error ("soak-window: %s did not change with the %s key", c->name, c->direction > 0 ? "Down" : "Up");
    }
}

/* One turn at C: a burst of edits of the kind a person makes with it. */
static void
use_control (Control *c, guint limit)
{
  if (!usable (c->widget))
    return; /* a parameter of another mode (the channel mix but for "mix") */
  ui_scroll_into_view (c->widget);
  guint changes_then = changes;
  double value_then = control_value (c);
  switch (c->kind)
    {
    case SLIDER:
      if (c->bursts % 3 == 2)
        drag_slider (c, 12, limit);
      else
        keys_on_slider (c, 16, limit);
      break;
    case CHOICE:
      keys_on_choice (c, 1, limit);
      break;
    case CURVE:
      drag_curve (c, 12, limit);
      break;
    case SWITCH:
      /* Off: the next edit of one of its sliders switches it back on (only when on, so that
       * an operation is never left off for a whole round). */
      if (gtk_switch_get_active (GTK_SWITCH (c->widget)) && gtk_widget_get_visible (c->widget))
        {
          double before = control_value (c);
          click_middle (c->widget);
          await_change (c, before, 2000); /* the switch slides over before it is off */
          changed (c, before);
        }
      break;
    }
  c->bursts++;
  if (verbose)
    fprintf (stderr, "soak-window: %s %g → %g, %u edits\n", c->name, value_then, control_value (c), changes - changes_then);
}

/* ---- the run ------------------------------------------------------------------------------- */

/* The generation that ui_test_init waited for: its result came before ui_track_results could
 * count it, so that only a newer one is waited for. */
static guint64 opened_generation;

static void
settle (void)
{
  if (lm_window_get_generation (ui_window) > opened_generation)
    ui_settle_tracked ();
}

/* The window's backend made WANTED ("cpu", "cuda", "auto": the GPU where it is usable) with
 * its own buttons, clicked as a person would. */
static const char *
choose_backend (const char *wanted)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (ui_window), "backend");
  g_autoptr (GPtrArray) buttons = ui_find_all (GTK_WIDGET (ui_window), GTK_TYPE_TOGGLE_BUTTON);
  GtkWidget *cpu = NULL, *gpu = NULL;
  for (guint i = 0; i < buttons->len; i++)
    {
      GtkActionable *b = buttons->pdata[i];
      GVariant *target = gtk_actionable_get_action_target_value (b);
      if (g_strcmp0 (gtk_actionable_get_action_name (b), "win.backend") != 0 || target == NULL)
        continue;
      if (g_str_equal (g_variant_get_string (target, NULL), "cpu"))
        cpu = GTK_WIDGET (b);
      else
        gpu = GTK_WIDGET (b);
    }
  g_assert_nonnull (cpu);
  g_assert_nonnull (gpu);
  if (g_str_equal (wanted, "auto"))
    wanted = gtk_widget_get_sensitive (gpu) ? "cuda" : "cpu";
  if (g_str_equal (wanted, "cuda") && !gtk_widget_get_sensitive (gpu))
    {
      g_autofree char *why = gtk_widget_get_tooltip_text (gpu);
      fprintf (stderr, "soak-window: the window cannot use the GPU: %s\n", why ? why : "no reason given");
      exit (1);
    }
  g_autoptr (GVariant) state = g_action_get_state (action);
  if (!g_str_equal (g_variant_get_string (state, NULL), wanted))
    {
      click_middle (g_str_equal (wanted, "cuda") ? gpu : cpu);
      settle ();
    }
  g_autoptr (GVariant) now = g_action_get_state (action);
  if (!g_str_equal (g_variant_get_string (now, NULL), wanted))
    {
      fprintf (stderr, "soak-window: the window runs on %s, not %s\n", g_variant_get_string (now, NULL), wanted);
      exit (1);
    }
  return wanted;
}

/* The edit count of the next sample after N: the next multiple of EVERY, or the warm-up's end
 * where that comes first, so that the reference is taken where the warm-up ends. */
static guint
next_sample_after (guint n, int every, int warmup)
{
  guint next = (n / (guint) every + 1) * (guint) every;
  return n < (guint) warmup && (guint) warmup < next ? (guint) warmup : next;
}

static void
drop_message (const char *domain, GLogLevelFlags level, const char *message, gpointer data)
{
}

static Sample
take_sample (gint64 start, gboolean cuda)
{
  settle ();
  Sample s = { changes, (g_get_monotonic_time () - start) / 1e6, rss_mib () };
  malloc_mib (&s.in_use_mib, &s.kept_mib);
  s.gpu_mib = cuda ? gpu_mib () : -1.0;
  return s;
}

static void
print_sample (FILE *out, const Sample *s)
{
  char gpu[32] = "–";
  if (s->gpu_mib >= 0)
    g_snprintf (gpu, sizeof gpu, "%.0f", s->gpu_mib);
  fprintf (out, "| %u | %.1f | %.1f | %.1f | %.1f | %s |\n", s->changes, s->seconds, s->rss_mib, s->in_use_mib,
           s->kept_mib, gpu);
  fflush (out);
}

int
main (int argc, char **argv)
{
  const char *backend = "auto", *tsv = NULL;
  int count = 10000, warmup = 1000, sample_every = 250, settle_every = 50;
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &backend, "auto (the GPU where usable), cpu or cuda", "B" },
    { "changes", 0, 0, G_OPTION_ARG_INT, &count, "edits to make (10000)", "N" },
    { "warmup", 0, 0, G_OPTION_ARG_INT, &warmup, "edits before the reference sample (1000)", "N" },
    { "sample", 0, 0, G_OPTION_ARG_INT, &sample_every, "edits between samples (250)", "N" },
    { "settle", 0, 0, G_OPTION_ARG_INT, &settle_every, "edits between waits for the render (50)", "N" },
    { "max-sigma", 0, 0, G_OPTION_ARG_DOUBLE, &max_sigma, "blur's σ stays below this (50)", "S" },
    { "verbose", 0, 0, G_OPTION_ARG_NONE, &verbose, "say what each turn did", NULL },
    { "tsv", 0, 0, G_OPTION_ARG_FILENAME, &tsv, "write the samples here too", "FILE" },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("[PHOTO]");
  g_option_context_add_main_entries (context, entries, NULL);
  GError *e = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &e) || argc > 2 || count <= 0 || warmup < 0
      || warmup >= count || sample_every <= 0 || settle_every <= 0
      || !(g_str_equal (backend, "auto") || g_str_equal (backend, "cpu") || g_str_equal (backend, "cuda")))
    {
      fprintf (stderr, "soak-window: %s\n", e ? e->message : "bad arguments (see --help)");
      return 2;
    }
  g_autofree char *photo = NULL;
  if (argc == 2 && g_file_test (argv[1], G_FILE_TEST_EXISTS))
    photo = g_canonicalize_filename (argv[1], NULL);
  else
    photo = g_strdup (argc == 2 ? argv[1] : "photos/forest-path.jpg");
  argc = 1;

  gint64 t0 = g_get_monotonic_time ();
  ui_test_init (&argc, &argv, photo);
  /* gtk_test_init shows debug messages: one per render request would bury the table. */
  g_log_set_handler (G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, drop_message, NULL);
  ui_track_results ();
  opened_generation = lm_window_get_generation (ui_window);
  const char *used = choose_backend (backend);
  gboolean cuda = g_str_equal (used, "cuda");
  fprintf (stderr, "soak-window: %s open on %s after %.1f s\n", photo, used, (g_get_monotonic_time () - t0) / 1e6);

  controls = g_ptr_array_new ();
  LmOpPanel *tonemap = LM_OP_PANEL (ui_find_named (GTK_WIDGET (ui_window), "tonemap"));
  gboolean radiance = tonemap && gtk_widget_get_visible (GTK_WIDGET (tonemap));
  if (radiance)
    add_panel (tonemap, lm_tonemap_op_info ());
  for (int op = 0; op < LM_N_OPS; op++)
    if (lm_window_get_op_panel (ui_window, op)) /* none for the export's resize */
      add_panel (LM_OP_PANEL (lm_window_get_op_panel (ui_window, op)), lm_op_info (op));

  GArray *samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  gint64 start = g_get_monotonic_time ();
  Sample first = take_sample (start, cuda);
  g_array_append_val (samples, first);
  printf ("# soak: %s, %s backend, %d edits%s; RSS: VmRSS; GPU: %s\n", photo, used, count,
          radiance ? " (radiance: tone mapping too)" : "", cuda ? "see below" : "not measured");
  printf ("| edits | seconds | RSS MiB | malloc in use MiB | malloc kept free MiB | GPU MiB |\n"
          "|---|---|---|---|---|---|\n");
  print_sample (stdout, &first);

  guint next_settle = settle_every, next_sample = next_sample_after (0, sample_every, warmup), turn = 0;
  Sample warm = first;
  while (changes < (guint) count)
    {
      Control *c = controls->pdata[turn++ % controls->len];
      guint limit = MIN ((guint) count, MIN (next_settle, next_sample));
      use_control (c, limit);
      if (changes >= next_settle)
        {
          settle ();
          next_settle = (changes / settle_every + 1) * settle_every;
        }
      if (changes >= next_sample)
        {
          Sample s = take_sample (start, cuda);
          g_array_append_val (samples, s);
          print_sample (stdout, &s);
          if (s.changes >= (guint) warmup && warm.changes < (guint) warmup)
            warm = s;
          next_sample = next_sample_after (changes, sample_every, warmup);
        }
    }
  Sample last = g_array_index (samples, Sample, samples->len - 1);
  if (last.changes != changes)
    {
      last = take_sample (start, cuda);
      g_array_append_val (samples, last);
      print_sample (stdout, &last);
    }

  double peak = 0;
  for (guint i = 0; i < samples->len; i++)
    if (g_array_index (samples, Sample, i).changes >= warm.changes)
      peak = MAX (peak, g_array_index (samples, Sample, i).rss_mib);
  double growth = 100.0 * (last.rss_mib - warm.rss_mib) / warm.rss_mib;
  double gpu_growth = cuda ? last.gpu_mib - warm.gpu_mib : 0.0;
  gboolean ok = growth <= 5.0 && gpu_growth <= 0.0;
  printf ("\nRSS: %.1f MiB at the start, %.1f after the warm-up (%u edits), %.1f at the end, peak after "
          "the warm-up %.1f: growth %+.2f %% (≤ 5 %%)\n",
          first.rss_mib, warm.rss_mib, warm.changes, last.rss_mib, peak, growth);
  printf ("malloc: %.1f MiB in use and %.1f kept free after the warm-up, %.1f and %.1f at the end\n",
          warm.in_use_mib, warm.kept_mib, last.in_use_mib, last.kept_mib);
  if (cuda)
    printf ("GPU (%s): %.0f MiB at the start, %.0f after the warm-up, %.0f at the end: growth %+.0f MiB (0)\n",
            gpu_source, first.gpu_mib, warm.gpu_mib, last.gpu_mib, gpu_growth);
  printf ("%u edits in %.1f s: %.1f edits per second\n", changes, last.seconds, changes / last.seconds);
  printf ("verdict: %s\n", ok ? "PASS" : "FAIL");

  if (tsv)
    {
      g_autoptr (GString) text = g_string_new ("edits\tseconds\trss_mib\tin_use_mib\tkept_mib\tgpu_mib\n");
      for (guint i = 0; i < samples->len; i++)
        {
          const Sample *s = &g_array_index (samples, Sample, i);
          g_string_append_printf (text, "%u\t%.2f\t%.2f\t%.2f\t%.2f\t%.0f\n", s->changes, s->seconds, s->rss_mib,
                                  s->in_use_mib, s->kept_mib, s->gpu_mib);
        }
      if (!g_file_set_contents (tsv, text->str, -1, &e))
        fprintf (stderr, "soak-window: %s\n", e->message);
    }
  return ok ? 0 : 1;
}

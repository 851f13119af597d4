/* ui-latency: slider-to-paint latency of the real window. Opens PHOTO, moves one control
 * COUNT times (waiting for each change to reach the screen before the next), and prints the
 * 50th and 95th percentiles of change→result (the worker's) and change→paint (adds the wait
 * for the frame), for the first paint of each change and for its full-resolution one.
 *
 *   ui-latency [--backend cpu|cuda] [--op NAME] [--param NAME] [--count N] [--json FILE] PHOTO
 *
 *   --backend  cpu (default) or cuda: the window's CPU | GPU choice; refused (exit 1) when the
 *              window cannot use it, rather than measuring the other.
 *   --op       the operation whose panel is moved (default blur): any with a panel, such as
 *              blur, gray, equalize, exposure, wb, contrast, saturation, curve.
 *   --param    its parameter (default: blur's sigma, gray's and equalize's amount, else the
 *              operation's first). A number's slider sweeps from its default towards the
 *              farther end of its range and back (blur's σ 1..50 and the amounts 0.05..1, as
 *              before); a curve (LM_PARAM_CURVE: the curve operation's points) gets a point at
 *              the middle, which each change moves up or down as a drag of the editor does.
 *   --count    changes (default 200).
 *   --json     also write the figures to FILE (one object).
 *
 * PHOTO is copied into a temporary folder and the copy edited (the window keeps its edits in a
 * sidecar beside it): nothing is left beside PHOTO, and a sidecar there is not read.
 * Exit status: 0; 1 when the window cannot start, open PHOTO or use the backend; 2 on a usage
 * error; 3 when some change was never painted (within 30 s; the figures are printed anyway).
 * E.g. `ui-latency --op exposure --count 100 photo.jpg`, `ui-latency --op curve photo.jpg`;
 * the ui suite runs both on a small photo (bench/meson.build), the GPU run at 50 MP.
 * Needs a display (Xvfb does). Not a test: figures go to bench/RESULTS.md. */
#include <stdio.h>
#include <stdlib.h>
#include <glib/gstdio.h>

#include "ui/application.h"
#include "ui/curve-editor.h"
#include "ui/image-view.h"
#include "ui/op-panel.h"
#include "ui/window.h"

typedef struct {
  GArray *first_result, *first_paint; /* ms, per change */
  GArray *full_result, *full_paint;
  gint64 started_us;                  /* just before the change being measured */
  gboolean first_seen, full_seen;
  gboolean refined_pending;           /* the refined result of this change arrived, not yet painted */
  gboolean ready, cuda;
} Stats;

static void
on_result (LmWindow *w, int kind, guint64 generation, gboolean refined, Stats *s)
{
  if (kind == LM_RESULT_READY)
    s->ready = TRUE;
  if (kind == LM_RESULT_PREVIEW && refined && generation == lm_window_get_generation (w))
    s->refined_pending = TRUE;
}

static void
on_painted (LmImageView *view, gint64 changed_us, gint64 result_us, gint64 now_us, Stats *s)
{
  if (changed_us < s->started_us)
    return; /* pixels of an earlier change */
  double result_ms = (result_us - changed_us) / 1000.0, paint_ms = (now_us - changed_us) / 1000.0;
  if (!s->first_seen)
    {
      g_array_append_val (s->first_result, result_ms);
      g_array_append_val (s->first_paint, paint_ms);
      s->first_seen = TRUE;
    }
  if (s->refined_pending && !s->full_seen)
    {
      g_array_append_val (s->full_result, result_ms);
      g_array_append_val (s->full_paint, paint_ms);
      s->full_seen = TRUE;
    }
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
percentile (GArray *v, double p)
{
  if (v->len == 0)
    return 0.0;
  qsort (v->data, v->len, sizeof (double), compare_doubles);
  guint i = (guint) (p * (v->len - 1) + 0.5);
  return g_array_index (v, double, i);
}

static void
run_until (gboolean *flag, int seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;
  while (!*flag && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
tick (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* PARAM of OP, or its default one: blur's sigma, an amount where there is one, else the first
 * that is not a choice. */
static const LmParamSpec *
find_param (const LmOpInfo *op, const char *param)
{
  const LmParamSpec *first = NULL;
  for (guint i = 0; i < op->n_params; i++)
    {
      const LmParamSpec *spec = &op->params[i];
      if (param ? g_str_equal (spec->name, param) : g_str_equal (spec->name, "amount"))
        return spec;
      if (first == NULL && spec->type != LM_PARAM_ENUM)
        first = spec;
    }
  return param ? NULL : first;
}

/* The value at V (0..1 of the sweep): from the default towards the farther end of the range,
 * never the default itself (a first change that changes nothing would never be painted). */
static double
move_slider (GtkWidget *control, const LmParamSpec *spec, double v)
{
  double value;
  if (g_str_equal (spec->name, "sigma")) /* as the earlier figures were taken */
    value = 1.0 + 49.0 * v;
  else if (g_str_equal (spec->name, "amount"))
    value = 0.05 + 0.95 * v;
  else
    {
      double up = spec->max - spec->def, down = spec->def - spec->min;
      value = spec->def + (up >= down ? up : -down) * (0.05 + 0.9 * v);
    }
  gtk_range_set_value (GTK_RANGE (control), value); /* the window stamps the change */
  return value;
}

/* The curve parameter SPEC with a point at the middle: what move_curve moves. Shown without a
 * change; the first move makes it the edit. */
static void
start_curve (LmOpPanel *panel, const LmOpInfo *op, const LmParamSpec *spec)
{
  LmStage stage = *lm_op_panel_get_stage (panel);
  double mid = (spec->min + spec->max) / 2;
  g_autofree char *text = g_strdup_printf ("%g:%g,%g:%g,%g:%g", spec->min, spec->min, mid, mid, spec->max, spec->max);
  if (!lm_op_param_parse (op, spec, stage.params.bytes, text, NULL))
    g_error ("ui-latency: %s %s does not take %s", op->name, spec->name, text);
  lm_op_panel_set_stage (panel, &stage);
  GtkWidget *button = lm_op_panel_get_curve_button (panel, spec->name);
  if (button) /* the editor shows that curve (red, green, blue) */
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
}

/* The middle point from a quarter of the way up to three quarters and back, as a drag: each
 * change one or more levels from the last. */
static double
move_curve (LmCurveEditor *editor, double v)
{
  const LmCurvePoints *p = lm_curve_editor_get_points (editor);
  double lo = p->y[0], hi = p->y[p->n - 1];
  double y = round (lo + (hi - lo) * (0.25 + 0.5 * v));
  if (y == p->y[1])
    y += y < hi ? 1 : -1;
  lm_curve_editor_move_point (editor, 1, p->x[1], y, FALSE);
  return y;
}

int
main (int argc, char **argv)
{
  const char *backend = "cpu", *op_name = "blur", *param_name = NULL, *json = NULL;
  int count = 200;
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &backend, "cpu or cuda", "B" },
    { "op", 0, 0, G_OPTION_ARG_STRING, &op_name, "the operation whose control moves (blur)", "OP" },
    { "param", 0, 0, G_OPTION_ARG_STRING, &param_name, "its parameter (its first)", "PARAM" },
    { "count", 0, 0, G_OPTION_ARG_INT, &count, "slider changes", "N" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json, "write the figures here", "FILE" },
    { NULL },
  };
  GError *e = NULL;
  if (!gtk_init_with_args (&argc, &argv, "PHOTO", entries, NULL, &e) || argc != 2)
    {
      fprintf (stderr, "usage: ui-latency [--backend cpu|cuda] [--op NAME] [--param NAME] [--count N] "
                       "[--json FILE] PHOTO\n");
      return 2;
    }
  const LmOpInfo *op = lm_op_info_by_name (op_name);
  const LmParamSpec *spec = op ? find_param (op, param_name) : NULL;
  if (spec == NULL || lm_op_kind (op->id) == LM_KIND_EXPORT || spec->type == LM_PARAM_ENUM)
    {
      fprintf (stderr, "ui-latency: no slider or curve %s%s%s in this build's panels\n", op_name,
               param_name ? " " : "", param_name ? param_name : "");
      return 2;
    }

  Stats s = { g_array_new (FALSE, FALSE, sizeof (double)), g_array_new (FALSE, FALSE, sizeof (double)),
              g_array_new (FALSE, FALSE, sizeof (double)), g_array_new (FALSE, FALSE, sizeof (double)) };
  g_autoptr (LmApplication) app = lm_application_new ();
  g_application_register (G_APPLICATION (app), NULL, NULL);
  LmWindow *window = lm_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  gtk_widget_show (GTK_WIDGET (window));
  g_signal_connect (window, "render-result", G_CALLBACK (on_result), &s);
  g_signal_connect (lm_window_get_image_view (window), "painted", G_CALLBACK (on_painted), &s);
  g_timeout_add (20, tick, NULL);
  gint64 t0 = g_get_monotonic_time ();
  run_until (&s.ready, 60);
  if (!s.ready)
    {
      fprintf (stderr, "ui-latency: the render worker did not start within 60 s\n");
      return 1;
    }
  fprintf (stderr, "ui-latency: worker ready after %.1f s\n", (g_get_monotonic_time () - t0) / 1e6);

  GAction *backend_action = g_action_map_lookup_action (G_ACTION_MAP (window), "backend");
  g_action_change_state (backend_action, g_variant_new_string (backend));
  /* The window refuses the GPU when no device is usable: measuring the CPU instead would be
   * a wrong figure. */
  g_autoptr (GVariant) state = g_action_get_state (backend_action);
  if (!g_str_equal (g_variant_get_string (state, NULL), backend))
    {
      fprintf (stderr, "ui-latency: the window runs on %s, not %s (is a device usable?)\n",
               g_variant_get_string (state, NULL), backend);
      return 1;
    }
  /* A copy in a folder of its own is what is edited: the window keeps edits in a sidecar
   * beside the photo, and a benchmark leaves none beside the user's (nor reads one). */
  g_autoptr (GFile) original = g_file_new_for_commandline_arg (argv[1]);
  g_autofree char *dir = g_dir_make_tmp ("ui-latency-XXXXXX", &e);
  g_autofree char *base = g_file_get_basename (original);
  g_autofree char *copy_path = dir ? g_build_filename (dir, base, NULL) : NULL;
  g_autoptr (GFile) file = copy_path ? g_file_new_for_path (copy_path) : NULL;
  if (file == NULL || !g_file_copy (original, file, G_FILE_COPY_NONE, NULL, NULL, NULL, &e))
    {
      fprintf (stderr, "ui-latency: %s: %s\n", argv[1], e ? e->message : "no copy");
      return 1;
    }
  lm_window_open (window, file);
  /* The first render after opening uploads the photo: not part of a slider's latency. */
  s.refined_pending = FALSE;
  run_until (&s.refined_pending, 60);
  if (!s.refined_pending)
    {
      const char *info = lm_window_get_info_message (window);
      fprintf (stderr, "ui-latency: %s was not rendered within 60 s (%s)\n", argv[1],
               info ? info : "no message");
      return 1;
    }
  fprintf (stderr, "ui-latency: opened and rendered after %.1f s\n", (g_get_monotonic_time () - t0) / 1e6);

  GtkWidget *panel = lm_window_get_op_panel (window, op->id);
  GtkWidget *control = lm_op_panel_get_control (LM_OP_PANEL (panel), spec->name);
  if (spec->type == LM_PARAM_CURVE)
    start_curve (LM_OP_PANEL (panel), op, spec);
  for (int i = 0; i < count; i++)
    {
      /* A drag over the control's range and back: every value differs from the last. */
      double t = (double) i / count, v = t < 0.5 ? 2 * t : 2 - 2 * t;
      s.first_seen = s.full_seen = s.refined_pending = FALSE;
      s.started_us = g_get_monotonic_time ();
      double value = spec->type == LM_PARAM_CURVE ? move_curve (LM_CURVE_EDITOR (control), v)
                                                  : move_slider (control, spec, v);
      while (!s.full_seen && g_get_monotonic_time () - s.started_us < 30 * G_USEC_PER_SEC)
        g_main_context_iteration (NULL, TRUE);
      if (!s.full_seen)
        {
          const char *info = lm_window_get_info_message (window);
          fprintf (stderr, "ui-latency: change %d (%s %s = %g) was not painted within 30 s (%s)\n", i, op_name,
                   spec->name, value, info ? info : "no message");
        }
      if ((i + 1) % 50 == 0)
        fprintf (stderr, "ui-latency: %d of %d changes\n", i + 1, count);
    }

  printf ("# %s, %s, %d changes of %s %s\n", argv[1], backend, count, op_name, spec->name);
  printf ("first paint: change→result p50 %.2f p95 %.2f ms, change→paint p50 %.2f p95 %.2f ms\n",
          percentile (s.first_result, 0.5), percentile (s.first_result, 0.95),
          percentile (s.first_paint, 0.5), percentile (s.first_paint, 0.95));
  printf ("full resolution: change→result p50 %.2f p95 %.2f ms, change→paint p50 %.2f p95 %.2f ms\n",
          percentile (s.full_result, 0.5), percentile (s.full_result, 0.95),
          percentile (s.full_paint, 0.5), percentile (s.full_paint, 0.95));
  if (json)
    {
      g_autofree char *text = g_strdup_printf (
        "{\"photo\": \"%s\", \"backend\": \"%s\", \"op\": \"%s\", \"param\": \"%s\", \"count\": %d, "
        "\"measured\": %u, "
        "\"first_result_p50\": %.3f, \"first_result_p95\": %.3f, \"first_paint_p50\": %.3f, "
        "\"first_paint_p95\": %.3f, \"full_result_p50\": %.3f, \"full_result_p95\": %.3f, "
        "\"full_paint_p50\": %.3f, \"full_paint_p95\": %.3f}\n",
        argv[1], backend, op_name, spec->name, count, s.full_paint->len, percentile (s.first_result, 0.5),
        percentile (s.first_result, 0.95), percentile (s.first_paint, 0.5), percentile (s.first_paint, 0.95),
        percentile (s.full_result, 0.5), percentile (s.full_result, 0.95), percentile (s.full_paint, 0.5),
        percentile (s.full_paint, 0.95));
      g_file_set_contents (json, text, -1, NULL);
    }
  /* The window as the measurement left it: its status bar names the backend and timings. */
  const char *shot_path = g_getenv ("LUMEN_SCREENSHOT");
  if (shot_path)
    {
      for (int i = 0; i < 20; i++)
        g_main_context_iteration (NULL, FALSE);
      GdkWindow *gdk_window = gtk_widget_get_window (GTK_WIDGET (window));
      g_autoptr (GdkPixbuf) shot = gdk_pixbuf_get_from_window (gdk_window, 0, 0, gdk_window_get_width (gdk_window),
                                                               gdk_window_get_height (gdk_window));
      if (shot == NULL || !gdk_pixbuf_save (shot, shot_path, "png", NULL, NULL))
        fprintf (stderr, "ui-latency: no screenshot written to %s\n", shot_path);
    }
  gtk_widget_destroy (GTK_WIDGET (window));
  for (int i = 0; i < 20; i++) /* what closing the photo writes (its sidecar) */
    g_main_context_iteration (NULL, FALSE);
  g_autoptr (GDir) folder = g_dir_open (dir, 0, NULL);
  for (const char *name; folder && (name = g_dir_read_name (folder));)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_remove (path);
    }
  g_rmdir (dir);
  return s.full_paint->len < (guint) count ? 3 : 0;
}

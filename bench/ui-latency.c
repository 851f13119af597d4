/* ui-latency: the real window's latency. Opens PHOTO and either moves one control COUNT times
 * (waiting for each change to reach the screen before the next), printing the 50th and 95th
 * percentiles of change→result (the worker's result posted: the render and its view done)
 * and change→paint (adds the main loop's taking it and the wait for the frame),
 * for the first paint of each change and for its full-resolution one; or, with --open, opens
 * PHOTO N times and prints how long each took to its first full-resolution paint.
 *
 *   ui-latency [--backend cpu|cuda] [--op NAME] [--param NAME] [--sidecar FILE] [--instance ID|NAME]
 *              [--count N] [--open N] [--json FILE] PHOTO
 *
 *   --backend  cpu (default) or cuda: the window's CPU | GPU choice; refused (exit 1) when the
 *              window cannot use it, rather than measuring the other.
 *   --op       the operation whose panel is moved (default blur): any with a panel, such as
 *              blur, gray, equalize, exposure, wb, contrast, saturation, curve; for a camera
 *              raw also raw (the Raw Development panel) and tonemap (the tone mapping panel,
 *              shown for raws and radiance).
 *   --param    its parameter (default: blur's sigma, gray's and equalize's amount, else the
 *              operation's first). A number's slider sweeps from its default towards the
 *              farther end of its range and back (blur's σ 1..50 and the amounts 0.05..1, as
 *              before); a curve (LM_PARAM_CURVE: the curve operation's points) gets a point at
 *              the middle, which each change moves up or down as a drag of the editor does.
 *              A parameter used only under a choice (raw's temperature and tint under
 *              wb=temperature, its red and blue under wb=custom, the sigmoid's contrast) gets
 *              that choice with the first change, as a person picks it before the slider.
 *   --sidecar  edits FILE (a sidecar, .lumen) opened with PHOTO: copied beside its copy, as the
 *              window's own sidecar of it, so that the photo opens with its instances and masks
 *              (bench/make-masked-sidecar.py writes one with three masked instances).
 *   --instance the instance whose panel is moved, instead of --op's first: its id (64), its
 *              sidecar group (exposure#64; a first instance: exposure) or its name (Sky). It
 *              names the operation (no --op with it); --param is one of its parameters. The
 *              window has a panel per instance; one it does not show is refused (exit 1) with
 *              the panels it has.
 *   --count    changes (default 200).
 *   --open     instead of changes: PHOTO opened N more times after the first (cold) open, the
 *              way File → Open does (lm_window_open), each time from the moment it is asked
 *              to the first paint of the whole pipeline at full resolution (not a quick
 *              pass); with the phases: load (the file read and decoded: a raw's LibRaw
 *              unpack), render (the worker: upload, development, tone mapping, the edits, the
 *              view), paint (to the screen), and the worker's steps as the status bar times
 *              them. Two copies are opened in turn, so that each open is of another file.
 *   --json     also write the figures to FILE (one object).
 *
 * PHOTO is copied into a temporary folder and the copy edited (the window keeps its edits in a
 * sidecar beside it): nothing is left beside PHOTO, and a sidecar there is not read.
 * Exit status: 0; 1 when the window cannot start, open PHOTO or use the backend, or PHOTO has
 * no such panel (raw for a photo that is not a camera raw); 2 on a usage error; 3 when some
 * change or open was never painted (within 30 s; the figures are printed anyway).
 * E.g. `ui-latency --op exposure --count 100 photo.jpg`, `ui-latency --op curve photo.jpg`,
 * `ui-latency --op raw --param exposure photo.dng`, `ui-latency --open 10 photo.dng`; the ui
 * suite runs some on a small photo and a small raw (bench/meson.build), the GPU run at 50 and
 * 61 MP (tests/gpu/device-run.sh, bench/bench-raw-window.py).
 * LUMEN_UI_LATENCY_TRACE=1 also prints each change's figures with the status bar's steps.
 * Needs a display (Xvfb does). Not a test: figures go to bench/RESULTS.md. */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "core/edit/sidecar.h"
#include "core/hdr/tonemap.h"
#include "core/raw/develop.h"
#include "ui/application.h"
#include "ui/curve-editor.h"
#include "ui/image-view.h"
#include "ui/op-panel.h"
#include "ui/window.h"

typedef struct {
  GArray *first_result, *first_paint; /* ms, per change */
  GArray *full_result, *full_paint;
  gint64 started_us;                  /* just before the change (or open) being measured */
  gboolean first_seen, full_seen;
  gboolean refined_pending;           /* the refined result of this change arrived, not yet painted */
  gboolean ready, cuda;
  gint64 full_result_us, full_now_us; /* the full-resolution paint's stamps */
  /* Measuring an open: its results are those of a generation after OPENED_AT (the window's
   * when the loaded photo became the source, LOADED_US); STATUS is the status bar's timings
   * label, its text as the first full-resolution result of the photo left it. A render asked
   * for by the view's new size may come first, stamped with an older change: it counts. */
  gboolean opening, loaded, new_result;
  gboolean settled; /* the newest request's full-resolution result is in */
  guint64 opened_at;
  gint64 loaded_us;
  GtkLabel *status;
  char *status_text;
} Stats;

static void
on_result (LmWindow *w, int kind, guint64 generation, gboolean refined, Stats *s)
{
  if (kind == LM_RESULT_READY)
    s->ready = TRUE;
  if (kind != LM_RESULT_PREVIEW)
    return;
  if (refined && generation == lm_window_get_generation (w) && (!s->opening || s->loaded))
    s->settled = TRUE;
  if (s->opening)
    {
      if (!s->loaded || generation <= s->opened_at)
        return; /* of the photo before */
      s->new_result = TRUE;
      if (refined && !s->refined_pending)
        {
          s->refined_pending = TRUE;
          g_free (s->status_text);
          s->status_text = g_strdup (gtk_label_get_text (s->status));
        }
    }
  else if (refined && generation == lm_window_get_generation (w))
    s->refined_pending = TRUE;
}

/* The photo loaded is now the window's (lm_window_start_editing sets the title first). */
static void
on_title (LmWindow *w, GParamSpec *pspec, Stats *s)
{
  if (!s->opening || s->loaded)
    return;
  s->loaded = TRUE;
  s->loaded_us = g_get_monotonic_time ();
  s->opened_at = lm_window_get_generation (w);
}

static void
on_painted (LmImageView *view, gint64 changed_us, gint64 result_us, gint64 now_us, Stats *s)
{
  if (s->opening ? !s->new_result : changed_us < s->started_us)
    return; /* pixels of an earlier change or photo */
  if (s->opening) /* from the open, the first result's change may be older */
    changed_us = s->started_us;
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
      s->full_result_us = result_us, s->full_now_us = now_us;
      /* Each change's figures and the worker's steps, for finding what an outlier spent. */
      if (g_getenv ("LUMEN_UI_LATENCY_TRACE") && !s->opening)
        printf ("change %u: result %.2f ms, paint %.2f ms; %s\n", s->full_result->len, result_ms, paint_ms,
                gtk_label_get_text (s->status));
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

static GArray *
ms_array (void)
{
  return g_array_new (FALSE, FALSE, sizeof (double));
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

/* The widget named NAME under ROOT (the raw and tone mapping panels, the status bar's
 * timings), or NULL. */
static GtkWidget *
find_named (GtkWidget *root, const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;
  if (!GTK_IS_CONTAINER (root))
    return NULL;
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (root));
  for (GList *l = children; l; l = l->next)
    {
      GtkWidget *found = find_named (l->data, name);
      if (found)
        return found;
    }
  return NULL;
}

/* The operation named NAME: one of the registry's, or the raw development's or tone mapping's
 * stage, which have panels of their own outside it. */
static const LmOpInfo *
find_op (const char *name)
{
  if (g_str_equal (name, lm_raw_op_info ()->name))
    return lm_raw_op_info ();
  if (g_str_equal (name, lm_tonemap_op_info ()->name))
    return lm_tonemap_op_info ();
  return lm_op_info_by_name (name);
}

static gboolean
is_stage_of_its_own (const LmOpInfo *op)
{
  return op == lm_raw_op_info () || op == lm_tonemap_op_info ();
}

/* STAGE's group in a sidecar: "exposure" for an operation's first instance, "exposure#64". */
static char *
instance_group (const LmStage *stage)
{
  return is_stage_of_its_own (stage->info) ? g_strdup (stage->info->name) : lm_stage_group_name (stage);
}

/* Whether WHICH (--instance) names STAGE: by its id, its sidecar group or its name. */
static gboolean
names_instance (const LmStage *stage, const char *which)
{
  g_autofree char *id = g_strdup_printf ("%u", stage->id);
  g_autofree char *group = instance_group (stage);
  return g_str_equal (which, id) || g_str_equal (which, group)
         || (stage->name[0] != '\0' && g_str_equal (which, stage->name));
}

/* The panel under ROOT of the instance WHICH names, or NULL; the instances the panels show are
 * added to SHOWN ("exposure#64 Sky"). The window's panels (one per instance) carry their
 * instance's stage, id and name included. */
static LmOpPanel *
find_instance_panel (GtkWidget *root, const char *which, GString *shown)
{
  if (LM_IS_OP_PANEL (root))
    {
      const LmStage *stage = lm_op_panel_get_stage (LM_OP_PANEL (root));
      if (stage->info == NULL || stage->info == lm_raw_op_info () || stage->info == lm_tonemap_op_info ())
        return NULL;
      if (names_instance (stage, which))
        return LM_OP_PANEL (root);
      g_autofree char *group = instance_group (stage);
      g_string_append_printf (shown, "%s%s%s%s", shown->len ? ", " : "", group, stage->name[0] ? " " : "",
                              stage->name);
      return NULL;
    }
  if (!GTK_IS_CONTAINER (root))
    return NULL;
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (root));
  for (GList *l = children; l; l = l->next)
    {
      LmOpPanel *found = find_instance_panel (l->data, which, shown);
      if (found)
        return found;
    }
  return NULL;
}

/* FILE (--sidecar) copied beside PHOTO (a copy in the benchmark's folder) as its sidecar. */
static gboolean
copy_sidecar (const char *file, GFile *photo, GError **error)
{
  g_autofree char *photo_path = g_file_get_path (photo);
  g_autofree char *beside = lm_sidecar_beside_path (photo_path);
  g_autoptr (GFile) from = g_file_new_for_commandline_arg (file);
  g_autoptr (GFile) to = g_file_new_for_path (beside);
  return g_file_copy (from, to, G_FILE_COPY_NONE, NULL, NULL, NULL, error);
}

static LmOpPanel *
find_panel (LmWindow *window, const LmOpInfo *op)
{
  if (is_stage_of_its_own (op))
    return LM_OP_PANEL (find_named (GTK_WIDGET (window), op->name)); /* window-raw.c, window-hdr.c */
  return LM_OP_PANEL (lm_window_get_op_panel (window, op->id));
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
      if (first == NULL && spec->type != LM_PARAM_ENUM && spec->type != LM_PARAM_TEXT)
        first = spec;
    }
  return param ? NULL : first;
}

/* SPEC's "when" ("wb=temperature", "kind=gamma|reinhard") made true in PARAMS where it is not:
 * the first choice it names. A slider that acts only under a choice is moved after it is
 * made. */
static void
satisfy_when (const LmOpInfo *op, const LmParamSpec *spec, void *params)
{
  if (spec->when == NULL)
    return;
  g_auto (GStrv) kv = g_strsplit (spec->when, "=", 2);
  const LmParamSpec *choice = kv[1] ? find_param (op, kv[0]) : NULL;
  if (choice == NULL)
    g_error ("ui-latency: %s %s: a condition %s of no parameter", op->name, spec->name, spec->when);
  g_auto (GStrv) values = g_strsplit (kv[1], "|", -1);
  g_autofree char *now = lm_op_param_to_string (choice, params);
  if (!g_strv_contains ((const char *const *) values, now)
      && !lm_op_param_parse (op, choice, params, values[0], NULL))
    g_error ("ui-latency: %s %s does not take %s", op->name, choice->name, values[0]);
}

/* The value at V (0..1 of the sweep): from the default towards the farther end of the range,
 * never the default itself (a first change that changes nothing would never be painted), nor
 * the value the slider holds (an odd COUNT's sweep turns between two changes of one V). */
static double
move_slider (GtkWidget *control, const LmParamSpec *spec, double v)
{
  double from, to;
  if (g_str_equal (spec->name, "sigma")) /* as the earlier figures were taken */
    from = 1.0, to = 50.0;
  else if (g_str_equal (spec->name, "amount"))
    from = 0.05, to = 1.0;
  else
    {
      double up = spec->max - spec->def, down = spec->def - spec->min;
      double span = up >= down ? up : -down;
      from = spec->def + 0.05 * span, to = spec->def + 0.95 * span;
    }
  double value = from + (to - from) * v;
  if (fabs (value - gtk_range_get_value (GTK_RANGE (control))) < 1e-6 * fabs (to - from))
    value = from + (to - from) * (v > 0.5 ? v - 0.01 : v + 0.01);
  gtk_range_set_value (GTK_RANGE (control), value); /* the window stamps the change */
  return value;
}

/* The slider's condition (satisfy_when) in the panel's stage, shown without a change: the
 * first move carries it into the edit. */
static void
start_slider (LmOpPanel *panel, const LmOpInfo *op, const LmParamSpec *spec)
{
  LmStage stage = *lm_op_panel_get_stage (panel);
  satisfy_when (op, spec, stage.params.bytes);
  lm_op_panel_set_stage (panel, &stage);
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

/* S made ready for the change or open (OPENING) about to be made. */
static void
start_measuring (Stats *s, gboolean opening)
{
  s->first_seen = s->full_seen = s->refined_pending = FALSE;
  s->opening = opening;
  s->loaded = s->new_result = s->settled = FALSE;
  s->started_us = g_get_monotonic_time ();
}

static gboolean
wait_full_paint (Stats *s, int seconds)
{
  while (!s->full_seen && g_get_monotonic_time () - s->started_us < seconds * G_USEC_PER_SEC)
    g_main_context_iteration (NULL, TRUE);
  return s->full_seen;
}

/* The status bar's account of the last full render ("full render 81.2 ms · upload 5.1 ms ·
 * view download 0.31 ms · Raw Development 40.12 ms, Tone Mapping 2.00 ms", window-status.c):
 * each "NAME N ms" added to STEPS (name → GArray of ms); a cached step has no figure. */
static void
add_status_steps (const char *text, GHashTable *steps, GPtrArray *order)
{
  g_auto (GStrv) groups = g_strsplit (text, " \xc2\xb7 ", -1); /* the middle dots */
  g_autofree char *flat = g_strjoinv (", ", groups);
  g_auto (GStrv) parts = g_strsplit (flat, ", ", -1); /* not a decimal comma: no space */
  for (int i = 0; parts[i]; i++)
    {
      char *part = g_strstrip (parts[i]);
      char *unit = g_str_has_suffix (part, " ms") ? part + strlen (part) - 3 : NULL;
      char *number = unit ? g_strrstr_len (part, unit - part, " ") : NULL;
      if (number == NULL)
        continue;
      *unit = '\0';
      char *end;
      double ms = g_ascii_strtod (number + 1, &end);
      if (end == number + 1 || *end != '\0')
        continue;
      *number = '\0';
      GArray *v = g_hash_table_lookup (steps, part);
      if (v == NULL)
        {
          v = ms_array ();
          g_hash_table_insert (steps, g_strdup (part), v);
          g_ptr_array_add (order, g_strdup (part));
        }
      g_array_append_val (v, ms);
    }
}

/* A string as JSON writes it. */
static char *
json_string (const char *text)
{
  GString *out = g_string_new ("\"");
  for (const char *p = text; *p; p++)
    if (*p == '"' || *p == '\\')
      g_string_append_printf (out, "\\%c", *p);
    else if ((guchar) *p < 0x20)
      g_string_append_printf (out, "\\u%04x", (guchar) *p);
    else
      g_string_append_c (out, *p);
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

typedef struct {
  GArray *total, *first, *load, *render, *paint; /* ms, per open */
  GHashTable *steps;                             /* the status bar's, per open */
  GPtrArray *step_order;
  double cold_total, cold_load, cold_render, cold_paint;
  char *cold_status;
} Opens;

/* Opens FILES[0], FILES[1], … in turn, COUNT times, each to its first full-resolution paint,
 * into O; FALSE when one was not painted within 60 s. */
static gboolean
measure_opens (LmWindow *window, Stats *s, GFile *const files[2], int count, Opens *o)
{
  gboolean all = TRUE;
  for (int i = 0; i < count; i++)
    {
      start_measuring (s, TRUE);
      lm_window_open (window, files[i % 2]);
      if (!wait_full_paint (s, 60))
        {
          const char *info = lm_window_get_info_message (window);
          fprintf (stderr, "ui-latency: open %d was not painted within 60 s (%s)\n", i + 1, info ? info : "no message");
          all = FALSE;
          continue;
        }
      double total = (s->full_now_us - s->started_us) / 1000.0, load = (s->loaded_us - s->started_us) / 1000.0,
             render = (s->full_result_us - s->loaded_us) / 1000.0, paint = (s->full_now_us - s->full_result_us) / 1000.0;
      double first = g_array_index (s->first_paint, double, s->first_paint->len - 1);
      g_array_append_val (o->total, total);
      g_array_append_val (o->first, first);
      g_array_append_val (o->load, load);
      g_array_append_val (o->render, render);
      g_array_append_val (o->paint, paint);
      add_status_steps (s->status_text, o->steps, o->step_order);
      run_until (&s->settled, 30); /* the next open starts from a window at rest */
      fprintf (stderr, "ui-latency: open %d: %.1f ms (load %.1f, render %.1f, paint %.1f); %s\n", i + 1, total, load,
               render, paint, s->status_text);
    }
  return all;
}

static void
print_opens (const char *photo, const char *backend, guint w, guint h, int count, Opens *o, const char *json)
{
  printf ("# %s (%u×%u, %.1f MP), %s, %d opens after the first\n", photo, w, h, w * (double) h / 1e6, backend, count);
  printf ("first open (cold): %.1f ms to the full-resolution paint (load %.1f, render %.1f, paint %.1f); %s\n",
          o->cold_total, o->cold_load, o->cold_render, o->cold_paint, o->cold_status);
  printf ("open→full-resolution paint: p50 %.1f p95 %.1f min %.1f ms (first paint p50 %.1f ms)\n",
          percentile (o->total, 0.5), percentile (o->total, 0.95), percentile (o->total, 0.0),
          percentile (o->first, 0.5));
  printf ("phases p50: load %.1f, render %.1f, paint %.1f ms; the worker's steps:\n", percentile (o->load, 0.5),
          percentile (o->render, 0.5), percentile (o->paint, 0.5));
  g_autoptr (GString) steps = g_string_new (NULL);
  for (guint i = 0; i < o->step_order->len; i++)
    {
      const char *name = o->step_order->pdata[i];
      g_autofree char *key = json_string (name);
      double p50 = percentile (g_hash_table_lookup (o->steps, name), 0.5);
      printf ("  %-24s p50 %8.2f ms\n", name, p50);
      g_string_append_printf (steps, "%s%s: %.3f", i ? ", " : "", key, p50);
    }
  if (json == NULL)
    return;
  g_autofree char *photo_json = json_string (photo);
  g_autofree char *status_json = json_string (o->cold_status);
  g_autofree char *text = g_strdup_printf (
    "{\"photo\": %s, \"backend\": \"%s\", \"mode\": \"open\", \"width\": %u, \"height\": %u, "
    "\"megapixels\": %.2f, \"opens\": %d, \"measured\": %u, "
    "\"cold_total_ms\": %.3f, \"cold_load_ms\": %.3f, \"cold_render_ms\": %.3f, \"cold_paint_ms\": %.3f, "
    "\"cold_status\": %s, "
    "\"total_p50\": %.3f, \"total_p95\": %.3f, \"total_min\": %.3f, \"first_paint_p50\": %.3f, "
    "\"load_p50\": %.3f, \"render_p50\": %.3f, \"paint_p50\": %.3f, \"steps_p50\": {%s}}\n",
    photo_json, backend, w, h, w * (double) h / 1e6, count, o->total->len, o->cold_total, o->cold_load,
    o->cold_render, o->cold_paint, status_json, percentile (o->total, 0.5), percentile (o->total, 0.95),
    percentile (o->total, 0.0), percentile (o->first, 0.5), percentile (o->load, 0.5), percentile (o->render, 0.5),
    percentile (o->paint, 0.5), steps->str);
  g_file_set_contents (json, text, -1, NULL);
}

/* A copy of ORIGINAL named NAME in DIR, or NULL with the reason in ERROR. */
static GFile *
copy_into (GFile *original, const char *dir, const char *name, GError **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GFile) copy = g_file_new_for_path (path);
  if (!g_file_copy (original, copy, G_FILE_COPY_NONE, NULL, NULL, NULL, error))
    return NULL;
  return g_steal_pointer (&copy);
}

/* INSTANCE: the stage whose panel moved. */
static void
print_changes (const char *photo, const char *backend, guint w, guint h, int count, const LmStage *instance,
               const LmParamSpec *spec, const char *sidecar, Stats *s, const char *json)
{
  const LmOpInfo *op = instance->info;
  g_autofree char *group = instance_group (instance);
  printf ("# %s (%u×%u, %.1f MP), %s, %d changes of %s %s%s%s\n", photo, w, h, w * (double) h / 1e6, backend,
          count, group, spec->name, sidecar ? ", edits " : "", sidecar ? sidecar : "");
  printf ("first paint: change→result p50 %.2f p95 %.2f ms, change→paint p50 %.2f p95 %.2f ms\n",
          percentile (s->first_result, 0.5), percentile (s->first_result, 0.95),
          percentile (s->first_paint, 0.5), percentile (s->first_paint, 0.95));
  printf ("full resolution: change→result p50 %.2f p95 %.2f ms, change→paint p50 %.2f p95 %.2f ms\n",
          percentile (s->full_result, 0.5), percentile (s->full_result, 0.95),
          percentile (s->full_paint, 0.5), percentile (s->full_paint, 0.95));
  if (json == NULL)
    return;
  g_autofree char *photo_json = json_string (photo);
  g_autofree char *sidecar_json = json_string (sidecar ? sidecar : "");
  g_autofree char *instance_json = json_string (group);
  g_autofree char *text = g_strdup_printf (
    "{\"photo\": %s, \"backend\": \"%s\", \"mode\": \"change\", \"width\": %u, \"height\": %u, "
    "\"megapixels\": %.2f, \"op\": \"%s\", \"param\": \"%s\", \"instance\": %s, \"sidecar\": %s, "
    "\"count\": %d, \"measured\": %u, "
    "\"first_result_p50\": %.3f, \"first_result_p95\": %.3f, \"first_paint_p50\": %.3f, "
    "\"first_paint_p95\": %.3f, \"full_result_p50\": %.3f, \"full_result_p95\": %.3f, "
    "\"full_paint_p50\": %.3f, \"full_paint_p95\": %.3f}\n",
    photo_json, backend, w, h, w * (double) h / 1e6, op->name, spec->name, instance_json, sidecar_json, count,
    s->full_paint->len,
    percentile (s->first_result, 0.5), percentile (s->first_result, 0.95), percentile (s->first_paint, 0.5),
    percentile (s->first_paint, 0.95), percentile (s->full_result, 0.5), percentile (s->full_result, 0.95),
    percentile (s->full_paint, 0.5), percentile (s->full_paint, 0.95));
  g_file_set_contents (json, text, -1, NULL);
}

/* The window as the measurement left it, into LUMEN_SCREENSHOT where it is set: its status
 * bar names the backend and timings. */
static void
screenshot (LmWindow *window)
{
  const char *shot_path = g_getenv ("LUMEN_SCREENSHOT");
  if (shot_path == NULL)
    return;
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  GdkWindow *gdk_window = gtk_widget_get_window (GTK_WIDGET (window));
  g_autoptr (GdkPixbuf) shot = gdk_pixbuf_get_from_window (gdk_window, 0, 0, gdk_window_get_width (gdk_window),
                                                           gdk_window_get_height (gdk_window));
  if (shot == NULL || !gdk_pixbuf_save (shot, shot_path, "png", NULL, NULL))
    fprintf (stderr, "ui-latency: no screenshot written to %s\n", shot_path);
}

int
main (int argc, char **argv)
{
  const char *backend = "cpu", *op_name = NULL, *param_name = NULL, *json = NULL;
  const char *sidecar = NULL, *instance = NULL;
  int count = 200, opens = 0;
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &backend, "cpu or cuda", "B" },
    { "op", 0, 0, G_OPTION_ARG_STRING, &op_name, "the operation whose control moves (blur)", "OP" },
    { "param", 0, 0, G_OPTION_ARG_STRING, &param_name, "its parameter (its first)", "PARAM" },
    { "sidecar", 0, 0, G_OPTION_ARG_FILENAME, &sidecar, "open the photo with these edits", "FILE" },
    { "instance", 0, 0, G_OPTION_ARG_STRING, &instance, "the instance whose control moves", "ID|NAME" },
    { "count", 0, 0, G_OPTION_ARG_INT, &count, "slider changes", "N" },
    { "open", 0, 0, G_OPTION_ARG_INT, &opens, "measure N opens instead of changes", "N" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json, "write the figures here", "FILE" },
    { NULL },
  };
  GError *e = NULL;
  if (!gtk_init_with_args (&argc, &argv, "PHOTO", entries, NULL, &e) || argc != 2 || count < 1 || opens < 0)
    {
      fprintf (stderr, "usage: ui-latency [--backend cpu|cuda] [--op NAME] [--param NAME] [--sidecar FILE] "
                       "[--instance ID|NAME] [--count N] [--open N] [--json FILE] PHOTO\n");
      return 2;
    }
  if (instance && (op_name || opens))
    {
      fprintf (stderr, "ui-latency: --instance names the operation (not --op) and measures changes (not --open)\n");
      return 2;
    }
  if (op_name == NULL)
    op_name = "blur";
  /* The figures printed, the JSON and the status bar read back take a decimal point in every
   * locale. */
  setlocale (LC_NUMERIC, "C");
  /* An instance's operation is known once the photo is open with its edits. */
  const LmOpInfo *op = find_op (op_name);
  const LmParamSpec *spec = op ? find_param (op, param_name) : NULL;
  if (instance == NULL
      && (spec == NULL || (!is_stage_of_its_own (op) && lm_op_kind (op->id) == LM_KIND_EXPORT)
          || spec->type == LM_PARAM_ENUM || spec->type == LM_PARAM_TEXT))
    {
      fprintf (stderr, "ui-latency: no slider or curve %s%s%s in this build's panels\n", op_name,
               param_name ? " " : "", param_name ? param_name : "");
      return 2;
    }

  Stats s = { ms_array (), ms_array (), ms_array (), ms_array () };
  g_autoptr (LmApplication) app = lm_application_new ();
  g_application_register (G_APPLICATION (app), NULL, NULL);
  LmWindow *window = lm_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  gtk_widget_show (GTK_WIDGET (window));
  g_signal_connect (window, "render-result", G_CALLBACK (on_result), &s);
  g_signal_connect (lm_window_get_image_view (window), "painted", G_CALLBACK (on_painted), &s);
  g_signal_connect (window, "notify::title", G_CALLBACK (on_title), &s);
  s.status = GTK_LABEL (find_named (GTK_WIDGET (window), "status-timings"));
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
  /* Copies in a folder of their own are what is opened and edited: the window keeps edits in
   * a sidecar beside the photo, and a benchmark leaves none beside the user's (nor reads
   * one). --open opens two in turn. */
  g_autoptr (GFile) original = g_file_new_for_commandline_arg (argv[1]);
  g_autofree char *dir = g_dir_make_tmp ("ui-latency-XXXXXX", &e);
  g_autofree char *base = g_file_get_basename (original);
  g_autofree char *other = g_strconcat ("other-", base, NULL);
  g_autoptr (GFile) file = dir ? copy_into (original, dir, base, &e) : NULL;
  g_autoptr (GFile) file2 = file && opens ? copy_into (original, dir, other, &e) : NULL;
  if (file == NULL || (opens && file2 == NULL))
    {
      fprintf (stderr, "ui-latency: %s: %s\n", argv[1], e ? e->message : "no copy");
      return 1;
    }
  if (sidecar && (!copy_sidecar (sidecar, file, &e) || (file2 && !copy_sidecar (sidecar, file2, &e))))
    {
      fprintf (stderr, "ui-latency: %s: %s\n", sidecar, e->message);
      return 1;
    }
  /* The first open: the photo's first upload and the first run of each step, not part of a
   * slider's latency (nor of the later opens': reported apart). */
  start_measuring (&s, TRUE);
  lm_window_open (window, file);
  if (!wait_full_paint (&s, 60))
    {
      const char *info = lm_window_get_info_message (window);
      fprintf (stderr, "ui-latency: %s was not rendered within 60 s (%s)\n", argv[1], info ? info : "no message");
      return 1;
    }
  run_until (&s.settled, 30); /* the view's own request after the open, if any, comes first */
  s.opening = FALSE;
  Opens o = { ms_array (), ms_array (), ms_array (), ms_array (), ms_array (),
              g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref),
              g_ptr_array_new_with_free_func (g_free) };
  o.cold_total = (s.full_now_us - s.started_us) / 1000.0;
  o.cold_load = (s.loaded_us - s.started_us) / 1000.0;
  o.cold_render = (s.full_result_us - s.loaded_us) / 1000.0;
  o.cold_paint = (s.full_now_us - s.full_result_us) / 1000.0;
  o.cold_status = g_strdup (s.status_text);
  fprintf (stderr, "ui-latency: opened and rendered after %.1f s (%.1f ms from the open; %s)\n",
           (g_get_monotonic_time () - t0) / 1e6, o.cold_total, o.cold_status);
  GArray *const figures[] = { s.first_result, s.first_paint, s.full_result, s.full_paint };
  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    g_array_set_size (figures[i], 0);
  guint width, height;
  lm_image_view_get_image_size (LM_IMAGE_VIEW (lm_window_get_image_view (window)), &width, &height);

  gboolean all = TRUE;
  if (opens > 0)
    {
      GFile *const files[2] = { file2, file };
      all = measure_opens (window, &s, files, opens, &o);
      print_opens (argv[1], backend, width, height, opens, &o, json);
    }
  else
    {
      LmOpPanel *panel;
      if (instance)
        {
          g_autoptr (GString) shown = g_string_new (NULL);
          panel = find_instance_panel (GTK_WIDGET (window), instance, shown);
          if (panel == NULL || !gtk_widget_get_visible (GTK_WIDGET (panel)))
            {
              fprintf (stderr, "ui-latency: %s has no panel of the instance %s (the panels: %s)\n", argv[1], instance,
                       shown->str);
              return 1;
            }
          op = lm_op_panel_get_stage (panel)->info;
          spec = find_param (op, param_name);
          if (spec == NULL || spec->type == LM_PARAM_ENUM || spec->type == LM_PARAM_TEXT)
            {
              fprintf (stderr, "ui-latency: the instance %s (%s) has no slider or curve %s\n", instance, op->name,
                       param_name ? param_name : "");
              return 2;
            }
        }
      else
        panel = find_panel (window, op);
      if (panel == NULL || !gtk_widget_get_visible (GTK_WIDGET (panel)))
        {
          fprintf (stderr, "ui-latency: %s has no %s panel (%s)\n", argv[1], op->name,
                   op == lm_raw_op_info () ? "not a camera raw" : "shown for raws and radiance only");
          return 1;
        }
      GtkWidget *control = lm_op_panel_get_control (panel, spec->name);
      if (spec->type == LM_PARAM_CURVE)
        start_curve (panel, op, spec);
      else
        start_slider (panel, op, spec);
      for (int i = 0; i < count; i++)
        {
          /* A drag over the control's range and back: every value differs from the last. */
          double t = (double) i / count, v = t < 0.5 ? 2 * t : 2 - 2 * t;
          start_measuring (&s, FALSE);
          double value = spec->type == LM_PARAM_CURVE ? move_curve (LM_CURVE_EDITOR (control), v)
                                                      : move_slider (control, spec, v);
          if (!wait_full_paint (&s, 30))
            {
              const char *info = lm_window_get_info_message (window);
              fprintf (stderr, "ui-latency: change %d (%s %s = %g) was not painted within 30 s (%s)\n", i, op->name,
                       spec->name, value, info ? info : "no message");
              all = FALSE;
            }
          if ((i + 1) % 50 == 0)
            fprintf (stderr, "ui-latency: %d of %d changes\n", i + 1, count);
        }
      /* Which steps the last change ran and which came from the cache. */
      fprintf (stderr, "ui-latency: the last change's render: %s\n", gtk_label_get_text (s.status));
      print_changes (argv[1], backend, width, height, count, lm_op_panel_get_stage (panel), spec, sidecar, &s, json);
    }
  screenshot (window);
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
  return all ? 0 : 3;
}

/* The side panel's sliders and curve, used as a person uses them (pointer and keys through the
 * X server), in French where the locale can be had:
 * - the wheel over a slider that was not clicked scrolls the panel and changes nothing; once
 *   clicked, the wheel changes that slider (a choice too, its keyboard in a button inside it);
 * - a wheel step still waiting to be gathered is its own undo step, not part of a drag that
 *   follows at once;
 * - a slider's value is typed (a click on the number, Enter sets it within the declared range,
 *   Escape leaves it, "0,5" read in French); Shift-drags move a tenth as far as plain drags,
 *   Shift with the arrows a tenth of an arrow's step, Page Up ten;
 * - a drag that rests longer than edits are gathered for is still one undo step, on a slider
 *   as on the curve;
 * - the curve shows a point's levels in a corner away from the pointer, no tooltip over the
 *   curve, and nothing of it while a modal dialog is up or the window is not in use. */
#include <locale.h>
#include <math.h>
#include <string.h>

#include "ui/curve-editor.h"
#include "ui/op-panel.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

/* Longer than the window gathers edits without a release into one undo step (window.c's
 * 400 ms): a drag resting this long was two steps. */
#define REST_MS 1200

static gboolean french;

static LmOpPanel *
panel_of (const char *op)
{
  return LM_OP_PANEL (lm_window_get_op_panel (ui_window, lm_op_info_by_name (op)->id));
}

static GtkWidget *
control (const char *op, const char *param)
{
  return ui_control (lm_op_info_by_name (op)->id, param);
}

static float
stage_value (const char *op, const char *param)
{
  const LmStage *stage = lm_op_panel_get_stage (panel_of (op));
  const LmParamSpec *spec = NULL;
  for (guint i = 0; i < stage->info->n_params; i++)
    if (g_str_equal (stage->info->params[i].name, param))
      spec = &stage->info->params[i];
  g_assert_nonnull (spec);
  return *(const float *) (stage->params.bytes + spec->offset);
}

static const LmParamSpec *
declared (const char *op, const char *param)
{
  const LmOpInfo *info = lm_op_info_by_name (op);
  for (guint i = 0; i < info->n_params; i++)
    if (g_str_equal (info->params[i].name, param))
      return &info->params[i];
  g_assert_not_reached ();
}

static GtkAdjustment *
side_panel_scroll (GtkWidget *inside)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (inside, GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (scrolled);
  return gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
}

/* The middle of RANGE's knob, in its own coordinates. */
static void
knob (GtkRange *range, double *x, double *y)
{
  GdkRectangle trough;
  gtk_range_get_range_rect (range, &trough);
  int start, end;
  gtk_range_get_slider_range (range, &start, &end);
  *x = (start + end) / 2.0;
  *y = trough.y + trough.height / 2.0;
}

static void
wheel (guint button, int turns)
{
  for (int i = 0; i < turns; i++)
    {
      ui_pointer_button (button, TRUE);
      ui_pointer_button (button, FALSE);
      ui_wait_ms (150); /* the scroll may be animated */
    }
  ui_wait_ms (300);
}

static void
undo (void)
{
  ui_key (GDK_KEY_z, GDK_CONTROL_MASK);
  ui_wait_ms (100);
}

/* ---- the wheel -------------------------------------------------------------------------------- */

/* Every panel's stage, to see that nothing changed. */
static void
stages (LmStage *out)
{
  for (int i = 0; i < LM_N_OPS; i++)
    {
      GtkWidget *p = lm_window_get_op_panel (ui_window, i);
      memset (&out[i], 0, sizeof out[i]);
      if (p)
        out[i] = *lm_op_panel_get_stage (LM_OP_PANEL (p));
    }
}

static void
test_wheel_scrolls (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  GtkWidget *slider = control ("wb", "temperature");
  GtkAdjustment *scroll = side_panel_scroll (slider);
  ui_scroll_into_view (slider);
  LmStage before[LM_N_OPS];
  stages (before);
  guint64 generation = lm_window_get_generation (ui_window);
  double top = gtk_adjustment_get_value (scroll);
  double x, y;
  knob (GTK_RANGE (slider), &x, &y);
  ui_pointer_move (slider, x, y);
  wheel (5, 4); /* down: sliders further down pass under the pointer */
  double scrolled = gtk_adjustment_get_value (scroll);
  LmStage after[LM_N_OPS];
  stages (after);
  g_test_message ("wheel over the temperature slider: panel %g → %g, temperature %g, white balance %s, "
                  "render generation %" G_GUINT64_FORMAT " → %" G_GUINT64_FORMAT,
                  top, scrolled, stage_value ("wb", "temperature"), after[LM_OP_WB].enabled ? "on" : "off",
                  generation, lm_window_get_generation (ui_window));
  g_assert_cmpfloat (scrolled, >, top);
  for (int i = 0; i < LM_N_OPS; i++)
    {
      g_assert_cmpint (after[i].enabled, ==, before[i].enabled);
      g_assert_cmpmem (after[i].params.bytes, sizeof after[i].params.bytes, before[i].params.bytes,
                       sizeof before[i].params.bytes);
    }
  g_assert_cmpuint (lm_window_get_generation (ui_window), ==, generation); /* nothing rendered anew */
  g_assert_cmpfloat (stage_value ("wb", "temperature"), ==, (float) declared ("wb", "temperature")->def);

  /* The same over a choice (crop's aspect ratio), up this time. */
  GtkWidget *choice = control ("crop", "ratio");
  ui_scroll_into_view (choice);
  int ratio = gtk_combo_box_get_active (GTK_COMBO_BOX (choice));
  top = gtk_adjustment_get_value (scroll);
  ui_pointer_move (choice, gtk_widget_get_allocated_width (choice) / 2.0, gtk_widget_get_allocated_height (choice) / 2.0);
  wheel (4, 3);
  g_test_message ("wheel over the ratio's choice: panel %g → %g, choice %d → %d", top, gtk_adjustment_get_value (scroll),
                  ratio, gtk_combo_box_get_active (GTK_COMBO_BOX (choice)));
  g_assert_cmpfloat (gtk_adjustment_get_value (scroll), <, top);
  g_assert_cmpint (gtk_combo_box_get_active (GTK_COMBO_BOX (choice)), ==, ratio);
  g_assert_false (lm_op_panel_get_stage (panel_of ("crop"))->enabled);
  g_assert_cmpuint (lm_window_get_generation (ui_window), ==, generation);

  /* Clicked on its knob (which leaves the value), the slider has the keyboard, and the wheel
   * changes it, not the panel. */
  ui_scroll_into_view (slider);
  knob (GTK_RANGE (slider), &x, &y);
  ui_click (slider, x, y);
  ui_wait_ms (500);
  g_assert_true (gtk_widget_has_focus (slider));
  g_assert_cmpfloat (stage_value ("wb", "temperature"), ==, (float) declared ("wb", "temperature")->def);
  top = gtk_adjustment_get_value (scroll);
  /* One notch: two would be one undo step only when they come within the edit's resting time,
   * which a loaded machine (the window tests run four at a time) does not promise. */
  wheel (5, 1);
  g_test_message ("wheel over the clicked slider: temperature %g, panel %g → %g", stage_value ("wb", "temperature"),
                  top, gtk_adjustment_get_value (scroll));
  g_assert_cmpfloat (stage_value ("wb", "temperature"), !=, (float) declared ("wb", "temperature")->def);
  g_assert_cmpfloat (gtk_adjustment_get_value (scroll), ==, top);
  ui_settle_tracked ();
  ui_wait_ms (600);
  undo ();
  ui_settle_tracked ();
  g_assert_cmpfloat (stage_value ("wb", "temperature"), ==, (float) declared ("wb", "temperature")->def);

  /* Clicked (its list closed again with Escape), the choice has the keyboard, in the toggle
   * button inside it: the wheel changes it, not the panel. */
  ui_scroll_into_view (choice);
  ui_click_middle (choice);
  ui_wait_ms (500);
  ui_key (GDK_KEY_Escape, 0);
  ui_wait_ms (300);
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (ui_window));
  g_assert_true (focus == choice || gtk_widget_is_ancestor (focus, choice));
  g_assert_cmpint (gtk_combo_box_get_active (GTK_COMBO_BOX (choice)), ==, ratio);
  top = gtk_adjustment_get_value (scroll);
  ui_pointer_move (choice, gtk_widget_get_allocated_width (choice) / 2.0, gtk_widget_get_allocated_height (choice) / 2.0);
  wheel (5, 1);
  g_test_message ("wheel over the clicked choice: choice %d → %d, panel %g → %g", ratio,
                  gtk_combo_box_get_active (GTK_COMBO_BOX (choice)), top, gtk_adjustment_get_value (scroll));
  g_assert_cmpint (gtk_combo_box_get_active (GTK_COMBO_BOX (choice)), !=, ratio);
  g_assert_cmpfloat (gtk_adjustment_get_value (scroll), ==, top);
  ui_settle_tracked ();
  ui_wait_ms (600);
  undo ();
  ui_settle_tracked ();
  g_assert_cmpint (gtk_combo_box_get_active (GTK_COMBO_BOX (choice)), ==, ratio);
}

/* ---- an edit waiting to be gathered, then a drag --------------------------------------------- */

/* A wheel step on a clicked slider, and at once (before the window gathers it: a wheel has no
 * release to commit it, unlike a key) a drag of another slider: two undo steps, the drag's
 * first. */
static void
test_wheel_then_drag (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  GtkWidget *stepped = control ("wb", "temperature"), *dragged = control ("wb", "tint");
  ui_scroll_into_view (dragged);
  ui_scroll_into_view (stepped);
  ui_wait_ms (300);
  float t0 = stage_value ("wb", "temperature"), tint0 = stage_value ("wb", "tint");
  double x, y, dx, dy;
  knob (GTK_RANGE (stepped), &x, &y);
  ui_click (stepped, x, y); /* on the knob: the keyboard, the value as it was */
  ui_wait_ms (600);
  g_assert_true (gtk_widget_has_focus (stepped));
  g_assert_cmpfloat (stage_value ("wb", "temperature"), ==, t0);
  knob (GTK_RANGE (dragged), &dx, &dy);
  ui_pointer_button (5, TRUE); /* one notch, not waited on */
  ui_pointer_button (5, FALSE);
  ui_drag (dragged, dx, dy, dx + 40, dy, 6);
  ui_settle_tracked ();
  float t1 = stage_value ("wb", "temperature"), tint1 = stage_value ("wb", "tint");
  ui_wait_ms (600);
  undo ();
  ui_settle_tracked ();
  float t2 = stage_value ("wb", "temperature"), tint2 = stage_value ("wb", "tint");
  undo ();
  ui_settle_tracked ();
  g_test_message ("temperature %g → %g (wheel), tint %g → %g (drag); one undo: %g, %g; two: %g, %g", t0, t1, tint0,
                  tint1, t2, tint2, stage_value ("wb", "temperature"), stage_value ("wb", "tint"));
  g_assert_cmpfloat (t1, !=, t0);
  g_assert_cmpfloat (tint1, !=, tint0);
  g_assert_cmpfloat (t2, ==, t1); /* the drag undone alone */
  g_assert_cmpfloat (tint2, ==, tint0);
  g_assert_cmpfloat (stage_value ("wb", "temperature"), ==, t0);
  g_assert_cmpfloat (stage_value ("wb", "tint"), ==, tint0);
}

/* ---- typed values and fine steps ------------------------------------------------------------ */

/* Clicks PARAM's number, types TEXT and presses KEY (Return or Escape). */
static void
type_value (const char *op, const char *param, const char *text, guint key)
{
  g_autofree char *name = g_strdup_printf ("%s-value", param);
  GtkWidget *value = ui_find_named (GTK_WIDGET (panel_of (op)), name);
  g_assert_nonnull (value); /* a number beside the slider, to be clicked */
  ui_scroll_into_view (value);
  ui_click_middle (value);
  ui_wait_ms (200);
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (ui_window));
  g_assert_true (GTK_IS_ENTRY (focus));
  g_assert_true (gtk_widget_is_ancestor (focus, value));
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type (text);
  ui_key (key, 0);
  ui_wait_ms (100);
}

/* The number shown beside PARAM's slider. */
static const char *
shown_value (const char *op, const char *param)
{
  g_autofree char *name = g_strdup_printf ("%s-value", param);
  GtkWidget *value = ui_find_named (GTK_WIDGET (panel_of (op)), name);
  g_autoptr (GPtrArray) labels = ui_find_all (value, GTK_TYPE_LABEL);
  g_assert_cmpuint (labels->len, >=, 1);
  return gtk_label_get_text (labels->pdata[0]);
}

static void
test_typed (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  g_autoptr (GBytes) original = ui_view_pixels ();

  /* The exposure, typed the locale's way: -0,5 in French. */
  type_value ("exposure", "ev", french ? "-0,5" : "-0.5", GDK_KEY_Return);
  ui_settle_tracked ();
  g_test_message ("typed %s: the stage holds %g, shown as “%s”", french ? "-0,5" : "-0.5", stage_value ("exposure", "ev"),
                  shown_value ("exposure", "ev"));
  g_assert_cmpfloat (stage_value ("exposure", "ev"), ==, -0.5f);
  g_assert_true (lm_op_panel_get_stage (panel_of ("exposure"))->enabled);
  g_assert_nonnull (strchr (shown_value ("exposure", "ev"), french ? ',' : '.'));
  g_assert_null (strchr (shown_value ("exposure", "ev"), french ? '.' : ','));
  g_autoptr (GBytes) darker = ui_view_pixels ();
  g_assert_false (g_bytes_equal (darker, original)); /* the photo was rendered with it */

  /* Escape: nothing set. */
  type_value ("exposure", "ev", "2", GDK_KEY_Escape);
  g_assert_cmpfloat (stage_value ("exposure", "ev"), ==, -0.5f);
  /* Beyond the declared range: its end. Not a number: nothing. */
  type_value ("wb", "temperature", "99999", GDK_KEY_Return);
  ui_settle_tracked ();
  g_test_message ("typed 99999 K: %g K", stage_value ("wb", "temperature"));
  g_assert_cmpfloat (stage_value ("wb", "temperature"), ==, (float) declared ("wb", "temperature")->max);
  type_value ("wb", "temperature", "abc", GDK_KEY_Return);
  ui_key (GDK_KEY_Escape, 0);
  g_assert_cmpfloat (stage_value ("wb", "temperature"), ==, (float) declared ("wb", "temperature")->max);

  /* A length's field reads the locale's way too. */
  GtkWidget *field = ui_find_named (GTK_WIDGET (panel_of ("blur")), "sigma-field");
  g_assert_nonnull (field);
  ui_scroll_into_view (field);
  ui_click_middle (field);
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type (french ? "0,7" : "0.7");
  ui_key (GDK_KEY_Return, 0);
  ui_settle_tracked ();
  g_test_message ("σ typed %s: %g", french ? "0,7" : "0.7", stage_value ("blur", "sigma"));
  g_assert_cmpfloat (stage_value ("blur", "sigma"), ==, 0.7f);

  /* Each typed value one undo step. */
  ui_focus_window (GTK_WIDGET (ui_window));
  undo ();
  g_assert_cmpfloat (stage_value ("blur", "sigma"), ==, (float) declared ("blur", "sigma")->def);
  undo ();
  g_assert_cmpfloat (stage_value ("wb", "temperature"), ==, (float) declared ("wb", "temperature")->def);
  undo ();
  ui_settle_tracked ();
  g_assert_cmpfloat (stage_value ("exposure", "ev"), ==, (float) declared ("exposure", "ev")->def);
}

/* How far a drag of DX pixels from the exposure's knob moves it, MODIFIERS held throughout. */
static double
drag_by (double dx, GdkModifierType modifiers)
{
  GtkWidget *slider = control ("exposure", "ev");
  ui_scroll_into_view (slider);
  double x, y;
  knob (GTK_RANGE (slider), &x, &y);
  double before = gtk_range_get_value (GTK_RANGE (slider));
  ui_modifiers (modifiers, TRUE);
  ui_drag (slider, x, y, x + dx, y, 8);
  ui_modifiers (modifiers, FALSE);
  ui_wait_ms (600); /* the next press is no double-click */
  return gtk_range_get_value (GTK_RANGE (slider)) - before;
}

static void
test_fine (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  double plain = drag_by (40, 0);
  double shift = drag_by (40, GDK_SHIFT_MASK);
  double ctrl = drag_by (-40, GDK_CONTROL_MASK);
  g_test_message ("40 px: a plain drag moved the exposure by %g EV, a Shift-drag by %g, a Ctrl-drag back by %g", plain,
                  shift, ctrl);
  g_assert_cmpfloat (plain, >, 0.0);
  g_assert_cmpfloat (shift, >, plain / 20);
  g_assert_cmpfloat (shift, <, plain / 5);
  g_assert_cmpfloat (-ctrl, >, plain / 20);
  g_assert_cmpfloat (-ctrl, <, plain / 5);

  GtkWidget *slider = control ("exposure", "ev");
  g_assert_true (gtk_widget_has_focus (slider));
  double v0 = gtk_range_get_value (GTK_RANGE (slider));
  ui_key (GDK_KEY_Right, 0);
  double step = gtk_range_get_value (GTK_RANGE (slider)) - v0;
  ui_key (GDK_KEY_Right, GDK_SHIFT_MASK);
  double fine = gtk_range_get_value (GTK_RANGE (slider)) - v0 - step;
  ui_key (GDK_KEY_Page_Up, 0);
  double coarse = gtk_range_get_value (GTK_RANGE (slider)) - v0 - step - fine;
  g_test_message ("keys: Right %g, Shift+Right %g, Page Up %g; shown “%s”", step, fine, coarse,
                  shown_value ("exposure", "ev"));
  g_assert_cmpfloat (step, >, 0.0);
  g_assert_cmpfloat (fabs (fine - step / 10), <, 1e-6);
  g_assert_cmpfloat (fabs (coarse - 10 * step), <, 1e-6);
  ui_settle_tracked ();
}

/* ---- one drag, one undo step ---------------------------------------------------------------- */

static void
test_slider_rest (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  GtkWidget *slider = control ("saturation", "saturation");
  ui_scroll_into_view (slider);
  ui_wait_ms (600);
  float before = stage_value ("saturation", "saturation");
  gboolean was_on = lm_op_panel_get_stage (panel_of ("saturation"))->enabled;
  double x, y;
  knob (GTK_RANGE (slider), &x, &y);
  ui_pointer_move (slider, x, y);
  ui_pointer_button (1, TRUE);
  for (int i = 1; i <= 5; i++)
    ui_pointer_move (slider, x + 6 * i, y);
  ui_wait_ms (REST_MS); /* the hand rests, the button held */
  float midway = stage_value ("saturation", "saturation");
  for (int i = 1; i <= 5; i++)
    ui_pointer_move (slider, x + 30 + 6 * i, y);
  ui_pointer_button (1, FALSE);
  ui_settle_tracked ();
  float after = stage_value ("saturation", "saturation");
  undo ();
  ui_settle_tracked ();
  g_test_message ("saturation %g → %g (resting at %g) → %g after one undo", before, after, midway,
                  stage_value ("saturation", "saturation"));
  g_assert_cmpfloat (midway, >, before);
  g_assert_cmpfloat (after, >, midway);
  g_assert_cmpfloat (stage_value ("saturation", "saturation"), ==, before);
  g_assert_cmpint (lm_op_panel_get_stage (panel_of ("saturation"))->enabled, ==, was_on);
}

static LmCurveEditor *
curve_editor (void)
{
  GtkWidget *w = control ("curve", "points");
  g_assert_true (LM_IS_CURVE_EDITOR (w));
  ui_scroll_into_view (w);
  ui_wait_ms (300);
  return LM_CURVE_EDITOR (w);
}

static void
test_curve_rest (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  LmCurveEditor *editor = curve_editor ();
  GtkWidget *w = GTK_WIDGET (editor);
  LmCurvePoints before = *lm_curve_editor_get_points (editor);
  double x, y, x1, y1, x2, y2;
  lm_curve_editor_to_widget (editor, 128, 128, &x, &y);
  lm_curve_editor_to_widget (editor, 128, 150, &x1, &y1);
  lm_curve_editor_to_widget (editor, 128, 180, &x2, &y2);
  ui_pointer_move (w, x, y);
  ui_pointer_button (1, TRUE); /* adds a point at 128 and drags it */
  for (int i = 1; i <= 5; i++)
    ui_pointer_move (w, x, y + (y1 - y) * i / 5);
  ui_wait_ms (REST_MS);
  for (int i = 1; i <= 5; i++)
    ui_pointer_move (w, x, y1 + (y2 - y1) * i / 5);
  ui_pointer_button (1, FALSE);
  ui_settle_tracked ();
  const LmCurvePoints *p = lm_curve_editor_get_points (editor);
  g_test_message ("curve: %d points, the middle one at %g:%g", p->n, p->x[1], p->y[1]);
  g_assert_cmpint (p->n, ==, before.n + 1);
  g_assert_cmpfloat (fabs (p->y[1] - 180), <=, 1.0);
  ui_wait_ms (600);
  undo ();
  ui_settle_tracked ();
  p = lm_curve_editor_get_points (editor);
  g_test_message ("after one undo: %d points", p->n);
  g_assert_cmpint (p->n, ==, before.n);
  g_assert_cmpmem (p->x, sizeof (float) * p->n, before.x, sizeof (float) * before.n);
  g_assert_cmpmem (p->y, sizeof (float) * p->n, before.y, sizeof (float) * before.n);
}

/* ---- the curve's readout ------------------------------------------------------------------- */

/* A visible popup (a tooltip) over the screen rectangle of WIDGET, or NULL. */
static GtkWidget *
popup_over (GtkWidget *widget)
{
  int ox, oy;
  gdk_window_get_origin (gtk_widget_get_window (widget), &ox, &oy);
  GtkAllocation a;
  gtk_widget_get_allocation (widget, &a);
  if (!gtk_widget_get_has_window (widget))
    ox += a.x, oy += a.y;
  GdkRectangle area = { ox, oy, a.width, a.height };
  GList *all = gtk_window_list_toplevels ();
  GtkWidget *found = NULL;
  for (GList *l = all; l; l = l->next)
    if (gtk_window_get_window_type (l->data) == GTK_WINDOW_POPUP && gtk_widget_get_mapped (l->data))
      {
        GdkRectangle r;
        gdk_window_get_origin (gtk_widget_get_window (l->data), &r.x, &r.y);
        r.width = gtk_widget_get_allocated_width (l->data), r.height = gtk_widget_get_allocated_height (l->data);
        if (gdk_rectangle_intersect (&r, &area, NULL))
          found = l->data;
      }
  g_list_free (all);
  return found;
}

/* The box around the pixels where two paints of the editor differ; FALSE when none do. */
static gboolean
differences (cairo_surface_t *a, cairo_surface_t *b, GdkRectangle *box)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
  int x0 = w, y0 = h, x1 = -1, y1 = -1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (ui_painted (a, x, y) != ui_painted (b, x, y))
        x0 = MIN (x0, x), y0 = MIN (y0, y), x1 = MAX (x1, x), y1 = MAX (y1, y);
  *box = (GdkRectangle) { x0, y0, x1 - x0 + 1, y1 - y0 + 1 };
  return x1 >= 0;
}

typedef struct {
  cairo_surface_t *bare;
  gboolean seen, popup, readout;
} DialogLook;

static void
look_and_cancel (GtkWidget *dialog, gpointer data)
{
  DialogLook *look = data;
  ui_wait_ms (1500); /* a tooltip's delay, and more */
  LmCurveEditor *editor = LM_CURVE_EDITOR (control ("curve", "points"));
  look->seen = TRUE;
  look->popup = popup_over (dialog) != NULL || popup_over (GTK_WIDGET (editor)) != NULL;
  cairo_surface_t *s = ui_paint_widget (GTK_WIDGET (editor));
  GdkRectangle box;
  look->readout = differences (look->bare, s, &box);
  cairo_surface_destroy (s);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
}

static void
test_curve_readout (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  LmCurveEditor *editor = curve_editor ();
  GtkWidget *w = GTK_WIDGET (editor);
  /* A point at 64:100, then the pointer away: the bare curve. */
  double px, py;
  lm_curve_editor_to_widget (editor, 64, 64, &px, &py);
  double tx, ty;
  lm_curve_editor_to_widget (editor, 64, 100, &tx, &ty);
  ui_drag (w, px, py, tx, ty, 6);
  ui_settle_tracked ();
  ui_pointer_move (GTK_WIDGET (ui_window), 5, 5);
  ui_focus_window (GTK_WIDGET (ui_window)); /* the keyboard off the editor: no point selected */
  gtk_widget_grab_focus (GTK_WIDGET (ui_image_view ()));
  ui_wait_ms (300);
  cairo_surface_t *bare = ui_paint_widget (w);

  /* The pointer rests on the point: its levels show, away from it; no tooltip over the curve. */
  ui_pointer_move (w, tx - 1, ty);
  ui_pointer_move (w, tx, ty);
  ui_wait_ms (1500); /* a tooltip's delay, and more */
  GtkWidget *popup = popup_over (w);
  cairo_surface_t *hover = ui_paint_widget (w);
  GdkRectangle box;
  gboolean shown = differences (bare, hover, &box);
  cairo_surface_destroy (hover);
  g_test_message ("resting on the point at (%.0f, %.0f): %s over the curve; the paint differs %s %d,%d %dx%d",
                  tx, ty, popup ? G_OBJECT_TYPE_NAME (popup) : "no popup", shown ? "within" : "nowhere", box.x,
                  box.y, box.width, box.height);
  g_assert_null (popup);
  g_assert_true (shown);
  double dx = MAX (0.0, MAX (box.x - tx, tx - (box.x + box.width)));
  double dy = MAX (0.0, MAX (box.y - ty, ty - (box.y + box.height)));
  g_assert_cmpfloat (hypot (dx, dy), >=, 24.0);

  /* A modal dialog (the export's chooser, Ctrl+E) over the window: nothing of it shows. */
  DialogLook look = { .bare = bare };
  ui_answer_chooser (ui_press_export, NULL, look_and_cancel, &look);
  ui_wait_ms (300);
  g_test_message ("with the export's chooser up: %s, readout %s", look.popup ? "a popup" : "no popup",
                  look.readout ? "shown" : "hidden");
  g_assert_true (look.seen);
  g_assert_false (look.popup);
  g_assert_false (look.readout);

  /* Another window in use: it goes too, and comes back with the window. */
  GtkWidget *other = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_default_size (GTK_WINDOW (other), 100, 100);
  gtk_widget_show (other);
  gtk_window_move (GTK_WINDOW (other), 1150, 20);
  ui_wait_ms (300);
  ui_pointer_move (w, tx + 1, ty);
  ui_pointer_move (w, tx, ty);
  ui_focus_window (other);
  ui_wait_ms (300);
  cairo_surface_t *away = ui_paint_widget (w);
  gboolean away_shown = differences (bare, away, &box);
  cairo_surface_destroy (away);
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_wait_ms (300);
  cairo_surface_t *back = ui_paint_widget (w);
  gboolean back_shown = differences (bare, back, &box);
  cairo_surface_destroy (back);
  g_test_message ("the window left: readout %s; back: %s", away_shown ? "shown" : "hidden", back_shown ? "shown" : "hidden");
  g_assert_false (away_shown);
  g_assert_true (back_shown);
  gtk_widget_destroy (other);
  cairo_surface_destroy (bare);
}

/* A French locale, made into DIR where the system has none installed: TRUE when LC_ALL may
 * name it. */
static gboolean
have_french (const char *dir)
{
  return ui_make_locale ("fr_FR", dir, NULL);
}

int
main (int argc, char **argv)
{
  g_autofree char *locales = g_dir_make_tmp ("lumen-locales-XXXXXX", NULL);
  g_assert_nonnull (locales);
  french = have_french (locales);
  if (french)
    {
      g_setenv ("LC_ALL", "fr_FR.UTF-8", TRUE);
      g_setenv ("LANGUAGE", "fr", TRUE);
    }
  ui_test_init_localized (&argc, &argv, "photos/chelsea.png");
  g_test_message ("numbers %s", french ? "in French" : "in the C locale: no French locale could be had");
  ui_track_results ();
  g_test_add_func ("/slider-input/wheel-scrolls-the-panel", test_wheel_scrolls);
  g_test_add_func ("/slider-input/wheel-step-then-drag-two-steps", test_wheel_then_drag);
  g_test_add_func ("/slider-input/typed-values", test_typed);
  g_test_add_func ("/slider-input/fine-steps", test_fine);
  g_test_add_func ("/slider-input/slider-drag-resting-one-step", test_slider_rest);
  g_test_add_func ("/slider-input/curve-drag-resting-one-step", test_curve_rest);
  g_test_add_func ("/slider-input/curve-readout", test_curve_readout);
  int status = g_test_run ();
  lm_test_remove_tree (locales);
  return status;
}

/* LmWindow's tools on the view (window-tools.h): the bar above the photo (rotate and flip,
 * crop, straighten, the white balance picker), which tool has the pointer, and what each one
 * does to the pipeline. One tool at a time; the keys C, S and W toggle them, B, G and R start
 * the mask tools (tool-mask.h) on the selected instance, M shows its mask, Enter applies a
 * crop, Escape leaves a tool without applying it. While the crop tool is on, the view renders
 * the photo with crop off (lm_window_tools_adjust), so that the whole image the rectangle is
 * drawn on is in view. */
#include "window-tools.h"
#include "window-astro.h"
#include "window-geometry.h"
#include "window-instances.h"
#include "window-private.h"
#include "window-selection.h"
#include "window-status.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "stage-params.h"
#include "tool-crop.h"
#include "tool-mask.h"
#include "tool-picker.h"
#include "tool-straighten.h"

#include "core/color/profile.h"
#include "core/edit/commit.h"
#include "core/ops/crop-math.h"
#include "core/ops/wb.h"
#include "core/raw/camera-color.h"
#include "core/raw/patch.h"

typedef enum { TOOL_NONE, TOOL_CROP, TOOL_STRAIGHTEN, TOOL_PICKER, TOOL_MASK, N_TOOLS } ToolKind;

/* The tools' actions, by kind (TOOL_NONE has none; the mask tools start from an instance's
 * menu or a key, on that instance: lm_window_tools_start_mask). */
static const char *const tool_actions[N_TOOLS] = { NULL, "crop-tool", "straighten-tool", "wb-picker", NULL };

struct _LmWindowTools {
  ToolKind active;
  LmCropTool *crop;
  LmStraightenTool *straighten;
  LmPickerTool *picker;
  LmMaskTool *mask;
  LmStage crop_before;  /* crop's stage when the crop tool started: what Escape restores */
  GtkWidget *bar;       /* the tool bar above the view */
  GtkWidget *crop_options;
  GtkComboBoxText *ratio;
  gboolean updating;    /* the ratio menu is being set, not chosen */
};

/* Crop's ratio NICK as a width over height for an image of W × H (0: free). */
static double
ratio_value (const char *nick, guint w, guint h)
{
  if (nick == NULL || g_str_equal (nick, "free"))
    return 0.0;
  if (g_str_equal (nick, "original"))
    return (double) w / h;
  int a, b;
  return sscanf (nick, "%d:%d", &a, &b) == 2 && a > 0 && b > 0 ? (double) a / b : 0.0;
}

void
lm_window_tools_adjust (LmWindow *self, LmPipeline *pipeline)
{
  LmStage *crop = lm_stage_by_name (pipeline, "crop");
  if (self->tools && self->tools->active == TOOL_CROP && crop)
    crop->enabled = FALSE;
  /* Called as each render request is made: the mask shown goes with it. */
  if (self->worker)
    lm_render_worker_show_mask (self->worker, lm_window_tools_mask_shown (self));
}

/* ---- crop ---------------------------------------------------------------------------- */

static void
start_crop (LmWindow *self)
{
  LmWindowTools *t = self->tools;
  LmStage *crop = lm_stage_by_name (&self->pipeline, "crop");
  float *x = lm_stage_float (crop, "x"), *y = lm_stage_float (crop, "y");
  float *w = lm_stage_float (crop, "width"), *h = lm_stage_float (crop, "height");
  guint iw, ih;
  lm_window_crop_input_size (self, &self->pipeline, &iw, &ih);
  double rect[4] = { 0, 0, iw, ih };
  if (crop->enabled && x && y && w && h)
    {
      rect[0] = *x, rect[1] = *y;
      rect[2] = *w > 0 ? *w : iw - *x;
      rect[3] = *h > 0 ? *h : ih - *y;
    }
  t->crop_before = *crop;
  const char *nick = lm_stage_enum_nick (crop, "ratio");
  t->updating = TRUE;
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (t->ratio), nick ? nick : "free");
  t->updating = FALSE;
  gtk_widget_show (t->crop_options);
  lm_crop_tool_begin (t->crop, iw, ih, rect, ratio_value (nick, iw, ih));
}

/* Crop on with the rectangle drawn, in whole pixels; a rectangle that is the whole image
 * where crop was off leaves it off: nothing was cropped. */
static void
apply_crop (LmWindow *self)
{
  LmStage *crop = lm_stage_by_name (&self->pipeline, "crop");
  float *p[4] = { lm_stage_float (crop, "x"), lm_stage_float (crop, "y"), lm_stage_float (crop, "width"),
                  lm_stage_float (crop, "height") };
  if (!p[0] || !p[1] || !p[2] || !p[3])
    return;
  guint iw, ih;
  lm_window_crop_input_size (self, &self->pipeline, &iw, &ih);
  double r[4];
  lm_crop_tool_get_rect (self->tools->crop, r);
  double x0 = round (r[0]), y0 = round (r[1]);
  double x1 = MAX (round (r[0] + r[2]), x0 + 1), y1 = MAX (round (r[1] + r[3]), y0 + 1);
  if (!crop->enabled && x0 == 0 && y0 == 0 && x1 == iw && y1 == ih)
    return;
  *p[0] = (float) x0, *p[1] = (float) y0, *p[2] = (float) (x1 - x0), *p[3] = (float) (y1 - y0);
  crop->enabled = TRUE;
}

static void
on_ratio_changed (GtkComboBox *combo, LmWindow *self)
{
  LmWindowTools *t = self->tools;
  LmStage *crop = lm_stage_by_name (&self->pipeline, "crop");
  const char *nick = gtk_combo_box_get_active_id (combo);
  if (t->updating || crop == NULL || nick == NULL || !lm_stage_set_enum (crop, "ratio", nick))
    return;
  lm_op_panel_set_stage (lm_window_primary_panel (self, crop->info->id), crop);
  guint iw, ih;
  lm_window_crop_input_size (self, &self->pipeline, &iw, &ih);
  lm_crop_tool_set_ratio (t->crop, ratio_value (nick, iw, ih));
}

/* A side of the crop set in its panel (a field typed, a slider dragged, the ratio chosen)
 * with a ratio: the height where the edit came from the height's field or slider, else the
 * width, keeps its value and the other follows (the crop turning neither way round), so that
 * the panel shows the rectangle crop cuts (its Width said 1996 over a crop of 1995, the ratio
 * taking a pixel off at render). The panel says which side: the window's focus is gone while
 * a typed field is left with Tab or a click. */
static void
on_crop_panel_changed (LmOpPanel *panel, LmWindow *self)
{
  LmStage stage = *lm_op_panel_get_stage (panel);
  if (!stage.enabled || self->source == NULL)
    return;
  const LmStage *before;
  int edited = lm_op_panel_get_edited_param (panel, &before);
  gboolean height_set = edited >= 0 && g_str_equal (stage.info->params[edited].name, "height");
  LmCropParams *p = &stage.params.crop, typed = *p;
  guint iw, ih;
  lm_window_crop_input_size (self, &self->pipeline, &iw, &ih);
  lm_crop_follow_ratio (p, &before->params.crop, !height_set, iw, ih);
  if (memcmp (p, &typed, sizeof *p) == 0)
    return;
  *lm_pipeline_stage (&self->pipeline, stage.info->id) = stage;
  lm_op_panel_set_stage (panel, &stage);
  lm_window_request_render (self);
}

static void
on_swap (GtkButton *button, LmWindow *self)
{
  if (self->tools->active == TOOL_CROP)
    lm_crop_tool_swap (self->tools->crop);
}

/* ---- straighten and the picker ------------------------------------------------------------ */

static void
on_straightened (gpointer data, double degrees)
{
  LmWindow *self = data;
  LmStage *straighten = lm_stage_by_name (&self->pipeline, "straighten");
  float *angle = lm_stage_float (straighten, "angle");
  if (angle == NULL)
    return;
  const LmParamSpec *spec = lm_op_param_by_name (straighten->info, "angle");
  double now = straighten->enabled ? *angle : 0.0;
  *angle = (float) CLAMP (now + degrees, spec->min, spec->max);
  straighten->enabled = *angle != 0.0f;
  lm_window_show_pipeline (self);
  lm_window_commit (self);
}

/* A raw's picker: the patch's camera RGB, before any white balance, made neutral by the raw
 * stage's own gains (wb=custom), on scene light rather than on the display's values. */
static void
pick_raw (LmWindow *self, const LmPipeline *view, double x, double y)
{
  double sx, sy;
  if (!lm_pipeline_photo_point (view, self->source, x, y, &sx, &sy))
    return;
  int cx = (int) lround (sx), cy = (int) lround (sy), half = LM_PICKER_PATCH / 2;
  float camera[3], mul[4];
  if (!lm_raw_patch_camera_rgb (self->source->raw, self->source, cx - half, cy - half, cx + half, cy + half, camera))
    {
      lm_window_show_message (self, GTK_MESSAGE_INFO,
                              _("The picked patch is clipped or has no colour: pick a gray that is not blown out"));
      return;
    }
  lm_raw_wb_from_gray (self->source->raw, camera, mul);
  const LmOpInfo *info = lm_raw_op_info ();
  LmRawParams *raw = lm_pipeline_raw (&self->pipeline);
  raw->wb = LM_RAW_WB_CUSTOM;
  for (guint k = 0; k < info->n_params; k++)
    if (g_str_equal (info->params[k].name, "red"))
      raw->red = CLAMP (mul[0], info->params[k].min, info->params[k].max);
    else if (g_str_equal (info->params[k].name, "blue"))
      raw->blue = CLAMP (mul[2], info->params[k].min, info->params[k].max);
  lm_window_show_pipeline (self);
  lm_window_commit (self);
}

static void
on_picked (gpointer data, double x, double y)
{
  LmWindow *self = data;
  if (lm_image_is_raw (self->source))
    {
      LmPipeline view;
      lm_window_view_pipeline (self, &view);
      lm_pipeline_for_view (&view);
      /* The view's (x, y) is a point of the image; its pixel (i, j) spans i..i + 1. */
      pick_raw (self, &view, x - 0.5, y - 0.5);
      return;
    }
  LmStage *wb = lm_stage_by_name (&self->pipeline, "wb");
  float *temperature = lm_stage_float (wb, "temperature"), *tint = lm_stage_float (wb, "tint");
  LmPipeline view;
  lm_window_view_pipeline (self, &view);
  lm_pipeline_for_view (&view);
  double rgb[3];
  g_autoptr (GError) e = NULL;
  if (temperature == NULL || tint == NULL)
    return;
  /* The view's (x, y) is a point of the image; its pixel (i, j) spans i..i + 1. */
  if (!lm_picker_patch_mean (self->source, &view, x - 0.5, y - 0.5, LM_PICKER_PATCH, rgb, &e))
    {
      if (e)
        lm_window_show_message (self, GTK_MESSAGE_INFO, e->message);
      return;
    }
  /* The gains neutralise the patch in the photo's own primaries, as white balance runs. */
  g_autoptr (LmColorProfile) profile = lm_color_profile_new (self->source->icc_profile, NULL);
  LmOpContext context;
  lm_op_context_init (&context, profile);
  lm_wb_from_gray_in (&context.color, (float) rgb[0], (float) rgb[1], (float) rgb[2], temperature, tint);
  wb->enabled = TRUE;
  lm_window_show_pipeline (self);
  lm_window_commit (self);
}

/* ---- which tool ------------------------------------------------------------------------ */

/* KIND becomes the tool (TOOL_NONE: none); a crop being drawn is applied where APPLY, else
 * dropped. RENDER: the view is asked for again where what it renders changed. */
static void
set_tool (LmWindow *self, ToolKind kind, gboolean apply, gboolean render)
{
  LmWindowTools *t = self->tools;
  ToolKind old = t->active;
  if (old == kind)
    return;
  t->active = TOOL_NONE;
  gboolean applied = FALSE;
  switch (old)
    {
    case TOOL_CROP:
      {
        gtk_widget_hide (t->crop_options);
        LmStage *crop = lm_stage_by_name (&self->pipeline, "crop");
        if (apply)
          apply_crop (self);
        else
          {
            *crop = t->crop_before;
            lm_op_panel_set_stage (lm_window_primary_panel (self, crop->info->id), crop);
          }
        lm_crop_tool_end (t->crop);
        applied = apply;
        break;
      }
    case TOOL_STRAIGHTEN:
      lm_straighten_tool_end (t->straighten);
      break;
    case TOOL_PICKER:
      lm_picker_tool_end (t->picker);
      break;
    case TOOL_MASK:
      lm_mask_tool_end (t->mask);
      break;
    default:
      break;
    }
  t->active = kind;
  switch (kind)
    {
    case TOOL_CROP:
      start_crop (self);
      break;
    case TOOL_STRAIGHTEN:
      lm_straighten_tool_begin (t->straighten);
      break;
    case TOOL_PICKER:
      lm_picker_tool_begin (t->picker);
      break;
    default:
      break;
    }
  for (int i = TOOL_CROP; i < N_TOOLS; i++)
    if (tool_actions[i])
      g_simple_action_set_state (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), tool_actions[i])),
                                 g_variant_new_boolean (i == (int) kind));
  if (applied && render)
    {
      lm_window_show_pipeline (self);
      lm_window_commit (self);
    }
  else if (render && (old == TOOL_CROP || kind == TOOL_CROP))
    lm_window_request_render (self); /* crop off, or on again */
}

void
lm_window_tools_finish (LmWindow *self)
{
  if (self->tools && self->tools->active == TOOL_CROP)
    {
      set_tool (self, TOOL_NONE, TRUE, FALSE);
      lm_window_commit (self);
    }
}

void
lm_window_tools_cancel (LmWindow *self)
{
  /* Straighten and the picker hold nothing of the pipeline: they stay, for the next line or
   * the next click; the mask tools stay too, their stroke in hand dropped. */
  if (self->tools && self->tools->active == TOOL_CROP)
    set_tool (self, TOOL_NONE, FALSE, FALSE);
  else if (self->tools && self->tools->active == TOOL_MASK)
    lm_mask_tool_cancel (self->tools->mask);
}

static void
tool_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  LmWindow *self = data;
  const char *name = g_action_get_name (G_ACTION (action));
  ToolKind kind = TOOL_NONE;
  for (int i = TOOL_CROP; i < N_TOOLS; i++)
    if (tool_actions[i] && g_str_equal (name, tool_actions[i]))
      kind = i;
  if (!g_variant_get_boolean (state))
    kind = TOOL_NONE;
  else if (self->source == NULL)
    return;
  /* Leaving the crop tool by any way but Escape applies it: the rectangle was meant. */
  set_tool (self, kind, TRUE, TRUE);
}

static const GActionEntry tool_entries[] = {
  { "crop-tool", NULL, NULL, "false", tool_changed },
  { "straighten-tool", NULL, NULL, "false", tool_changed },
  { "wb-picker", NULL, NULL, "false", tool_changed },
};

static void
toggle_tool (LmWindow *self, ToolKind kind)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), tool_actions[kind]);
  if (g_action_get_enabled (action))
    g_action_change_state (action, g_variant_new_boolean (self->tools->active != kind));
}

/* ---- the mask tools ---------------------------------------------------------------- */

void
lm_window_tools_start_mask (LmWindow *self, guint32 id, int kind)
{
  LmWindowTools *t = self->tools;
  if (t == NULL || self->source == NULL || lm_window_astro_active (self) || lm_pipeline_find (&self->pipeline, id) < 0)
    return;
  set_tool (self, TOOL_MASK, TRUE, TRUE);
  lm_mask_tool_begin (t->mask, id, kind);
  lm_window_request_render (self); /* the mask shown may be another instance's now */
}

guint32
lm_window_tools_mask_shown (LmWindow *self)
{
  if (self->tools == NULL || !lm_window_instances_show_mask (self))
    return 0;
  guint32 id = lm_mask_tool_instance (self->tools->mask);
  if (id == 0)
    id = lm_window_selected_instance (self);
  int index = id ? lm_pipeline_find (&self->pipeline, id) : -1;
  return index >= 0 && self->pipeline.inst[index].mask >= 0 ? id : 0;
}

/* M: the instance menus' Show Mask (its change renders). */
static void
toggle_show_mask (LmWindow *self)
{
  g_action_group_change_action_state (G_ACTION_GROUP (self), "show-mask",
                                      g_variant_new_boolean (!lm_window_instances_show_mask (self)));
}

/* B, G and R: a mask tool on the selected instance, or why not. */
static void
key_mask_tool (LmWindow *self, int kind)
{
  guint32 id = lm_window_selected_instance (self);
  if (id == 0)
    {
      lm_window_show_hint (self, _("Select an operation's panel first: the mask is drawn on the operation selected"));
      return;
    }
  lm_window_tools_start_mask (self, id, kind);
}

/* [ and ] the brush's size, with Shift its hardness (Shift+[ is "{" on many layouts). */
static gboolean
key_brush (LmWindow *self, guint keyval)
{
  LmWindowTools *t = self->tools;
  if (t->active != TOOL_MASK)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_bracketleft: lm_mask_tool_step_size (t->mask, -1); return TRUE;
    case GDK_KEY_bracketright: lm_mask_tool_step_size (t->mask, 1); return TRUE;
    case GDK_KEY_braceleft: lm_mask_tool_step_hardness (t->mask, -1); return TRUE;
    case GDK_KEY_braceright: lm_mask_tool_step_hardness (t->mask, 1); return TRUE;
    default: return FALSE;
    }
}

/* The tools' keys, where no text field has the keyboard (there they are text). */
static gboolean
on_key (GtkWidget *widget, GdkEventKey *event, LmWindow *self)
{
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));
  GdkModifierType mods = event->state & gtk_accelerator_get_default_mod_mask ();
  if (self->source == NULL || (focus && GTK_IS_EDITABLE (focus)) || (mods & ~GDK_SHIFT_MASK) != 0)
    return GDK_EVENT_PROPAGATE;
  /* A folder's grid in the editor's place has keys of its own (Enter opens, not crops). */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self->image_view)))
    return GDK_EVENT_PROPAGATE;
  LmWindowTools *t = self->tools;
  guint keyval = event->keyval;
  if (mods == GDK_SHIFT_MASK)
    {
      /* Shift+[ where the layout gives "[" with Shift held all the same. */
      if (keyval == GDK_KEY_bracketleft || keyval == GDK_KEY_bracketright)
        keyval = keyval == GDK_KEY_bracketleft ? GDK_KEY_braceleft : GDK_KEY_braceright;
      return (keyval == GDK_KEY_braceleft || keyval == GDK_KEY_braceright) && key_brush (self, keyval);
    }
  switch (keyval)
    {
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
      if (t->active != TOOL_CROP)
        return GDK_EVENT_PROPAGATE;
      set_tool (self, TOOL_NONE, TRUE, TRUE);
      return GDK_EVENT_STOP;
    case GDK_KEY_Escape:
      if (t->active == TOOL_NONE)
        return GDK_EVENT_PROPAGATE;
      set_tool (self, TOOL_NONE, FALSE, TRUE);
      return GDK_EVENT_STOP;
    case GDK_KEY_c:
      toggle_tool (self, TOOL_CROP);
      return GDK_EVENT_STOP;
    case GDK_KEY_s:
      toggle_tool (self, TOOL_STRAIGHTEN);
      return GDK_EVENT_STOP;
    case GDK_KEY_w:
      toggle_tool (self, TOOL_PICKER);
      return GDK_EVENT_STOP;
    case GDK_KEY_b:
      key_mask_tool (self, LM_MASK_BRUSH);
      return GDK_EVENT_STOP;
    case GDK_KEY_g:
      key_mask_tool (self, LM_MASK_LINEAR);
      return GDK_EVENT_STOP;
    case GDK_KEY_e: /* an Ellipse: r is darktable's reject, as in Lumen's rating keys */
      key_mask_tool (self, LM_MASK_RADIAL);
      return GDK_EVENT_STOP;
    case GDK_KEY_m:
      toggle_show_mask (self);
      return GDK_EVENT_STOP;
    case GDK_KEY_bracketleft:
    case GDK_KEY_bracketright:
      return key_brush (self, keyval);
    default:
      return GDK_EVENT_PROPAGATE;
    }
}

/* ---- the bar ------------------------------------------------------------------------- */

static GtkWidget *
bar_button (GtkWidget *box, gboolean toggle, const char *name, const char *action, const char *icon,
            const char *label, const char *tooltip)
{
  GtkWidget *button = toggle ? gtk_toggle_button_new () : gtk_button_new ();
  gtk_widget_set_name (button, name);
  if (label)
    {
      gtk_button_set_label (GTK_BUTTON (button), label);
      gtk_button_set_use_underline (GTK_BUTTON (button), TRUE);
    }
  if (icon)
    {
      gtk_button_set_image (GTK_BUTTON (button), gtk_image_new_from_icon_name (icon, GTK_ICON_SIZE_BUTTON));
      gtk_button_set_always_show_image (GTK_BUTTON (button), TRUE);
    }
  if (action)
    gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_box_pack_start (GTK_BOX (box), button, FALSE, FALSE, 0);
  return button;
}

static GtkWidget *
linked_box (GtkWidget *bar)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_style_context_add_class (gtk_widget_get_style_context (box), GTK_STYLE_CLASS_LINKED);
  gtk_box_pack_start (GTK_BOX (bar), box, FALSE, FALSE, 0);
  return box;
}

static GtkWidget *
build_crop_options (LmWindow *self, GtkWidget *bar)
{
  LmWindowTools *t = self->tools;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_name (box, "crop-options");
  gtk_box_pack_start (GTK_BOX (box), gtk_label_new (_("Ratio")), FALSE, FALSE, 0);
  t->ratio = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new ());
  gtk_widget_set_name (GTK_WIDGET (t->ratio), "crop-ratio");
  const LmOpInfo *crop = lm_op_info_by_name ("crop");
  const LmParamSpec *spec = lm_op_param_by_name (crop, "ratio");
  for (int i = 0; spec && spec->type == LM_PARAM_ENUM && spec->values[i].nick; i++)
    gtk_combo_box_text_append (t->ratio, spec->values[i].nick, _(spec->values[i].label));
  gtk_widget_set_tooltip_text (GTK_WIDGET (t->ratio), _("The crop's shape, held while dragging"));
  g_signal_connect (t->ratio, "changed", G_CALLBACK (on_ratio_changed), self);
  gtk_box_pack_start (GTK_BOX (box), GTK_WIDGET (t->ratio), FALSE, FALSE, 0);
  GtkWidget *swap = bar_button (box, FALSE, "crop-swap", NULL, "object-rotate-right-symbolic", NULL,
                                _("Portrait or landscape: turn the crop rectangle"));
  g_signal_connect (swap, "clicked", G_CALLBACK (on_swap), self);
  gtk_widget_show_all (box);
  gtk_widget_set_no_show_all (box, TRUE);
  gtk_widget_hide (box);
  gtk_box_pack_start (GTK_BOX (bar), box, FALSE, FALSE, 0);
  return box;
}

/* The bar goes above the view: the view's overlay (busy indicator, compare bar) moves into a
 * box with it. Built here rather than in window.ui, so that the tools stay in their files. */
static void
build_bar (LmWindow *self)
{
  GtkWidget *bar = self->tools->bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_name (bar, "tool-bar");
  gtk_container_set_border_width (GTK_CONTAINER (bar), 4);
  GtkWidget *turn = linked_box (bar);
  bar_button (turn, FALSE, "rotate-left", "win.rotate-left", "object-rotate-left-symbolic", NULL,
              _("Rotate left (Ctrl+[)"));
  bar_button (turn, FALSE, "rotate-right", "win.rotate-right", "object-rotate-right-symbolic", NULL,
              _("Rotate right (Ctrl+])"));
  bar_button (turn, FALSE, "flip-horizontal", "win.flip-horizontal", "object-flip-horizontal-symbolic", NULL,
              _("Flip left to right (Ctrl+H)"));
  bar_button (turn, FALSE, "flip-vertical", "win.flip-vertical", "object-flip-vertical-symbolic", NULL,
              _("Flip upside down (Shift+Ctrl+H)"));
  GtkWidget *tools = linked_box (bar);
  bar_button (tools, TRUE, "crop-tool", "win.crop-tool", NULL, _("C_rop"),
              _("Crop: drag the handles, Enter applies, Escape cancels (C)"));
  bar_button (tools, TRUE, "straighten-tool", "win.straighten-tool", NULL, _("_Straighten"),
              _("Straighten: drag a line along the horizon or a vertical (S)"));
  bar_button (tools, TRUE, "wb-picker", "win.wb-picker", "color-select-symbolic", NULL,
              _("White balance: click something that should be gray (W)"));
  self->tools->crop_options = build_crop_options (self, bar);
  gtk_box_pack_start (GTK_BOX (bar), lm_mask_tool_options (self->tools->mask), TRUE, TRUE, 0);

  GtkWidget *overlay = gtk_widget_get_parent (GTK_WIDGET (self->view_stack));
  GtkWidget *paned = gtk_widget_get_parent (overlay);
  GtkWidget *column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  g_object_ref (overlay);
  gtk_container_remove (GTK_CONTAINER (paned), overlay);
  gtk_box_pack_start (GTK_BOX (column), bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (column), overlay, TRUE, TRUE, 0);
  g_object_unref (overlay);
  gtk_paned_pack1 (GTK_PANED (paned), column, TRUE, FALSE);
  gtk_widget_show_all (bar);
  gtk_widget_show (column);
}

void
lm_window_tools_init (LmWindow *self)
{
  LmWindowTools *t = self->tools = g_new0 (LmWindowTools, 1);
  t->crop = lm_crop_tool_new (self->image_view);
  t->straighten = lm_straighten_tool_new (self->image_view, on_straightened, self);
  t->picker = lm_picker_tool_new (self->image_view, on_picked, self);
  t->mask = lm_mask_tool_new (self);
  g_action_map_add_action_entries (G_ACTION_MAP (self), tool_entries, G_N_ELEMENTS (tool_entries), self);
  lm_window_add_geometry_actions (self);
  build_bar (self);
  g_signal_connect (self, "key-press-event", G_CALLBACK (on_key), self);
  const LmOpInfo *crop = lm_op_info_by_name ("crop");
  if (crop && lm_window_primary_panel (self, crop->id))
    g_signal_connect (lm_window_primary_panel (self, crop->id), "changed", G_CALLBACK (on_crop_panel_changed), self);
  lm_window_tools_update_actions (self);
}

void
lm_window_tools_update_actions (LmWindow *self)
{
  if (self->tools == NULL)
    return;
  const char *ops[N_TOOLS] = { NULL, "crop", "straighten", "wb" };
  /* The mask tool leaves with its photo, or with the instance it draws on (removed, undone). */
  if (self->tools->active == TOOL_MASK
      && (self->source == NULL || lm_window_astro_active (self)
          || lm_pipeline_find (&self->pipeline, lm_mask_tool_instance (self->tools->mask)) < 0))
    set_tool (self, TOOL_NONE, FALSE, FALSE);
  for (int i = TOOL_CROP; i < N_TOOLS; i++)
    {
      if (tool_actions[i] == NULL)
        continue;
      gboolean can = self->source != NULL && lm_op_info_by_name (ops[i]) != NULL && !lm_window_astro_active (self);
      g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), tool_actions[i])),
                                   can);
    }
  lm_window_update_geometry_actions (self);
}

void
lm_window_tools_free (LmWindow *self)
{
  LmWindowTools *t = self->tools;
  if (t == NULL)
    return;
  lm_crop_tool_free (t->crop);
  lm_straighten_tool_free (t->straighten);
  lm_picker_tool_free (t->picker);
  lm_mask_tool_free (t->mask);
  g_clear_pointer (&self->tools, g_free);
}

GtkWidget *
lm_window_tools_bar (LmWindow *self)
{
  return self->tools->bar;
}

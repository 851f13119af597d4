/* LmExportOptions (export-options.h). Widgets are named "<op>-enabled" and "<op>-<param>"
 * ("resize-width"), for tests and for people's scripts alike. */
#include "export-options.h"

#include <math.h>
#include <glib/gi18n.h>

#include "core/io/io.h"

typedef struct {
  const LmOpInfo *op;
  GtkWidget *enabled;
  GtkWidget **controls; /* one per parameter */
  LmStage stage;        /* what the widgets show, with the parameters they do not */
} Section;

struct _LmExportOptions {
  GtkBox parent_instance;
  Section sections[LM_N_OPS];
  guint n;
  GtkWidget *to_srgb;
  GtkWidget *png_level;
  GtkWidget *nvjpeg;
  GtkWidget *depth16;
};

G_DEFINE_FINAL_TYPE (LmExportOptions, lm_export_options, GTK_TYPE_BOX)

static void
update_sensitivity (Section *s)
{
  gboolean on = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (s->enabled));
  for (guint i = 0; i < s->op->n_params; i++)
    if (s->controls[i])
      gtk_widget_set_sensitive (s->controls[i], on);
}

static void
on_enabled (GtkToggleButton *button, Section *s)
{
  update_sensitivity (s);
}

/* A number typed or stepped: whole pixels where the parameter is a length or its range wide
 * (resize's 0..65535), else two decimals. */
static GtkWidget *
make_control (const LmParamSpec *spec)
{
  if (spec->type == LM_PARAM_ENUM)
    {
      GtkWidget *combo = gtk_combo_box_text_new ();
      for (int v = 0; spec->values[v].nick; v++)
        gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (combo), spec->values[v].nick, _(spec->values[v].label));
      return combo;
    }
  if (spec->type != LM_PARAM_FLOAT)
    return NULL; /* no export operation has a curve */
  gboolean whole = spec->in_pixels || spec->max - spec->min > 1000;
  double step = whole ? 1.0 : 0.01;
  GtkWidget *spin = gtk_spin_button_new_with_range (spec->min, spec->max, step);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), whole ? 0 : 2);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_entry_set_width_chars (GTK_ENTRY (spin), 6);
  return spin;
}

static void
build_section (LmExportOptions *self, const LmOpInfo *op)
{
  Section *s = &self->sections[self->n++];
  s->op = op;
  s->stage.info = op;
  lm_op_params_init (op, s->stage.params.bytes);
  s->controls = g_new0 (GtkWidget *, op->n_params);

  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  s->enabled = gtk_check_button_new_with_label (_(op->label));
  g_autofree char *enabled_name = g_strdup_printf ("%s-enabled", op->name);
  gtk_widget_set_name (s->enabled, enabled_name);
  gtk_widget_set_tooltip_text (s->enabled, _(op->blurb));
  g_signal_connect (s->enabled, "toggled", G_CALLBACK (on_enabled), s);
  gtk_container_add (GTK_CONTAINER (row), s->enabled);
  for (guint i = 0; i < op->n_params; i++)
    {
      const LmParamSpec *spec = &op->params[i];
      GtkWidget *control = make_control (spec);
      if (control == NULL)
        continue;
      g_autofree char *name = g_strdup_printf ("%s-%s", op->name, spec->name);
      gtk_widget_set_name (control, name);
      GtkWidget *label = gtk_label_new (_(spec->label));
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), control);
      gtk_widget_set_margin_start (label, 6);
      gtk_container_add (GTK_CONTAINER (row), label);
      gtk_container_add (GTK_CONTAINER (row), control);
      s->controls[i] = control;
    }
  gtk_container_add (GTK_CONTAINER (self), row);
}

static void
lm_export_options_finalize (GObject *object)
{
  LmExportOptions *self = LM_EXPORT_OPTIONS (object);
  for (guint k = 0; k < self->n; k++)
    g_free (self->sections[k].controls);
  G_OBJECT_CLASS (lm_export_options_parent_class)->finalize (object);
}

static void
lm_export_options_class_init (LmExportOptionsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lm_export_options_finalize;
}

static void
lm_export_options_init (LmExportOptions *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
}

GtkWidget *
lm_export_options_new (void)
{
  LmExportOptions *self = g_object_new (LM_TYPE_EXPORT_OPTIONS, NULL);
  for (int i = 0; i < LM_N_OPS; i++)
    if (lm_op_kind (i) == LM_KIND_EXPORT)
      build_section (self, lm_op_info (i));
  self->to_srgb = gtk_check_button_new_with_label (_("Convert to sRGB"));
  gtk_widget_set_name (self->to_srgb, "to-srgb");
  gtk_widget_set_tooltip_text (self->to_srgb,
                               _("Convert the colours from the photo's ICC profile to sRGB (perceptual "
                                 "intent), for the web; otherwise the photo keeps its own profile"));
  gtk_container_add (GTK_CONTAINER (self), self->to_srgb);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->png_level = gtk_spin_button_new_with_range (LM_PNG_LEVEL_MIN, LM_PNG_LEVEL_MAX, 1);
  gtk_widget_set_name (self->png_level, "png-level");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->png_level), LM_PNG_LEVEL_DEFAULT);
  gtk_widget_set_tooltip_text (self->png_level,
                               _("0 stores the pixels as they are (the largest file, the fastest); 9 makes "
                                 "the smallest file and takes the longest; lossless at every level"));
  GtkWidget *label = gtk_label_new_with_mnemonic (_("PNG _compression level"));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), self->png_level);
  gtk_container_add (GTK_CONTAINER (row), label);
  gtk_container_add (GTK_CONTAINER (row), self->png_level);
  /* The export dialog's alone (lm_export_options_show_depth16), as nvJPEG's; beside the PNG
   * level, the dialog being as tall as a small screen already. */
  self->depth16 = gtk_check_button_new_with_mnemonic (_("_16 bits per channel (PNG, TIFF)"));
  gtk_widget_set_name (self->depth16, "depth16");
  gtk_widget_set_tooltip_text (self->depth16,
                               _("The edits are rendered and written at 16 bits, also for an 8-bit photo, so that "
                                 "smooth gradations keep their steps; JPEG holds 8 bits"));
  gtk_widget_set_no_show_all (self->depth16, TRUE);
  gtk_widget_set_margin_start (self->depth16, 12);
  gtk_container_add (GTK_CONTAINER (row), self->depth16);
  gtk_container_add (GTK_CONTAINER (self), row);
  /* The export dialog's alone (lm_export_options_show_nvjpeg): Apply Edits encodes on the CPU. */
  self->nvjpeg = gtk_check_button_new_with_label (_("Encode JPEG on the GPU (nvJPEG)"));
  gtk_widget_set_name (self->nvjpeg, "nvjpeg");
  gtk_widget_set_no_show_all (self->nvjpeg, TRUE);
  gtk_container_add (GTK_CONTAINER (self), self->nvjpeg);
  LmPipeline defaults;
  lm_pipeline_init (&defaults);
  lm_export_options_set_pipeline (self, &defaults);
  gtk_widget_show_all (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

void
lm_export_options_set_pipeline (LmExportOptions *self, const LmPipeline *pipeline)
{
  for (guint k = 0; k < self->n; k++)
    {
      Section *s = &self->sections[k];
      s->stage = *lm_pipeline_primary (pipeline, s->op->id);
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (s->enabled), s->stage.enabled);
      for (guint i = 0; i < s->op->n_params; i++)
        {
          const LmParamSpec *spec = &s->op->params[i];
          const guint8 *field = s->stage.params.bytes + spec->offset;
          if (s->controls[i] == NULL)
            continue;
          if (spec->type == LM_PARAM_ENUM)
            gtk_combo_box_set_active (GTK_COMBO_BOX (s->controls[i]), *(const int *) field);
          else
            gtk_spin_button_set_value (GTK_SPIN_BUTTON (s->controls[i]), *(const float *) field);
        }
      update_sensitivity (s);
    }
}

gboolean
lm_export_options_apply (LmExportOptions *self, LmPipeline *pipeline)
{
  gboolean changed = FALSE;
  for (guint k = 0; k < self->n; k++)
    {
      Section *s = &self->sections[k];
      LmStage stage = s->stage;
      stage.enabled = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (s->enabled));
      for (guint i = 0; i < s->op->n_params; i++)
        {
          const LmParamSpec *spec = &s->op->params[i];
          guint8 *field = stage.params.bytes + spec->offset;
          if (s->controls[i] == NULL)
            continue;
          if (spec->type == LM_PARAM_ENUM)
            *(int *) field = MAX (0, gtk_combo_box_get_active (GTK_COMBO_BOX (s->controls[i])));
          else
            {
              /* What is typed counts, though Enter was not pressed. */
              gtk_spin_button_update (GTK_SPIN_BUTTON (s->controls[i]));
              *(float *) field = (float) gtk_spin_button_get_value (GTK_SPIN_BUTTON (s->controls[i]));
            }
        }
      LmStage *now = lm_pipeline_stage (pipeline, s->op->id);
      changed = changed || !lm_stage_equal (&stage, now);
      *now = stage;
    }
  return changed;
}

void
lm_export_options_set_to_srgb (LmExportOptions *self, gboolean to_srgb)
{
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->to_srgb), to_srgb);
}

gboolean
lm_export_options_get_to_srgb (LmExportOptions *self)
{
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->to_srgb));
}

#define TO_SRGB_KEY "lumen-export-to-srgb"

gboolean
lm_export_to_srgb_of (gpointer owner)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (owner), TO_SRGB_KEY));
}

void
lm_export_to_srgb_set (gpointer owner, gboolean to_srgb)
{
  g_object_set_data (G_OBJECT (owner), TO_SRGB_KEY, GINT_TO_POINTER (to_srgb ? 1 : 0));
}

void
lm_export_options_set_png_level (LmExportOptions *self, int level)
{
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->png_level), level);
}

int
lm_export_options_get_png_level (LmExportOptions *self)
{
  gtk_spin_button_update (GTK_SPIN_BUTTON (self->png_level));
  return gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->png_level));
}

#define PNG_LEVEL_KEY "lumen-export-png-level"

/* Kept as level + 1, so that nothing set reads as "none chosen". */
int
lm_export_png_level_of (gpointer owner)
{
  int stored = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (owner), PNG_LEVEL_KEY));
  return stored > 0 ? stored - 1 : LM_PNG_LEVEL_DEFAULT;
}

void
lm_export_png_level_set (gpointer owner, int level)
{
  g_object_set_data (G_OBJECT (owner), PNG_LEVEL_KEY, GINT_TO_POINTER (level + 1));
}

void
lm_export_options_show_nvjpeg (LmExportOptions *self, gboolean active, const char *unavailable)
{
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->nvjpeg), active && unavailable == NULL);
  gtk_widget_set_sensitive (self->nvjpeg, unavailable == NULL);
  if (unavailable)
    gtk_widget_set_tooltip_text (self->nvjpeg, unavailable);
  else
    gtk_widget_set_tooltip_text (self->nvjpeg,
                                 _("Faster for large photos: the GPU encodes the image where it rendered it. Its "
                                   "pixels differ from the CPU encoder's by a few levels; the metadata is the "
                                   "same"));
  gtk_widget_show (self->nvjpeg);
}

gboolean
lm_export_options_get_nvjpeg (LmExportOptions *self)
{
  return gtk_widget_get_visible (self->nvjpeg) && gtk_widget_get_sensitive (self->nvjpeg)
         && gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->nvjpeg));
}

#define NVJPEG_KEY "lumen-export-nvjpeg"

gboolean
lm_export_nvjpeg_of (gpointer owner)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (owner), NVJPEG_KEY));
}

void
lm_export_nvjpeg_set (gpointer owner, gboolean on)
{
  g_object_set_data (G_OBJECT (owner), NVJPEG_KEY, GINT_TO_POINTER (on ? 1 : 0));
}

void
lm_export_options_show_depth16 (LmExportOptions *self, gboolean active)
{
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->depth16), active);
  gtk_widget_show (self->depth16);
}

gboolean
lm_export_options_get_depth16 (LmExportOptions *self)
{
  return gtk_widget_get_visible (self->depth16) && gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->depth16));
}

#define DEPTH16_KEY "lumen-export-depth16"

gboolean
lm_export_depth16_of (gpointer owner)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (owner), DEPTH16_KEY));
}

void
lm_export_depth16_set (gpointer owner, gboolean on)
{
  g_object_set_data (G_OBJECT (owner), DEPTH16_KEY, GINT_TO_POINTER (on ? 1 : 0));
}

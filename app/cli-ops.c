/* Operation flags for lumen-cli, generated from the parameter tables in core/ops, so that a
 * new operation or parameter appears on the command line without touching this file. */
#include <string.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "core/error.h"
#include "core/io/text-input.h"
#include "core/library/presets.h"

typedef struct {
  const LmOpInfo *op;
  const LmParamSpec *spec;
  char *value;
} Assignment;

struct _LmCliOps {
  GArray *assignments; /* in command-line order */
  char *params_file;
  char *preset;      /* --preset: a name or a file */
  char *preset_mode; /* --preset-mode: append (NULL) or replace */
  GPtrArray *names;    /* storage for generated option names and descriptions */
};

static void
clear_assignment (gpointer p)
{
  g_free (((Assignment *) p)->value);
}

LmCliOps *
lm_cli_ops_new (void)
{
  LmCliOps *ops = g_new0 (LmCliOps, 1);
  ops->assignments = g_array_new (FALSE, TRUE, sizeof (Assignment));
  g_array_set_clear_func (ops->assignments, clear_assignment);
  ops->names = g_ptr_array_new_with_free_func (g_free);
  return ops;
}

void
lm_cli_ops_free (LmCliOps *ops)
{
  if (ops == NULL)
    return;
  g_array_unref (ops->assignments);
  g_ptr_array_unref (ops->names);
  g_free (ops->params_file);
  g_free (ops->preset);
  g_free (ops->preset_mode);
  g_free (ops);
}

/* The operations, then the stages that are described like them: tone mapping (of radiance
 * and raws) and the raw development. */
#define N_FLAG_OPS (LM_N_OPS + 2)

static const LmOpInfo *
flag_op (int i)
{
  return i < LM_N_OPS ? lm_op_info (i) : i == LM_N_OPS ? lm_tonemap_op_info () : lm_raw_op_info ();
}

/* The raw stage's flags all name their parameter (--raw-wb, --raw-demosaic): its first
 * parameter is no more the stage than the others are. */
static gboolean
names_every_flag (const LmOpInfo *op)
{
  return op == lm_raw_op_info ();
}

/* Whether FLAG's tail names the parameter NAME: flags spell its "_" as "-" (--tonemap-light-adapt,
 * as lumen-cli hdr's --light-adapt). */
static gboolean
flag_names (const char *tail, const char *name)
{
  for (; *tail && *name; tail++, name++)
    if (*tail != (*name == '_' ? '-' : *name))
      return FALSE;
  return *tail == '\0' && *name == '\0';
}

/* "--gray" is the first parameter of gray; "--gray-amount" the one named amount. */
static gboolean
find_flag (const char *flag, const LmOpInfo **op_out, const LmParamSpec **spec_out)
{
  while (*flag == '-')
    flag++;
  for (int id = 0; id < N_FLAG_OPS; id++)
    {
      const LmOpInfo *op = flag_op (id);
      gsize n = strlen (op->name);
      if (strncmp (flag, op->name, n) != 0)
        continue;
      if (flag[n] == '\0' && !names_every_flag (op))
        {
          *op_out = op, *spec_out = &op->params[0];
          return TRUE;
        }
      if (flag[n] != '-')
        continue;
      for (guint k = names_every_flag (op) ? 0 : 1; k < op->n_params; k++)
        if (flag_names (flag + n + 1, op->params[k].name))
          {
            *op_out = op, *spec_out = &op->params[k];
            return TRUE;
          }
    }
  return FALSE;
}

static const LmParamSpec *
spec_by_name (const LmOpInfo *op, const char *name)
{
  for (guint k = 0; k < op->n_params; k++)
    if (g_str_equal (op->params[k].name, name))
      return &op->params[k];
  g_return_val_if_reached (NULL);
}

/* Checks VALUE for SPEC now, so a bad one is a usage error reported by the parser, and
 * records it. */
static gboolean
assign (LmCliOps *ops, const LmOpInfo *op, const LmParamSpec *spec, const char *value, GError **error)
{
  guint8 scratch[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
  lm_op_params_init (op, scratch);
  GError *e = NULL;
  if (!lm_op_param_parse (op, spec, scratch, value, &e))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s", e->message);
      g_error_free (e);
      return FALSE;
    }
  Assignment a = { .op = op, .spec = spec, .value = g_strdup (value) };
  g_array_append_val (ops->assignments, a);
  return TRUE;
}

static gboolean
on_op_flag (const char *name, const char *value, gpointer data, GError **error)
{
  LmCliOps *ops = data;
  const LmOpInfo *op;
  const LmParamSpec *spec;
  if (!find_flag (name, &op, &spec))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION, _("unknown option %s"), name);
      return FALSE;
    }
  if (spec != &op->params[0] || op->flag_params == NULL)
    return assign (ops, op, spec, value, error);

  /* --wb 5200,+8: the values of the parameters the operation names, in order; fewer are
   * fine (--wb 5200). */
  g_auto (GStrv) names = g_strsplit (op->flag_params, ",", -1);
  char sep[2] = { op->flag_sep, '\0' };
  g_auto (GStrv) values = g_strsplit (value, sep, -1);
  if (g_strv_length (values) > g_strv_length (names))
    {
      g_autofree char *quoted = lm_text_quote (value, -1);
      g_autofree char *form = g_strjoinv (sep, names);
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s: “%s” has more than the %u values of %s"),
                   name, quoted, g_strv_length (names), form);
      return FALSE;
    }
  for (guint i = 0; values[i] != NULL; i++)
    if (!assign (ops, op, spec_by_name (op, names[i]), values[i], error))
      return FALSE;
  return TRUE;
}

static const char *
keep (LmCliOps *ops, char *s)
{
  g_ptr_array_add (ops->names, s);
  return s;
}

GOptionGroup *
lm_cli_ops_group (LmCliOps *ops)
{
  GArray *entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  for (int id = 0; id < N_FLAG_OPS; id++)
    {
      const LmOpInfo *op = flag_op (id);
      for (guint k = 0; k < op->n_params; k++)
        {
          const LmParamSpec *spec = &op->params[k];
          GOptionEntry e = { 0 };
          e.long_name = k == 0 && !names_every_flag (op)
                          ? op->name
                          : keep (ops, g_strdelimit (g_strdup_printf ("%s-%s", op->name, spec->name), "_", '-'));
          e.arg = G_OPTION_ARG_CALLBACK;
          e.arg_data = (gpointer) on_op_flag;
          /* The value as typed, which a message quotes escaped, not a failed conversion. */
          e.flags = G_OPTION_FLAG_FILENAME;
          if (k == 0 && op->flag_params != NULL)
            {
              char sep[2] = { op->flag_sep, '\0' };
              g_auto (GStrv) names = g_strsplit (op->flag_params, ",", -1);
              g_autofree char *form = g_strjoinv (sep, names);
              e.arg_description = keep (ops, g_ascii_strup (form, -1));
              e.description = keep (ops, g_strdup_printf ("%s: %s", _(op->label), _(op->blurb)));
            }
          else if (spec->type == LM_PARAM_CURVE)
            {
              e.arg_description = keep (ops, g_strdup ("X:Y,X:Y,…"));
              e.description = keep (ops, g_strdup_printf (_("%s: %s, points %g..%g"), _(op->label), _(spec->label),
                                                          spec->min, spec->max));
            }
          else if (spec->type == LM_PARAM_TEXT)
            {
              e.arg_description = keep (ops, g_strdup (_("NAME")));
              e.description = keep (ops, g_strdup_printf (_("%s: %s (auto: from the photo)"), _(op->label),
                                                          _(spec->label)));
            }
          else if (spec->type == LM_PARAM_ENUM)
            {
              g_autoptr (GString) nicks = g_string_new (NULL);
              for (int v = 0; spec->values[v].nick; v++)
                g_string_append_printf (nicks, "%s%s", v ? "|" : "", spec->values[v].nick);
              e.arg_description = keep (ops, g_ascii_strup (spec->name, -1));
              e.description = keep (ops, g_strdup_printf ("%s: %s (%s)", _(op->label), _(spec->label),
                                                          nicks->str));
            }
          else
            {
              e.arg_description = keep (ops, g_ascii_strup (spec->name, -1));
              e.description = keep (ops, g_strdup_printf (_("%s: %s, %g..%g (default %g)"), _(op->label),
                                                          _(spec->label), spec->min, spec->max,
                                                          spec->def));
            }
          g_array_append_val (entries, e);
        }
    }
  GOptionEntry params = { "params", 0, 0, G_OPTION_ARG_FILENAME, &ops->params_file,
                          N_("Read operations from a sidecar file (flags given too override it)"),
                          N_("FILE") };
  g_array_append_val (entries, params);
  GOptionEntry preset = { "preset", 0, 0, G_OPTION_ARG_FILENAME, &ops->preset,
                          N_("Apply a preset (a name from `lumen-cli presets list`, or a preset file) to the "
                             "operations of --params (without it, to none); flags given too override it"),
                          N_("NAME|FILE") };
  g_array_append_val (entries, preset);
  GOptionEntry preset_mode = { "preset-mode", 0, 0, G_OPTION_ARG_STRING, &ops->preset_mode,
                               N_("How --preset goes onto --params: append (its operations that are on take the "
                                  "place of the same ones, the others stay; the default) or replace (its look "
                                  "replaces theirs, their crop and size stay)"),
                               N_("MODE") };
  g_array_append_val (entries, preset_mode);

  GOptionGroup *group = g_option_group_new ("operations", _("Operations:"),
                                            _("Show the operation options"), ops, NULL);
  g_option_group_add_entries (group, (GOptionEntry *) entries->data);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  /* GOption keeps pointers to the entries; they live as long as OPS. */
  g_ptr_array_add (ops->names, g_array_free (entries, FALSE));
  return group;
}

/* --preset onto PIPELINE (read from --params) in --preset-mode. */
static gboolean
apply_preset (LmCliOps *ops, LmPipeline *pipeline, GError **error)
{
  LmPasteMode mode = LM_PASTE_APPEND;
  if (ops->preset_mode && g_str_equal (ops->preset_mode, "replace"))
    mode = LM_PASTE_REPLACE;
  else if (ops->preset_mode && !g_str_equal (ops->preset_mode, "append"))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--preset-mode must be append or replace"));
      return FALSE;
    }
  g_autofree char *path = lm_preset_resolve (ops->preset, error);
  g_autofree LmPipeline *preset = g_new (LmPipeline, 1);
  return path && lm_preset_load (path, preset, error) && lm_preset_apply (pipeline, preset, mode, error);
}

gboolean
lm_cli_ops_apply (LmCliOps *ops, LmPipeline *pipeline, GError **error)
{
  if (ops->params_file && !lm_pipeline_load_sidecar (pipeline, ops->params_file, error))
    return FALSE;
  if (ops->preset && !apply_preset (ops, pipeline, error))
    return FALSE;
  for (guint i = 0; i < ops->assignments->len; i++)
    {
      const Assignment *a = &g_array_index (ops->assignments, Assignment, i);
      LmStage *stage = lm_pipeline_stage (pipeline, a->op->id);
      /* Tone mapping is always on (for the sources it applies to); the raw stage's flag makes
       * the pipeline a raw's (its sidecar keeps them). */
      stage->enabled = TRUE;
      if (!lm_op_param_parse (a->op, a->spec, stage->params.bytes, a->value, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
lm_cli_ops_apply_for (LmCliOps *ops, LmPipeline *pipeline, const char *input, GError **error)
{
  gboolean raw = input != NULL && lm_cli_is_raw (input);
  if (raw)
    lm_pipeline_for_raw (pipeline);
  if (!lm_cli_ops_apply (ops, pipeline, error))
    return FALSE;
  /* A preset written without a photo keeps its --raw-* flags. */
  if (input != NULL)
    lm_pipeline_fit_source (pipeline, raw);
  return TRUE;
}

/* The one operation list (core/ops/op-list.h) holds: every registry entry is complete and
 * consistent (names unique, ids in order, every parameter labelled, min ≤ default ≤ max,
 * enum defaults among their values, when-rules naming a parameter and its values), tone
 * mapping's description as well; the kinds are in an order the fused point pass allows and
 * each kind has what it needs (a point operation its prepare, geometry its output size);
 * with CUDA built, every operation but the point ones has its launch; lumen-cli's --help
 * lists a flag for every parameter; every operation has a parameter version, and every
 * parameter its step: the slider steps the window had before they were declared. */
#include <math.h>
#include <string.h>

#include "config.h"
#include "core/edit/pipeline.h"
#include "core/ops/ops.h"
#if LUMEN_HAVE_CUDA
#include "core/backend/cuda-private.h"
#endif
#include "test-util.h"

static const LmParamSpec *
find (const LmOpInfo *info, const char *name)
{
  for (guint i = 0; i < info->n_params; i++)
    if (g_str_equal (info->params[i].name, name))
      return &info->params[i];
  return NULL;
}

static void
check_info (const LmOpInfo *info)
{
  g_assert_nonnull (info->name);
  g_assert_true (info->label && *info->label && info->blurb && *info->blurb);
  g_assert_cmpuint (info->n_params, >, 0);
  g_assert_cmpuint (info->params_size, <=, LM_OP_PARAMS_MAX);
  g_assert_nonnull (info->output_format);
  g_assert_nonnull (info->run_cpu);
  g_assert_true ((info->run_cpu_kept == NULL) == (info->kept_free == NULL));
  g_assert_cmpuint (info->version, >=, 1);
  g_assert_true (info->version > 1 || info->legacy_params == NULL); /* nothing older to read */
  for (guint k = 0; k < info->n_params; k++)
    {
      const LmParamSpec *spec = &info->params[k];
      g_test_message ("%s %s", info->name, spec->name);
      g_assert_true (spec->name && *spec->name && spec->label && *spec->label);
      g_assert_true (find (info, spec->name) == spec); /* unique within the operation */
      g_assert_cmpfloat (spec->min, <=, spec->def);
      g_assert_cmpfloat (spec->def, <=, spec->max);
      g_assert_cmpfloat (spec->step, >, 0.0);
      g_assert_cmpfloat (spec->step, <=, spec->max - spec->min);
      /* The sidecar's own keys in an operation's group. */
      g_assert_cmpstr (spec->name, !=, LM_PARAMS_VERSION_KEY);
      g_assert_cmpstr (spec->name, !=, "enabled");
      gsize size = spec->type == LM_PARAM_ENUM    ? sizeof (int)
                   : spec->type == LM_PARAM_CURVE ? sizeof (LmCurvePoints)
                   : spec->type == LM_PARAM_TEXT  ? sizeof (LmParamText)
                                                  : sizeof (float);
      g_assert_cmpuint (spec->offset + size, <=, info->params_size);
      if (spec->type == LM_PARAM_ENUM)
        {
          int n = 0;
          while (spec->values[n].nick)
            {
              g_assert_true (spec->values[n].label && *spec->values[n].label);
              n++;
            }
          g_assert_cmpfloat (spec->max, ==, n - 1);
        }
      if (spec->when)
        {
          g_auto (GStrv) kv = g_strsplit (spec->when, "=", 2);
          const LmParamSpec *on = find (info, kv[0]);
          g_assert_nonnull (on);
          g_assert_true (on->type == LM_PARAM_ENUM);
          g_auto (GStrv) alternatives = g_strsplit (kv[1], "|", -1);
          for (int a = 0; alternatives[a]; a++)
            {
              gboolean known = FALSE;
              for (int v = 0; on->values[v].nick; v++)
                known |= g_str_equal (on->values[v].nick, alternatives[a]);
              g_assert_true (known);
            }
        }
    }
}

static void
test_registry (void)
{
  for (int id = 0; id < LM_N_OPS; id++)
    {
      const LmOpInfo *info = lm_op_info (id);
      g_assert_cmpint (info->id, ==, id);
      g_assert_true (lm_op_info_by_name (info->name) == info);
      g_assert_cmpstr (info->name, !=, lm_tonemap_op_info ()->name);
      check_info (info);
    }
  check_info (lm_tonemap_op_info ());
}

/* The step the window's slider took from a range before steps were declared (ui/op-panel.c
 * slider_step until then): 0.01 up to 10, 0.1 below 200, else a power of ten that leaves a
 * few thousand steps at most. */
static double
step_of_range (const LmParamSpec *spec)
{
  double range = spec->max - spec->min;
  if (range <= 10)
    return 0.01;
  if (range < 200)
    return 0.1;
  return pow (10.0, MAX (0.0, floor (log10 (range)) - 3.0));
}

static void
check_steps (const LmOpInfo *info)
{
  for (guint k = 0; k < info->n_params; k++)
    {
      const LmParamSpec *spec = &info->params[k];
      /* Lengths have a slider of their own (op-panel.c, length_at). */
      if (spec->type != LM_PARAM_FLOAT || spec->in_pixels)
        continue;
      g_test_message ("%s %s: %g", info->name, spec->name, spec->step);
      g_assert_cmpfloat (spec->step, ==, step_of_range (spec));
    }
}

/* The window's sliders (every operation's panel but the export's resize, and tone mapping's)
 * step as they did. */
static void
test_steps (void)
{
  for (int id = 0; id < LM_N_OPS; id++)
    if (lm_op_kind (id) != LM_KIND_EXPORT)
      check_steps (lm_op_info (id));
  check_steps (lm_tonemap_op_info ());
}

/* The fused pass composes every channel part before any pixel part (point-math.h): that is
 * running them in list order only while no POINT operation follows a POINT_COLOR one. Point
 * operations are consecutive (one pass), and each kind has its hooks. */
static void
test_kinds (void)
{
  gboolean seen_color = FALSE, seen_point = FALSE, point_run_over = FALSE;
  for (int id = 0; id < LM_N_OPS; id++)
    {
      const LmOpInfo *info = lm_op_info (id);
      LmOpKind kind = lm_op_kind (id);
      g_test_message ("%s", info->name);
      if (kind == LM_KIND_POINT)
        g_assert_false (seen_color);
      seen_color |= kind == LM_KIND_POINT_COLOR;
      if (lm_op_is_point (id))
        {
          g_assert_false (point_run_over);
          g_assert_nonnull (info->point_prepare);
          seen_point = TRUE;
        }
      else
        {
          point_run_over |= seen_point;
          g_assert_null (info->point_prepare);
        }
      if (kind != LM_KIND_GEOMETRY && kind != LM_KIND_EXPORT)
        g_assert_null (info->output_size);
    }
}

/* The pipeline's stages follow the registry. */
static void
test_pipeline_stages (void)
{
  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);
  for (int id = 0; id < LM_N_OPS; id++)
    g_assert_true (lm_pipeline_stage (&pipeline, id)->info == lm_op_info (id));
}

/* LM_TONEMAP_PARAMS_INIT (for static tables) is the table's defaults. */
static void
test_tonemap_defaults (void)
{
  const LmOpInfo *info = lm_tonemap_op_info ();
  LmTonemapParams table, init = LM_TONEMAP_PARAMS_INIT;
  lm_op_params_init (info, &table);
  g_assert_true (memcmp (&table, &init, sizeof table) == 0);
  /* lumen-cli's LmCliTone keeps value[0] as "gamma". */
  g_assert_cmpstr (info->params[1].name, ==, "gamma");
  /* The operators' names follow LmTonemapKind, and the kind's range covers them all. */
  const LmParamSpec *kind = &info->params[0];
  static const char *const nicks[] = { "none", "gamma", "reinhard", "drago", "sigmoid" };
  for (guint k = 0; k < G_N_ELEMENTS (nicks); k++)
    g_assert_cmpstr (kind->values[k].nick, ==, nicks[k]);
  g_assert_null (kind->values[G_N_ELEMENTS (nicks)].nick);
  g_assert_cmpfloat (kind->max, ==, LM_TONEMAP_SIGMOID);
}

static void
test_cuda_entries (void)
{
#if LUMEN_HAVE_CUDA
  for (int id = 0; id < LM_N_OPS; id++)
    {
      const LmKOp *k = lm_cuda_op (id);
      if (lm_op_is_point (id))
        {
          g_assert_null (k);
          continue;
        }
      g_assert_nonnull (k);
      g_assert_nonnull (k->launch);
      g_assert_true (k->workspace_max == NULL || k->workspace != NULL);
    }
#else
  g_test_skip ("built without CUDA");
#endif
}

static gboolean
help_has_flag (const char *help, const char *flag)
{
  g_autofree char *spaced = g_strdup_printf ("  %s ", flag), *eq = g_strdup_printf ("  %s=", flag);
  return strstr (help, spaced) != NULL || strstr (help, eq) != NULL;
}

static char *
help_of (const char *command, const char *group)
{
  const char *cli = g_getenv ("LUMEN_CLI");
  g_autofree char *out = NULL;
  GError *e = NULL;
  int status = 0;
  const char *argv_proc[] = { cli, group, NULL };
  const char *argv_cmd[] = { cli, command, group, NULL };
  g_assert_true (g_spawn_sync (NULL, (char **) (command ? argv_cmd : argv_proc), NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, NULL, &status, &e));
  g_assert_no_error (e);
  return g_steal_pointer (&out);
}

static void
test_cli_help (void)
{
  if (g_getenv ("LUMEN_CLI") == NULL)
    {
      g_test_skip ("LUMEN_CLI is not set");
      return;
    }
  g_autofree char *help = help_of (NULL, "--help-all");
  for (int id = 0; id < LM_N_OPS; id++)
    {
      const LmOpInfo *info = lm_op_info (id);
      for (guint k = 0; k < info->n_params; k++)
        {
          /* the CLI spells a name's underscores as hyphens (app/cli-ops.c) */
          g_autofree char *flag = k == 0 ? g_strdup_printf ("--%s", info->name)
                                         : g_strdup_printf ("--%s-%s", info->name, info->params[k].name);
          g_strdelimit (flag + 2, "_", '-');
          g_test_message ("%s", flag);
          g_assert_true (help_has_flag (help, flag));
        }
    }
  const LmOpInfo *tone = lm_tonemap_op_info ();
  for (const char *const *command = (const char *const[]) { "hdr", "batch", NULL }; *command; command++)
    {
      g_autofree char *hdr_help = help_of (*command, "--help");
      g_assert_true (help_has_flag (hdr_help, "--tonemap"));
      for (guint k = 1; k < tone->n_params; k++)
        {
          g_autofree char *flag = g_strdup_printf ("--%s", tone->params[k].name);
          g_strdelimit (flag + 2, "_", '-');
          g_test_message ("%s %s", *command, flag);
          g_assert_true (help_has_flag (hdr_help, flag));
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/registry/entries", test_registry);
  g_test_add_func ("/registry/kinds", test_kinds);
  g_test_add_func ("/registry/steps", test_steps);
  g_test_add_func ("/registry/pipeline-stages", test_pipeline_stages);
  g_test_add_func ("/registry/tonemap-defaults", test_tonemap_defaults);
  g_test_add_func ("/registry/cuda-entries", test_cuda_entries);
  g_test_add_func ("/registry/cli-help", test_cli_help);
  return g_test_run ();
}

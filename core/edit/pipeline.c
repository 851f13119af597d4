#include "pipeline.h"
#include "sidecar-private.h"
#include "sidecar-text.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io/text-input.h"

static const LmEnumValue tonemap_kinds[] = {
  { "none", N_("None (clip to 0..1)") },
  { "gamma", N_("Gamma") },
  { "reinhard", N_("Reinhard") },
  { "drago", N_("Drago") },
  { "sigmoid", N_("Sigmoid (scene-referred)") },
  { NULL, NULL },
};

/* The group that says which form of the sidecar a file has (pipeline.h). */
#define LM_SIDECAR_GROUP "lumen"

/* Its list and struct are core/hdr's (LM_TONEMAP_PARAMS, tonemap.h); the list gives its
 * description table here, where tonemap_kinds is known. */
#define LM_PARAM_STRUCT LmTonemapParams
static const LmParamSpec tonemap_params[] = { LM_TONEMAP_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

G_STATIC_ASSERT (sizeof (LmTonemapParams) <= LM_OP_PARAMS_MAX);

static LmFormat
tonemap_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return LM_FORMAT_RGBA8;
}

static gboolean
tonemap_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  return lm_tonemap_cpu (params, src, dst, error);
}

static const LmOpInfo tonemap_info = {
  .id = LM_N_OPS,
  .name = "tonemap",
  .label = N_("Tone Mapping"),
  .blurb = N_("HDR radiance to 8 bits"),
  .params = tonemap_params,
  .n_params = G_N_ELEMENTS (tonemap_params),
  .params_size = sizeof (LmTonemapParams),
  /* 2: the sigmoid's exposure, contrast and hue preservation */
  .version = 2,
  .output_format = tonemap_output_format,
  .run_cpu = tonemap_run_cpu,
};

const LmOpInfo *
lm_tonemap_op_info (void)
{
  return &tonemap_info;
}

void
lm_pipeline_init (LmPipeline *pipeline)
{
  memset (pipeline, 0, sizeof *pipeline);
  for (int i = 0; i < LM_N_OPS; i++)
    {
      LmStage *stage = &pipeline->inst[i];
      stage->info = lm_op_info (i);
      stage->id = LM_PRIMARY_ID (i);
      stage->mask = -1;
      lm_op_params_init (stage->info, stage->params.bytes);
    }
  pipeline->n = LM_N_OPS;
  pipeline->next_id = LM_INSTANCE_ID_FIRST;
  pipeline->tonemap.info = &tonemap_info;
  pipeline->tonemap.id = LM_PRIMARY_ID (LM_N_OPS);
  pipeline->tonemap.mask = -1;
  pipeline->tonemap.enabled = TRUE;
  lm_op_params_init (&tonemap_info, pipeline->tonemap.params.bytes);
  pipeline->raw.info = lm_raw_op_info ();
  pipeline->raw.id = LM_PRIMARY_ID (LM_N_OPS + 1);
  pipeline->raw.mask = -1;
  lm_op_params_init (pipeline->raw.info, pipeline->raw.params.bytes);
}

void
lm_pipeline_for_raw (LmPipeline *pipeline)
{
  pipeline->raw.enabled = TRUE;
  lm_pipeline_tonemap (pipeline)->kind = LM_TONEMAP_SIGMOID;
}

/* PIPELINE's development and display transform as a raw opens with them. */
static void
raw_defaults (LmPipeline *pipeline)
{
  LmPipeline fresh;
  lm_pipeline_init (&fresh);
  lm_pipeline_for_raw (&fresh);
  pipeline->raw = fresh.raw;
  pipeline->tonemap = fresh.tonemap;
}

void
lm_pipeline_fit_source (LmPipeline *pipeline, gboolean raw)
{
  if (raw && !pipeline->raw.enabled)
    raw_defaults (pipeline);
  else if (!raw)
    pipeline->raw.enabled = FALSE;
}

gboolean
lm_pipeline_equal (const LmPipeline *a, const LmPipeline *b)
{
  if (a->n != b->n)
    return FALSE;
  for (guint i = 0; i < a->n; i++)
    {
      const LmStage *sa = &a->inst[i], *sb = &b->inst[i];
      const LmMask *ma = lm_pipeline_stage_mask (a, sa), *mb = lm_pipeline_stage_mask (b, sb);
      if (sa->id != sb->id || strcmp (sa->name, sb->name) != 0 || !lm_stage_equal (sa, sb)
          || (ma == NULL) != (mb == NULL) || (ma && memcmp (ma, mb, sizeof *ma) != 0))
        return FALSE;
    }
  return lm_stage_equal (&a->tonemap, &b->tonemap) && a->raw.enabled == b->raw.enabled
         && memcmp (a->raw.params.bytes, b->raw.params.bytes, sizeof (LmRawParams)) == 0;
}

void
lm_pipeline_scale (LmPipeline *pipeline, double factor)
{
  for (guint i = 0; i < pipeline->n; i++)
    {
      LmStage *stage = &pipeline->inst[i];
      for (guint k = 0; k < stage->info->n_params; k++)
        if (stage->info->params[k].in_pixels)
          {
            float *v = (float *) (stage->params.bytes + stage->info->params[k].offset);
            *v = (float) (*v / factor);
          }
    }
}

void
lm_pipeline_output_size (const LmPipeline *pipeline, guint width, guint height, guint *out_width,
                         guint *out_height)
{
  for (guint i = 0; i < pipeline->n; i++)
    {
      const LmStage *stage = &pipeline->inst[i];
      if (stage->enabled)
        lm_op_output_size (stage->info, stage->params.bytes, width, height, &width, &height);
    }
  *out_width = width, *out_height = height;
}

void
lm_pipeline_for_view (LmPipeline *pipeline)
{
  for (guint i = 0; i < pipeline->n; i++)
    if (lm_op_kind (pipeline->inst[i].info->id) == LM_KIND_EXPORT)
      pipeline->inst[i].enabled = FALSE;
}

gboolean
lm_stage_equal (const LmStage *a, const LmStage *b)
{
  if (a->info != b->info || a->enabled != b->enabled)
    return FALSE;
  return !a->enabled || memcmp (a->params.bytes, b->params.bytes, a->info->params_size) == 0;
}

GKeyFile *
lm_pipeline_to_keyfile (const LmPipeline *pipeline)
{
  GKeyFile *keyfile = g_key_file_new ();
  /* Primaries alone, in registry order, unnamed and unmasked: version 1, which older Lumens
   * read (as "version 1 goes unsaid" for parameters). */
  gboolean v2 = !lm_pipeline_is_primary_only (pipeline);
  g_key_file_set_integer (keyfile, LM_SIDECAR_GROUP, "version", v2 ? 2 : 1);
  if (v2)
    lm_sidecar_write_order (keyfile, pipeline);
  for (guint i = 0; i < pipeline->n; i++)
    {
      const LmStage *stage = &pipeline->inst[i];
      g_autofree char *group = lm_stage_group_name (stage);
      /* Version 1 goes unsaid: a group without the key is read as version 1, and such a
       * sidecar still opens in a Lumen from before parameter versions. */
      if (stage->info->version > 1)
        g_key_file_set_integer (keyfile, group, LM_PARAMS_VERSION_KEY, (int) stage->info->version);
      if (stage->name[0])
        g_key_file_set_string (keyfile, group, "name", stage->name);
      g_key_file_set_boolean (keyfile, group, "enabled", stage->enabled);
      for (guint k = 0; k < stage->info->n_params; k++)
        {
          const LmParamSpec *spec = &stage->info->params[k];
          g_autofree char *value = lm_op_param_to_string (spec, stage->params.bytes);
          g_key_file_set_string (keyfile, group, spec->name, value);
        }
      if (stage->mask >= 0)
        lm_sidecar_write_mask (keyfile, group, &pipeline->masks[stage->mask]);
    }
  if (tonemap_info.version > 1)
    g_key_file_set_integer (keyfile, tonemap_info.name, LM_PARAMS_VERSION_KEY, (int) tonemap_info.version);
  for (guint k = 0; k < tonemap_info.n_params; k++)
    {
      const LmParamSpec *spec = &tonemap_info.params[k];
      g_autofree char *value = lm_op_param_to_string (spec, pipeline->tonemap.params.bytes);
      g_key_file_set_string (keyfile, tonemap_info.name, spec->name, value);
    }
  /* A raw's development, for raws only: other photos' sidecars stay as they were. */
  const LmOpInfo *raw_info = pipeline->raw.info;
  if (pipeline->raw.enabled && raw_info->version > 1)
    g_key_file_set_integer (keyfile, raw_info->name, LM_PARAMS_VERSION_KEY, (int) raw_info->version);
  for (guint k = 0; pipeline->raw.enabled && k < raw_info->n_params; k++)
    {
      const LmParamSpec *spec = &raw_info->params[k];
      g_autofree char *value = lm_op_param_to_string (spec, pipeline->raw.params.bytes);
      g_key_file_set_string (keyfile, raw_info->name, spec->name, value);
    }
  return keyfile;
}

static const LmParamSpec *
find_param (const LmOpInfo *info, const char *name)
{
  for (guint i = 0; i < info->n_params; i++)
    if (g_str_equal (info->params[i].name, name))
      return &info->params[i];
  return NULL;
}

gboolean
lm_sidecar_unknown_key (const char *group, const char *key, GError **error)
{
  g_autofree char *quoted = lm_text_quote (key, -1);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("[%s]: unknown parameter “%s”"), group, quoted);
  return FALSE;
}

/* KEY's value, unescaped. GKeyFile's own messages would quote a value whole and raw; it
 * returns NULL for a value that is not UTF-8, and a value with a bad escape as well as an
 * error. */
char *
lm_sidecar_get_value (GKeyFile *keyfile, const char *group, const char *key, GError **error)
{
  GError *e = NULL;
  g_autofree char *value = g_key_file_get_string (keyfile, group, key, &e);
  if (e == NULL && value != NULL)
    return g_steal_pointer (&value);
  g_clear_error (&e);
  g_autofree char *raw = g_key_file_get_value (keyfile, group, key, NULL);
  g_autofree char *quoted = lm_text_quote (raw ? raw : "", -1);
  if (raw && !g_utf8_validate (raw, -1, NULL))
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("[%s] %s: the value is not UTF-8 text: “%s”"), group, key,
                 quoted);
  else
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("[%s] %s: “%s” has a backslash that starts no escape (\\s, \\n, \\t, \\r or \\\\)"),
                 group, key, quoted);
  return NULL;
}

/* VALUE (GROUP's "version") as a version, 1 or more; *VERSION is G_MAXUINT64 for digits too
 * many for a number (still a newer one). */
static gboolean
parse_version (const char *group, const char *value, guint64 *version, GError **error)
{
  char *end = NULL;
  gboolean digits = g_ascii_isdigit (value[0]);
  *version = 0;
  if (digits)
    *version = g_ascii_strtoull (value, &end, 10);
  if (!digits || *end != '\0' || *version < 1)
    {
      g_autofree char *quoted = lm_text_quote (value, -1);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("[%s] version: “%s” is not a version (1, 2, …)"),
                   group, quoted);
      return FALSE;
    }
  return TRUE;
}

/* The [lumen] group: "version", and from version 2 on "order". Read before the operations'
 * groups, so that a newer Lumen's file is refused for its version, not for an operation this
 * one does not know. */
static gboolean
check_version (GKeyFile *keyfile, guint *file_version, GError **error)
{
  const char *group = LM_SIDECAR_GROUP;
  *file_version = 1;
  g_auto (GStrv) keys = g_key_file_get_keys (keyfile, group, NULL, NULL);
  for (int k = 0; keys && keys[k] != NULL; k++)
    {
      if (!g_str_equal (keys[k], "version"))
        continue;
      g_autofree char *value = lm_sidecar_get_value (keyfile, group, keys[k], error);
      if (value == NULL)
        return FALSE;
      guint64 version;
      if (!parse_version (group, value, &version, error))
        return FALSE;
      if (version > LM_SIDECAR_VERSION)
        {
          /* The digits as written: a version too large for a number is still a newer one. */
          g_autofree char *quoted = lm_text_quote (value, -1);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
                       _("written by a newer Lumen (version %s); this one reads version %d"), quoted,
                       LM_SIDECAR_VERSION);
          return FALSE;
        }
      *file_version = (guint) version;
    }
  for (int k = 0; keys && keys[k] != NULL; k++)
    if (!g_str_equal (keys[k], "version") && !(*file_version >= 2 && g_str_equal (keys[k], "order")))
      return lm_sidecar_unknown_key (group, keys[k], error);
  return TRUE;
}

/* GROUP of KEYFILE alone, in a key file of its own: what an operation's legacy_params
 * rewrites, leaving the caller's as it was. Values are copied raw (escapes and all). */
static GKeyFile *
copy_group (GKeyFile *keyfile, const char *group)
{
  GKeyFile *copy = g_key_file_new ();
  g_auto (GStrv) keys = g_key_file_get_keys (keyfile, group, NULL, NULL);
  for (int k = 0; keys && keys[k] != NULL; k++)
    {
      g_autofree char *raw = g_key_file_get_value (keyfile, group, keys[k], NULL);
      if (raw != NULL)
        g_key_file_set_value (copy, group, keys[k], raw);
    }
  return copy;
}

/* GROUP's parameter version (LM_PARAMS_VERSION_KEY; 1 where it has none, as sidecars written
 * before there was one), refused when it is newer than INFO's. */
static gboolean
group_version (const LmOpInfo *info, GKeyFile *keyfile, const char *group, guint *version, GError **error)
{
  *version = 1;
  if (!g_key_file_has_key (keyfile, group, LM_PARAMS_VERSION_KEY, NULL))
    return TRUE;
  g_autofree char *value = lm_sidecar_get_value (keyfile, group, LM_PARAMS_VERSION_KEY, error);
  guint64 v;
  if (value == NULL || !parse_version (group, value, &v, error))
    return FALSE;
  if (v > info->version)
    {
      g_autofree char *quoted = lm_text_quote (value, -1);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
                   _("[%s]: parameters written by a newer Lumen (version %s); this one reads version %u"), group,
                   quoted, info->version);
      return FALSE;
    }
  *version = (guint) v;
  return TRUE;
}

gboolean
lm_stage_from_keyfile (LmStage *stage, GKeyFile *keyfile, const char *group, gboolean with_enabled,
                       GError **error)
{
  return lm_sidecar_stage_from_keyfile (stage, keyfile, group, with_enabled, FALSE, error);
}

gboolean
lm_sidecar_stage_from_keyfile (LmStage *stage, GKeyFile *keyfile, const char *group, gboolean with_enabled,
                               gboolean with_name, GError **error)
{
  const LmOpInfo *info = stage->info;
  guint version;
  if (!group_version (info, keyfile, group, &version, error))
    return FALSE;
  /* An older group is brought up to this version's keys first, one version at a time. */
  g_autoptr (GKeyFile) upgraded = NULL;
  if (version < info->version)
    {
      upgraded = copy_group (keyfile, group);
      for (guint v = version; v < info->version; v++)
        if (info->legacy_params && !info->legacy_params (upgraded, group, v, error))
          {
            g_prefix_error (error, "[%s]: ", group);
            return FALSE;
          }
      keyfile = upgraded;
    }
  g_auto (GStrv) keys = g_key_file_get_keys (keyfile, group, NULL, NULL);
  for (int k = 0; keys && keys[k] != NULL; k++)
    {
      if (g_str_equal (keys[k], LM_PARAMS_VERSION_KEY))
        continue;
      gboolean enabled_key = with_enabled && g_str_equal (keys[k], "enabled");
      gboolean name_key = with_name && g_str_equal (keys[k], "name");
      const LmParamSpec *spec = find_param (info, keys[k]);
      if (spec == NULL && !enabled_key && !name_key)
        return lm_sidecar_unknown_key (group, keys[k], error);
      g_autofree char *value = lm_sidecar_get_value (keyfile, group, keys[k], error);
      if (value == NULL)
        return FALSE;
      if (name_key)
        {
          if (!lm_stage_set_name (stage, value, error))
            {
              g_prefix_error (error, "[%s] name: ", group);
              return FALSE;
            }
        }
      else if (enabled_key)
        {
          GError *e = NULL;
          stage->enabled = g_key_file_get_boolean (keyfile, group, keys[k], &e);
          if (e != NULL)
            {
              g_error_free (e);
              g_autofree char *quoted = lm_text_quote (value, -1);
              g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("[%s] enabled: “%s” is not true or false"), group,
                           quoted);
              return FALSE;
            }
        }
      else if (!lm_op_param_parse (info, spec, stage->params.bytes, value, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
lm_pipeline_from_keyfile (LmPipeline *pipeline, GKeyFile *keyfile, GError **error)
{
  guint version;
  if (!check_version (keyfile, &version, error))
    return FALSE;
  g_autofree LmPipeline *result = g_memdup2 (pipeline, sizeof *pipeline);
  if (version >= 2 && !lm_sidecar_read_order (result, keyfile, error))
    return FALSE;
  g_auto (GStrv) groups = g_key_file_get_groups (keyfile, NULL);
  /* A look made on a photo that is no raw (no [raw] group) brings its edits to a raw, not its
   * tone mapping: a raw keeps its own display transform. */
  gboolean foreign_tone = pipeline->raw.enabled && !g_key_file_has_group (keyfile, lm_raw_op_info ()->name);
  for (int g = 0; groups[g] != NULL; g++)
    {
      if (g_str_equal (groups[g], LM_SIDECAR_GROUP) || (foreign_tone && g_str_equal (groups[g], tonemap_info.name)))
        continue;
      if (g_str_equal (groups[g], tonemap_info.name))
        {
          /* Parameters only, no "enabled": it applies whenever the source is radiance. */
          if (!lm_stage_from_keyfile (&result->tonemap, keyfile, groups[g], FALSE, error))
            return FALSE;
          continue;
        }
      if (g_str_equal (groups[g], lm_raw_op_info ()->name))
        {
          /* Parameters only: it applies whenever the source is a raw. */
          if (!lm_stage_from_keyfile (&result->raw, keyfile, groups[g], FALSE, error))
            return FALSE;
          result->raw.enabled = TRUE;
          continue;
        }
      if (version >= 2 && g_str_has_suffix (groups[g], " mask"))
        {
          if (!lm_sidecar_read_mask (result, keyfile, groups[g], error))
            return FALSE;
          continue;
        }
      LmStage *stage = lm_sidecar_stage_of_group (result, groups[g], version, error);
      if (stage == NULL
          || !lm_sidecar_stage_from_keyfile (stage, keyfile, groups[g], TRUE, version >= 2, error))
        return FALSE;
    }
  if (!lm_pipeline_check (result, error))
    return FALSE;
  *pipeline = *result;
  return TRUE;
}

gboolean
lm_pipeline_from_text (LmPipeline *pipeline, const char *text, gsize len, GError **error)
{
  g_autoptr (GKeyFile) keyfile = g_key_file_new ();
  GError *e = NULL;
  /* Translations kept: GKeyFile would drop a localized key (ev[de]) unseen in any other
   * locale and keep it in that one; kept, it is refused as every unknown key is. */
  if (!lm_sidecar_text_check (text, len, error))
    return FALSE;
  if (!g_key_file_load_from_data (keyfile, text, len, G_KEY_FILE_KEEP_TRANSLATIONS, &e))
    {
      /* What GLib refuses beyond those lines (a group or key name it does not take) it words
       * itself, quoting a line: bounded here. */
      g_autofree char *quoted = lm_text_quote (e->message, -1);
      g_clear_error (&e);
      g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_FORMAT, quoted);
      return FALSE;
    }
  return lm_pipeline_from_keyfile (pipeline, keyfile, error);
}

gboolean
lm_pipeline_load_sidecar (LmPipeline *pipeline, const char *path, GError **error)
{
  gsize len = 0;
  g_autofree char *text = lm_text_file_read (path, LM_TEXT_FILE_ANY, &len, error);
  if (text == NULL)
    return FALSE;
  GError *e = NULL;
  if (lm_pipeline_from_text (pipeline, text, len, &e))
    return TRUE;
  g_autofree char *display = g_filename_display_name (path);
  g_set_error (error, e->domain, e->code, "%s: %s", display, e->message);
  g_error_free (e);
  return FALSE;
}

void
lm_pipeline_geometry_only (LmPipeline *pipeline)
{
  for (guint i = 0; i < pipeline->n; i++)
    if (lm_op_kind (pipeline->inst[i].info->id) != LM_KIND_GEOMETRY)
      pipeline->inst[i].enabled = FALSE;
  /* A raw as opened: its default development and display transform. */
  if (pipeline->raw.enabled)
    raw_defaults (pipeline);
}

gboolean
lm_pipeline_source_point (const LmPipeline *pipeline, guint src_w, guint src_h, double x, double y,
                          double *sx, double *sy)
{
  /* Each enabled stage's input size, forwards; then the point back through them. */
  guint in_w[LM_PIPELINE_MAX], in_h[LM_PIPELINE_MAX], out_w[LM_PIPELINE_MAX], out_h[LM_PIPELINE_MAX];
  guint w = src_w, h = src_h;
  for (guint i = 0; i < pipeline->n; i++)
    {
      const LmStage *stage = &pipeline->inst[i];
      in_w[i] = w, in_h[i] = h;
      if (stage->enabled)
        lm_op_output_size (stage->info, stage->params.bytes, w, h, &w, &h);
      out_w[i] = w, out_h[i] = h;
    }
  for (int i = (int) pipeline->n - 1; i >= 0; i--)
    {
      const LmStage *stage = &pipeline->inst[i];
      if (!stage->enabled)
        continue;
      if (stage->info->map_back)
        stage->info->map_back (stage->params.bytes, in_w[i], in_h[i], x, y, &x, &y);
      else if (in_w[i] != out_w[i] || in_h[i] != out_h[i])
        {
          x = (x + 0.5) * in_w[i] / out_w[i] - 0.5;
          y = (y + 0.5) * in_h[i] / out_h[i] - 0.5;
        }
    }
  *sx = x, *sy = y;
  return x >= -0.5 && y >= -0.5 && x < src_w - 0.5 && y < src_h - 0.5;
}

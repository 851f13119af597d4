/* Version 2 of the sidecar's form: the instances' order ([lumen] order=) and their groups
 * ([<op>#<id>]). A primary's group is version 1's. */
#include "sidecar-private.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../text.h"

void
lm_sidecar_write_order (GKeyFile *keyfile, const LmPipeline *pipeline)
{
  g_autoptr (GString) order = g_string_new (NULL);
  for (guint i = 0; i < pipeline->n; i++)
    {
      g_autofree char *group = lm_stage_group_name (&pipeline->inst[i]);
      g_string_append_printf (order, "%s%s", i ? "," : "", group);
    }
  g_key_file_set_string (keyfile, "lumen", "order", order->str);
}

static gboolean
bad_group (GError **error, const char *format, const char *group)
{
  g_autofree char *quoted = lm_text_quote (group, -1);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, format, quoted);
  return FALSE;
}

/* NAME ("<op>" or "<op>#<id>") split: its operation in *INFO, its id in *ID (that of the
 * primary where it has none). */
static gboolean
parse_instance (const char *name, const LmOpInfo **info, guint32 *id, GError **error)
{
  const char *hash = strchr (name, '#');
  g_autofree char *op = g_strndup (name, hash ? (gsize) (hash - name) : strlen (name));
  *info = lm_op_info_by_name (op);
  if (*info == NULL)
    return bad_group (error, _("unknown operation [%s]"), name);
  *id = LM_PRIMARY_ID ((*info)->id);
  if (hash == NULL)
    return TRUE;
  LmOpKind kind = lm_op_kind ((*info)->id);
  if (kind == LM_KIND_GEOMETRY || kind == LM_KIND_EXPORT)
    return bad_group (error, _("[%s]: this operation runs once; it has no other instances"), name);
  const char *digits = hash + 1;
  char *end = NULL;
  guint64 v = g_ascii_isdigit (digits[0]) && digits[0] != '0' ? g_ascii_strtoull (digits, &end, 10) : 0;
  if (end == NULL || *end != '\0' || v < LM_INSTANCE_ID_FIRST || v >= LM_INSTANCE_ID_END)
    {
      g_autofree char *quoted = lm_text_quote (name, -1);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("[%s]: an instance's id is a number from %u to %u"),
                   quoted, LM_INSTANCE_ID_FIRST, LM_INSTANCE_ID_END - 1);
      return FALSE;
    }
  *id = (guint32) v;
  return TRUE;
}

gboolean
lm_sidecar_read_order (LmPipeline *pipeline, GKeyFile *keyfile, GError **error)
{
  if (!g_key_file_has_key (keyfile, "lumen", "order", NULL))
    return TRUE;
  g_autofree char *value = lm_sidecar_get_value (keyfile, "lumen", "order", error);
  if (value == NULL)
    return FALSE;
  g_auto (GStrv) names = g_strsplit (value, ",", -1);
  if (g_strv_length (names) > LM_PIPELINE_MAX)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("[lumen] order: more than %d operations"),
                   LM_PIPELINE_MAX);
      return FALSE;
    }
  g_autofree LmPipeline *result = g_memdup2 (pipeline, sizeof *pipeline);
  result->n = 0;
  memset (result->masks, 0, sizeof result->masks);
  for (int k = 0; names[k] != NULL; k++)
    {
      const LmOpInfo *info;
      guint32 id;
      if (!parse_instance (names[k], &info, &id, error))
        {
          g_prefix_error (error, "[lumen] order: ");
          return FALSE;
        }
      for (guint i = 0; i < result->n; i++)
        if (result->inst[i].id == id)
          return bad_group (error, _("[lumen] order: %s is listed twice"), names[k]);
      LmStage *stage = &result->inst[result->n++];
      /* What PIPELINE had under that id, its mask aside (the file says it); else defaults. */
      int was = lm_pipeline_find (pipeline, id);
      if (was >= 0 && pipeline->inst[was].info == info)
        *stage = pipeline->inst[was];
      else
        {
          memset (stage, 0, sizeof *stage);
          stage->info = info;
          stage->id = id;
          lm_op_params_init (info, stage->params.bytes);
        }
      stage->mask = -1;
      result->next_id = MAX (result->next_id, id + 1);
    }
  /* Operations newer than the file: their primaries at their registry place. */
  for (int op = 0; op < LM_N_OPS; op++)
    {
      if (lm_pipeline_find (result, LM_PRIMARY_ID (op)) >= 0)
        continue;
      if (result->n >= LM_PIPELINE_MAX)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("[lumen] order: more than %d operations"),
                       LM_PIPELINE_MAX);
          return FALSE;
        }
      guint at = 0;
      for (guint i = 0; i < result->n; i++)
        if (result->inst[i].info->id < (LmOpId) op)
          at = i + 1;
      memmove (&result->inst[at + 1], &result->inst[at], (result->n - at) * sizeof (LmStage));
      result->inst[at] = *lm_pipeline_primary (pipeline, op);
      result->inst[at].mask = -1;
      result->n++;
    }
  if (!lm_pipeline_check (result, error))
    {
      g_prefix_error (error, "[lumen] order: ");
      return FALSE;
    }
  *pipeline = *result;
  return TRUE;
}

LmStage *
lm_sidecar_stage_of_group (LmPipeline *pipeline, const char *group, guint version, GError **error)
{
  const LmOpInfo *info;
  guint32 id;
  if (version < 2 && strchr (group, '#'))
    {
      bad_group (error, _("unknown operation [%s]"), group);
      return NULL;
    }
  if (!parse_instance (group, &info, &id, error))
    return NULL;
  int at = lm_pipeline_find (pipeline, id);
  if (at < 0 || pipeline->inst[at].info != info)
    {
      bad_group (error, _("[%s] is not in [lumen] order"), group);
      return NULL;
    }
  return &pipeline->inst[at];
}

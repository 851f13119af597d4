/* Instances of operations in a pipeline (pipeline.h): adding, duplicating, removing, moving,
 * renaming, masks, and the rules every pipeline keeps. */
#include "pipeline.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../text.h"

int
lm_pipeline_find (const LmPipeline *pipeline, guint32 id)
{
  for (guint i = 0; i < pipeline->n; i++)
    if (pipeline->inst[i].id == id)
      return (int) i;
  return -1;
}

static gboolean
movable (const LmOpInfo *info)
{
  LmOpKind kind = lm_op_kind (info->id);
  return kind != LM_KIND_GEOMETRY && kind != LM_KIND_EXPORT;
}

static gboolean
check_room (const LmPipeline *pipeline, const LmOpInfo *info, GError **error)
{
  if (!movable (info))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s runs once: it has no other instances"),
                   _(info->label));
      return FALSE;
    }
  if (pipeline->n >= LM_PIPELINE_MAX || pipeline->next_id >= LM_INSTANCE_ID_END)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("the edit has %d operations already, as many as it holds"),
                   LM_PIPELINE_MAX);
      return FALSE;
    }
  return TRUE;
}

/* "<Label> N", N the smallest from 2 up that no instance of INFO's operation is named. */
static void
fresh_name (const LmPipeline *pipeline, const LmOpInfo *info, char *name, gsize size)
{
  char candidate[sizeof ((LmStage *) NULL)->name];
  for (guint k = 2;; k++)
    {
      g_snprintf (candidate, sizeof candidate, "%s %u", _(info->label), k);
      gboolean taken = FALSE;
      for (guint i = 0; i < pipeline->n && !taken; i++)
        taken = pipeline->inst[i].info == info && pipeline->inst[i].name != name
                && strcmp (pipeline->inst[i].name, candidate) == 0;
      if (!taken)
        break;
    }
  g_strlcpy (name, candidate, size);
}

/* STAGE inserted at AT with a new id and name. */
static void
insert (LmPipeline *pipeline, guint at, const LmStage *stage)
{
  memmove (&pipeline->inst[at + 1], &pipeline->inst[at], (pipeline->n - at) * sizeof (LmStage));
  LmStage *s = &pipeline->inst[at];
  *s = *stage;
  s->id = pipeline->next_id++;
  pipeline->n++;
  fresh_name (pipeline, s->info, s->name, sizeof s->name);
}

static int
free_mask_slot (const LmPipeline *pipeline)
{
  for (int m = 0; m < LM_PIPELINE_MASKS; m++)
    {
      gboolean used = FALSE;
      for (guint i = 0; i < pipeline->n && !used; i++)
        used = pipeline->inst[i].mask == m;
      if (!used)
        return m;
    }
  return -1;
}

static gboolean
no_mask_slot (GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("the edit has %d masks already, as many as it holds"),
               LM_PIPELINE_MASKS);
  return FALSE;
}

gboolean
lm_pipeline_add (LmPipeline *pipeline, LmOpId op, int *index, GError **error)
{
  const LmOpInfo *info = lm_op_info (op);
  g_return_val_if_fail (info != NULL, FALSE);
  if (!check_room (pipeline, info, error))
    return FALSE;
  guint at = 0;
  for (guint i = 0; i < pipeline->n; i++)
    if (pipeline->inst[i].info == info)
      at = i + 1;
  LmStage stage;
  memset (&stage, 0, sizeof stage);
  stage.info = info;
  stage.mask = -1;
  lm_op_params_init (info, stage.params.bytes);
  insert (pipeline, at, &stage);
  if (index)
    *index = (int) at;
  return TRUE;
}

gboolean
lm_pipeline_duplicate (LmPipeline *pipeline, guint index, int *new_index, GError **error)
{
  g_return_val_if_fail (index < pipeline->n, FALSE);
  LmStage stage = pipeline->inst[index];
  if (!check_room (pipeline, stage.info, error))
    return FALSE;
  if (stage.mask >= 0)
    {
      int slot = free_mask_slot (pipeline);
      if (slot < 0)
        return no_mask_slot (error);
      /* Whole, padding included: masks are compared by their bytes. */
      memcpy (&pipeline->masks[slot], &pipeline->masks[stage.mask], sizeof (LmMask));
      stage.mask = (gint8) slot;
    }
  insert (pipeline, index + 1, &stage);
  if (new_index)
    *new_index = (int) index + 1;
  return TRUE;
}

void
lm_pipeline_remove (LmPipeline *pipeline, guint index)
{
  g_return_if_fail (index < pipeline->n);
  LmStage *stage = &pipeline->inst[index];
  lm_pipeline_mask_detach (pipeline, index);
  if (lm_stage_is_primary (stage))
    {
      stage->enabled = FALSE;
      return;
    }
  pipeline->n--;
  memmove (stage, stage + 1, (pipeline->n - index) * sizeof (LmStage));
  memset (&pipeline->inst[pipeline->n], 0, sizeof (LmStage));
}

gboolean
lm_pipeline_move (LmPipeline *pipeline, guint index, int delta, GError **error)
{
  g_return_val_if_fail (index < pipeline->n && (delta == -1 || delta == 1), FALSE);
  int to = (int) index + delta;
  if (!movable (pipeline->inst[index].info) || to < 0 || to >= (int) pipeline->n
      || !movable (pipeline->inst[to].info))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("%s cannot move there: geometry comes first and the export's resize last"),
                   _(pipeline->inst[index].info->label));
      return FALSE;
    }
  LmStage s = pipeline->inst[index];
  pipeline->inst[index] = pipeline->inst[to];
  pipeline->inst[to] = s;
  return TRUE;
}

gboolean
lm_stage_set_name (LmStage *stage, const char *name, GError **error)
{
  gboolean control = FALSE;
  for (const char *c = name; *c && !control; c++)
    control = (guchar) *c < 0x20 || *c == 0x7f;
  if (!g_utf8_validate (name, -1, NULL) || control || strlen (name) >= sizeof stage->name)
    {
      g_autofree char *quoted = lm_text_quote (name, -1);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("“%s” is not a name: at most %d bytes of text on one line"), quoted,
                   (int) sizeof stage->name - 1);
      return FALSE;
    }
  g_strlcpy (stage->name, name, sizeof stage->name);
  return TRUE;
}

gboolean
lm_pipeline_rename (LmPipeline *pipeline, guint index, const char *name, GError **error)
{
  g_return_val_if_fail (index < pipeline->n && name != NULL, FALSE);
  LmStage *stage = &pipeline->inst[index];
  if (!lm_stage_set_name (stage, name, error))
    return FALSE;
  if (name[0] == '\0' && !lm_stage_is_primary (stage))
    fresh_name (pipeline, stage->info, stage->name, sizeof stage->name);
  return TRUE;
}

gboolean
lm_pipeline_mask_attach (LmPipeline *pipeline, guint index, const LmMask *mask, GError **error)
{
  g_return_val_if_fail (index < pipeline->n && mask != NULL, FALSE);
  LmStage *stage = &pipeline->inst[index];
  int slot = stage->mask >= 0 ? stage->mask : free_mask_slot (pipeline);
  if (slot < 0)
    return no_mask_slot (error);
  /* Copied whole, padding included: masks are compared by their bytes. */
  memcpy (&pipeline->masks[slot], mask, sizeof *mask);
  stage->mask = (gint8) slot;
  return TRUE;
}

void
lm_pipeline_mask_detach (LmPipeline *pipeline, guint index)
{
  g_return_if_fail (index < pipeline->n);
  LmStage *stage = &pipeline->inst[index];
  if (stage->mask >= 0)
    memset (&pipeline->masks[stage->mask], 0, sizeof (LmMask));
  stage->mask = -1;
}

static gboolean
invalid (GError **error, const char *message)
{
  g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_INVALID, message);
  return FALSE;
}

gboolean
lm_pipeline_check (const LmPipeline *pipeline, GError **error)
{
  if (pipeline->n > LM_PIPELINE_MAX)
    return invalid (error, _("the edit has more operations than it holds"));
  guint primaries[LM_N_OPS] = { 0 };
  gboolean referenced[LM_PIPELINE_MASKS] = { FALSE };
  guint geometry = 0, n_geometry = 0;
  for (int op = 0; op < LM_N_OPS; op++)
    n_geometry += lm_op_kind (op) == LM_KIND_GEOMETRY;
  for (guint i = 0; i < pipeline->n; i++)
    {
      const LmStage *stage = &pipeline->inst[i];
      LmOpKind kind = lm_op_kind (stage->info->id);
      if (kind == LM_KIND_GEOMETRY)
        {
          /* The geometry, once each, first and in registry order: the sidecar's order and the
           * view's point mapping (lm_pipeline_source_point) take them so. */
          if (i != geometry || (i > 0 && pipeline->inst[i - 1].info->id >= stage->info->id))
            return invalid (error, _("geometry (rotation, straightening, crop) comes first, once each"));
          geometry++;
        }
      if (kind == LM_KIND_EXPORT && i != pipeline->n - 1)
        return invalid (error, _("the export's resize comes last"));
      if (lm_stage_is_primary (stage))
        primaries[stage->info->id]++;
      else if (stage->id < LM_INSTANCE_ID_FIRST || stage->id >= pipeline->next_id || stage->id >= LM_INSTANCE_ID_END
               || kind == LM_KIND_GEOMETRY
               || kind == LM_KIND_EXPORT)
        return invalid (error, _("an instance has an id that is not an instance's"));
      for (guint j = 0; j < i; j++)
        if (pipeline->inst[j].id == stage->id)
          return invalid (error, _("two instances have the same id"));
      if (stage->mask >= LM_PIPELINE_MASKS || stage->mask < -1)
        return invalid (error, _("an instance refers to a mask that is not there"));
      if (stage->mask >= 0)
        {
          if (referenced[stage->mask])
            return invalid (error, _("two instances have the same mask"));
          referenced[stage->mask] = TRUE;
        }
    }
  if (geometry != n_geometry)
    return invalid (error, _("geometry (rotation, straightening, crop) comes first, once each"));
  for (int op = 0; op < LM_N_OPS; op++)
    if (primaries[op] != 1)
      return invalid (error, _("every operation has exactly one first instance"));
  return TRUE;
}

gboolean
lm_pipeline_is_primary_only (const LmPipeline *pipeline)
{
  if (pipeline->n != LM_N_OPS)
    return FALSE;
  for (guint i = 0; i < pipeline->n; i++)
    {
      const LmStage *stage = &pipeline->inst[i];
      if (stage->id != LM_PRIMARY_ID (i) || stage->name[0] != '\0' || stage->mask >= 0)
        return FALSE;
    }
  return TRUE;
}

char *
lm_stage_group_name (const LmStage *stage)
{
  if (lm_stage_is_primary (stage))
    return g_strdup (stage->info->name);
  return g_strdup_printf ("%s#%u", stage->info->name, stage->id);
}

char *
lm_stage_display_name (const LmStage *stage)
{
  return stage->name[0] ? g_strdup (stage->name) : lm_stage_group_name (stage);
}

/* Which operations of an edit go over to another, and the paste that carries them
 * (op-select.h). */
#include "op-select.h"

#include <string.h>

#include "../edit/sidecar.h"

void
lm_op_selection_clear (LmOpSelection *selection)
{
  memset (selection, 0, sizeof *selection);
}

void
lm_op_selection_all (LmOpSelection *selection, const LmPipeline *source)
{
  lm_op_selection_clear (selection);
  for (guint i = 0; i < source->n; i++)
    selection->ids[selection->n++] = source->inst[i].id;
  selection->tonemap = TRUE;
  selection->raw = TRUE;
}

gboolean
lm_op_selection_photo_bound (const LmPipeline *pipeline, const LmStage *stage)
{
  LmOpKind kind = lm_op_kind (stage->info->id);
  if (kind == LM_KIND_GEOMETRY || kind == LM_KIND_EXPORT)
    return TRUE;
  const LmMask *mask = lm_pipeline_stage_mask (pipeline, stage);
  for (guint s = 0; mask != NULL && s < mask->n_shapes; s++)
    if (mask->shape[s].kind == LM_MASK_BRUSH)
      return TRUE;
  return FALSE;
}

void
lm_op_selection_default (LmOpSelection *selection, const LmPipeline *source)
{
  lm_op_selection_all (selection, source);
  for (guint i = 0; i < source->n; i++)
    if (lm_op_selection_photo_bound (source, &source->inst[i]))
      lm_op_selection_set (selection, source->inst[i].id, FALSE);
}

gboolean
lm_op_selection_has (const LmOpSelection *selection, guint32 id)
{
  for (guint i = 0; i < selection->n; i++)
    if (selection->ids[i] == id)
      return TRUE;
  return FALSE;
}

void
lm_op_selection_set (LmOpSelection *selection, guint32 id, gboolean on)
{
  for (guint i = 0; i < selection->n; i++)
    if (selection->ids[i] == id)
      {
        if (!on)
          selection->ids[i] = selection->ids[--selection->n];
        return;
      }
  if (on && selection->n < G_N_ELEMENTS (selection->ids))
    selection->ids[selection->n++] = id;
}

void
lm_op_selection_set_op (LmOpSelection *selection, const LmPipeline *source, LmOpId op, gboolean on)
{
  for (guint i = 0; i < source->n; i++)
    if (source->inst[i].info->id == op)
      lm_op_selection_set (selection, source->inst[i].id, on);
}

/* What a pipeline opens with, a raw's where RAW. */
static void
fresh_pipeline (LmPipeline *fresh, gboolean raw)
{
  lm_pipeline_init (fresh);
  if (raw)
    lm_pipeline_for_raw (fresh);
}

/* The primary at INDEX of PIPELINE off, unnamed, unmasked, with default parameters. */
static void
reset_primary (LmPipeline *pipeline, guint index)
{
  lm_pipeline_mask_detach (pipeline, index);
  LmStage *stage = &pipeline->inst[index];
  stage->enabled = FALSE;
  stage->name[0] = '\0';
  lm_op_params_init (stage->info, stage->params.bytes);
}

void
lm_op_selection_filter (const LmOpSelection *selection, const LmPipeline *source, LmPipeline *out)
{
  *out = *source;
  for (guint i = out->n; i-- > 0;)
    {
      if (lm_op_selection_has (selection, out->inst[i].id))
        continue;
      if (lm_stage_is_primary (&out->inst[i]))
        reset_primary (out, i);
      else
        lm_pipeline_remove (out, i);
    }
  LmPipeline fresh;
  fresh_pipeline (&fresh, source->raw.enabled);
  if (!selection->tonemap)
    out->tonemap = fresh.tonemap;
  if (!selection->raw)
    out->raw = fresh.raw;
}

/* STAGE (with MASK) in place of instance AT of PIPELINE, which keeps its id. */
static gboolean
put_instance (LmPipeline *pipeline, guint at, const LmStage *stage, const LmMask *mask, GError **error)
{
  guint32 id = pipeline->inst[at].id;
  lm_pipeline_mask_detach (pipeline, at);
  pipeline->inst[at] = *stage;
  pipeline->inst[at].id = id;
  pipeline->inst[at].mask = -1;
  return mask == NULL || lm_pipeline_mask_attach (pipeline, at, mask, error);
}

/* Whether SELECTION chooses any instance of OP in SRC. */
static gboolean
op_chosen (const LmPipeline *src, const LmOpSelection *selection, LmOpId op)
{
  for (guint i = 0; i < src->n; i++)
    if (src->inst[i].info->id == op && lm_op_selection_has (selection, src->inst[i].id))
      return TRUE;
  return FALSE;
}

/* Instance FROM of PIPELINE moved to index TO (the others keep their order). */
static void
move_to (LmPipeline *pipeline, guint from, guint to)
{
  LmStage stage = pipeline->inst[from];
  if (from < to)
    memmove (&pipeline->inst[from], &pipeline->inst[from + 1], (to - from) * sizeof stage);
  else
    memmove (&pipeline->inst[to + 1], &pipeline->inst[to], (from - to) * sizeof stage);
  pipeline->inst[to] = stage;
}

/* SRC's instance STAGE (not a primary) as a new instance of DST right after DST's instance
 * AFTER: where it was in SRC's order, relative to the instances both have. Its index in *AT. */
static gboolean
insert_after (LmPipeline *dst, const LmStage *stage, guint after, int *at, GError **error)
{
  if (!lm_pipeline_add (dst, stage->info->id, at, error))
    return FALSE;
  /* SRC's id where DST has none such: a second paste of the same copy then finds it. */
  if (lm_pipeline_find (dst, stage->id) < 0)
    {
      dst->inst[*at].id = stage->id;
      dst->next_id = MAX (dst->next_id, stage->id + 1);
    }
  guint anchor = (guint) *at <= after ? after + 1 : after; /* the add may have moved it */
  guint to = (guint) *at > anchor ? anchor + 1 : anchor;
  move_to (dst, (guint) *at, to);
  *at = (int) to;
  return TRUE;
}

/* Each operation with an instance chosen: the target's instances of it go, then SRC's chosen
 * ones come, in SRC's order among the instances the two have in common. */
static gboolean
paste_replace (LmPipeline *dst, const LmPipeline *src, const LmOpSelection *selection, GError **error)
{
  gboolean chosen[LM_N_OPS];
  for (int op = 0; op < LM_N_OPS; op++)
    {
      chosen[op] = op_chosen (src, selection, op);
      if (!chosen[op])
        continue;
      for (guint i = dst->n; i-- > 0;)
        if (dst->inst[i].info->id == (LmOpId) op && !lm_stage_is_primary (&dst->inst[i]))
          lm_pipeline_remove (dst, i);
      reset_primary (dst, (guint) lm_pipeline_find (dst, LM_PRIMARY_ID (op)));
    }
  guint anchor = 0; /* DST's index of the last instance of SRC met that DST has */
  for (guint i = 0; i < src->n; i++)
    {
      const LmStage *stage = &src->inst[i];
      const LmMask *mask = lm_pipeline_stage_mask (src, stage);
      int at = lm_pipeline_find (dst, stage->id);
      if (!chosen[stage->info->id] || !lm_op_selection_has (selection, stage->id))
        {
          /* Not pasted: a mark of the order where DST has it as SRC does. */
          if (at >= 0 && dst->inst[at].info == stage->info)
            anchor = (guint) at;
          continue;
        }
      if (!lm_stage_is_primary (stage) && !insert_after (dst, stage, anchor, &at, error))
        return FALSE;
      if (!put_instance (dst, (guint) at, stage, mask, error))
        return FALSE;
      anchor = (guint) at;
    }
  if (selection->tonemap)
    dst->tonemap = src->tonemap;
  if (selection->raw && src->raw.enabled && dst->raw.enabled)
    dst->raw = src->raw;
  return TRUE;
}

gboolean
lm_pipeline_paste (LmPipeline *dst, const LmPipeline *src, const LmOpSelection *selection, LmPasteMode mode,
                   GError **error)
{
  g_autofree LmPipeline *result = g_memdup2 (dst, sizeof *dst);
  if (mode == LM_PASTE_APPEND)
    {
      g_autofree LmPipeline *chosen = g_new (LmPipeline, 1);
      lm_op_selection_filter (selection, src, chosen);
      if (!dst->raw.enabled)
        chosen->raw.enabled = FALSE; /* a raw's development means nothing to this photo */
      if (!lm_sidecar_merge_edits (result, chosen, error))
        return FALSE;
      result->raw.enabled = dst->raw.enabled;
    }
  else if (!paste_replace (result, src, selection, error))
    return FALSE;
  *dst = *result;
  return TRUE;
}

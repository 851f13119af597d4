/* lumen-cli --mask-out and --mask-instance: which masked instance's mask is written, and the
 * writing of it as a 16-bit gray PNG. */
#include <math.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "core/error.h"
#include "core/text.h"

/* How messages name STAGE: its group, and its name where it has one: exposure#64 “Sky”. */
static char *
instance_label (const LmStage *stage)
{
  g_autofree char *group = lm_stage_group_name (stage);
  if (stage->name[0] == '\0')
    return g_steal_pointer (&group);
  g_autofree char *quoted = lm_text_quote (stage->name, -1);
  return g_strdup_printf ("%s “%s”", group, quoted);
}

/* Whether WORD names STAGE: by its group as the sidecar spells it (BY_GROUP), or by its name. */
static gboolean
names_instance (const LmStage *stage, const char *word, gboolean by_group)
{
  if (!by_group)
    return stage->name[0] != '\0' && g_str_equal (stage->name, word);
  g_autofree char *group = lm_stage_group_name (stage);
  return g_str_equal (group, word);
}

/* The masked instances of PIPELINE, for a message: "exposure#64 “Sky”, contrast". */
static char *
masked_list (const LmPipeline *pipeline, guint *n)
{
  g_autoptr (GString) list = g_string_new (NULL);
  *n = 0;
  for (guint i = 0; i < pipeline->n; i++)
    if (pipeline->inst[i].mask >= 0)
      {
        g_autofree char *label = instance_label (&pipeline->inst[i]);
        g_string_append_printf (list, "%s%s", (*n)++ ? ", " : "", label);
      }
  return g_string_free (g_steal_pointer (&list), FALSE);
}

gboolean
lm_cli_mask_instance (const LmPipeline *pipeline, const char *name, guint32 *id, GError **error)
{
  guint n_masked;
  g_autofree char *masked = masked_list (pipeline, &n_masked);
  const LmStage *chosen = NULL;
  if (name != NULL)
    {
      /* Groups are unique, names need not be: a group is taken before a name that spells it. */
      for (int by_group = 1; by_group >= 0 && chosen == NULL; by_group--)
        for (guint i = 0; i < pipeline->n && chosen == NULL; i++)
          if (names_instance (&pipeline->inst[i], name, by_group))
            chosen = &pipeline->inst[i];
      g_autofree char *quoted = lm_text_quote (name, -1);
      if (chosen == NULL)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       n_masked ? _("--mask-instance: there is no instance “%s” (the masked instances: %s)")
                                : _("--mask-instance: there is no instance “%s”, and none has a mask"),
                       quoted, masked);
          return FALSE;
        }
      if (chosen->mask < 0)
        {
          g_autofree char *label = instance_label (chosen);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       n_masked ? _("--mask-instance: %s has no mask (the masked instances: %s)")
                                : _("--mask-instance: %s has no mask, and no other instance has one"),
                       label, masked);
          return FALSE;
        }
    }
  else if (n_masked == 0)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("--mask-out: no instance has a mask (masks come in a sidecar given by --params)"));
      return FALSE;
    }
  else if (n_masked > 1)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("--mask-out: %u instances have masks; name one with --mask-instance (%s)"), n_masked, masked);
      return FALSE;
    }
  else
    for (guint i = 0; i < pipeline->n && chosen == NULL; i++)
      if (pipeline->inst[i].mask >= 0)
        chosen = &pipeline->inst[i];

  /* A disabled instance is not rendered: its mask would be made up, not the one the photo gets. */
  if (!chosen->enabled)
    {
      g_autofree char *label = instance_label (chosen);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("--mask-out: %s is off (enabled=false): its mask is not rendered"), label);
      return FALSE;
    }
  *id = chosen->id;
  return TRUE;
}

gboolean
lm_cli_mask_check_output (const char *path, GError **error)
{
  if (lm_file_type_for_output (path) != LM_FILE_PNG)
    {
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("%s: --mask-out writes a 16-bit gray PNG; use a name ending in .png"), display);
      return FALSE;
    }
  return lm_io_check_output (path, error);
}

gboolean
lm_cli_mask_save (const LmImage *mask, const char *path, GError **error)
{
  g_return_val_if_fail (mask->format == LM_FORMAT_GRAY_F32, FALSE);
  g_autoptr (LmImage) gray = lm_image_new (LM_FORMAT_GRAY16, mask->width, mask->height, lm_allocator_host (), error);
  if (gray == NULL)
    return FALSE;
  for (guint y = 0; y < mask->height; y++)
    {
      const float *in = (const float *) (const void *) lm_image_row (mask, y);
      guint16 *out = (guint16 *) (void *) lm_image_row (gray, y);
      for (guint x = 0; x < mask->width; x++)
        {
          /* A mask is within 0..1; NaN (none should come) is written as 0, "unchanged". */
          float m = in[x] > 0.0f ? in[x] : 0.0f;
          m = m < 1.0f ? m : 1.0f;
          out[x] = (guint16) floorf (m * 65535.0f + 0.5f);
        }
    }
  gray->opaque = TRUE;
  LmSaveOptions save = LM_SAVE_OPTIONS_INIT;
  return lm_io_save (gray, path, &save, error);
}

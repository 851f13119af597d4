/* The tone-mapping flags that lumen-cli hdr and batch share, generated from tone mapping's
 * parameter description (lm_tonemap_op_info: names, ranges, defaults, labels, when-rules):
 * one set of option entries and one reading of them, so that both commands map the same
 * flags to the same pixels, and a parameter added there appears here. */
#include <string.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "core/io/text-input.h"

/* Above 10 the correction leaves all but the brightest pixels black: no look anyone wants,
 * and an infinite one would be black throughout. */
#define GAMMA_CORRECTION_MAX 10.0

/* "Reinhard" for a parameter used only when kind=reinhard; the operation's label for one
 * used by several operators ("kind=gamma|reinhard|drago") or always. */
static const char *
tone_prefix (const LmOpInfo *info, const LmParamSpec *spec)
{
  const LmParamSpec *kind = &info->params[0];
  if (spec->when == NULL || strchr (spec->when, '|') != NULL)
    return _(info->label);
  const char *nick = strchr (spec->when, '=') + 1;
  for (int v = 0; kind->values[v].nick != NULL; v++)
    if (g_str_equal (kind->values[v].nick, nick))
      return _(kind->values[v].label);
  g_return_val_if_reached (_(info->label));
}

void
lm_cli_tone_add_entries (GOptionContext *context, LmCliTone *tone)
{
  const LmOpInfo *info = lm_tonemap_op_info ();
  g_return_if_fail (info->n_params <= LM_CLI_TONE_MAX);
  /* One command's flags per run: static, as lm_cli_numbers_add and GOption want them (and
   * their texts) alive until the parse ends. */
  static LmCliNumber numbers[LM_CLI_TONE_MAX + 2];
  static GOptionEntry entries[LM_CLI_TONE_MAX + 3];
  static char *texts[4 * LM_CLI_TONE_MAX];
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    g_clear_pointer (&texts[i], g_free);
  memset (entries, 0, sizeof entries);

  guint n = 0, t = 0;
  for (guint k = 1; k < info->n_params; k++)
    {
      const LmParamSpec *spec = &info->params[k];
      g_return_if_fail (spec->type == LM_PARAM_FLOAT);
      tone->value[k - 1] = spec->def;
      char *name = texts[t++] = g_strdelimit (g_strdup (spec->name), "_", '-');
      numbers[n] = (LmCliNumber) { texts[t++] = g_strconcat ("--", name, NULL), spec->min, spec->max, FALSE,
                                   &tone->value[k - 1] };
      entries[n] = (GOptionEntry) LM_CLI_NUMBER_ENTRY (name, NULL, NULL);
      entries[n].description = texts[t++] = g_strdup_printf (_("%s: %s, %g..%g (default %g)"),
                                                             tone_prefix (info, spec), _(spec->label), spec->min,
                                                             spec->max, tone->value[k - 1]);
      entries[n].arg_description = texts[t++] = g_ascii_strup (spec->name, -1);
      n++;
      if (k == 1)
        {
          /* The merge's, not the tone mapping's: the normalised gamma correction of radiance. */
          tone->gamma_correction = 0.0;
          numbers[n] = (LmCliNumber) { "--gamma-correction", 0.0, GAMMA_CORRECTION_MAX, FALSE,
                                       &tone->gamma_correction };
          entries[n] = (GOptionEntry) LM_CLI_NUMBER_ENTRY (
            "gamma-correction", N_("After the merge: (x/max)^G·max, 0..10 (default 0: none)"), N_("G"));
          n++;
        }
    }
  tone->depth = 8;
  numbers[n] = (LmCliNumber) { "--depth", 8, 16, TRUE, &tone->depth };
  entries[n] = (GOptionEntry) LM_CLI_NUMBER_ENTRY (
    "depth", N_("Bits per channel of a tone-mapped output: 8 (default) or 16 (PNG and TIFF)"), N_("BITS"));
  n++;
  lm_cli_numbers_add (numbers, n);
  /* GOption copies the entries; the values land in TONE. */
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
}

gboolean
lm_cli_tone_check_depth (const LmCliTone *tone, LmFileType type, GError **error)
{
  if (tone->depth != 8 && tone->depth != 16)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--depth: %d bits: give 8 or 16"), tone->depth);
  else if (tone->depth == 16 && type == LM_FILE_JPEG)
    g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         _("--depth 16: JPEG holds 8 bits per channel; write .png or .tif for 16"));
  else if (tone->depth == 16 && lm_file_type_is_radiance (type))
    g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         _("--depth 16: a .hdr or .exr output holds float radiance, not tone-mapped 16-bit "
                           "values; write .png or .tif"));
  else
    return TRUE;
  return FALSE;
}

gboolean
lm_cli_tone_params (const LmCliTone *tone, LmTonemapKind fallback, LmTonemapParams *params, GError **error)
{
  const LmOpInfo *info = lm_tonemap_op_info ();
  lm_op_params_init (info, params);
  params->kind = fallback;
  const LmEnumValue *kinds = info->params[0].values;
  int v = 0;
  while (tone->tonemap && kinds[v].nick && !g_str_equal (kinds[v].nick, tone->tonemap))
    v++;
  if (tone->tonemap && kinds[v].nick)
    params->kind = v;
  else if (tone->tonemap)
    {
      g_autofree char *quoted = lm_text_quote (tone->tonemap, -1);
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--tonemap: unknown “%s” (none, gamma, reinhard, drago or sigmoid)"), quoted);
      return FALSE;
    }
  for (guint k = 1; k < info->n_params; k++)
    *(float *) ((guint8 *) params + info->params[k].offset) = (float) tone->value[k - 1];
  return TRUE;
}

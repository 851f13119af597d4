/* The tone-mapping flags that lumen-cli hdr and batch share: one set of option entries and
 * one reading of them, so that both commands map the same flags to the same pixels. */
#include <glib/gi18n.h>

#include "cli.h"
#include "core/io/text-input.h"

/* Above 10 the correction leaves all but the brightest pixels black: no look anyone wants,
 * and an infinite one would be black throughout. */
#define GAMMA_CORRECTION_MAX 10.0

/* FLAG's range: the sidecar's and the window's for tone mapping's own parameter NAME. */
static LmCliNumber
tone_number (const char *flag, const char *name, double *target)
{
  const LmOpInfo *info = lm_tonemap_op_info ();
  for (guint i = 0; i < info->n_params; i++)
    if (g_str_equal (info->params[i].name, name))
      return (LmCliNumber) { flag, info->params[i].min, info->params[i].max, FALSE, target };
  g_return_val_if_reached ((LmCliNumber) { 0 });
}

void
lm_cli_tone_add_entries (GOptionContext *context, LmCliTone *tone)
{
  /* One command's flags per run: static, as lm_cli_numbers_add wants them alive. */
  static LmCliNumber numbers[7];
  numbers[0] = tone_number ("--gamma", "gamma", &tone->gamma);
  numbers[1] = (LmCliNumber) { "--gamma-correction", 0.0, GAMMA_CORRECTION_MAX, FALSE, &tone->gamma_correction };
  numbers[2] = tone_number ("--intensity", "intensity", &tone->intensity);
  numbers[3] = tone_number ("--light-adapt", "light_adapt", &tone->light_adapt);
  numbers[4] = tone_number ("--color-adapt", "color_adapt", &tone->color_adapt);
  numbers[5] = tone_number ("--saturation", "saturation", &tone->saturation);
  numbers[6] = tone_number ("--bias", "bias", &tone->bias);
  lm_cli_numbers_add (numbers, G_N_ELEMENTS (numbers));
  const GOptionEntry entries[] = {
    LM_CLI_NUMBER_ENTRY ("gamma", N_("Gamma of the tone mapping, 0.1..5 (default 1)"), N_("G")),
    LM_CLI_NUMBER_ENTRY ("gamma-correction", N_("After the merge: (x/max)^G·max, 0..10 (default 0: none)"), N_("G")),
    LM_CLI_NUMBER_ENTRY ("intensity", N_("Reinhard: intensity, −8..8 (default 0)"), N_("I")),
    LM_CLI_NUMBER_ENTRY ("light-adapt", N_("Reinhard: light adaptation, 0..1 (default 1)"), N_("L")),
    LM_CLI_NUMBER_ENTRY ("color-adapt", N_("Reinhard: colour adaptation, 0..1 (default 0)"), N_("C")),
    LM_CLI_NUMBER_ENTRY ("saturation", N_("Drago: saturation, 0..2 (default 1)"), N_("S")),
    LM_CLI_NUMBER_ENTRY ("bias", N_("Drago: bias, 0.7..0.9 (default 0.85)"), N_("B")),
    { NULL },
  };
  /* GOption copies the entries; the values land in TONE. */
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
}

gboolean
lm_cli_tone_params (const LmCliTone *tone, LmTonemapKind fallback, LmTonemapParams *params, GError **error)
{
  LmTonemapKind kind = fallback;
  if (tone->tonemap && !lm_tonemap_kind_parse (tone->tonemap, &kind))
    {
      g_autofree char *quoted = lm_text_quote (tone->tonemap, -1);
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--tonemap: unknown “%s” (none, gamma, reinhard or drago)"), quoted);
      return FALSE;
    }
  *params = (LmTonemapParams) LM_TONEMAP_PARAMS_INIT;
  params->kind = kind;
  params->gamma = (float) tone->gamma;
  params->intensity = (float) tone->intensity, params->light_adapt = (float) tone->light_adapt;
  params->color_adapt = (float) tone->color_adapt, params->saturation = (float) tone->saturation;
  params->bias = (float) tone->bias;
  return TRUE;
}

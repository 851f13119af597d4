/* The tone-mapping flags that lumen-cli hdr and batch share: one set of option entries and
 * one reading of them, so that both commands map the same flags to the same pixels. */
#include <glib/gi18n.h>

#include "cli.h"

void
lm_cli_tone_add_entries (GOptionContext *context, LmCliTone *tone)
{
  const GOptionEntry entries[] = {
    { "gamma", 0, 0, G_OPTION_ARG_DOUBLE, &tone->gamma, N_("Gamma of the tone mapping (default 1)"), N_("G") },
    { "gamma-correction", 0, 0, G_OPTION_ARG_DOUBLE, &tone->gamma_correction, N_("After the merge: (x/max)^G·max"), N_("G") },
    { "intensity", 0, 0, G_OPTION_ARG_DOUBLE, &tone->intensity, N_("Reinhard: intensity, −8..8 (default 0)"), N_("I") },
    { "light-adapt", 0, 0, G_OPTION_ARG_DOUBLE, &tone->light_adapt, N_("Reinhard: light adaptation, 0..1 (default 1)"), N_("L") },
    { "color-adapt", 0, 0, G_OPTION_ARG_DOUBLE, &tone->color_adapt, N_("Reinhard: colour adaptation, 0..1 (default 0)"), N_("C") },
    { "saturation", 0, 0, G_OPTION_ARG_DOUBLE, &tone->saturation, N_("Drago: saturation (default 1)"), N_("S") },
    { "bias", 0, 0, G_OPTION_ARG_DOUBLE, &tone->bias, N_("Drago: bias, 0.7..0.9 (default 0.85)"), N_("B") },
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
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--tonemap: unknown “%s” (none, gamma, reinhard or drago)"), tone->tonemap);
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

/* lumen-cli hdr: bracketed exposures merged into radiance (Debevec), optionally tone mapped,
 * written atomically. */
#include <stdio.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "core/error.h"
#include "core/hdr/merge.h"
#include "core/hdr/tonemap.h"
#include "core/io.h"
#include "core/timing.h"

typedef struct {
  char *backend, *method, *exposures, *times, *response_in, *response_out, *tonemap, *output;
  double gamma, gamma_correction, intensity, light_adapt, color_adapt, saturation, bias;
  gboolean timings;
  char **inputs;
} Options;

static gboolean
parse_times (const char *text, GArray **out, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", -1);
  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  for (int i = 0; parts[i]; i++)
    {
      char *end = NULL;
      double t = g_ascii_strtod (parts[i], &end);
      /* "1/250" is how cameras write it */
      if (end && *end == '/')
        {
          char *den_end = NULL;
          double den = g_ascii_strtod (end + 1, &den_end);
          t = den != 0.0 ? t / den : 0.0;
          end = den_end;
        }
      if (end == parts[i] || *end != '\0')
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--times: “%s” is not a time in seconds"),
                       parts[i]);
          return FALSE;
        }
      g_array_append_val (times, t);
    }
  *out = g_steal_pointer (&times);
  return TRUE;
}

static gboolean
run (const Options *o, LmTimings *timings, GError **error)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) times = NULL;
  for (int i = 0; o->inputs && o->inputs[i]; i++)
    g_ptr_array_add (files, g_strdup (o->inputs[i]));
  if (o->exposures)
    {
      g_autoptr (GPtrArray) listed = NULL;
      if (!lm_hdr_read_exposures (o->exposures, &listed, &times, error))
        return FALSE;
      if (files->len == 0)
        g_ptr_array_extend_and_steal (files, g_steal_pointer (&listed));
      else if (files->len != times->len)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("%u images given but %s lists %u times"), files->len, o->exposures, times->len);
          return FALSE;
        }
    }
  else if (o->times && !parse_times (o->times, &times, error))
    return FALSE;
  if (times && times->len != files->len)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%u images but %u exposure times"),
                   files->len, times->len);
      return FALSE;
    }

  LmTonemapParams tone = LM_TONEMAP_PARAMS_INIT;
  LmTonemapKind kind = LM_TONEMAP_REINHARD;
  if (o->tonemap && !lm_tonemap_kind_parse (o->tonemap, &kind))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--tonemap: unknown “%s” (none, gamma, reinhard or drago)"), o->tonemap);
      return FALSE;
    }
  tone.kind = kind;
  tone.gamma = (float) o->gamma;
  tone.intensity = (float) o->intensity, tone.light_adapt = (float) o->light_adapt;
  tone.color_adapt = (float) o->color_adapt, tone.saturation = (float) o->saturation;
  tone.bias = (float) o->bias;
  LmFileType out_type = lm_file_type_for_output (o->output);
  gboolean radiance_out = out_type == LM_FILE_RADIANCE;
  if (radiance_out && o->tonemap && kind != LM_TONEMAP_NONE)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("a .hdr output holds radiance: leave out --tonemap (or give none)"));
      return FALSE;
    }
  if (!radiance_out && kind == LM_TONEMAP_NONE)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("an 8-bit output needs a tone mapping: gamma, reinhard or drago"));
      return FALSE;
    }
  if (!lm_io_check_output (o->output, error))
    return FALSE;

  gint64 t = g_get_monotonic_time ();
  g_autoptr (LmHdrStack) stack = lm_hdr_stack_load ((const char *const *) files->pdata, files->len,
                                                    times ? (const double *) times->data : NULL,
                                                    lm_allocator_host (), error);
  if (stack == NULL)
    return FALSE;
  lm_timings_add (timings, _("load"), lm_ms_since (t));

  LmResponse response;
  t = g_get_monotonic_time ();
  if (o->response_in)
    {
      if (!lm_response_load (&response, o->response_in, error))
        return FALSE;
    }
  else
    {
      if (!lm_hdr_calibrate_debevec (stack, 70, 10.0f, &response, error))
        return FALSE;
      lm_timings_add (timings, _("calibrate"), lm_ms_since (t));
    }
  if (o->response_out && !lm_response_save (&response, o->response_out, error))
    return FALSE;

  t = g_get_monotonic_time ();
  g_autoptr (LmImage) radiance = lm_image_new (LM_FORMAT_RGBA_F32, stack->images[0]->width,
                                               stack->images[0]->height, lm_allocator_host (), error);
  if (radiance == NULL || !lm_hdr_merge_debevec (stack, &response, radiance, error))
    return FALSE;
  lm_timings_add (timings, _("merge"), lm_ms_since (t));
  if (o->gamma_correction > 0.0)
    {
      t = g_get_monotonic_time ();
      lm_gamma_correct_cpu (radiance, (float) o->gamma_correction);
      lm_timings_add (timings, _("gamma-correction"), lm_ms_since (t));
    }

  g_autoptr (LmImage) result = NULL;
  if (radiance_out)
    result = lm_image_ref (radiance);
  else
    {
      t = g_get_monotonic_time ();
      result = lm_image_new (LM_FORMAT_RGBA8, radiance->width, radiance->height, lm_allocator_host (), error);
      if (result == NULL || !lm_tonemap_cpu (&tone, radiance, result, error))
        return FALSE;
      lm_timings_add (timings, _("tonemap"), lm_ms_since (t));
      lm_image_copy_metadata (result, stack->images[0]);
    }

  t = g_get_monotonic_time ();
  LmSaveOptions save = LM_SAVE_OPTIONS_INIT;
  if (!lm_io_save (result, o->output, &save, error))
    return FALSE;
  lm_timings_add (timings, _("save"), lm_ms_since (t));
  if (o->timings)
    {
      printf ("%s: %u × %u×%u\n", _("exposures"), stack->n, stack->images[0]->width, stack->images[0]->height);
      lm_timings_print (timings, stdout);
    }
  return TRUE;
}

int
lm_cli_hdr_main (int argc, char **argv)
{
  Options o = { .gamma = 1.0, .light_adapt = 1.0, .saturation = 1.0, .bias = 0.85 };
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &o.backend, N_("Where to compute: auto, cpu (the merge runs on the CPU for now)"), N_("BACKEND") },
    { "method", 0, 0, G_OPTION_ARG_STRING, &o.method, N_("Merge method: debevec"), N_("METHOD") },
    { "exposures", 0, 0, G_OPTION_ARG_FILENAME, &o.exposures, N_("“file seconds” per line (the images may then be left out)"), N_("FILE") },
    { "times", 0, 0, G_OPTION_ARG_STRING, &o.times, N_("Exposure times in seconds, in the order of the images (1/250 allowed)"), N_("T1,T2,…") },
    { "response-in", 0, 0, G_OPTION_ARG_FILENAME, &o.response_in, N_("Use this camera response instead of calibrating"), N_("FILE") },
    { "response-out", 0, 0, G_OPTION_ARG_FILENAME, &o.response_out, N_("Save the camera response"), N_("FILE") },
    { "tonemap", 0, 0, G_OPTION_ARG_STRING, &o.tonemap, N_("none (radiance, for .hdr), gamma, reinhard (default) or drago"), N_("OP") },
    { "gamma", 0, 0, G_OPTION_ARG_DOUBLE, &o.gamma, N_("Gamma of the tone mapping (default 1)"), N_("G") },
    { "gamma-correction", 0, 0, G_OPTION_ARG_DOUBLE, &o.gamma_correction, N_("After the merge: (x/max)^G·max"), N_("G") },
    { "intensity", 0, 0, G_OPTION_ARG_DOUBLE, &o.intensity, N_("Reinhard: intensity, −8..8 (default 0)"), N_("I") },
    { "light-adapt", 0, 0, G_OPTION_ARG_DOUBLE, &o.light_adapt, N_("Reinhard: light adaptation, 0..1 (default 1)"), N_("L") },
    { "color-adapt", 0, 0, G_OPTION_ARG_DOUBLE, &o.color_adapt, N_("Reinhard: colour adaptation, 0..1 (default 0)"), N_("C") },
    { "saturation", 0, 0, G_OPTION_ARG_DOUBLE, &o.saturation, N_("Drago: saturation (default 1)"), N_("S") },
    { "bias", 0, 0, G_OPTION_ARG_DOUBLE, &o.bias, N_("Drago: bias, 0.7..0.9 (default 0.85)"), N_("B") },
    { "timings", 0, 0, G_OPTION_ARG_NONE, &o.timings, N_("Print where the time went"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, N_("Write here: .hdr (radiance) or .png/.jpg/.tif (tone mapped)"), N_("OUT") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.inputs, NULL, NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new (_("-o OUT IN1 IN2 …"));
  g_option_context_set_summary (context, _("Merges bracketed exposures into HDR radiance (Debevec) and "
                                           "writes it, or a tone-mapped 8-bit image.\nWithout --exposures "
                                           "or --times the times come from the files' EXIF."));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  int rc = LM_EXIT_OK;
  GError *e = NULL;
  LmTimings timings;
  lm_timings_init (&timings);
  LmBackendKind kind;
  if (!g_option_context_parse (context, &argc, &argv, &e))
    rc = lm_cli_usage_error (e->message);
  else if (o.output == NULL)
    rc = lm_cli_usage_error (_("no output: give -o OUT"));
  else if ((o.inputs == NULL || o.inputs[0] == NULL) && o.exposures == NULL)
    rc = lm_cli_usage_error (_("no exposures given"));
  else if (o.method && g_strcmp0 (o.method, "debevec") != 0)
    rc = lm_cli_usage_error (_("--method: only debevec is available so far"));
  else if (!lm_cli_parse_backend (o.backend, &kind, &e))
    rc = lm_cli_usage_error (e->message);
  else if (kind == LM_BACKEND_CUDA)
    rc = lm_cli_usage_error (_("--backend cuda: the HDR merge runs on the CPU for now"));
  else if (!(o.gamma > 0.0) || o.gamma_correction < 0.0)
    rc = lm_cli_usage_error (_("--gamma and --gamma-correction must be positive"));
  else if (!run (&o, &timings, &e))
    {
      rc = e->domain == G_OPTION_ERROR ? LM_EXIT_USAGE : LM_EXIT_FAILURE;
      lm_cli_error ("%s", e->message);
    }
  g_clear_error (&e);
  lm_timings_clear (&timings);
  g_free (o.backend), g_free (o.method), g_free (o.exposures), g_free (o.times);
  g_free (o.response_in), g_free (o.response_out), g_free (o.tonemap), g_free (o.output);
  g_strfreev (o.inputs);
  return rc;
}

/* lumen-cli hdr: bracketed exposures, optionally aligned, merged into radiance (Debevec,
 * Robertson) or fused (Mertens) on the chosen backend by the HDR job (core/merge/job.h),
 * optionally tone mapped, written atomically. */
#include <stdio.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "core/io/atomic-group.h"
#include "core/color/rec2020.h"
#include "core/error.h"
#include "core/merge/job.h"
#include "core/hdr/tonemap.h"
#include "core/io/io.h"
#include "core/io/raw.h"
#include "core/timing.h"

typedef struct {
  char *backend, *method, *exposures, *times, *response_in, *response_out, *output;
  LmCliTone tone;
  gboolean timings, align;
  int png_level;
  char **inputs;
} Options;

static gboolean
parse_times (const char *text, GArray **out, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", -1);
  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  for (int i = 0; parts[i]; i++)
    {
      double t;
      GError *e = NULL;
      if (!lm_hdr_parse_seconds (parts[i], &t, &e))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--times: %s", e->message);
          g_error_free (e);
          return FALSE;
        }
      g_array_append_val (times, t);
    }
  *out = g_steal_pointer (&times);
  return TRUE;
}

/* Times a step that ran on the backend: its queued work is waited for first. A NULL LABEL
 * waits without timing (a transfer that moves nothing on the CPU). */
static gboolean
step_done (LmBackend *backend, LmTimings *timings, const char *label, gint64 start, GError **error)
{
  if (!lm_backend_synchronize (backend, error))
    return FALSE;
  if (label)
    lm_timings_add (timings, label, lm_ms_since (start));
  return TRUE;
}

static void
print_shifts (const LmHdrStack *stack, const LmShift *shifts)
{
  for (guint i = 0; i < stack->n; i++)
    {
      g_autofree char *name = g_filename_display_basename (stack->paths[i]);
      /* TRANSLATORS: an exposure's alignment: file name, then its shift in pixels */
      printf (_("shift: %s: %d %d\n"), name, shifts[i].x, shifts[i].y);
    }
}

/* What is done with the job's merged image: tone mapped or not, brought to host memory. */
typedef struct {
  LmTonemapParams tone;
  gboolean radiance_out;
  LmFormat format; /* of a tone-mapped result: RGBA8, or RGBA16 with --depth 16 */
} Output;

/* The job's steps on BACKEND, then the merged (and tone-mapped) image in host memory. A
 * retry on the CPU starts again from the job's host images; an alignment already applied to
 * them is not done twice. */
static LmImage *
compute (LmHdrJob *job, const Output *out, LmBackend *backend, LmTimings *timings, GError **error)
{
  lm_hdr_job_set_timings (job, timings);
  if (!lm_hdr_job_process (job, backend, error))
    return NULL;
  g_autoptr (LmImage) merged = lm_hdr_job_steal_merged (job);
  g_autoptr (LmImage) result = NULL;
  gint64 t = g_get_monotonic_time ();
  if (out->radiance_out)
    result = g_steal_pointer (&merged);
  else
    {
      result = lm_image_new (out->format, merged->width, merged->height, lm_backend_work_allocator (backend),
                             error);
      if (result == NULL || !lm_backend_tonemap (backend, &out->tone, merged, result, error)
          || !step_done (backend, timings, _("tonemap"), t, error))
        return NULL;
    }
  t = g_get_monotonic_time ();
  g_autoptr (LmImage) host = lm_backend_download (backend, result, error);
  if (host == NULL || !step_done (backend, timings, lm_cli_backend_transfers (backend) ? _("download") : NULL, t, error))
    return NULL;
  return g_steal_pointer (&host);
}

/* The files and their times as the flags give them. */
static gboolean
list_exposures (const Options *o, GPtrArray *files, GArray **times, GError **error)
{
  for (int i = 0; o->inputs && o->inputs[i]; i++)
    g_ptr_array_add (files, g_strdup (o->inputs[i]));
  if (o->exposures)
    {
      g_autoptr (GPtrArray) listed = NULL;
      if (!lm_hdr_read_exposures (o->exposures, &listed, times, error))
        return FALSE;
      if (files->len == 0)
        g_ptr_array_extend_and_steal (files, g_steal_pointer (&listed));
      else if (files->len != (*times)->len)
        {
          g_autofree char *display = g_filename_display_name (o->exposures);
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%u images given but %s lists %u times"),
                       files->len, display, (*times)->len);
          return FALSE;
        }
    }
  else if (o->times && !parse_times (o->times, times, error))
    return FALSE;
  GError *e = NULL;
  if (o->inputs && o->inputs[0] && files->len < 2 && !lm_hdr_job_check_count (files->len, LM_HDR_MAX_EXPOSURES, &e))
    {
      /* The stack's check, but a usage error: the command line gave one. */
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, e->message);
      g_error_free (e);
      return FALSE;
    }
  if (*times && (*times)->len != files->len)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%u images but %u exposure times"),
                   files->len, (*times)->len);
      return FALSE;
    }
  return TRUE;
}

static gboolean
run (const Options *o, LmHdrMethod method, LmBackendKind backend_kind, LmTimings *timings, GError **error)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) times = NULL;
  if (!list_exposures (o, files, &times, error))
    return FALSE;

  gboolean fusion = method == LM_HDR_MERTENS;
  /* Raw brackets merge into a developed raw's scene: tone mapped by default as a raw is, and
   * written as OpenEXR, whose header says its Rec. 2020 primaries. The job checks that every
   * exposure is a raw when the first is. */
  gboolean raw = files->len > 0 && lm_cli_is_raw (g_ptr_array_index (files, 0));
  LmFileType type = lm_file_type_for_output (o->output);
  Output out = { .radiance_out = lm_file_type_is_radiance (type),
                 .format = o->tone.depth == 16 ? LM_FORMAT_RGBA16 : LM_FORMAT_RGBA8 };
  if (o->tone.depth != 8 && !lm_cli_tone_check_depth (&o->tone, type, error))
    return FALSE;
  LmTonemapKind tone = raw ? LM_TONEMAP_SIGMOID : fusion ? LM_TONEMAP_NONE : LM_TONEMAP_REINHARD;
  if (!lm_cli_tone_params (&o->tone, tone, &out.tone, error))
    return FALSE;
  if (out.radiance_out && o->tone.tonemap && out.tone.kind != LM_TONEMAP_NONE)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("a .hdr or .exr output holds radiance: leave out --tonemap (or give none)"));
      return FALSE;
    }

  gint64 t = g_get_monotonic_time ();
  g_autoptr (LmBackend) backend = lm_backend_new (backend_kind, error);
  if (backend == NULL)
    return FALSE;
  lm_timings_add (timings, _("start-up"), lm_ms_since (t));
  /* Fail on an unwritable output or a bad curve before the work, not after it. */
  if (!lm_cli_check_output (o->output, TRUE, error) || (o->response_out && !lm_io_check_writable (o->response_out, error)))
    return FALSE;
  LmResponse given;
  if (!fusion && o->response_in && !lm_response_load (&given, o->response_in, error))
    return FALSE;

  LmHdrJobSpec spec = {
    .n = files->len,
    .paths = (const char *const *) files->pdata,
    .times = times ? (const double *) times->data : NULL,
    .method = method,
    .align = o->align,
    .response = !fusion && o->response_in ? &given : NULL,
    .gamma_correction = (float) o->tone.gamma_correction,
    .no_time_format = _("no exposure time given: %s; give the times with --times T1,T2,… or --exposures FILE"),
  };
  g_autoptr (LmHdrJob) job = lm_hdr_job_new (&spec);
  lm_hdr_job_set_timings (job, timings);
  if (!lm_hdr_job_load (job, lm_backend_host_allocator (backend), error))
    return FALSE;
  const LmHdrStack *stack = lm_hdr_job_stack (job);
  /* After the stack's own checks (times, sizes, one kind), before any development. */
  if (lm_image_is_raw (stack->images[0]) && !lm_raw_scene_output_check (o->output, error))
    return FALSE;
  /* What the loader could not take as the files have it (a profile, an XMP packet). */
  for (guint i = 0; i < stack->n; i++)
    lm_cli_notes (stack->paths[i], stack->images[i]->notes);
  /* 16-bit exposures are merged as linear data: no curve is calibrated, none is saved. */
  LmHdrMethod merged_by = lm_hdr_job_method_for (method, lm_hdr_job_stack (job));
  if (merged_by == LM_HDR_LINEAR && o->response_out)
    {
      g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_INVALID,
                           lm_image_is_raw (stack->images[0])
                             ? _("--response-out: raw brackets are merged in linear light, without a camera "
                                 "response; there is none to save")
                             : _("--response-out: 16-bit exposures are merged as linear data, without a camera "
                                 "response; there is none to save"));
      return FALSE;
    }

  LmTimings steps;
  lm_timings_init (&steps);
  GError *e = NULL;
  g_autoptr (LmImage) host = compute (job, &out, backend, &steps, &e);
  if (host == NULL && lm_cli_fall_back_to_cpu (backend_kind, backend, e))
    {
      g_clear_error (&e);
      lm_timings_clear (&steps);
      lm_timings_init (&steps);
      g_clear_pointer (&backend, lm_backend_free);
      backend = lm_backend_new (LM_BACKEND_CPU, &e);
      host = backend ? compute (job, &out, backend, &steps, &e) : NULL;
    }
  lm_hdr_job_set_timings (job, NULL);
  for (guint i = 0; i < steps.entries->len; i++)
    {
      const LmTiming *step = &g_array_index (steps.entries, LmTiming, i);
      lm_timings_add (timings, step->label, step->ms);
    }
  lm_timings_clear (&steps);
  if (host == NULL)
    {
      g_propagate_error (error, e);
      return FALSE;
    }
  if (!out.radiance_out)
    lm_image_copy_metadata (host, stack->images[0]);
  else if (lm_image_is_raw (stack->images[0]))
    {
      /* The EXR's chromaticities say which primaries its numbers are of. */
      g_clear_pointer (&host->icc_profile, g_bytes_unref);
      host->icc_profile = lm_color_rec2020_linear_icc ();
    }

  t = g_get_monotonic_time ();
  LmSaveOptions save = LM_SAVE_OPTIONS_INIT;
  save.png_level = o->png_level;
  g_autoptr (GPtrArray) notes = save.notes = g_ptr_array_new_with_free_func (g_free);
  /* The image and its curve together or neither: a failed merge leaves no file behind, not
   * even the curve, and a failed curve no image. */
  g_autoptr (LmAtomicGroup) group = lm_atomic_group_begin ();
  if (!lm_io_save (host, o->output, &save, error))
    return FALSE;
  if (o->response_out && !lm_response_save (lm_hdr_job_response (job), o->response_out, error))
    return FALSE;
  if (!lm_atomic_group_commit (g_steal_pointer (&group), error))
    return FALSE;
  lm_cli_notes (o->output, notes);
  lm_timings_add (timings, _("save"), lm_ms_since (t));
  if (o->timings)
    {
      printf ("%s: %s\n", _("backend"), backend->description);
      printf ("%s: %s, %u × %u×%u\n", _("exposures"), lm_hdr_method_name (merged_by), stack->n,
              stack->images[0]->width, stack->images[0]->height);
      if (lm_hdr_job_shifts (job))
        print_shifts (stack, lm_hdr_job_shifts (job));
      lm_timings_print (timings, stdout);
    }
  return TRUE;
}

int
lm_cli_hdr_main (int argc, char **argv)
{
  Options o = { .tone = LM_CLI_TONE_INIT, .png_level = LM_PNG_LEVEL_DEFAULT };
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &o.backend, N_("Where to compute: auto, cpu or cuda"), N_("BACKEND") },
    { "method", 0, 0, G_OPTION_ARG_STRING, &o.method, N_("debevec (default), robertson, or mertens (exposure fusion: no times, no response)"), N_("METHOD") },
    { "align", 0, 0, G_OPTION_ARG_NONE, &o.align, N_("Align hand-held exposures first (median threshold bitmaps), cropped to their common area"), NULL },
    { "exposures", 0, 0, G_OPTION_ARG_FILENAME, &o.exposures, N_("“file seconds” per line (the images may then be left out)"), N_("FILE") },
    { "times", 0, 0, G_OPTION_ARG_STRING, &o.times, N_("Exposure times in seconds, in the order of the images (1/250 allowed)"), N_("T1,T2,…") },
    { "response-in", 0, 0, G_OPTION_ARG_FILENAME, &o.response_in, N_("Use this camera response instead of calibrating (debevec, robertson)"), N_("FILE") },
    { "response-out", 0, 0, G_OPTION_ARG_FILENAME, &o.response_out, N_("Save the camera response"), N_("FILE") },
    { "tonemap", 0, 0, G_OPTION_ARG_STRING, &o.tone.tonemap, N_("none (0..1 as is; radiance for .hdr and .exr; the default for mertens), gamma, reinhard (the default for 8-bit radiance), drago or sigmoid (scene-referred)"), N_("OP") },
    { NULL },
  };
  const GOptionEntry entries_after[] = {
    { "timings", 0, 0, G_OPTION_ARG_NONE, &o.timings, N_("Print where the time went (and, with --align, each exposure's shift)"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, N_("Write here: .hdr or .exr (radiance) or .png/.jpg/.tif (tone mapped)"), N_("OUT") },
    LM_CLI_NUMBER_ENTRY ("png-level", N_("PNG compression level, 0 (none, fastest) .. 9 (smallest) (default 1)"),
                         N_("LEVEL")),
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.inputs, NULL, NULL },
    { NULL },
  };
  static LmCliNumber numbers[1];
  numbers[0] = (LmCliNumber) { "--png-level", 0, 9, TRUE, &o.png_level };
  lm_cli_numbers_add (numbers, G_N_ELEMENTS (numbers));
  g_autoptr (GOptionContext) context
    = lm_cli_options_new (_("-o OUT IN1 IN2 …"),
                          _("Merges bracketed exposures into HDR radiance (Debevec or "
                            "Robertson) and writes it, or a tone-mapped 8-bit image; or fuses "
                            "them (Mertens) into an 8-bit image.\nWithout --exposures or "
                            "--times the times come from the files' EXIF; fusion needs none.\nCamera raws "
                            "are developed and merged in linear light (no camera response), tone mapped by the "
                            "sigmoid unless --tonemap says otherwise; a .exr holds the merged scene in linear "
                            "Rec. 2020."),
                          NULL, NULL, entries);
  lm_cli_tone_add_entries (context, &o.tone);
  g_option_context_add_main_entries (context, entries_after, GETTEXT_PACKAGE);

  int rc = LM_EXIT_OK;
  GError *e = NULL;
  LmTimings timings;
  lm_timings_init (&timings);
  LmBackendKind kind;
  LmHdrMethod method = LM_HDR_DEBEVEC;
  if (!lm_cli_options_parse (context, &argc, &argv))
    rc = LM_EXIT_USAGE;
  else if (o.output == NULL)
    rc = lm_cli_usage_error (_("no output: give -o OUT"));
  else if ((o.inputs == NULL || o.inputs[0] == NULL) && o.exposures == NULL)
    rc = lm_cli_usage_error (_("no exposures given"));
  else if (o.method && !lm_hdr_method_parse (o.method, &method))
    rc = lm_cli_usage_error (_("--method: unknown method (debevec, robertson or mertens)"));
  else if (method == LM_HDR_MERTENS && (o.response_in || o.response_out))
    rc = lm_cli_usage_error (_("--response-in and --response-out: exposure fusion (mertens) uses no camera response"));
  else if (!lm_cli_parse_backend (o.backend, &kind, &e))
    rc = lm_cli_usage_error (e->message);
  else if (!(o.tone.gamma > 0.0) || o.tone.gamma_correction < 0.0)
    rc = lm_cli_usage_error (_("--gamma and --gamma-correction must be positive"));
  else if (!run (&o, method, kind, &timings, &e))
    {
      if (e->domain == G_OPTION_ERROR)
        rc = lm_cli_usage_error (e->message);
      else
        {
          rc = LM_EXIT_FAILURE;
          lm_cli_error ("%s", e->message);
        }
    }
  g_clear_error (&e);
  lm_timings_clear (&timings);
  g_free (o.backend), g_free (o.method), g_free (o.exposures), g_free (o.times);
  g_free (o.response_in), g_free (o.response_out), g_free (o.tone.tonemap), g_free (o.output);
  g_strfreev (o.inputs);
  return rc;
}

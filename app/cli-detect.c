/* lumen-cli detect [options] -o CATALOGUE IN.fits: sources in an astronomical image (the
 * pipeline of core/astro/detect.h) on the chosen backend, written as a catalogue (CSV or a
 * FITS table), optionally with the label image and the background map. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "config.h"
#include "core/astro/catalogue.h"
#include "core/astro/detect.h"
#include "core/io/fits.h"
#include "core/error.h"
#include "core/io/atomic-group.h"
#include "core/io/io.h"
#include "core/ops/blur-math.h" /* LM_BLUR_SIGMA_MAX: the filter is the blur of Lumen's */
#include "core/render/astro-run.h"
#include "core/timing.h"
#include "cli-detect-write.h"

typedef struct {
  char *backend;
  char *output;
  char *labels;
  char *background;
  gboolean timings;
  char **inputs;
  /* The numbers as GOption's callbacks fill them (int or double), copied into the
   * parameters once parsed. */
  double kappa, threshold, filter;
  int max_iterations, min_area, connectivity, mesh, mesh_filter, hdu;
} Options;

typedef enum {
  OUTPUT_CSV,
  OUTPUT_FITS,
  OUTPUT_UNKNOWN,
} OutputKind;

static gboolean
has_suffix (const char *path, const char *suffix)
{
  gsize n = strlen (path), m = strlen (suffix);
  return n > m && g_ascii_strcasecmp (path + n - m, suffix) == 0;
}

static gboolean
is_fits_name (const char *path)
{
  return has_suffix (path, ".fits") || has_suffix (path, ".fit") || has_suffix (path, ".fts");
}

static OutputKind
output_kind (const char *path)
{
  if (has_suffix (path, ".csv"))
    return OUTPUT_CSV;
  return is_fits_name (path) ? OUTPUT_FITS : OUTPUT_UNKNOWN;
}

/* The names given, their extensions first (usage errors), then whether they can be written
 * (errors of the place). */
static gboolean
check_names (const Options *o, GError **error)
{
  if (output_kind (o->output) == OUTPUT_UNKNOWN)
    {
      g_autofree char *display = g_filename_display_name (o->output);
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s: unknown catalogue format; use a name ending in .csv or .fits"), display);
      return FALSE;
    }
  const char *images[] = { o->labels, o->background };
  const char *flags[] = { "--labels", "--background" };
  for (guint i = 0; i < G_N_ELEMENTS (images); i++)
    if (images[i] && !is_fits_name (images[i]))
      {
        g_autofree char *display = g_filename_display_name (images[i]);
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     _("%s: %s writes a FITS image; use a name ending in .fits"), flags[i], display);
        return FALSE;
      }
  return TRUE;
}

static gboolean
check_places (const Options *o, GError **error)
{
  /* Before the work, not after it. */
  return lm_io_check_writable (o->output, error) && (o->labels == NULL || lm_io_check_writable (o->labels, error))
         && (o->background == NULL || lm_io_check_writable (o->background, error));
}

/* IN with --hdu's extension after it, as cfitsio reads "a.fits[1]": 0 is the primary HDU,
 * the numbering of cfitsio's file names and of astropy's HDU list. */
static char *
input_spec (const Options *o)
{
  if (o->hdu < 0)
    return g_strdup (o->inputs[0]);
  return g_strdup_printf ("%s[%d]", o->inputs[0], o->hdu);
}

static int
parse (int *argc, char ***argv, Options *o, LmDetectParams *params)
{
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &o->backend,
      N_("Where to compute: auto (CUDA when a device is usable), cpu or cuda"), N_("BACKEND") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output,
      N_("Write the catalogue here: a .csv file, or a .fits file holding a binary table"), N_("CATALOGUE") },
    { "labels", 0, 0, G_OPTION_ARG_FILENAME, &o->labels,
      N_("Also write the label image (0: background, sources numbered from 1) as a FITS image"), N_("FILE") },
    { "background", 0, 0, G_OPTION_ARG_FILENAME, &o->background,
      N_("Also write the background map as a FITS image, with the noise map as its extension NOISE"),
      N_("FILE") },
    LM_CLI_NUMBER_ENTRY ("kappa", N_("Clipping bound of the background statistics, in standard deviations "
                                     "(default 3)"),
                         N_("K")),
    LM_CLI_NUMBER_ENTRY ("max-iterations", N_("Clipping passes at most (default 10)"), N_("N")),
    LM_CLI_NUMBER_ENTRY ("threshold", N_("Detection threshold over the background, in σ of the noise "
                                         "(default 5)"),
                         N_("T")),
    LM_CLI_NUMBER_ENTRY ("min-area", N_("Drop sources of fewer pixels (default 5)"), N_("PIXELS")),
    LM_CLI_NUMBER_ENTRY ("connectivity", N_("Pixels touching by their sides (4, the default) or also by "
                                            "their corners (8)"),
                         N_("4|8")),
    LM_CLI_NUMBER_ENTRY ("filter", N_("Matched filter before thresholding: a Gaussian of SIGMA px (default 0: "
                                      "none)"),
                         N_("SIGMA")),
    LM_CLI_NUMBER_ENTRY ("mesh", N_("Background mesh box side in px (default 64); 0: one global background"),
                         N_("PX")),
    LM_CLI_NUMBER_ENTRY ("mesh-filter", N_("Median filter of the background mesh, in boxes (default 3; 1: "
                                           "none)"),
                         N_("BOXES")),
    LM_CLI_NUMBER_ENTRY ("hdu", N_("Read this HDU: 0 is the primary, 1 the first extension (as IN.fits[1] "
                                   "says); default: the first that holds an image"),
                         N_("N")),
    { "timings", 0, 0, G_OPTION_ARG_NONE, &o->timings,
      N_("Print where the time went: load, upload, each step, download, write"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->inputs, NULL, NULL },
    { NULL },
  };
  /* lm_detect_params_check's ranges, so that a value out of them is named by its flag;
   * that check still has the last word (κ above 0, a mesh of 0 or at least 2 px). */
  static LmCliNumber numbers[9];
  numbers[0] = (LmCliNumber) { "--kappa", 0.0, 100.0, FALSE, &o->kappa };
  numbers[1] = (LmCliNumber) { "--max-iterations", 1, 1000, TRUE, &o->max_iterations };
  numbers[2] = (LmCliNumber) { "--threshold", 0.0, 1e6, FALSE, &o->threshold };
  numbers[3] = (LmCliNumber) { "--min-area", 1, 100000, TRUE, &o->min_area };
  numbers[4] = (LmCliNumber) { "--connectivity", 4, 8, TRUE, &o->connectivity };
  numbers[5] = (LmCliNumber) { "--filter", 0.0, LM_BLUR_SIGMA_MAX, FALSE, &o->filter };
  numbers[6] = (LmCliNumber) { "--mesh", 0, 65535, TRUE, &o->mesh };
  numbers[7] = (LmCliNumber) { "--mesh-filter", 1, 99, TRUE, &o->mesh_filter };
  numbers[8] = (LmCliNumber) { "--hdu", 0, 99999, TRUE, &o->hdu };
  lm_cli_numbers_add (numbers, G_N_ELEMENTS (numbers));

  g_autoptr (GOptionContext) context = lm_cli_options_new (
    _("-o CATALOGUE IN.fits"),
    _("Finds the sources in the FITS image IN: κ-σ clipped background (global or a mesh), pixels\n"
      "above the threshold, connected components, and per source its centroid, fluxes,\n"
      "peak, area, bounding box and shape. Writes the catalogue (never a partly written\n"
      "file); positions are 0-based (x_fits and y_fits: 1-based, as FITS counts)."),
    _("Exit status: 0 on success, 1 on an error (one line on stderr names the file and the cause), 2 on a "
      "usage error."),
    NULL, entries);
  if (!lm_cli_options_parse (context, argc, argv))
    return LM_EXIT_USAGE;
  if (o->output == NULL)
    return lm_cli_usage_error (_("no output: give -o CATALOGUE"));
  if (o->inputs == NULL || o->inputs[0] == NULL)
    return lm_cli_usage_error (_("no input image given"));
  if (o->inputs[1] != NULL)
    return lm_cli_usage_error (_("give one input image"));
  if (o->connectivity != 4 && o->connectivity != 8)
    return lm_cli_usage_error (_("--connectivity must be 4 or 8"));

  params->kappa = o->kappa;
  params->max_iterations = o->max_iterations;
  params->threshold = o->threshold;
  params->min_area = (guint) o->min_area;
  params->connectivity = o->connectivity;
  params->filter_sigma = o->filter;
  params->mesh = (guint) o->mesh;
  params->mesh_filter = (guint) o->mesh_filter;
  GError *e = NULL;
  if (!lm_detect_params_check (params, &e) || !check_names (o, &e))
    {
      int rc = lm_cli_usage_error (e->message);
      g_error_free (e);
      return rc;
    }
  return LM_EXIT_OK;
}

/* IMAGE (host memory of BACKEND's) through the pipeline on BACKEND: uploaded, detected (the
 * result comes back in host memory). The steps' times join TIMINGS. */
static LmDetectResult *
detect_on (LmBackend *backend, LmImage *image, const LmDetectParams *params, LmTimings *timings, GError **error)
{
  gboolean transfers = lm_cli_backend_transfers (backend);
  gint64 t = g_get_monotonic_time ();
  g_autoptr (LmImage) work = lm_backend_upload (backend, image, error);
  if (work == NULL || !lm_backend_synchronize (backend, error))
    return NULL;
  if (transfers)
    lm_timings_add (timings, _("upload"), lm_ms_since (t));

  t = g_get_monotonic_time ();
  LmDetectResult *result = lm_detect (backend, work, params, NULL, error);
  if (result == NULL)
    return NULL;
  double wall_ms = lm_ms_since (t);
  const LmDetectTimings *d = &result->timings;
  lm_timings_add (timings, _("background"), d->background);
  if (params->filter_sigma > 0)
    lm_timings_add (timings, _("filter"), d->filter);
  lm_timings_add (timings, _("segment"), d->segment);
  lm_timings_add (timings, _("label"), d->label);
  lm_timings_add (timings, _("measure"), d->measure);
  /* The steps' total is the backend's; what lm_detect took beyond it is the way back of
   * the maps, labels and sources (and on the CPU, next to nothing). */
  if (transfers)
    lm_timings_add (timings, _("download"), MAX (0.0, wall_ms - d->total));
  return result;
}

/* On the backend asked for, and on the CPU where that one failed in a way the CPU would not
 * (lm_cli_fall_back_to_cpu), from the image already read. */
static LmDetectResult *
detect (LmBackendKind kind, LmBackend **backend, LmImage *image, const LmDetectParams *params,
        LmTimings *timings, GError **error)
{
  GError *e = NULL;
  guint kept = timings->entries->len;
  LmDetectResult *result = detect_on (*backend, image, params, timings, &e);
  if (result == NULL && lm_cli_fall_back_to_cpu (kind, *backend, e))
    {
      g_clear_error (&e);
      lm_timings_truncate (timings, kept);
      g_clear_pointer (backend, lm_backend_free);
      *backend = lm_backend_new (LM_BACKEND_CPU, &e);
      if (*backend)
        result = detect_on (*backend, image, params, timings, &e);
    }
  if (e)
    g_propagate_error (error, e);
  return result;
}

static gboolean
write_outputs (const Options *o, const LmDetectResult *result, const LmFitsInfo *info, LmTimings *timings,
               GError **error)
{
  gint64 t = g_get_monotonic_time ();
  /* The catalogue, the labels and the maps together or none: a catalogue whose label image
   * failed to be written is not left beside an older one. */
  g_autoptr (LmAtomicGroup) group = lm_atomic_group_begin ();
  gboolean ok = output_kind (o->output) == OUTPUT_CSV ? lm_catalogue_write_csv (o->output, result, error)
                                                      : lm_catalogue_write_fits (o->output, result, error);
  if (!ok)
    return FALSE;
  if (o->labels && !lm_labels_write_fits (o->labels, result, error))
    return FALSE;
  if (o->background && !lm_cli_detect_write_background (o->background, result, info, error))
    return FALSE;
  if (!lm_atomic_group_commit (g_steal_pointer (&group), error))
    return FALSE;
  lm_timings_add (timings, _("write"), lm_ms_since (t));
  return TRUE;
}

/* One line on stderr: what was found, and the global background it was found over. */
static void
print_summary (const LmFitsInfo *info, const LmDetectResult *result)
{
  g_autofree char *display = g_filename_display_basename (info->path);
  g_autofree char *found = g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "%u source", "%u sources", result->n_sources), result->n_sources);
  /* TRANSLATORS: file name, "N sources", then the clipped median and standard deviation of
   * the whole image and the clipping passes they took */
  g_printerr (_("lumen-cli: %s: %s; background %.6g, σ %.6g (κ-σ clipped, %d passes)\n"), display, found,
              result->global.median, result->global.std, result->global.iterations);
}

static gboolean
run (const Options *o, const LmDetectParams *params, LmBackendKind kind, GError **error)
{
  LmTimings timings;
  lm_timings_init (&timings);
  gboolean ok = FALSE;
  gint64 t = g_get_monotonic_time ();
  g_autoptr (LmBackend) backend = lm_backend_new (kind, error);
  g_autoptr (LmFitsInfo) info = NULL;
  g_autoptr (LmImage) image = NULL;
  g_autoptr (LmDetectResult) result = NULL;
  g_autofree char *spec = input_spec (o);
  if (backend == NULL || !check_places (o, error))
    goto out;
  double init_ms = lm_ms_since (t);

  t = g_get_monotonic_time ();
  image = lm_fits_load (spec, lm_backend_host_allocator (backend), &info, error);
  if (image == NULL)
    goto out;
  lm_timings_add (&timings, _("load"), lm_ms_since (t));

  result = detect (kind, &backend, image, params, &timings, error);
  if (result == NULL && g_error_matches (*error, LUMEN_ERROR, LM_ERROR_INVALID))
    {
      /* About the data (every pixel blank): the file's, as every message about a file. */
      g_autofree char *display = g_filename_display_name (spec);
      g_prefix_error (error, "%s: ", display);
    }
  if (result == NULL || !write_outputs (o, result, info, &timings, error))
    goto out;

  print_summary (info, result);
  if (o->timings)
    {
      printf ("%s: %s (%s %.2f ms)\n", _("backend"), backend->description, _("start-up"), init_ms);
      printf ("%s: %u×%u %s, HDU %d\n", _("image"), image->width, image->height, lm_format_name (image->format),
              info->hdu - 1);
      lm_timings_print (&timings, stdout);
    }
  ok = TRUE;
out:
  lm_timings_clear (&timings);
  return ok;
}

int
lm_cli_detect_main (int argc, char **argv)
{
  LmDetectParams params;
  lm_detect_params_init (&params);
  Options o = {
    .kappa = params.kappa,
    .max_iterations = params.max_iterations,
    .threshold = params.threshold,
    .min_area = (int) params.min_area,
    .connectivity = params.connectivity,
    .filter = params.filter_sigma,
    .mesh = (int) params.mesh,
    .mesh_filter = (int) params.mesh_filter,
    .hdu = -1,
  };
  int rc = parse (&argc, &argv, &o, &params);
  if (rc == LM_EXIT_OK)
    {
      LmBackendKind kind;
      GError *e = NULL;
      if (!lm_cli_parse_backend (o.backend, &kind, &e))
        rc = lm_cli_usage_error (e->message);
      else if (!run (&o, &params, kind, &e))
        {
          lm_cli_error ("%s", e->message);
          rc = LM_EXIT_FAILURE;
        }
      g_clear_error (&e);
    }
  g_free (o.backend);
  g_free (o.output);
  g_free (o.labels);
  g_free (o.background);
  g_strfreev (o.inputs);
  return rc;
}

/* lumen-cli [options] -o OUT IN: one photo through the pipeline, written atomically. */
#include <stdio.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "config.h"
#include "core/color/profile.h"
#include "core/edit/sidecar.h"
#include "core/error.h"
#include "core/io/atomic-group.h"
#include "core/io/depth.h"
#include "core/io/io.h"
#include "core/io/raw.h"
#include "core/render/develop-one.h"
#include "core/render/jpeg-gpu.h"
#include "core/render/prefault.h"
#include "core/timing.h"

/* parse () asks for the version to be printed rather than a photo processed. */
#define SHOW_VERSION (-1)

typedef struct {
  char *backend;
  char *output;
  int quality;
  int png_level;
  int depth;          /* --depth: 16 renders an 8-bit photo at 16 bits (PNG, TIFF); 8: as it renders */
  char *jpeg_encoder; /* --jpeg-encoder: cpu (NULL) or nvjpeg */
  gboolean nvjpeg;
  gboolean timings;
  gboolean version;
  gboolean to_srgb; /* --to-srgb: convert from the photo's profile to sRGB on saving */
  char **inputs;
  char *params_out; /* --params-out: the sidecar of the operations given */
  char *mask_out;      /* --mask-out: the mask of a masked instance, a 16-bit gray PNG */
  char *mask_instance; /* --mask-instance: which one */
  guint32 mask_id;     /* its id, once the pipeline is read; 0: no --mask-out */
  gboolean raw;        /* the input is a camera raw */
} Options;

static int
parse (int *argc, char ***argv, Options *o, LmCliOps *ops)
{
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &o->backend,
      N_("Where to compute: auto (CUDA when a device is usable), cpu or cuda"), N_("BACKEND") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output,
      N_("Write the result here (.png, .jpg or .tif)"), N_("OUT") },
    LM_CLI_NUMBER_ENTRY ("quality", N_("JPEG quality, 1..100 (default 92)"), N_("Q")),
    LM_CLI_NUMBER_ENTRY ("png-level", N_("PNG compression level, 0 (none, fastest) .. 9 (smallest) (default 1)"),
                         N_("LEVEL")),
    LM_CLI_NUMBER_ENTRY ("depth", N_("Bits per channel of a PNG or TIFF output: 8 (default: as the photo's) or 16, "
                                     "which renders an 8-bit photo's edits at 16 bits"),
                         N_("BITS")),
    { "jpeg-encoder", 0, 0, G_OPTION_ARG_STRING, &o->jpeg_encoder,
      N_("Who encodes a JPEG output: cpu (libjpeg-turbo, the default) or nvjpeg (the GPU, where the result "
         "is on it; its pixels differ from the CPU's by a few levels)"),
      N_("ENCODER") },
    { "timings", 0, 0, G_OPTION_ARG_NONE, &o->timings,
      N_("Print where the time went: load, upload, each operation, download, save"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &o->version, N_("Print the version"), NULL },
    { "to-srgb", 0, 0, G_OPTION_ARG_NONE, &o->to_srgb,
      N_("Convert the colours from the photo's ICC profile to sRGB (perceptual intent), for the web; "
         "by default the photo's profile is kept"),
      NULL },
    { "params-out", 0, 0, G_OPTION_ARG_FILENAME, &o->params_out,
      N_("Write the operations given (flags and --params) to a sidecar FILE, a preset for --params; "
         "without -o and IN, do only that"),
      N_("FILE") },
    { "mask-out", 0, 0, G_OPTION_ARG_FILENAME, &o->mask_out,
      N_("Write the mask of a masked instance (masks come by --params) to FILE, a 16-bit gray PNG the size of "
         "that instance's input (0: unchanged, 65535: fully edited); with -o or without"),
      N_("FILE.png") },
    { "mask-instance", 0, 0, G_OPTION_ARG_STRING, &o->mask_instance,
      N_("The instance whose mask --mask-out writes: its name or its sidecar group (exposure, exposure#64); "
         "needed where several have masks"),
      N_("NAME") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->inputs, NULL, NULL },
    { NULL },
  };

  static LmCliNumber numbers[3];
  numbers[0] = (LmCliNumber) { "--quality", 1, 100, TRUE, &o->quality };
  numbers[1] = (LmCliNumber) { "--png-level", 0, 9, TRUE, &o->png_level };
  numbers[2] = (LmCliNumber) { "--depth", 8, 16, TRUE, &o->depth };
  lm_cli_numbers_add (numbers, G_N_ELEMENTS (numbers));

  /* The order is the operation list's, named as the flags name them. */
  g_autoptr (GString) order = g_string_new (NULL);
  for (int id = 0; id < LM_N_OPS; id++)
    g_string_append_printf (order, "%s%s", id ? ", " : "", lm_op_info (id)->name);
  g_autofree char *summary = g_strdup_printf (
    _("Applies Lumen's operations to the photo IN, whatever the flags' order in this one:\n%s;\n"
      "and writes the result to OUT (never a partly written file)."),
    order->str);
  g_autofree char *commands = lm_cli_commands_help ();
  g_autofree char *description
    = g_strdup_printf ("%s\n\n%s", commands,
                       _("Exit status: 0 on success, 1 on an error (one line on stderr names the file "
                         "and the cause), 2 on a usage error."));
  g_autoptr (GOptionContext) context
    = lm_cli_options_new (_("-o OUT IN"), summary, description, lm_cli_ops_group (ops), entries);
  if (!lm_cli_options_parse (context, argc, argv))
    return LM_EXIT_USAGE;
  if (o->version)
    return SHOW_VERSION;
  if (o->quality < 1 || o->quality > 100)
    return lm_cli_usage_error (_("--quality must be within 1..100"));
  if (o->mask_instance && o->mask_out == NULL)
    return lm_cli_usage_error (_("--mask-instance says whose mask --mask-out writes: give --mask-out FILE.png"));
  /* --params-out alone writes a preset and processes nothing. */
  if (o->params_out && o->output == NULL && o->mask_out == NULL && (o->inputs == NULL || o->inputs[0] == NULL))
    return LM_EXIT_OK;
  if (o->output == NULL && o->mask_out == NULL)
    return lm_cli_usage_error (_("no output: give -o OUT"));
  if (o->inputs == NULL || o->inputs[0] == NULL)
    return lm_cli_usage_error (_("no input photo given"));
  if (o->inputs[1] != NULL)
    return lm_cli_usage_error (_("give one input photo (lumen-cli processes one file at a time)"));
  if (o->jpeg_encoder && g_strcmp0 (o->jpeg_encoder, "cpu") != 0 && g_strcmp0 (o->jpeg_encoder, "nvjpeg") != 0)
    return lm_cli_usage_error (_("--jpeg-encoder must be cpu or nvjpeg"));
  o->nvjpeg = g_strcmp0 (o->jpeg_encoder, "nvjpeg") == 0;
  /* Asked for a file it cannot write, nvJPEG is a mistake better said than ignored; an unknown
   * extension is left to the output's own check. */
  LmFileType type = o->output ? lm_file_type_for_output (o->output) : LM_FILE_UNKNOWN;
  if (o->nvjpeg && (o->output == NULL || (type != LM_FILE_JPEG && type != LM_FILE_UNKNOWN)))
    return lm_cli_usage_error (_("--jpeg-encoder nvjpeg writes JPEG files: give OUT a .jpg or .jpeg name"));
  if (o->depth != 8 && o->depth != 16)
    {
      g_autofree char *message = g_strdup_printf (_("--depth: %d bits: give 8 or 16"), o->depth);
      return lm_cli_usage_error (message);
    }
  if (o->depth == 16 && type == LM_FILE_JPEG)
    return lm_cli_usage_error (_("--depth 16: JPEG holds 8 bits per channel; write .png or .tif for 16"));
  if (o->depth == 16 && lm_file_type_is_radiance (type))
    return lm_cli_usage_error (_("--depth 16: a .hdr or .exr output holds float radiance, not tone-mapped 16-bit "
                                 "values; write .png or .tif"));
  /* A raw's scene (.exr) is developed without the display side's render that keeps the masks. */
  if (o->mask_out && lm_file_type_is_radiance (type))
    return lm_cli_usage_error (_("--mask-out goes with a .png, .jpg or .tif output, or none"));
  return LM_EXIT_OK;
}

static void
print_header (LmBackend *backend, const LmImage *image, double init_ms)
{
  printf ("%s: %s (%s %.2f ms)\n", _("backend"), backend->description, _("start-up"), init_ms);
  printf ("%s: %u×%u %s\n", _("image"), image->width, image->height, lm_format_name (image->format));
}

static int
fail (GError *error)
{
  lm_cli_error ("%s", error->message);
  g_error_free (error);
  return LM_EXIT_FAILURE;
}

typedef struct {
  LmBackendKind kind;
  gboolean nvjpeg; /* nvJPEG's start-up too */
  LmBackend *backend;
  GError *error;
  double ms;
} BackendStart;

static gpointer
start_backend (gpointer data)
{
  BackendStart *start = data;
  gint64 t = g_get_monotonic_time ();
  start->backend = lm_backend_new (start->kind, &start->error);
  if (start->backend && start->nvjpeg)
    lm_jpeg_gpu_prepare (start->backend);
  start->ms = lm_ms_since (t);
  return NULL;
}

/* The photo loaded, developed and saved, then GROUP (the outputs' atomic group, taken)
 * committed: its renames are the last of the writing, and --timings counts them. */
static gboolean
run (const Options *o, const LmPipeline *pipeline, LmBackendKind kind, LmAtomicGroup **group, LmTimings *timings,
     GPtrArray *notes, GError **error)
{
  const char *in_path = o->inputs[0];

  /* The GPU's start-up (the driver's context: 0.2-0.4 s on an H200; nvJPEG's, 0.3 s, where it
   * encodes) runs beside the input's load, which then goes to pageable memory instead of the
   * backend's pinned memory: the upload is slower by milliseconds, the whole command faster by
   * the load's time. */
  BackendStart start = { .kind = kind, .nvjpeg = o->nvjpeg };
  GThread *starting = kind == LM_BACKEND_CUDA ? g_thread_new ("lumen-cuda-init", start_backend, &start) : NULL;
  if (starting == NULL)
    {
      start_backend (&start);
      if (start.backend == NULL)
        {
          g_propagate_error (error, start.error);
          return FALSE;
        }
    }

  /* Fail on an unwritable output before the work, not after it. A raw's .exr is its scene. */
  GError *e = NULL;
  gboolean scene = o->output && lm_file_type_is_radiance (lm_file_type_for_output (o->output));
  gboolean writable = (o->output == NULL || lm_cli_check_output (o->output, o->raw, &e))
                      && (!scene || lm_raw_scene_output_check (o->output, &e))
                      && (o->mask_out == NULL || lm_cli_mask_check_output (o->mask_out, &e));
  /* What the person waits for from here on is the total that --timings prints. */
  gint64 t = g_get_monotonic_time (), work_start = t;
  /* Where the steps write host memory (the CPU's), their outputs are faulted in beside the
   * decoding, which keeps one core busy (prefault.h): a first write to fresh pages inside a
   * step cost it more than its work (bench/RESULTS.md, "The first run in a process"). */
  g_autoptr (LmPrefault) prefault = NULL;
  if (starting == NULL && o->output && !o->raw
      && lm_backend_work_allocator (start.backend)->memory == LM_MEMORY_HOST)
    prefault = lm_prefault_new (pipeline, lm_backend_work_allocator (start.backend), o->depth == 16);
  g_autoptr (LmImage) source = NULL;
  if (writable)
    source = lm_cli_load_photo_telling (in_path,
                                        starting ? lm_allocator_host () : lm_backend_host_allocator (start.backend),
                                        prefault ? lm_prefault_start : NULL, prefault, &e);
  double load_ms = lm_ms_since (t);
  double beside_ms = 0, wait_ms = 0;
  gsize faulted;
  g_autoptr (GPtrArray) buffers = prefault ? lm_prefault_finish (prefault, &beside_ms, &wait_ms, &faulted) : NULL;
  if (starting)
    g_thread_join (starting);
  /* What fails first says so first, as when one step followed the other. */
  g_autoptr (LmBackend) backend = start.backend;
  double init_ms = start.ms;
  if (backend == NULL)
    {
      g_clear_error (&e);
      g_propagate_error (error, start.error);
      return FALSE;
    }
  if (source == NULL)
    {
      g_propagate_error (error, e);
      return FALSE;
    }
  lm_timings_add (timings, _("load"), load_ms);
  /* Shown where the thread ran, even where the load left it no time to fault anything in. */
  if (prefault && lm_prefault_started (prefault))
    {
      lm_timings_add_beside (timings, _("pre-fault"), beside_ms, _("load"));
      lm_timings_add (timings, _("pre-fault wait"), wait_ms);
    }
  if (o->depth == 16 && o->output)
    {
      /* The edits run on 16-bit samples, as a 16-bit photo's do: their gradations survive. */
      t = g_get_monotonic_time ();
      LmImage *deep = lm_image_to_depth16 (source, source->allocator, error);
      if (deep == NULL)
        return FALSE;
      g_clear_pointer (&source, lm_image_unref);
      source = deep;
      lm_timings_add (timings, _("to 16 bits"), lm_ms_since (t));
    }
  /* 16-bit PNG and TIFF stay 16-bit; a layout read through an 8-bit path does not. */
  if (source->source_bit_depth > lm_format_depth (source->format))
    {
      g_autofree char *display = g_filename_display_name (in_path);
      g_printerr (_("lumen-cli: note: %s has %u bits per channel; Lumen reads this kind of file as 8 bits\n"),
                  display, source->source_bit_depth);
    }

  /* --mask-out alone has no use for the photo in host memory: it stays where it was rendered. */
  gboolean on_device = o->nvjpeg || o->output == NULL;
  g_autoptr (LmImage) mask = NULL;
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  LmBackend *used = g_steal_pointer (&backend);
  g_autoptr (LmImage) result = lm_develop_photo (&used, kind, in_path, source, pipeline, o->output, on_device,
                                                 o->mask_id, &mask, buffers, timings, said, &e);
  g_clear_pointer (&buffers, g_ptr_array_unref); /* those the render left unused */
  backend = used;
  for (guint i = 0; i < said->len; i++)
    lm_cli_error ("%s", (const char *) said->pdata[i]);
  g_ptr_array_set_size (said, 0);
  if (result == NULL)
    {
      g_propagate_error (error, e);
      return FALSE;
    }

  LmSaveOptions save = LM_SAVE_OPTIONS_INIT;
  save.quality = o->quality;
  save.to_srgb = o->to_srgb;
  save.png_level = o->png_level;
  save.notes = notes;
  gboolean saved = o->output == NULL || lm_develop_save (backend, result, o->output, o->nvjpeg, &save, timings, said, error);
  for (guint i = 0; i < said->len; i++)
    lm_cli_error ("%s", (const char *) said->pdata[i]);
  if (!saved)
    return FALSE;
  if (mask)
    {
      t = g_get_monotonic_time ();
      if (!lm_cli_mask_save (mask, o->mask_out, error))
        return FALSE;
      lm_timings_add (timings, _("save mask"), lm_ms_since (t));
    }
  t = g_get_monotonic_time ();
  if (!lm_atomic_group_commit (g_steal_pointer (group), error))
    return FALSE;
  lm_timings_add (timings, _("rename"), lm_ms_since (t));

  if (o->timings)
    {
      /* The lines add up to the time from the load to the renamed file: what no line names
       * (the colour profile's set-up, buffers freed, a fall-back's first attempt) is "other". */
      lm_timings_add (timings, _("other"), MAX (0.0, lm_ms_since (work_start) - lm_timings_total (timings)));
      print_header (backend, source, init_ms);
      lm_timings_print (timings, stdout);
    }
  return TRUE;
}

/* The preset (--params-out) and the photo, committed together or not at all: the preset is
 * written first, so that a place that cannot take it fails before the work, and renamed with
 * the photo. Without -o, the preset alone (parse () let only that through). */
static int
write_outputs (const Options *o, const LmPipeline *pipeline, LmBackendKind kind)
{
  GError *e = NULL;
  g_autoptr (LmAtomicGroup) group = lm_atomic_group_begin ();
  if (o->params_out && !lm_sidecar_write (o->params_out, pipeline, &e))
    return fail (e);
  /* What the writer could not keep is said once the output is there. */
  g_autoptr (GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  if (o->output || o->mask_out)
    {
      LmTimings timings;
      lm_timings_init (&timings);
      gboolean ok = run (o, pipeline, kind, &group, &timings, notes, &e);
      lm_timings_clear (&timings);
      if (!ok)
        return fail (e);
    }
  if (group && !lm_atomic_group_commit (g_steal_pointer (&group), &e))
    return fail (e);
  if (o->output)
    lm_cli_notes (o->output, notes);
  return LM_EXIT_OK;
}

int
lm_cli_process_main (int argc, char **argv)
{
  Options o = { .quality = 92, .png_level = LM_PNG_LEVEL_DEFAULT, .depth = 8 };
  g_autoptr (LmCliOps) ops = lm_cli_ops_new ();
  int rc = parse (&argc, &argv, &o, ops);
  if (rc == SHOW_VERSION)
    {
      printf ("lumen-cli %s\n", LUMEN_VERSION);
      rc = LM_EXIT_OK;
      goto out;
    }
  if (rc != LM_EXIT_OK)
    goto out;

  LmBackendKind kind;
  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);
  GError *e = NULL;
  const char *input = o.inputs ? o.inputs[0] : NULL;
  if (!lm_cli_parse_backend (o.backend, &kind, &e) || !lm_cli_ops_apply_for (ops, &pipeline, input, &e))
    {
      rc = e->domain == G_OPTION_ERROR ? lm_cli_usage_error (e->message) : fail (g_error_copy (e));
      g_error_free (e);
      goto out;
    }
  /* Fitted to the photo: its raw stage is on exactly when it is a raw. */
  o.raw = input != NULL && pipeline.raw.enabled;
  if (o.mask_out && !lm_cli_mask_instance (&pipeline, o.mask_instance, &o.mask_id, &e))
    {
      rc = fail (e);
      goto out;
    }
  rc = write_outputs (&o, &pipeline, kind);

out:
  g_free (o.backend);
  g_free (o.jpeg_encoder);
  g_free (o.output);
  g_free (o.params_out);
  g_free (o.mask_out);
  g_free (o.mask_instance);
  g_strfreev (o.inputs);
  return rc;
}

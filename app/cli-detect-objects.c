/* lumen-cli detect-objects --model NAME -o BOXES PHOTO: objects (faces, people, plates…)
 * found with one of opencv-data's cascades (core/detect/detect.h) on the chosen backend
 * (core/render/objects-run.h), written as
 * CSV (label, x, y, width, height, score) or, for a name ending in .json, JSON. The score is
 * the number of candidate windows grouped into the box (OpenCV's numDetections). --draw and
 * --blur-detected write the photo with the boxes outlined, or blurred (core/detect/annotate.h). */
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "core/detect/annotate.h"
#include "core/detect/detect.h"
#include "core/detect/models.h"
#include "core/error.h"
#include "core/io/atomic-file.h"
#include "core/io/depth.h"
#include "core/io/io.h"
#include "core/render/objects-run.h"

typedef struct {
  char *model;
  char *output;
  char *draw, *blur; /* the photo with the boxes outlined, blurred */
  char *min_size, *max_size;
  char *backend;
  double scale_factor;
  int min_neighbors;
  gboolean timings;
  char **inputs;
} Options;

/* "WxH" (or "W×H") as two sizes of at least 1; a usage error names the flag. */
static gboolean
parse_size (const char *flag, const char *text, int *width, int *height, GError **error)
{
  g_auto (GStrv) parts = g_regex_split_simple ("^\\s*(\\d{1,6})\\s*(?:x|X|×)\\s*(\\d{1,6})\\s*$", text, 0, 0);
  if (g_strv_length (parts) == 4 && parts[0][0] == '\0' && parts[3][0] == '\0')
    {
      *width = atoi (parts[1]);
      *height = atoi (parts[2]);
      if (*width >= 1 && *height >= 1)
        return TRUE;
    }
  g_autofree char *display = g_utf8_make_valid (text, -1);
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s: “%s” is not a size WIDTHxHEIGHT such as 30x30"),
               flag, display);
  return FALSE;
}

static void
append_json_string (GString *out, const char *text)
{
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      guchar c = (guchar) *p;
      if (c == '"' || c == '\\')
        g_string_append_printf (out, "\\%c", c);
      else if (c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, (char) c);
    }
  g_string_append_c (out, '"');
}

/* A CSV field: quoted where it holds a comma, a quote or a line break (RFC 4180). */
static void
append_csv_field (GString *out, const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static char *
boxes_text (const GArray *boxes, const char *label, gboolean json)
{
  GString *out = g_string_new (json ? "[" : "label,x,y,width,height,score\n");
  for (guint i = 0; i < boxes->len; i++)
    {
      const LmCascadeBox *b = &g_array_index (boxes, LmCascadeBox, i);
      if (json)
        {
          g_string_append (out, i ? ",\n  {\"label\": " : "\n  {\"label\": ");
          append_json_string (out, label);
          g_string_append_printf (out, ", \"x\": %d, \"y\": %d, \"width\": %d, \"height\": %d, \"score\": %d}", b->x,
                                  b->y, b->width, b->height, b->neighbors);
        }
      else
        {
          append_csv_field (out, label);
          g_string_append_printf (out, ",%d,%d,%d,%d,%d\n", b->x, b->y, b->width, b->height, b->neighbors);
        }
    }
  if (json)
    g_string_append (out, boxes->len ? "\n]\n" : "]\n");
  return g_string_free (out, FALSE);
}

/* The label of the boxes: the model's name, or a cascade file's name without .xml. */
static char *
model_label (const char *model)
{
  if (!strchr (model, '/') && !g_str_has_suffix (model, ".xml"))
    return g_strdup (model);
  g_autofree char *base = g_path_get_basename (model);
  if (g_str_has_suffix (base, ".xml"))
    base[strlen (base) - 4] = '\0';
  return g_filename_display_name (base);
}

static double
seconds_since (gint64 *start)
{
  gint64 now = g_get_monotonic_time ();
  double s = (now - *start) / 1e6;
  *start = now;
  return s;
}

static gboolean
detect (const Options *o, LmBackendKind kind, const LmCascadeParams *params, GError **error)
{
  gint64 clock = g_get_monotonic_time ();
  double model_s, photo_s, start_s, detect_s;
  g_autofree char *path = lm_cascade_model_path (o->model, error);
  if (path == NULL)
    return FALSE;
  g_autoptr (LmCascade) cascade = lm_cascade_load (path, error);
  if (cascade == NULL)
    return FALSE;
  model_s = seconds_since (&clock);
  const char *input = o->inputs[0];
  g_autoptr (LmImage) image = lm_cli_load_photo (input, lm_allocator_host (), error);
  if (image == NULL)
    return FALSE;
  lm_cli_notes (input, image->notes);
  photo_s = seconds_since (&clock);
  GError *local = NULL;
  g_autoptr (LmBackend) backend = lm_backend_new (kind, error);
  if (backend == NULL)
    return FALSE;
  start_s = seconds_since (&clock);
  g_autoptr (GArray) boxes = lm_objects_detect_photo (backend, cascade, image, params, NULL, &local);
  if (boxes == NULL && lm_cli_fall_back_to_cpu (kind, backend, local))
    {
      g_clear_error (&local);
      g_clear_pointer (&backend, lm_backend_free);
      backend = lm_backend_new (LM_BACKEND_CPU, &local);
      if (backend)
        boxes = lm_objects_detect_photo (backend, cascade, image, params, NULL, &local);
    }
  if (boxes == NULL)
    {
      lm_set_file_error (error, local->code, input, "%s", local->message);
      g_error_free (local);
      return FALSE;
    }
  detect_s = seconds_since (&clock);
  if (o->timings)
    {
      /* The second line is for scripts (bench/bench-detect.py): numbers in the same places. */
      printf ("%s: %s\n", _("backend"), backend->description);
      printf (_("model %.3f s, photo %.3f s, start-up %.3f s, detection %.3f s\n"), model_s, photo_s, start_s,
              detect_s);
    }
  g_autofree char *label = model_label (o->model);
  if (o->output)
    {
      gboolean json = g_str_has_suffix (o->output, ".json") || g_str_has_suffix (o->output, ".JSON");
      g_autofree char *text = boxes_text (boxes, label, json);
      if (!lm_atomic_file_write (o->output, text, strlen (text), error))
        return FALSE;
    }
  const LmCascadeBox *found = (const LmCascadeBox *) (gpointer) boxes->data;
  if (o->draw)
    {
      /* On a copy: the blur below starts from the photo as it was. */
      static const guint8 green[3] = { 0, 255, 0 };
      g_autoptr (LmImage) drawn = lm_image_cut (image, 0, 0, image->width, image->height, lm_allocator_host (), error);
      if (drawn)
        lm_image_copy_metadata (drawn, image);
      if (drawn == NULL || !lm_annotate_draw (drawn, found, boxes->len, green, error)
          || !lm_io_save (drawn, o->draw, NULL, error))
        return FALSE;
    }
  return o->blur == NULL
         || (lm_annotate_blur (image, found, boxes->len, error) && lm_io_save (image, o->blur, NULL, error));
}

/* Each output written can be: checked before the detection runs, so that none is left
 * without the others for a reason known at the start. */
static gboolean
outputs_writable (const Options *o, GError **error)
{
  const char *images[] = { o->draw, o->blur };
  for (guint i = 0; i < G_N_ELEMENTS (images); i++)
    if (images[i] && !lm_io_check_writable (images[i], error))
      return FALSE;
  return TRUE;
}

int
lm_cli_detect_objects_main (int argc, char **argv)
{
  Options o = { .scale_factor = 1.1, .min_neighbors = 3 };
  const GOptionEntry entries[] = {
    { "model", 'm', 0, G_OPTION_ARG_STRING, &o.model,
      N_("What to find: faces, faces-alt, faces-lbp, profile-faces, eyes, smiles, full-bodies, upper-bodies, "
         "lower-bodies, cat-faces, cat-faces-lbp, plates, or a cascade .xml file"),
      N_("NAME|FILE") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, N_("The boxes: CSV, or JSON for a name ending in .json"),
      N_("FILE") },
    { "draw", 0, 0, G_OPTION_ARG_FILENAME, &o.draw, N_("Also write the photo with the boxes outlined"), N_("FILE") },
    { "blur-detected", 0, 0, G_OPTION_ARG_FILENAME, &o.blur,
      N_("Also write the photo with what was found blurred (faces, plates), to publish"), N_("FILE") },
    LM_CLI_NUMBER_ENTRY ("scale-factor", N_("Size step between the scales tried (default 1.1)"), N_("F")),
    LM_CLI_NUMBER_ENTRY ("min-neighbors", N_("Keep a box only where more than N windows found it (default 3)"), N_("N")),
    { "min-size", 0, 0, G_OPTION_ARG_STRING, &o.min_size, N_("Smallest box tried"), N_("WxH") },
    { "max-size", 0, 0, G_OPTION_ARG_STRING, &o.max_size, N_("Largest box tried (default: the photo)"), N_("WxH") },
    { "backend", 0, 0, G_OPTION_ARG_STRING, &o.backend,
      N_("Where to compute: auto (CUDA when a device is usable), cpu or cuda"), N_("BACKEND") },
    { "timings", 0, 0, G_OPTION_ARG_NONE, &o.timings, N_("Print where the time went"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.inputs, NULL, NULL },
    { NULL },
  };
  static LmCliNumber numbers[2];
  numbers[0] = (LmCliNumber) { "--scale-factor", 1.0001, 100.0, FALSE, &o.scale_factor };
  numbers[1] = (LmCliNumber) { "--min-neighbors", 0.0, 1000.0, TRUE, &o.min_neighbors };
  lm_cli_numbers_add (numbers, G_N_ELEMENTS (numbers));
  g_autoptr (GOptionContext) context
    = lm_cli_options_new (_("PHOTO"),
                          _("Finds objects with one of OpenCV's cascade models (package opencv-data), as\n"
                            "cv2.CascadeClassifier.detectMultiScale finds them, and writes their boxes."),
                          NULL, NULL, entries);
  LmCascadeParams params;
  lm_cascade_params_init (&params);
  LmBackendKind kind = LM_BACKEND_AUTO;
  int rc = LM_EXIT_OK;
  GError *e = NULL;
  if (!lm_cli_options_parse (context, &argc, &argv))
    rc = LM_EXIT_USAGE;
  else if (o.inputs == NULL || o.inputs[0] == NULL || o.inputs[1] != NULL)
    rc = lm_cli_usage_error (_("give one photo"));
  else if (o.model == NULL)
    rc = lm_cli_usage_error (_("--model is required"));
  else if (o.output == NULL && o.draw == NULL && o.blur == NULL)
    rc = lm_cli_usage_error (_("nothing to write: give -o, --draw or --blur-detected"));
  else if ((o.min_size && !parse_size ("--min-size", o.min_size, &params.min_width, &params.min_height, &e))
           || (o.max_size && !parse_size ("--max-size", o.max_size, &params.max_width, &params.max_height, &e)))
    rc = lm_cli_usage_error (e->message);
  else if (!lm_cli_parse_backend (o.backend, &kind, &e))
    rc = lm_cli_usage_error (e->message);
  else
    {
      params.scale_factor = o.scale_factor;
      params.min_neighbors = o.min_neighbors;
      if (!outputs_writable (&o, &e) || !detect (&o, kind, &params, &e))
        {
          lm_cli_error ("%s", e->message);
          rc = LM_EXIT_FAILURE;
        }
    }
  g_clear_error (&e);
  g_free (o.model);
  g_free (o.output);
  g_free (o.draw);
  g_free (o.blur);
  g_free (o.min_size);
  g_free (o.max_size);
  g_free (o.backend);
  g_strfreev (o.inputs);
  return rc;
}

/* lumen-cli detect-objects --model NAME -o BOXES PHOTO: objects (faces, people, plates…)
 * found with one of opencv-data's cascades (core/detect/detect.h) on the chosen backend
 * (core/render/objects-run.h), written as CSV or JSON (cli-objects-text.h). --draw and
 * --blur-detected write the photo with the boxes outlined, or blurred (core/detect/annotate.h).
 * Its flags for the model and the detection are batch detect-objects' (cli-objects-options.h). */
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "cli-objects-options.h"
#include "cli-objects-text.h"
#include "core/detect/annotate.h"
#include "core/detect/detect.h"
#include "core/error.h"
#include "core/io/atomic-file.h"
#include "core/io/depth.h"
#include "core/io/io.h"
#include "core/render/objects-run.h"

typedef struct {
  LmCliObjects objects;
  char *output;
  char *draw, *blur; /* the photo with the boxes outlined, blurred */
  gboolean timings;
  char **inputs;
} Options;

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
  g_autofree char *label = NULL;
  g_autoptr (LmCascade) cascade = lm_cli_objects_load (&o->objects, &label, error);
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
  if (o->output)
    {
      g_autofree char *text = lm_cli_boxes_text (boxes, label, lm_cli_boxes_json (o->output));
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
  Options o = { .objects = LM_CLI_OBJECTS_INIT };
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, N_("The boxes: CSV, or JSON for a name ending in .json"),
      N_("FILE") },
    { "draw", 0, 0, G_OPTION_ARG_FILENAME, &o.draw, N_("Also write the photo with the boxes outlined"), N_("FILE") },
    { "blur-detected", 0, 0, G_OPTION_ARG_FILENAME, &o.blur,
      N_("Also write the photo with what was found blurred (faces, plates), to publish"), N_("FILE") },
    { "timings", 0, 0, G_OPTION_ARG_NONE, &o.timings, N_("Print where the time went"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.inputs, NULL, NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context
    = lm_cli_options_new (_("PHOTO"),
                          _("Finds objects with one of OpenCV's cascade models (package opencv-data), as\n"
                            "cv2.CascadeClassifier.detectMultiScale finds them, and writes their boxes."),
                          NULL, NULL, entries);
  lm_cli_objects_add_entries (context, &o.objects);
  LmCascadeParams params;
  LmBackendKind kind = LM_BACKEND_AUTO;
  int rc = LM_EXIT_OK;
  GError *e = NULL;
  if (!lm_cli_options_parse (context, &argc, &argv))
    rc = LM_EXIT_USAGE;
  else if (o.inputs == NULL || o.inputs[0] == NULL || o.inputs[1] != NULL)
    rc = lm_cli_usage_error (_("give one photo"));
  else if (!lm_cli_objects_params (&o.objects, &params, &kind, &e))
    rc = lm_cli_usage_error (e->message);
  else if (o.output == NULL && o.draw == NULL && o.blur == NULL)
    rc = lm_cli_usage_error (_("nothing to write: give -o, --draw or --blur-detected"));
  else if (!outputs_writable (&o, &e) || !detect (&o, kind, &params, &e))
    {
      lm_cli_error ("%s", e->message);
      rc = LM_EXIT_FAILURE;
    }
  g_clear_error (&e);
  lm_cli_objects_clear (&o.objects);
  g_free (o.output);
  g_free (o.draw);
  g_free (o.blur);
  g_strfreev (o.inputs);
  return rc;
}

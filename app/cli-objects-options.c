/* The flags of object detection shared by detect-objects and its batch (cli-objects-options.h). */
#include "cli-objects-options.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "core/detect/models.h"

void
lm_cli_objects_add_entries (GOptionContext *context, LmCliObjects *o)
{
  /* Static, as lm_cli_numbers_add and GOption want them alive until the parse ends; one
   * command parses per run. */
  static LmCliNumber numbers[2];
  static GOptionEntry entries[7];
  numbers[0] = (LmCliNumber) { "--scale-factor", 1.0001, 100.0, FALSE, &o->scale_factor };
  numbers[1] = (LmCliNumber) { "--min-neighbors", 0.0, 1000.0, TRUE, &o->min_neighbors };
  lm_cli_numbers_add (numbers, G_N_ELEMENTS (numbers));
  const GOptionEntry shared[G_N_ELEMENTS (entries)] = {
    { "model", 'm', 0, G_OPTION_ARG_STRING, &o->model,
      N_("What to find: faces, faces-alt, faces-lbp, profile-faces, eyes, smiles, full-bodies, upper-bodies, "
         "lower-bodies, cat-faces, cat-faces-lbp, plates, or a cascade .xml file"),
      N_("NAME|FILE") },
    LM_CLI_NUMBER_ENTRY ("scale-factor", N_("Size step between the scales tried (default 1.1)"), N_("F")),
    LM_CLI_NUMBER_ENTRY ("min-neighbors", N_("Keep a box only where more than N windows found it (default 3)"), N_("N")),
    { "min-size", 0, 0, G_OPTION_ARG_STRING, &o->min_size, N_("Smallest box tried"), N_("WxH") },
    { "max-size", 0, 0, G_OPTION_ARG_STRING, &o->max_size, N_("Largest box tried (default: the photo)"), N_("WxH") },
    { "backend", 0, 0, G_OPTION_ARG_STRING, &o->backend,
      N_("Where to compute: auto (CUDA when a device is usable), cpu or cuda"), N_("BACKEND") },
    { NULL },
  };
  memcpy (entries, shared, sizeof entries);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
}

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

gboolean
lm_cli_objects_params (const LmCliObjects *o, LmCascadeParams *params, LmBackendKind *kind, GError **error)
{
  lm_cascade_params_init (params);
  if (o->model == NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--model is required"));
      return FALSE;
    }
  if ((o->min_size && !parse_size ("--min-size", o->min_size, &params->min_width, &params->min_height, error))
      || (o->max_size && !parse_size ("--max-size", o->max_size, &params->max_width, &params->max_height, error)))
    return FALSE;
  params->scale_factor = o->scale_factor;
  params->min_neighbors = o->min_neighbors;
  return lm_cli_parse_backend (o->backend, kind, error);
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

LmCascade *
lm_cli_objects_load (const LmCliObjects *o, char **label, GError **error)
{
  g_autofree char *path = lm_cascade_model_path (o->model, error);
  if (path == NULL)
    return NULL;
  LmCascade *cascade = lm_cascade_load (path, error);
  if (cascade)
    *label = model_label (o->model);
  return cascade;
}

void
lm_cli_objects_clear (LmCliObjects *o)
{
  g_clear_pointer (&o->model, g_free);
  g_clear_pointer (&o->min_size, g_free);
  g_clear_pointer (&o->max_size, g_free);
  g_clear_pointer (&o->backend, g_free);
}

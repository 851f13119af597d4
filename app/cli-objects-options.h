/* The flags that lumen-cli detect-objects and batch detect-objects share: the model, the
 * detection's parameters (as detectMultiScale's) and the backend, parsed once for both. */
#pragma once

#include <glib.h>

#include "core/backend/backend.h"
#include "core/detect/cascade.h"
#include "core/detect/detect.h"

G_BEGIN_DECLS

typedef struct {
  char *model;
  char *min_size, *max_size;
  char *backend;
  double scale_factor;
  int min_neighbors;
} LmCliObjects;

#define LM_CLI_OBJECTS_INIT { .scale_factor = 1.1, .min_neighbors = 3 }

/* --model, --scale-factor, --min-neighbors, --min-size, --max-size and --backend into O, as
 * CONTEXT's main entries (once per run, before the parse). */
void lm_cli_objects_add_entries (GOptionContext *context, LmCliObjects *o);

/* O's parameters and backend; a usage error (G_OPTION_ERROR) naming the flag, or that
 * --model is missing. */
gboolean lm_cli_objects_params (const LmCliObjects *o, LmCascadeParams *params, LmBackendKind *kind,
                                GError **error);

/* The model's cascade, read once; LABEL: what the boxes are called (the model's name, or a
 * cascade file's name without .xml). */
LmCascade *lm_cli_objects_load (const LmCliObjects *o, char **label, GError **error);

void lm_cli_objects_clear (LmCliObjects *o);

G_END_DECLS

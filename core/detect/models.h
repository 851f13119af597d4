/* The object models Lumen offers by name: opencv-data's cascade files, found where Debian
 * installs them (/usr/share/opencv4) or under LUMEN_CASCADE_DIR. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  const char *name;  /* what --model and the Detect panel take: "faces" */
  const char *file;  /* under the cascade folder: "haarcascades/haarcascade_frontalface_default.xml" */
  const char *label; /* translatable, for lists: N_("Faces (frontal)") */
} LmCascadeModel;

/* The models by name, ending with a NULL name. */
const LmCascadeModel *lm_cascade_models (void);

/* The cascade file that NAME means: a model's name, or a path to a cascade file (it has a
 * '/' or ends in .xml). NULL with a one-line message where the name is unknown (the message
 * lists the names) or the model's file is not installed (it says to install opencv-data). */
char *lm_cascade_model_path (const char *name, GError **error);

G_END_DECLS

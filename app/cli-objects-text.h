/* The boxes that detect-objects and its batch write: CSV, or JSON for a name ending in .json.
 * The score is the number of candidate windows grouped into the box (OpenCV's numDetections). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether PATH asks for JSON (it ends in .json, either case). */
gboolean lm_cli_boxes_json (const char *path);

/* One photo's BOXES (LmCascadeBox): CSV lines label,x,y,width,height,score under a header,
 * or a JSON array of {"label", "x", "y", "width", "height", "score"}. */
char *lm_cli_boxes_text (const GArray *boxes, const char *label, gboolean json);

/* A photo of a batch: its name, and its boxes or (BOXES NULL) why it has none. */
typedef struct {
  const char *file;
  const GArray *boxes;
  const char *error;
} LmCliPhotoBoxes;

/* N photos' boxes in their order: CSV lines file,label,x,y,width,height,score (a photo that
 * failed has no line), or a JSON array of {"file", "boxes": [as above]} with "error" in place
 * of "boxes" for a photo that failed. */
char *lm_cli_batch_boxes_text (const LmCliPhotoBoxes *photos, guint n, const char *label, gboolean json);

G_END_DECLS

/* What detect-objects makes of the boxes it found besides a list: the photo with the boxes
 * drawn on it (a look at what was found), and the photo with them blurred (faces and plates
 * hidden before publishing). Both change IMAGE in place, for 8- and 16-bit photos. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "group.h"

G_BEGIN_DECLS

/* Each of the N BOXES outlined by a band of lm_annotate_line_width pixels inside it, in
 * RGB (8-bit, scaled to 16 bits where IMAGE is 16-bit). */
gboolean lm_annotate_draw (LmImage *image, const LmCascadeBox *boxes, guint n, const guint8 rgb[3], GError **error);
/* The outline's width for a photo of WIDTH × HEIGHT: its short side / 400, at least 2. */
guint lm_annotate_line_width (guint width, guint height);

/* Each of the N BOXES replaced by the photo blurred with a Gaussian of σ
 * lm_annotate_blur_sigma (the box), its taps reaching past the box into the photo and
 * reflected at the photo's edges only, as a blur of the whole photo has them: strong enough
 * that a face or a plate cannot be read. */
gboolean lm_annotate_blur (LmImage *image, const LmCascadeBox *boxes, guint n, GError **error);
/* σ for a box: its longer side / 8, from 2 to the blur's largest. */
float lm_annotate_blur_sigma (const LmCascadeBox *box);

G_END_DECLS

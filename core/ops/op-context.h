/* What a render knows beyond an operation's parameters, as the operation's commit step reads
 * it (op.h, LmOpInfo.commit): the photo's colour space, as plain numbers and two functions,
 * so that ops/ needs nothing of core/color (core/edit/commit.c fills it from the photo's
 * profile). GLib-free: the math headers that keep a commit's result include it. */
#pragma once

typedef struct {
  /* The profile, opaque here; NULL for sRGB (and any profile that is sRGB), whose constants
   * the operations use then, the same bytes as before profiles were read. The rest is
   * meaningful only when SPACE is not NULL. */
  const void *space;
  /* Channel C's (0 R, 1 G, 2 B) encoded value V (0..1) to linear light, and back. */
  double (*to_linear) (const void *space, int c, double v);
  double (*from_linear) (const void *space, int c, double l);
  double luminance[3];     /* the Y of each primary: grayscale's "luminosity" weights */
  double xyz_to_rgb[3][3]; /* XYZ (under the profile's white) to its linear RGB */
} LmOpColor;

/* What the photo says about how it was taken (its EXIF, or a raw's metadata): the lens
 * correction's camera, lens, focal length and aperture. Empty strings and zeros where it says
 * nothing. */
typedef struct {
  char make[64], model[64], lens[128];
  float focal_mm, f_number;
  float focal35_mm; /* the 35 mm equivalent: with focal_mm, the sensor's crop factor */
  float distance_m; /* the subject's distance */
} LmShotInfo;

struct LmLensProfile;

typedef struct {
  LmOpColor color; /* the source's colour space */
  const LmShotInfo *shot; /* NULL: nothing known */
  /* The lens correction's lookup in lensfun's database (core/lens/lens-db.c), so that ops/
   * needs nothing of lensfun: CAMERA and LENS name them (empty: SHOT's), FOCAL and APERTURE
   * (0: SHOT's); fills OUT, its status saying what was found. NULL: no lookup (a disabled
   * stage: nothing corrected). */
  void (*lens_find) (const LmShotInfo *shot, const char *camera, const char *lens, float focal, float aperture,
                     struct LmLensProfile *out);
} LmOpContext;

/* LmPipeline: the ordered operations with their parameters and enable flags, as plain
 * data (a render request carries a copy), and its sidecar form (a GKeyFile). When the
 * source is HDR radiance (or an exposure fusion), tone mapping turns it into 8 bits first;
 * the operations then apply to that. */
#pragma once

#include <glib.h>

#include "../hdr/tonemap.h"
#include "../ops/op.h"
#include "../raw/develop.h"

G_BEGIN_DECLS

typedef struct {
  const LmOpInfo *info;
  gboolean enabled;
  /* The operation's parameter struct, written and read through casts of BYTES. The union
   * names every such struct (generated from op-list.h): C's aliasing rule then allows
   * those casts, and GCC's type-based alias analysis knows that a copy of a stage or a
   * pipeline reads what they wrote. Without them GCC -O3 moved a float parameter's store past
   * a block copy of the pipeline (test-history lost undo steps once the pipeline grew). */
  union {
    guint8 bytes[LM_OP_PARAMS_MAX];
    double align;
#define LM_OP(ID, name, Name, KIND) Lm##Name##Params name;
#include "../ops/op-list.h"
#undef LM_OP
    LmTonemapParams tonemap;
    LmRawParams raw;
  } params;
} LmStage;

typedef struct {
  LmStage stages[LM_N_OPS]; /* in registry order */
  /* Of lm_tonemap_op_info (), always enabled, params an LmTonemapParams: used only when the
   * source is RGBA_F32. A stage, so that the sidecar, the panel, the cache and equality
   * treat it as they treat operations. */
  LmStage tonemap;
  /* Of lm_raw_op_info (), params an LmRawParams: the development, used only when the source
   * is a camera's sensor data (lm_image_is_raw), before the tone mapping. ENABLED says only
   * that the pipeline is a raw's (lm_pipeline_for_raw): its sidecar then has a [raw] group. */
  LmStage raw;
} LmPipeline;

/* Every operation in order, disabled, with default parameters; tone mapping's defaults. */
void lm_pipeline_init (LmPipeline *pipeline);

/* Tone mapping described like an operation (name "tonemap", its parameters over
 * LmTonemapParams with ranges, defaults and labels), for the sidecar's [tonemap] group, the
 * window's panel and the timings. It is not in the operations' registry: it runs only on
 * radiance, before them. Its id is LM_N_OPS. A parameter's "when" may list alternatives:
 * "kind=gamma|reinhard|drago". */
const LmOpInfo *lm_tonemap_op_info (void);

static inline LmTonemapParams *
lm_pipeline_tonemap (LmPipeline *pipeline)
{
  return &pipeline->tonemap.params.tonemap;
}

static inline LmRawParams *
lm_pipeline_raw (LmPipeline *pipeline)
{
  return &pipeline->raw.params.raw;
}

/* PIPELINE made a raw's: the [raw] group is written, and the display transform is the
 * scene-referred one (the sigmoid) rather than the HDR merges' default. */
void lm_pipeline_for_raw (LmPipeline *pipeline);

/* PIPELINE, made on another photo (pasted, applied to many, read from a preset), fitted to a
 * source that is a RAW or not: a raw's keeps its own development and display transform where
 * PIPELINE is not a raw's; any other photo's has no raw stage (and so no [raw] group). */
void lm_pipeline_fit_source (LmPipeline *pipeline, gboolean raw);

/* The stage of the operation ID; LM_N_OPS is tone mapping's, LM_N_OPS + 1 the raw stage's. */
static inline LmStage *
lm_pipeline_stage (LmPipeline *pipeline, LmOpId id)
{
  if ((int) id == LM_N_OPS)
    return &pipeline->tonemap;
  if ((int) id == LM_N_OPS + 1)
    return &pipeline->raw;
  return &pipeline->stages[id];
}

/* Commits PIPELINE for a render of a source in the colour space PROFILE (core/color/profile.h;
 * NULL: sRGB): each operation's commit step (op.h) derives what it needs from it (grayscale's
 * luminosity weights, the curves white balance and exposure work through) into the fields of
 * its struct that are not parameters (no sidecar key, no flag). The render cache does this on
 * its copy of each pipeline it runs (lm_render_cache_set_color), so that the window and
 * lumen-cli agree; pipelines the user edits never hold it. NULL or an sRGB profile leaves those
 * fields empty: sRGB's code paths, the same bytes as before. PROFILE must outlive PIPELINE's
 * use. Defined in commit.c. */
typedef struct _LmColorProfile LmColorProfile;
void lm_pipeline_set_color (LmPipeline *pipeline, const LmColorProfile *profile);
/* The same, and SHOT (how the photo was taken: core/io/exif-shot.h; NULL: unknown), which the
 * lens correction looks its lens up by (read during the call only; a disabled stage looks
 * nothing up). */
void lm_pipeline_commit (LmPipeline *pipeline, const LmColorProfile *profile, const LmShotInfo *shot);
/* Whether committed PIPELINE's enabled operations can do what they ask (op.h, check); else
 * FALSE with the first one's reason. */
gboolean lm_pipeline_check (const LmPipeline *pipeline, GError **error);

/* TRUE when the two pipelines would render the same image from any source. */
gboolean lm_pipeline_equal (const LmPipeline *a, const LmPipeline *b);

/* PIPELINE for an image shrunk FACTOR times (lengths in pixels divided by FACTOR): what a
 * quick preview at the view's scale renders. */
void lm_pipeline_scale (LmPipeline *pipeline, double factor);

/* The size PIPELINE renders a source of WIDTH × HEIGHT at: what geometry (crop, rotation,
 * straightening, the export's resize) makes of it. */
void lm_pipeline_output_size (const LmPipeline *pipeline, guint width, guint height, guint *out_width,
                              guint *out_height);

/* PIPELINE as the window's view renders it: without the operations that only an export runs
 * (LM_KIND_EXPORT: the resize). */
void lm_pipeline_for_view (LmPipeline *pipeline);

/* TRUE when the two pipelines would render the same image. */
gboolean lm_stage_equal (const LmStage *a, const LmStage *b);

/* The version of the sidecar's form that this Lumen writes and the newest it reads. A
 * sidecar says it in its first group, [lumen] version=N; one without that group (written
 * before there was one, or a preset typed by hand) is version 1. A later Lumen that changes
 * what a key means raises it, so that this one refuses such a file instead of misreading it. */
#define LM_SIDECAR_VERSION 1

/* The key, in each operation's group, of its parameters' version (LmOpInfo.version): no
 * operation has a parameter of that name. A group without it is of version 1 (sidecars
 * written before there was one, presets typed by hand). */
#define LM_PARAMS_VERSION_KEY "version"

/* Sidecar form: [lumen] with version=LM_SIDECAR_VERSION first, then one group per operation,
 * its parameters' version, "enabled" and each parameter by name, and a [tonemap] group with
 * its version and parameters. Reading starts from PIPELINE's values, so a sidecar may name
 * only what it changes; it refuses a version above LM_SIDECAR_VERSION before it reads any
 * other group, and an operation's group of a version above the operation's. */
GKeyFile *lm_pipeline_to_keyfile (const LmPipeline *pipeline);
gboolean lm_pipeline_from_keyfile (LmPipeline *pipeline, GKeyFile *keyfile, GError **error);

/* GROUP of KEYFILE into STAGE (whose info says the operation): its parameters, and
 * "enabled" where WITH_ENABLED. A group of an older parameter version goes through the
 * operation's legacy_params first (on a copy: KEYFILE is left as it is); one of a newer
 * version is refused, saying so. */
gboolean lm_stage_from_keyfile (LmStage *stage, GKeyFile *keyfile, const char *group, gboolean with_enabled,
                                GError **error);

/* Reads a sidecar's TEXT (LEN bytes) into PIPELINE as lm_pipeline_from_keyfile does, after
 * lm_sidecar_text_check (sidecar-text.h): what GKeyFile would take silently (a group or a key
 * given twice, a localized key) is refused. Messages quote at most what lm_text_quote keeps. */
gboolean lm_pipeline_from_text (LmPipeline *pipeline, const char *text, gsize len, GError **error);

/* Reads the sidecar file PATH into PIPELINE as lm_pipeline_from_text does. It must be a
 * regular file within lm_text_file_read's bound; every message names the file and quotes no
 * more of it than lm_text_quote keeps. */
gboolean lm_pipeline_load_sidecar (LmPipeline *pipeline, const char *path, GError **error);

/* PIPELINE with only its geometry kept (and tone mapping; a raw's development and display
 * transform at their defaults): the photo as opened, cropped and turned as the edit is, so
 * that it lies in the same pixels as the edited one (the window's "before"). */
void lm_pipeline_geometry_only (LmPipeline *pipeline);

/* The point of a source of SRC_W × SRC_H whose pixel PIPELINE's output shows at (X, Y)
 * (pixel (i, j) centred on (i, j)), through each enabled operation's map_back, last first:
 * (*SX, *SY). TRUE when it lies on the source. */
gboolean lm_pipeline_source_point (const LmPipeline *pipeline, guint src_w, guint src_h, double x,
                                   double y, double *sx, double *sy);

G_END_DECLS

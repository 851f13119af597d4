/* LmPipeline: the ordered operations with their parameters and enable flags, as plain
 * data (a render request carries a copy), and its sidecar form (a GKeyFile). When the
 * source is HDR radiance (or an exposure fusion), tone mapping turns it into 8 bits first;
 * the operations then apply to that. */
#pragma once

#include <glib.h>

#include "../hdr/tonemap.h"
#include "../ops/mask-math.h"
#include "../ops/op.h"
#include "../raw/develop.h"

G_BEGIN_DECLS

typedef struct {
  const LmOpInfo *info;
  gboolean enabled;
  /* Unique in its pipeline and kept across edits: what the render cache keys its entries by
   * and the sidecar's [<op>#<id>] names. A primary instance (the one per operation that the CLI
   * flags, version 1 sidecars and lm_pipeline_stage reach) has LM_PRIMARY_ID (its op); others
   * have ids from LM_INSTANCE_ID_FIRST up. */
  guint32 id;
  gint8 mask;        /* index into the pipeline's masks, or -1: none */
  char name[48];     /* UTF-8, given by the user; "" for a primary never renamed */
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

/* Instances a pipeline holds: a primary per operation (19 once issue 32's operations are in)
 * and 21 more. A pipeline is copied by value (history keeps up to 500 states, a render request
 * carries one): at 40 stages of 648 bytes and 8 masks of 856 it is 34 KB, history's worst
 * 17 MB (it was 8 KB and 4 MB). */
#define LM_PIPELINE_MAX 40
#define LM_PIPELINE_MASKS 8
/* Ids: a primary's is its op's id + 1 (the registry holds at most 32 operations, LM_OP_BIT),
 * tone mapping's and the raw stage's theirs likewise; other instances' start above, so that a
 * sidecar's ids never meet a primary's in a Lumen with more operations. */
#define LM_PRIMARY_ID(op) ((guint32) (op) + 1u)
#define LM_INSTANCE_ID_FIRST 64u
#define LM_INSTANCE_ID_END 0xfffffff0u /* ids are below it; the render's own keys from it up */

typedef struct {
  guint n;
  /* The instances in render order: geometry first (each geometry operation once), the export's
   * resize last; a new pipeline has every operation's primary in registry order. */
  LmStage inst[LM_PIPELINE_MAX];
  LmMask masks[LM_PIPELINE_MASKS]; /* referenced by LmStage.mask, each by one instance at most */
  guint32 next_id;                 /* the id the next instance gets */
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

/* The primary instance of the operation ID; LM_N_OPS is tone mapping's, LM_N_OPS + 1 the raw
 * stage's. A pipeline always has one primary per operation (lm_pipeline_check). */
static inline LmStage *
lm_pipeline_stage (LmPipeline *pipeline, LmOpId id)
{
  if ((int) id == LM_N_OPS)
    return &pipeline->tonemap;
  if ((int) id == LM_N_OPS + 1)
    return &pipeline->raw;
  for (guint i = 0; i < pipeline->n; i++)
    if (pipeline->inst[i].id == LM_PRIMARY_ID (id))
      return &pipeline->inst[i];
  g_return_val_if_reached (NULL);
}

/* lm_pipeline_stage of a pipeline that is only read. */
static inline const LmStage *
lm_pipeline_primary (const LmPipeline *pipeline, LmOpId id)
{
  return lm_pipeline_stage ((LmPipeline *) pipeline, id);
}

/* TRUE for the primary instance of its operation. */
static inline gboolean
lm_stage_is_primary (const LmStage *stage)
{
  return stage->id == LM_PRIMARY_ID (stage->info->id);
}

/* The mask of STAGE (an instance of PIPELINE), or NULL. */
static inline const LmMask *
lm_pipeline_stage_mask (const LmPipeline *pipeline, const LmStage *stage)
{
  return stage->mask >= 0 ? &pipeline->masks[stage->mask] : NULL;
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
gboolean lm_pipeline_check_ops (const LmPipeline *pipeline, GError **error);
/* Why PIPELINE's enabled lens correction leaves SOURCE as it is (lm_lens_note: the photo names
 * no lens, lensfun is missing), committed with PROFILE and SOURCE's shot; NULL where it is off
 * or corrects. A render lets such a photo through uncorrected (lm_pipeline_check_ops):
 * lumen-cli refuses it with this reason, the window shows it. Defined in commit.c. */
char *lm_pipeline_lens_note (const LmPipeline *pipeline, const LmColorProfile *profile, const LmImage *source);
/* lm_pipeline_source_point for SOURCE, through PIPELINE committed with SOURCE's shot: the
 * lens correction's map_back needs the profile its commit looks up (uncommitted, it is the
 * identity). Defined in commit.c. */
gboolean lm_pipeline_photo_point (const LmPipeline *pipeline, const LmImage *source, double x, double y, double *sx,
                                  double *sy);

/* TRUE when the two pipelines would render the same image from any source and have the same
 * instances (ids, names, order, masks): what history and the sidecar tell apart. */
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

/* Instances (instances.c). Each returns FALSE with a one-line message where the pipeline has
 * no room or the change would break lm_pipeline_check's rules. */

/* The index of the instance of id ID, or -1. */
int lm_pipeline_find (const LmPipeline *pipeline, guint32 id);

/* A new instance of OP (not geometry), disabled with default parameters, after OP's last
 * instance, named "<Label> N"; its index in *INDEX. */
gboolean lm_pipeline_add (LmPipeline *pipeline, LmOpId op, int *index, GError **error);

/* A copy of instance INDEX (not geometry) after it, with a new id, a name "<Label> N" and a
 * copy of its mask; its index in *NEW_INDEX. */
gboolean lm_pipeline_duplicate (LmPipeline *pipeline, guint index, int *new_index, GError **error);

/* Removes instance INDEX and frees its mask; a primary is kept, disabled and unmasked (the
 * CLI's flags and a version 1 sidecar reach it). */
void lm_pipeline_remove (LmPipeline *pipeline, guint index);

/* Moves instance INDEX one place up (DELTA -1) or down (+1), between the geometry and the
 * export's resize, which stay where they are. */
gboolean lm_pipeline_move (LmPipeline *pipeline, guint index, int delta, GError **error);

/* NAME (UTF-8, no control characters, < 48 bytes; "" gives a primary its operation's label
 * back, another instance a fresh "<Label> N") for instance INDEX. */
gboolean lm_pipeline_rename (LmPipeline *pipeline, guint index, const char *name, GError **error);

/* STAGE's group in a sidecar: its operation's name for a primary, "<operation>#<id>" for
 * another instance. g_free it. */
char *lm_stage_group_name (const LmStage *stage);

/* What a message calls STAGE: its name, else its sidecar group. g_free it. */
char *lm_stage_display_name (const LmStage *stage);

/* NAME for STAGE as it is (lm_pipeline_rename's rules, "" kept as ""): what a sidecar gives. */
gboolean lm_stage_set_name (LmStage *stage, const char *name, GError **error);

/* MASK for instance INDEX (replacing any it had), in a free slot of the pipeline's masks. */
gboolean lm_pipeline_mask_attach (LmPipeline *pipeline, guint index, const LmMask *mask, GError **error);
void lm_pipeline_mask_detach (LmPipeline *pipeline, guint index);

/* TRUE when PIPELINE keeps the rules every edit keeps (run after every load): each geometry
 * operation once and first, in registry order, the export's resize once and last, one primary
 * per operation, ids unique, each mask referenced by one instance at most. */
gboolean lm_pipeline_check (const LmPipeline *pipeline, GError **error);

/* TRUE when PIPELINE has only its primaries, in registry order, unnamed and unmasked: what a
 * version 1 sidecar says. */
gboolean lm_pipeline_is_primary_only (const LmPipeline *pipeline);

/* The version of the sidecar's form that this Lumen writes and the newest it reads. A
 * sidecar says it in its first group, [lumen] version=N; one without that group (written
 * before there was one, or a preset typed by hand) is version 1. A later Lumen that changes
 * what a key means raises it, so that this one refuses such a file instead of misreading it. */
#define LM_SIDECAR_VERSION 2

/* The key, in each operation's group, of its parameters' version (LmOpInfo.version): no
 * operation has a parameter of that name. A group without it is of version 1 (sidecars
 * written before there was one, presets typed by hand). */
#define LM_PARAMS_VERSION_KEY "version"

/* Sidecar form: [lumen] with its version first, then one group per instance, its parameters'
 * version, "enabled" and each parameter by name, and a [tonemap] group with its version and
 * parameters. Version 1 (what a pipeline of primaries alone, in registry order, unnamed and
 * unmasked, is still written as, for older Lumens) has one group per operation, named after it.
 * Version 2 adds [lumen] order= (the instances' groups in render order), [<op>#<id>] groups for
 * instances other than the primaries, "name" in any instance's group, and "[<group> mask]"
 * groups (sidecar-masks.c). Reading starts from PIPELINE's values, so a sidecar may name only
 * what it changes; it refuses a version above LM_SIDECAR_VERSION before it reads any other
 * group, an operation's group of a version above the operation's, and a pipeline that
 * lm_pipeline_check refuses. */
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

/* Operations: what each one is (name, parameters with their ranges and defaults, CPU
 * reference) described once, for the CLI, the UI, the pipeline and both backends. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "curve-points.h"
#include "op-context.h"
#include "op-id.h"
#include "param-decl.h"
#include "tile-math.h"

G_BEGIN_DECLS

/* A rectangle of pixels: columns X..X+WIDTH-1, rows Y..Y+HEIGHT-1. */
typedef struct {
  guint x, y, width, height;
} LmRect;

typedef enum {
  LM_PARAM_FLOAT, /* stored as float */
  LM_PARAM_ENUM,  /* stored as int; values by nick */
  LM_PARAM_CURVE, /* stored as LmCurvePoints; min and max bound x and y; the default is the
                   * straight line from (min, min) to (max, max) */
  LM_PARAM_TEXT,  /* stored as LmParamText; max is its longest length in bytes; default "" */
} LmParamType;

typedef struct {
  const char *nick;  /* as typed on the command line and stored in sidecars */
  const char *label; /* translatable, N_() */
} LmEnumValue;

typedef struct {
  const char *name;  /* "amount": the CLI flag is --<op>-<name>, except the op's first */
  const char *label; /* translatable, N_() */
  LmParamType type;
  gsize offset;      /* into the op's parameter struct */
  double min, max, def;
  const LmEnumValue *values; /* LM_PARAM_ENUM only, NULL-terminated by nick */
  gboolean in_pixels;        /* a length in image pixels: scales with a shrunk preview */
  const char *when;          /* "param=nick": used only then (the UI greys it out otherwise) */
  double step;               /* the window's slider step (LM_PARAM_FLOAT) */
  const char *unit;          /* "EV", "K", "px", "°"; NULL: none */
  const char *choices;       /* LM_PARAM_TEXT, optional: the names the window offers as one types
                              * ("lenses", "cameras": lensfun's, ui/op-panel.c) */
} LmParamSpec;

/* One row of an operation's parameter list (param-decl.h) as its LmParamSpec, for the struct
 * that LM_PARAM_STRUCT names at the point of use:
 *   #define LM_PARAM_STRUCT LmGrayParams
 *   static const LmParamSpec gray_params[] = { LM_GRAY_PARAMS (LM_PARAM_SPEC) }; */
#define LM_PARAM_SPEC(TYPE, name_, label_, min_, max_, def_, step_, unit_, ...)                     \
  { .name = #name_, .label = label_, .type = LM_PARAM_##TYPE,                                    \
    .offset = G_STRUCT_OFFSET (LM_PARAM_STRUCT, name_), .min = min_, .max = max_, .def = def_,   \
    .step = step_, .unit = unit_, __VA_ARGS__ },

/* Room for any operation's parameter struct; a registration static-asserts its size. */
#define LM_OP_PARAMS_MAX 576

typedef struct _LmPointPass LmPointPass;

typedef struct {
  LmOpId id;
  const char *name;  /* "gray": --gray on the command line */
  const char *label; /* translatable, N_() */
  const char *blurb; /* one line for --help, translatable */
  const LmParamSpec *params;
  guint n_params;
  /* The bytes a stage holds for it: its parameter struct, whose declared parameters come
   * first (the list's fields), then what is not a parameter (a tiled render's frame, what
   * commit derives), zero until filled. */
  gsize params_size;

  /* The version of its parameters (1 at first), written in the sidecar beside them. Raised
   * whenever its keys change, a new parameter too: an older Lumen then says that the group is
   * newer than it reads, rather than that a key is unknown. */
  guint version;
  /* Rewrites GROUP of KEYFILE, written at parameter version FROM (1 <= FROM < version), as
   * version FROM + 1 writes it (darktable's legacy_params, on the sidecar's keys): renamed
   * keys, values in new units. Called once per version step. NULL where no version renamed
   * a key or changed its meaning (always so at version 1): a new parameter whose default keeps
   * the old look needs nothing, a group that does not name it keeps the default. */
  gboolean (*legacy_params) (GKeyFile *keyfile, const char *group, guint from, GError **error);

  /* Optional (darktable's commit_params): fills what PARAMS derive for one render from its
   * CONTEXT (the photo's colour space), in PARAMS' fields after the declared parameters.
   * Called on the render's copy of the pipeline (lm_pipeline_set_color, core/edit), never on
   * the parameters the user edits, which keep those fields zero: what the operations read as
   * sRGB. */
  void (*commit) (void *params, const LmOpContext *context);
  /* Optional, after commit: FALSE with a one-line ERROR where the committed PARAMS cannot do
   * what they ask (the lens correction's lens is not in lensfun's database): the render fails
   * with that message rather than return an image that looks corrected and is not. */
  gboolean (*check) (const void *params, GError **error);

  /* Where the first flag (--<name>) sets several parameters at once: their names in order,
   * separated by FLAG_SEP in the value too ("temperature,tint": --wb 5200,+8). NULL: the
   * first parameter alone. */
  const char *flag_params;
  char flag_sep;

  /* The format this op stores for an input of format IN (and opacity). */
  LmFormat (*output_format) (const void *params, LmFormat in, gboolean opaque);

  /* The size of its output for an input of WIDTH × HEIGHT; NULL: the same (all but
   * geometry). Never 0 × 0: at least one pixel each way. */
  void (*output_size) (const void *params, guint width, guint height, guint *out_width,
                       guint *out_height);

  /* GEOMETRY kinds, optional: the input point (*SX, *SY) whose pixel the output point (X, Y)
   * shows, for an input of IN_W × IN_H (the output's size is output_size's). Pixel
   * coordinates: pixel (i, j) is centred on (i, j). What the window's white balance picker
   * follows back to the photo. NULL: the same point (an operation that keeps the size) or in
   * proportion (one that changes it). */
  void (*map_back) (const void *params, guint in_w, guint in_h, double x, double y, double *sx,
                    double *sy);

  /* POINT and POINT_COLOR kinds: composes the operation into PASS (point-math.h): its channel
   * part into the table (lm_point_pass_map, point.h), its pixel part, where it has one and
   * PARAMS make it do something, into its field and pixel_ops. */
  void (*point_prepare) (const void *params, LmPointPass *pass);

  /* Scene-referred sources (a raw's development, a merge's radiance: RGBA_F32 linear light)
   * run the operations that set this before the display transform, on scene light; the others
   * after it (docs/raw.md, "One scene-referred pipeline"). A point operation among them gives
   * scene_gain, its gain per channel on linear light (the render scales by it); any other runs
   * its run_cpu and kernel on RGBA_F32 in and out. */
  gboolean on_scene;
  void (*scene_gain) (const void *params, float gain[3]);

  /* The CPU reference: reads SRC, writes every pixel of DST (output_size, output_format). */
  gboolean (*run_cpu) (const void *params, const LmImage *src, LmImage *dst, GError **error);

  /* Optional: run_cpu keeping its memory in *KEPT from one run to the next (blur's grid
   * nodes), so that edits on one photo allocate nothing. *KEPT is NULL at first and owned by
   * the caller (the CPU backend), which frees it with kept_free when another photo comes. The
   * same bytes as run_cpu: nothing kept reaches an output unwritten. */
  gboolean (*run_cpu_kept) (const void *params, const LmImage *src, LmImage *dst, gpointer *kept,
                            GError **error);
  void (*kept_free) (gpointer kept);

  /* Tiled renders (core/render/tiled.c), optional. The input rectangle that the output
   * rectangle OUT needs, halo included, clamped to the input of IN_W × IN_H: blur's radius,
   * geometry's mapped rectangle. NULL: the same rectangle (point operations, gray,
   * equalize once its table is known). */
  void (*source_rect) (const void *params, guint in_w, guint in_h, const LmRect *out, LmRect *in);

  /* Operations whose result depends on where a pixel lies in the whole image: the hidden
   * LmTileFrame in PARAMS (tile-math.h), which the tiler fills for each tile; with it set,
   * output_size gives the tile's output size. NULL: the operation needs none. */
  LmTileFrame *(*tile_frame) (void *params);
} LmOpInfo;

/* ID's kind, as op-list.h gives it. */
LmOpKind lm_op_kind (LmOpId id);

/* Whether ID runs in the fused point pass (LM_KIND_POINT or LM_KIND_POINT_COLOR). */
gboolean lm_op_is_point (LmOpId id);

/* INFO's output size for PARAMS on an input of WIDTH × HEIGHT. */
void lm_op_output_size (const LmOpInfo *info, const void *params, guint width, guint height,
                        guint *out_width, guint *out_height);

const LmOpInfo *lm_op_info (LmOpId id);
const LmOpInfo *lm_op_info_by_name (const char *name);

/* Fills PARAMS (params_size bytes) with the defaults of every parameter. */
void lm_op_params_init (const LmOpInfo *info, void *params);

/* Sets one parameter from text ("bt601", "0.5"), checking its type and range. */
gboolean lm_op_param_parse (const LmOpInfo *info, const LmParamSpec *spec, void *params,
                            const char *text, GError **error);

/* Whether SPEC's "when" condition holds for PARAMS (TRUE when it has none). */
gboolean lm_op_param_active (const LmOpInfo *info, const LmParamSpec *spec, const void *params);

/* The text form of one parameter's value (enum nick or %g). */
char *lm_op_param_to_string (const LmParamSpec *spec, const void *params);

G_END_DECLS

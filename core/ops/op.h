/* Operations: what each one is (name, parameters with their ranges and defaults, CPU
 * reference) described once, for the CLI, the UI, the pipeline and both backends. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "op-list.h" /* at file level first: its math headers, then its X-macro uses below */

G_BEGIN_DECLS

/* LM_OP_GRAY, …: one per line of op-list.h, in pipeline order. */
typedef enum {
#define LM_OP(ID, name, Name) LM_OP_##ID,
#include "op-list.h"
#undef LM_OP
  LM_N_OPS
} LmOpId;

typedef enum {
  LM_PARAM_FLOAT, /* stored as float */
  LM_PARAM_ENUM,  /* stored as int; values by nick */
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
} LmParamSpec;

/* Room for any operation's parameter struct; a registration static-asserts its size. */
#define LM_OP_PARAMS_MAX 64

typedef struct {
  LmOpId id;
  const char *name;  /* "gray": --gray on the command line */
  const char *label; /* translatable, N_() */
  const char *blurb; /* one line for --help, translatable */
  const LmParamSpec *params;
  guint n_params;
  gsize params_size;

  /* The format this op stores for an input of format IN (and opacity). */
  LmFormat (*output_format) (const void *params, LmFormat in, gboolean opaque);

  /* The CPU reference: reads SRC, writes every pixel of DST (same size, output_format). */
  gboolean (*run_cpu) (const void *params, const LmImage *src, LmImage *dst, GError **error);
} LmOpInfo;

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

/* The operations' ids and kinds, generated from op-list.h; no GLib, so that kernels see them
 * as the C side does. */
#pragma once

#include "op-list.h" /* at file level first: its math headers, then its X-macro uses below */

/* LM_OP_GRAY, …: one per line of op-list.h, in pipeline order. */
typedef enum {
#define LM_OP(ID, name, Name, KIND) LM_OP_##ID,
#include "op-list.h"
#undef LM_OP
  LM_N_OPS
} LmOpId;

/* How an operation runs (op-list.h says which each is). */
typedef enum {
  LM_KIND_GEOMETRY,
  LM_KIND_POINT,
  LM_KIND_POINT_COLOR,
  LM_KIND_PIXEL,
  LM_KIND_GLOBAL,
  LM_KIND_AREA,
  LM_KIND_EXPORT,
} LmOpKind;

/* The fused pass's bit of a point operation: 1u << LM_OP_<ID>, so the list holds at most 32. */
#define LM_OP_BIT(ID) (1u << (LM_OP_##ID))

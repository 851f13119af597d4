/* An operation's parameters declared once: a list in its math header, from which both its
 * struct (here, for gcc and nvcc: no GLib) and its description table (op.h's LmParamSpec,
 * in its .c) are generated, as op-list.h does for the operations and GEGL's property
 * declarations for a filter's properties.
 *
 *   #define LM_<OP>_PARAMS(P) \
 *     P (TYPE, name, label, min, max, default, step, unit, extras…) \
 *     …
 *
 * TYPE is FLOAT (a float), ENUM (an int; extras give .values), CURVE (LmCurvePoints: min
 * and max bound x and y, the default is the line between) or TEXT (LmParamText: a name, max
 * its longest length in bytes, the default empty). name is the struct field, the
 * sidecar key and the CLI flag's tail (--<op>-<name>); label is translatable (N_()); step is
 * what the window's slider moves by (its arrow keys; ten times on Page Up/Down); unit is a
 * symbol ("EV", "K", "px", "°") or NULL. The extras are LmParamSpec's optional fields as
 * designated initializers: .values = …, .in_pixels = 1, .when = "mode=mix". Arguments past
 * name are not expanded here, so N_() and the enum tables need not be known to nvcc. */
#pragma once

#include "curve-points.h"

#define LM_PARAM_CTYPE_FLOAT float
#define LM_PARAM_CTYPE_ENUM int /* the enum's value, an index into .values */
#define LM_PARAM_CTYPE_CURVE LmCurvePoints
#define LM_PARAM_CTYPE_TEXT LmParamText

/* A TEXT parameter's value: UTF-8, NUL-terminated, no control characters. */
#define LM_PARAM_TEXT_SIZE 96
typedef struct {
  char s[LM_PARAM_TEXT_SIZE];
} LmParamText;

/* One list row as a struct field: LM_<OP>_PARAMS (LM_PARAM_FIELD) inside the typedef. */
#define LM_PARAM_FIELD(TYPE, name, ...) LM_PARAM_CTYPE_##TYPE name;

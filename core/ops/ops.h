/* The operations' registrations, one per file under core/ops/. */
#pragma once

#include "op.h"

G_BEGIN_DECLS

extern const LmOpInfo lm_gray_op;
extern const LmOpInfo lm_equalize_op;
extern const LmOpInfo lm_blur_op;

G_END_DECLS

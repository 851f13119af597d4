/* The operations' registrations, one per file under core/ops/ (lm_<name>_op, for each line
 * of op-list.h). */
#pragma once

#include "blur-math.h"
#include "op.h"

G_BEGIN_DECLS

#define LM_OP(ID, name, Name, KIND) extern const LmOpInfo lm_##name##_op;
#include "op-list.h"
#undef LM_OP

/* What blur's CPU reference keeps between runs (its grid method's nodes, up to 4 bytes a
 * pixel, and the direct method's rows for each thread), so that moving σ allocates nothing:
 * owned by whoever runs blur again and again on one photo (the CPU backend),
 * zero-initialised, emptied with lm_blur_scratch_clear. Its contents never reach an output:
 * each run writes what it reads. */
typedef struct {
  float *nodes;
  gsize size; /* bytes */
  guint8 *lanes;
  gsize lanes_size; /* bytes */
} LmBlurScratch;

void lm_blur_scratch_clear (LmBlurScratch *scratch);

/* lm_blur_op's CPU reference, keeping its memory in SCRATCH: the same bytes as run_cpu. */
gboolean lm_blur_run_cpu_scratch (const LmBlurParams *params, const LmImage *src, LmImage *dst,
                                  LmBlurScratch *scratch, GError **error);

G_END_DECLS

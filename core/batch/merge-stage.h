/* The merge workers' part of the batch: one backend (one CUDA stream, or the CPU) and the
 * device buffers it keeps from stack to stack. On CUDA a stack's copies and kernels are
 * queued on the stream and waited for once, so that another worker's stream on the same
 * GPU runs its copies while this one computes. */
#pragma once

#include <glib.h>

#include "../backend.h"
#include "pipeline.h"

G_BEGIN_DECLS

typedef struct _LmMergeStage LmMergeStage;

LmMergeStage *lm_merge_stage_new (LmBackend *backend);
void lm_merge_stage_free (LmMergeStage *stage);

/* Merges HDR (host memory) with CONFIG's method and RESPONSE, tone maps it when CONFIG asks,
 * into *RESULT (host memory from OUT_ALLOCATOR), as `lumen-cli hdr` would: RGBA8 when tone
 * mapped, RGBE8 for Radiance output (converted on the backend: a quarter of the bytes come
 * down), RGBA_F32 otherwise. MS receives the upload, merge, tone map (or conversion) and
 * download times (the device's, from its events). */
gboolean lm_merge_stage_run (LmMergeStage *stage, const LmBatchConfig *config, const LmHdrStack *hdr,
                             const LmResponse *response, const LmAllocator *out_allocator, LmImage **result,
                             double ms[LM_STAGE_COUNT], GError **error);

G_END_DECLS

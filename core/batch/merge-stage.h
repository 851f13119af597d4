/* The merge workers' part of the batch: one backend (one CUDA stream, or the CPU) and the
 * device buffers it keeps from stack to stack. On CUDA a stack's copies and kernels are
 * queued on the stream and waited for once, so that another worker's stream on the same
 * GPU runs its copies while this one computes. */
#pragma once

#include <glib.h>

#include "../backend/backend.h"
#include "../backend/nvjpeg-encoder.h"
#include "pipeline.h"

G_BEGIN_DECLS

typedef struct _LmMergeStage LmMergeStage;

/* ENCODER (may be NULL; the stage takes it): JPEG outputs are encoded on the backend's GPU. */
LmMergeStage *lm_merge_stage_new (LmBackend *backend, LmNvjpegEncoder *encoder);
void lm_merge_stage_free (LmMergeStage *stage);

/* Merges HDR with CONFIG's method and RESPONSE, tone maps it when CONFIG asks, into
 * *RESULT (host memory from OUT_ALLOCATOR), as `lumen-cli hdr` would: RGBA8 when tone
 * mapped, RGBE8 for Radiance output (converted on the backend: a quarter of the bytes come
 * down), RGBA_F32 otherwise. With an encoder and JPEG output, *ENCODED receives the file's
 * bytes instead and *RESULT stays NULL. HDR's images are in host memory, or already in the
 * backend's device memory (decoded there: no upload). NOTES (of char *) receives what the
 * GPU's encoding left out, as the CPU's writer says it in LmSaveOptions.notes. MS receives
 * the upload, merge, tone map (or conversion) and download times (the device's, from its
 * events) and the GPU encoding's. */
gboolean lm_merge_stage_run (LmMergeStage *stage, const LmBatchConfig *config, const LmHdrStack *hdr,
                             const LmResponse *response, const LmAllocator *out_allocator, LmImage **result,
                             GBytes **encoded, GPtrArray *notes, double ms[LM_STAGE_COUNT], GError **error);

/* CONFIG writes tone-mapped JPEG files. */
gboolean lm_batch_writes_jpeg (const LmBatchConfig *config);

G_END_DECLS

/* The batch pipeline of one machine. Stacks stream through overlapping stages with a fixed
 * number of them in flight, so host memory stays bounded whatever the batch's size:
 *
 *   feeder ─▶ load pool (every core: read + decode, align, calibrate)
 *          ─▶ merge workers (one per backend: upload, merge, tone map, download)
 *          ─▶ write pool (encode, temporary + rename, journal)
 *
 * A stack that cannot be merged goes to the failure list and the batch goes on; a full disk,
 * a failed device or an unwritable journal stops it (the first such error is returned). */
#pragma once

#include <glib.h>

#include "../backend.h"
#include "../hdr/merge.h"
#include "../hdr/tonemap.h"
#include "../io.h"
#include "journal.h"
#include "progress.h"
#include "stacks.h"

G_BEGIN_DECLS

typedef struct {
  GPtrArray *backends;   /* of LmBackend: one merge worker each */
  guint load_threads;    /* 0: every core */
  guint in_flight;       /* stacks in memory at once; 0: a default from the above */
  LmHdrMergeParams merge;
  gboolean response_given; /* MERGE.response holds one camera's curve: no calibration */
  gboolean align;
  gboolean tonemap;      /* 8-bit output through TONE; else radiance */
  LmTonemapParams tone;
  const char *outdir, *ext;
  LmSaveOptions save;
  LmProgressMode progress;
} LmBatchConfig;

typedef enum {
  LM_STAGE_LOAD,
  LM_STAGE_ALIGN,
  LM_STAGE_CALIBRATE,
  LM_STAGE_UPLOAD,
  LM_STAGE_MERGE,
  LM_STAGE_TONEMAP,
  LM_STAGE_DOWNLOAD,
  LM_STAGE_WRITE,
  LM_STAGE_COUNT
} LmBatchStage;

typedef struct {
  guint done, failed;           /* by this run */
  double stage_ms[LM_STAGE_COUNT]; /* summed over stacks (threads overlap) */
  double wall_s;
  guint load_threads, in_flight;
} LmBatchStats;

const char *lm_batch_stage_name (LmBatchStage stage);

/* Runs TODO (of const LmBatchStack *). BEFORE: stacks of the share already done, for the
 * progress. Returns FALSE only on an error that stopped the batch. */
gboolean lm_batch_run (const LmBatchConfig *config, GPtrArray *todo, guint share, guint before,
                       LmJournal *journal, LmBatchStats *stats, GError **error);

G_END_DECLS

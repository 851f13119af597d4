/* The batch pipeline of one machine. Stacks stream through overlapping stages with a fixed
 * number of them in flight, so host memory stays bounded whatever the batch's size:
 *
 *   feeder ─▶ read pool (the disk: files into memory)
 *          ─▶ decode pool (every core, or nvJPEG: decode, align, calibrate)
 *          ─▶ merge workers (one per backend, each with its own stream: upload, merge,
 *             tone map, download, one synchronisation per stack; or nvJPEG's encoding)
 *          ─▶ write pool (encode, temporary + rename, journal)
 *
 * With nvJPEG on a CUDA backend, a stack can stay on the GPU from decoding to the JPEG file:
 * it is decoded into device memory of the merge workers' device, the calibration reads its
 * few sample pixels there, the merge takes it without an upload, and the encoder sends back
 * only the compressed file. Stacks that need the host (alignment, Robertson's calibration
 * over every pixel, an EXIF orientation, a file nvJPEG does not take) go through host
 * memory as before.
 *
 * Host images come from a pool of reused (pinned) buffers and each merge worker keeps its
 * device buffers from stack to stack: a batch of one-sized stacks allocates nothing after
 * its first few stacks.
 *
 * A stack that cannot be merged goes to the failure list and the batch goes on; a full disk,
 * a failed device or an unwritable (or full) journal stops it (the first such error is
 * returned). What the loaders of a stack's exposures and the writer of its output could not
 * keep (a profile) goes to the notes list with its done record, each stack's notes its own. */
#pragma once

#include <glib.h>

#include "../backend/backend.h"
#include "../hdr/merge.h"
#include "../hdr/tonemap.h"
#include "../io/io.h"
#include "journal.h"
#include "../backend/nvjpeg-decoder.h"
#include "progress.h"
#include "stacks.h"

G_BEGIN_DECLS

typedef struct {
  GPtrArray *backends;   /* of LmBackend: one merge worker each */
  guint read_threads;    /* 0: a default for a local disk */
  guint load_threads;    /* decoding, alignment, calibration, encoding; 0: every core */
  guint in_flight;       /* stacks in memory at once; 0: a default from the above */
  LmHdrMergeParams merge;
  gboolean response_given; /* MERGE.response holds one camera's curve: no calibration */
  gboolean align;
  gboolean tonemap;      /* 8-bit (or 16-bit: DEPTH) output through TONE; else radiance */
  LmTonemapParams tone;
  guint depth;           /* bits per channel of a tone-mapped output: 8 (also when 0) or 16 */
  const char *outdir, *ext;
  LmSaveOptions save;
  LmProgressMode progress;
  /* JPEG decoding on the GPU: a first decoder (the caller's; it proves nvJPEG runs), and
   * more made as the decode threads need them, on NVJPEG_DEVICES in turn. NULL: the CPU. */
  LmNvjpeg *nvjpeg;
  GArray *nvjpeg_devices; /* of int */
  /* JPEG output encoded by nvJPEG on each CUDA merge worker's device; the CPU's otherwise. */
  gboolean nvjpeg_encode;
} LmBatchConfig;

typedef enum {
  LM_STAGE_READ,
  LM_STAGE_DECODE,
  LM_STAGE_ALIGN,
  LM_STAGE_CALIBRATE,
  LM_STAGE_UPLOAD,
  LM_STAGE_MERGE,
  LM_STAGE_TONEMAP,
  LM_STAGE_RGBE, /* radiance to a Radiance file's RGBE bytes, on the backend */
  LM_STAGE_DOWNLOAD,
  LM_STAGE_ENCODE, /* JPEG on the GPU (nvJPEG) */
  LM_STAGE_WRITE,
  LM_STAGE_COUNT
} LmBatchStage;

typedef struct {
  guint done, failed;           /* by this run */
  double stage_ms[LM_STAGE_COUNT]; /* summed over stacks (threads overlap) */
  double wall_s;
  guint read_threads, load_threads, in_flight;
  guint64 bytes_read;
  guint nvjpeg_files, cpu_files; /* decoded by nvJPEG, by the CPU */
  guint nvjpeg_decoders;         /* made */
  guint resident_stacks;         /* decoded into device memory and merged there */
  guint device_batches;          /* nvJPEG's calls that decoded stacks into device memory */
  guint nvjpeg_encoded;          /* outputs encoded by nvJPEG */
  guint retried;                 /* stacks tried a second time after a device error */
  guint noted;                   /* stacks done with notes (journal.h: the notes list) */
  guint64 host_allocations, fresh_allocations; /* of host images; fresh: not from the pool */
  gsize host_peak_bytes;
} LmBatchStats;

const char *lm_batch_stage_name (LmBatchStage stage);

/* Runs TODO (of const LmBatchStack *); CONFIG->nvjpeg stays the caller's. BEFORE: stacks
 * of the share already done, for the progress. Returns FALSE only on an error that stopped
 * the batch. */
gboolean lm_batch_run (const LmBatchConfig *config, GPtrArray *todo, guint share, guint before,
                       LmJournal *journal, LmBatchStats *stats, GError **error);

G_END_DECLS

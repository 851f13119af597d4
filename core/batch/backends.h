/* The backends of a batch's merge workers: JOBS per device of DEVICES ("all" or "0,2,…"),
 * or JOBS on the CPU. */
#pragma once

#include <glib.h>

#include "../backend/backend.h"

G_BEGIN_DECLS

/* Checks "all" or a list of device indices. */
gboolean lm_batch_devices_parse (const char *text, GArray **devices, GError **error);

/* A GPtrArray of LmBackend (freed with the array), one per merge worker: JOBS per device
 * (DEVICES NULL: every device), or JOBS on the CPU. JOBS 0: a default (two per GPU, each
 * with its own stream, so that one stack's copies overlap another's kernels; one on the
 * CPU, whose merge is parallel inside). AUTO without a usable GPU: the CPU. */
GPtrArray *lm_batch_backends_open (LmBackendKind kind, GArray *devices, guint jobs, GError **error);

G_END_DECLS

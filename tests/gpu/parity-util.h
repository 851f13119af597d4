/* What the CPU/GPU parity harnesses (test-parity.c, test-hdr-parity.c) share: opening the two
 * backends or skipping, poisoned outputs, downloads, distances, and the tally of cases. */
#pragma once

#include <glib.h>

#include "core/backend/backend.h"

/* Each side's output starts filled with its own byte, so that a sample one backend leaves
 * unwritten differs from the other's by at least 75. */
#define PARITY_POISON_CPU 0x5A
#define PARITY_POISON_GPU 0xA5

/* The CUDA backend, or with LUMEN_PARITY_SELF_TEST set (where SELF_TEST_ALLOWED) a second
 * CPU backend in its place, and the CPU reference; prints "NAME: gpu against cpu". Returns
 * 0, or 77 (meson's SKIP) after printing why there is no device. */
int parity_open (const char *name, gboolean self_test_allowed, LmBackend **cpu, LmBackend **gpu);

/* A host image in GPU's pinned memory filled with BYTE; RGBA float images with NaN. */
LmImage *parity_poisoned (LmBackend *gpu, LmFormat format, guint w, guint h, guint8 byte);

/* A poisoned image (PARITY_POISON_GPU, NaN for floats) in the GPU's memory. */
LmImage *parity_poisoned_device (LmBackend *gpu, LmFormat format, guint w, guint h);

/* DEVICE in host memory, the GPU synchronized. */
LmImage *parity_download (LmBackend *gpu, LmImage *device);

/* Largest |Δ| over the samples of two 8-bit (or 16-bit: in 16-bit units) images of one shape; how many pixels and how many
 * samples differ at all (either may be NULL). */
int parity_u8_distance (const LmImage *a, const LmImage *b, guint64 *pixels, guint64 *samples);

/* The visible bytes of two images of one shape are equal. */
gboolean parity_bytes_equal (const LmImage *a, const LmImage *b);

/* Counts a case; prints "ok  " or "FAIL" and the message when it failed, or always with
 * LUMEN_PARITY_VERBOSE set. */
void parity_record (gboolean ok, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* Counts a failure that is no case of its own (missing data); prints "FAIL " and the message. */
void parity_fail (const char *format, ...) G_GNUC_PRINTF (1, 2);

guint64 parity_cases (void);
guint64 parity_failures (void);

/* The names in $LUMEN_TEST_DATA/SUBDIR, sorted; its path in *DIR. NULL, with the failure
 * counted and printed ("no WHAT: why"), when it cannot be read. */
GPtrArray *parity_data_names (const char *subdir, const char *what, char **dir);

/* PARAMS of OP from SETTINGS ("name=value …", split as a shell splits, so that a lens's name
 * may be quoted), then committed as a render commits them; a setting that does not parse
 * fails the test. */
void parity_parse_settings (const LmOpInfo *op, const char *settings, void *params);

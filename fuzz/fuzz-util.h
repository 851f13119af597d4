/* What every fuzz harness shares: one-time setup (a small memory budget, one OpenMP thread,
 * GLib criticals made fatal), a memory file or a private folder for the parsers that take a
 * path, and the checks that hold for any input (fuzz/README.md). */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <glib.h>

#include "core/image.h"
#include "core/io/io.h"

G_BEGIN_DECLS

/* The entry points libFuzzer calls (or replay-main.c, where libFuzzer is not linked). */
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Call first in every LLVMFuzzerTestOneInput; cheap after the first time. */
void lm_fuzz_init (void);

/* Host memory that refuses an image larger than the harnesses' budget (64 MiB): a header may
 * legally ask for a gigapixel, and the fuzzer would spend its memory and time filling it. */
const LmAllocator *lm_fuzz_allocator (void);

/* "/proc/self/fd/N" of a memory file (a regular file to stat) now holding DATA. */
const char *lm_fuzz_memfd_path (const uint8_t *data, size_t size);

/* A folder of this process's own under $TMPDIR, removed (with what is in it) at exit. */
const char *lm_fuzz_tmpdir (void);

/* Removes that folder now: for a process that is about to die of a crash (replay-main.c). */
void lm_fuzz_remove_tmpdir (void);

/* Writes DATA to NAME in lm_fuzz_tmpdir () and returns its path (owned by the caller). */
char *lm_fuzz_write_file (const char *name, const uint8_t *data, size_t size);

/* An input that the harness turned away (another format's magic): returning -1 keeps it
 * out of libFuzzer's corpus. */
#define LM_FUZZ_REJECT (-1)

/* A broken promise of Lumen's, found by a harness: says which and aborts, so that the
 * fuzzer saves the input as a crash. */
#define LM_FUZZ_CHECK(cond, ...)                                                                   \
  G_STMT_START                                                                                     \
  {                                                                                                \
    if (G_UNLIKELY (!(cond)))                                                                      \
      lm_fuzz_fail (__FILE__, __LINE__, #cond, __VA_ARGS__);                                       \
  }                                                                                                \
  G_STMT_END

G_NORETURN void lm_fuzz_fail (const char *file, int line, const char *cond, const char *format, ...)
  G_GNUC_PRINTF (4, 5);

/* The promises of every failure: it sets ERROR, in the LUMEN_ERROR domain, with a message
 * that is valid UTF-8, one line and at most 1,024 bytes; where PATH is not NULL, the message
 * starts with it (every message names the file). WHAT names the call. A broken promise is a
 * crash; with LUMEN_FUZZ_LENIENT=1, those of the message (all but the first) are warnings. */
void lm_fuzz_check_failure (const char *what, const GError *error, const char *path);

/* Loads DATA through lm_io_load_from_memory when it sniffs as one of TYPES (the others are
 * rejected), checks the result or the error, and exercises what a load hands on to an
 * export (the EXIF block). The usual body of an image harness. */
int lm_fuzz_load_image (const uint8_t *data, size_t size, const LmFileType *types, guint n_types);

G_END_DECLS

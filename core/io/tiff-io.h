/* libtiff's client procedures for Lumen: a file's bytes in memory to read, the atomic file's
 * stream to write, and a growing memory buffer that one strip of a parallel encode goes into.
 * libtiff's errors land in MESSAGE (the first one: the cause), never on stderr. */
#pragma once

#include <stdio.h>
#include <glib.h>
#include <tiffio.h>

G_BEGIN_DECLS

typedef struct {
  char message[256];
  /* reading from memory (DATA, LEN) or writing into memory (BUFFER, CAP) */
  const guint8 *data;
  gsize len, pos;
  guint8 *buffer;
  gsize cap;
  /* writing to the atomic file's stream */
  FILE *stream;
  int write_errno;
} TiffIo;

/* A TIFF to read from IO->data, IO->len (no memory mapping: the bytes are mapped already). */
TIFF *lm_tiff_open_memory (const char *path, TiffIo *io);

/* A TIFF to write to IO->stream. */
TIFF *lm_tiff_open_stream (const char *path, TiffIo *io);

/* A TIFF to write into IO->buffer (grown as needed, kept by IO: free it with g_free); IO's
 * length is set back to 0, so that a buffer is reused from one open to the next. */
TIFF *lm_tiff_open_scratch (const char *name, TiffIo *io);

G_END_DECLS

/* libtiff's client procedures: see tiff-io.h. */
#include <errno.h>
#include <string.h>

#include "text-input.h"
#include "tiff-io.h"

static int
on_tiff_error (TIFF *tif, void *user_data, const char *module, const char *fmt, va_list ap)
{
  TiffIo *io = user_data;
  if (io->message[0] == '\0')
    {
      /* libtiff's text may quote the file's bytes or span lines (InkNames): one line, its
       * blanks collapsed, the rest escaped. */
      g_autofree char *text = g_strdup_vprintf (fmt, ap);
      g_auto (GStrv) words = g_regex_split_simple ("\\s+", g_strstrip (text), 0, 0);
      g_autofree char *line = g_strjoinv (" ", words);
      g_autofree char *escaped = lm_text_escape (line, -1, 200);
      g_strlcpy (io->message, escaped, sizeof io->message);
    }
  return 1; /* handled: nothing on stderr */
}

static int
on_tiff_warning (TIFF *tif, void *user_data, const char *module, const char *fmt, va_list ap)
{
  return 1;
}

static tmsize_t
mem_read (thandle_t h, void *buf, tmsize_t n)
{
  TiffIo *io = (TiffIo *) h;
  gsize avail = io->pos < io->len ? io->len - io->pos : 0;
  gsize take = MIN ((gsize) n, avail);
  memcpy (buf, io->data + io->pos, take);
  io->pos += take;
  return (tmsize_t) take;
}

static tmsize_t
no_write (thandle_t h, void *buf, tmsize_t n)
{
  return -1;
}

static toff_t
mem_seek (thandle_t h, toff_t off, int whence)
{
  TiffIo *io = (TiffIo *) h;
  guint64 base = whence == SEEK_CUR ? io->pos : whence == SEEK_END ? io->len : 0;
  io->pos = base + off;
  return io->pos;
}

static int
no_close (thandle_t h)
{
  return 0;
}

static toff_t
mem_size (thandle_t h)
{
  return ((TiffIo *) h)->len;
}

static int
no_map (thandle_t h, void **base, toff_t *size)
{
  return 0;
}

static void
no_unmap (thandle_t h, void *base, toff_t size)
{
}

static TIFF *
open_with (const char *name, const char *mode, TiffIo *io, TIFFReadWriteProc read,
           TIFFReadWriteProc write, TIFFSeekProc seek, TIFFSizeProc size)
{
  TIFFOpenOptions *opts = TIFFOpenOptionsAlloc ();
  TIFFOpenOptionsSetErrorHandlerExtR (opts, on_tiff_error, io);
  TIFFOpenOptionsSetWarningHandlerExtR (opts, on_tiff_warning, io);
  TIFF *tif = TIFFClientOpenExt (name, mode, (thandle_t) io, read, write, seek, no_close, size,
                                 no_map, no_unmap, opts);
  TIFFOpenOptionsFree (opts);
  return tif;
}

TIFF *
lm_tiff_open_memory (const char *path, TiffIo *io)
{
  return open_with (path, "rm", io, mem_read, no_write, mem_seek, mem_size);
}

/* A write error, kept for the message: the first one is the cause. */
static void
note_write_error (TiffIo *io)
{
  if (io->write_errno == 0)
    io->write_errno = errno ? errno : EIO;
}

static tmsize_t
file_read (thandle_t h, void *buf, tmsize_t n)
{
  TiffIo *io = (TiffIo *) h;
  return (tmsize_t) fread (buf, 1, n, io->stream);
}

static tmsize_t
file_write (thandle_t h, void *buf, tmsize_t n)
{
  TiffIo *io = (TiffIo *) h;
  errno = 0;
  if (fwrite (buf, 1, n, io->stream) != (size_t) n)
    {
      note_write_error (io);
      return -1;
    }
  return n;
}

/* A seek first writes out what the stream buffers: on a full disk that is where ENOSPC
 * shows, and libtiff, given -1 as the new offset, would only say "Maximum TIFF file size
 * exceeded". */
static toff_t
file_seek (thandle_t h, toff_t off, int whence)
{
  TiffIo *io = (TiffIo *) h;
  errno = 0;
  if (fseeko (io->stream, (off_t) off, whence) != 0)
    {
      note_write_error (io);
      return (toff_t) -1;
    }
  off_t here = ftello (io->stream);
  if (here < 0)
    note_write_error (io);
  return (toff_t) here;
}

static toff_t
file_size (thandle_t h)
{
  TiffIo *io = (TiffIo *) h;
  off_t here = ftello (io->stream);
  fseeko (io->stream, 0, SEEK_END);
  off_t size = ftello (io->stream);
  fseeko (io->stream, here, SEEK_SET);
  return (toff_t) size;
}

TIFF *
lm_tiff_open_stream (const char *path, TiffIo *io)
{
  return open_with (path, "w", io, file_read, file_write, file_seek, file_size);
}

static tmsize_t
scratch_write (thandle_t h, void *buf, tmsize_t n)
{
  TiffIo *io = (TiffIo *) h;
  gsize end = io->pos + (gsize) n;
  if (end > io->cap)
    {
      gsize cap = MAX (end, io->cap + io->cap / 2);
      guint8 *grown = g_try_realloc (io->buffer, cap);
      if (grown == NULL)
        return -1;
      io->buffer = grown, io->cap = cap;
    }
  memcpy (io->buffer + io->pos, buf, n);
  io->pos = end;
  io->len = MAX (io->len, end);
  return n;
}

static tmsize_t
scratch_read (thandle_t h, void *buf, tmsize_t n)
{
  TiffIo *io = (TiffIo *) h;
  io->data = io->buffer;
  return mem_read (h, buf, n);
}

TIFF *
lm_tiff_open_scratch (const char *name, TiffIo *io)
{
  io->len = io->pos = 0;
  io->message[0] = '\0';
  return open_with (name, "w", io, scratch_read, scratch_write, mem_seek, mem_size);
}

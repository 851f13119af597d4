/* The whole-file reader (core/io/file-read.c): lm_file_read and lm_file_map of a name in the
 * harness's own folder. The input is two bytes of header, then the file's bytes:
 *   byte 0, bits 0-1: the kind of file the caller expects (text, image, records, profile);
 *           bits 2-3: what the name is: the file, a symbolic link to it, a folder, a fifo;
 *           bits 4-5: the name: ASCII, UTF-8, not UTF-8 (its message shows it made valid),
 *           or 240 bytes long;
 *           bit 6: no bound at all;
 *   byte 1: the bound, as the file's length plus this signed byte (at least 0).
 * Promises: within the bound both give the bytes back, lm_file_read a NUL after them; beyond
 * it both fail with LM_ERROR_TOO_LARGE; a folder or a fifo fails with LM_ERROR_IO, at once (a
 * read that waits on the fifo is a hang); every message keeps the promises of fuzz-util.h and
 * begins with the name as given. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "fuzz-util.h"
#include "core/error.h"
#include "core/io/file-read.h"

enum { AS_FILE, AS_LINK, AS_FOLDER, AS_FIFO };

#define TEN "0123456789"
#define LONG_NAME TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN
static const char *const names[] = { "input", "expos\xc3\xa9-input", "\xff\xfe-input", LONG_NAME };

/* NAME in the harness's folder made what AS says, the file holding DATA; its path. */
static char *
make_name (const char *name, int as, const uint8_t *data, size_t size)
{
  g_autofree char *path = g_build_filename (lm_fuzz_tmpdir (), name, NULL);
  if (g_unlink (path) != 0)
    g_rmdir (path);
  switch (as)
    {
    case AS_FILE:
      return lm_fuzz_write_file (name, data, size);
    case AS_LINK:
      g_free (lm_fuzz_write_file ("target", data, size));
      LM_FUZZ_CHECK (symlink ("target", path) == 0, "%s: %s", path, g_strerror (errno));
      break;
    case AS_FOLDER:
      LM_FUZZ_CHECK (g_mkdir (path, 0700) == 0, "%s: %s", path, g_strerror (errno));
      break;
    default:
      LM_FUZZ_CHECK (mkfifo (path, 0600) == 0, "%s: %s", path, g_strerror (errno));
      break;
    }
  return g_steal_pointer (&path);
}

/* BYTES (from WHO) are DATA's SIZE bytes, and with NUL the byte after them is 0. */
static void
check_bytes (const char *who, GBytes *bytes, const uint8_t *data, size_t size, gboolean nul)
{
  gsize len = 0;
  const uint8_t *got = g_bytes_get_data (bytes, &len);
  LM_FUZZ_CHECK (len == size, "%s gave %zu bytes of %zu", who, len, size);
  LM_FUZZ_CHECK (size == 0 || memcmp (got, data, size) == 0, "%s gave other bytes", who);
  if (nul)
    LM_FUZZ_CHECK (got != NULL && got[len] == 0, "%s: no NUL after the bytes", who);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  if (size < 2)
    return LM_FUZZ_REJECT;
  LmFileKind kind = (LmFileKind) (data[0] & 3);
  int as = (data[0] >> 2) & 3;
  const char *name = names[(data[0] >> 4) & 3];
  gboolean unbounded = (data[0] & 0x40) != 0;
  gint64 wanted = (gint64) (size - 2) + (int8_t) data[1];
  guint64 max_bytes = unbounded ? G_MAXUINT64 : (guint64) MAX (wanted, 0);
  const uint8_t *body = data + 2;
  size_t len = size - 2;

  g_autofree char *path = make_name (name, as, body, len);
  static const struct {
    const char *what;
    GBytes *(*read) (const char *, LmFileKind, guint64, GError **);
  } readers[] = { { "lm_file_read", lm_file_read }, { "lm_file_map", lm_file_map } };
  for (guint r = 0; r < G_N_ELEMENTS (readers); r++)
    {
      GError *error = NULL;
      GBytes *bytes = readers[r].read (path, kind, max_bytes, &error);
      if (as == AS_FOLDER || as == AS_FIFO)
        {
          LM_FUZZ_CHECK (bytes == NULL, "%s read a %s", readers[r].what, as == AS_FOLDER ? "folder" : "fifo");
          LM_FUZZ_CHECK (g_error_matches (error, LUMEN_ERROR, LM_ERROR_IO), "%s: %s", readers[r].what,
                         error->message);
        }
      else if ((guint64) len > max_bytes)
        {
          LM_FUZZ_CHECK (bytes == NULL, "%s read %zu bytes over a bound of %" G_GUINT64_FORMAT, readers[r].what,
                         len, max_bytes);
          LM_FUZZ_CHECK (g_error_matches (error, LUMEN_ERROR, LM_ERROR_TOO_LARGE), "%s: %s", readers[r].what,
                         error->message);
        }
      else
        {
          LM_FUZZ_CHECK (bytes != NULL, "%s failed within the bound: %s", readers[r].what, error->message);
          check_bytes (readers[r].what, bytes, body, len, r == 0);
        }
      if (bytes)
        g_bytes_unref (bytes);
      else
        {
          lm_fuzz_check_failure (readers[r].what, error, path);
          g_error_free (error);
        }
    }
  return 0;
}

#define _GNU_SOURCE /* memfd_create */
#include "fuzz-util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "core/error.h"
#include "core/io/exif.h"
#include "core/raw-info.h"
#include "tests/unit/test-util.h"

/* What a legal-but-large header may take: 4 megapixels (LUMEN_MAX_PIXELS, where Lumen reads
 * it), and 64 MiB of pixels whatever the format (the allocator below). With these a
 * run stays well under libFuzzer's -rss_limit_mb=2048 and -timeout=10. */
#define FUZZ_MAX_PIXELS "4000000"
#define FUZZ_MAX_IMAGE_BYTES ((gsize) 64 << 20)
#define MESSAGE_MAX 1024

/* LUMEN_FUZZ_VERBOSE=1: say what each input came to (replaying a corpus by hand). */
static gboolean verbose;
static gboolean lenient;

void
lm_fuzz_fail (const char *file, int line, const char *cond, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  fprintf (stderr, "\nLUMEN FUZZ CHECK FAILED at %s:%d: %s\n  ", file, line, cond);
  vfprintf (stderr, format, args);
  fputc ('\n', stderr);
  va_end (args);
  fflush (stderr);
  abort ();
}

void
lm_fuzz_init (void)
{
  static gsize done = 0;
  if (!g_once_init_enter (&done))
    return;
  /* Before the first load: Lumen reads its budget once. A caller's own value wins. */
  g_setenv ("LUMEN_MAX_PIXELS", FUZZ_MAX_PIXELS, FALSE);
  verbose = g_strcmp0 (g_getenv ("LUMEN_FUZZ_VERBOSE"), "1") == 0;
  lenient = g_strcmp0 (g_getenv ("LUMEN_FUZZ_LENIENT"), "1") == 0;
  /* libgomp read OMP_NUM_THREADS when it was loaded; one thread keeps runs deterministic
   * and leaves the other cores to other fuzzer processes. */
  omp_set_num_threads (1);
  /* A critical is a g_return_if_fail reached: a programmer's error, here one that an input
   * can cause. Make it a crash the fuzzer keeps. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  g_once_init_leave (&done, 1);
}

static gpointer
budget_alloc (const LmAllocator *self, gsize size, GError **error)
{
  if (size > FUZZ_MAX_IMAGE_BYTES)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_TOO_LARGE, "%" G_GSIZE_FORMAT " bytes of pixels is "
                   "over the fuzzing budget", size);
      return NULL;
    }
  const LmAllocator *host = lm_allocator_host ();
  return host->alloc (host, size, error);
}

static void
budget_free (const LmAllocator *self, gpointer mem)
{
  const LmAllocator *host = lm_allocator_host ();
  host->free (host, mem);
}

const LmAllocator *
lm_fuzz_allocator (void)
{
  static const LmAllocator budget = {
    .name = "fuzz-budget",
    .memory = LM_MEMORY_HOST,
    .alloc = budget_alloc,
    .free = budget_free,
  };
  return &budget;
}

static void
write_all (int fd, const uint8_t *data, size_t size)
{
  size_t done = 0;
  while (done < size)
    {
      ssize_t n = pwrite (fd, data + done, size - done, (off_t) done);
      if (n < 0 && errno == EINTR)
        continue;
      LM_FUZZ_CHECK (n > 0, "writing the harness's memory file: %s", g_strerror (errno));
      done += (size_t) n;
    }
}

const char *
lm_fuzz_memfd_path (const uint8_t *data, size_t size)
{
  static int fd = -1;
  static char path[64];
  if (fd < 0)
    {
      fd = memfd_create ("lumen-fuzz", MFD_CLOEXEC);
      LM_FUZZ_CHECK (fd >= 0, "memfd_create: %s", g_strerror (errno));
      g_snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
    }
  LM_FUZZ_CHECK (ftruncate (fd, 0) == 0, "ftruncate: %s", g_strerror (errno));
  write_all (fd, data, size);
  return path;
}

static char *tmpdir;

void
lm_fuzz_remove_tmpdir (void)
{
  if (tmpdir != NULL)
    lm_test_remove_tree (tmpdir);
  g_clear_pointer (&tmpdir, g_free);
}

const char *
lm_fuzz_tmpdir (void)
{
  if (tmpdir == NULL)
    {
      GError *error = NULL;
      tmpdir = g_dir_make_tmp ("lumen-fuzz-XXXXXX", &error);
      LM_FUZZ_CHECK (tmpdir != NULL, "a temporary folder: %s", error->message);
      atexit (lm_fuzz_remove_tmpdir);
    }
  return tmpdir;
}

char *
lm_fuzz_write_file (const char *name, const uint8_t *data, size_t size)
{
  char *path = g_build_filename (lm_fuzz_tmpdir (), name, NULL);
  int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  LM_FUZZ_CHECK (fd >= 0, "%s: %s", path, g_strerror (errno));
  write_all (fd, data, size);
  close (fd);
  return path;
}

/* A message's promise broken: a crash, or with LUMEN_FUZZ_LENIENT=1 (a campaign that must
 * look past a known, still open message bug) a warning, once for each promise. */
static void
message_promise (gboolean kept, int promise, const char *what, const char *why, const char *message)
{
  static gboolean warned[8];
  if (kept)
    return;
  g_autofree char *shown = g_utf8_make_valid (message, MIN (strlen (message), 200));
  if (!lenient)
    lm_fuzz_fail (__FILE__, __LINE__, why, "%s: %s", what, shown);
  if (!warned[promise])
    g_printerr ("LUMEN FUZZ (lenient): %s: %s: %s\n", what, why, shown);
  warned[promise] = TRUE;
}

void
lm_fuzz_check_failure (const char *what, const GError *error, const char *path)
{
  LM_FUZZ_CHECK (error != NULL, "%s failed without saying why", what);
  const char *m = error->message ? error->message : "";
  if (verbose)
    g_printerr ("  %s: %s\n", what, m);
  message_promise (error->domain == LUMEN_ERROR, 0, what, "the error is not in the LUMEN_ERROR domain", m);
  message_promise (*m != '\0', 1, what, "the message is empty", m);
  message_promise (g_utf8_validate (m, -1, NULL), 2, what, "the message is not valid UTF-8", m);
  message_promise (strchr (m, '\n') == NULL, 3, what, "the message is not one line", m);
  message_promise (strlen (m) <= MESSAGE_MAX, 4, what, "the message is longer than 1,024 bytes", m);
  if (path != NULL)
    {
      g_autofree char *display = g_filename_display_name (path);
      message_promise (g_str_has_prefix (m, display), 5, what, "the message does not name the file", m);
    }
}

static gboolean
all_finite (const float *v, guint n)
{
  for (guint i = 0; i < n; i++)
    if (!isfinite (v[i]))
      return FALSE;
  return TRUE;
}

/* What a loaded camera raw promises the development: a format its layout needs, a colour
 * filter array and black table of the periods LmRawInfo allows, white above black at every
 * site, finite numbers, an orientation, a crop inside the image, and a preview that is a JPEG
 * no larger than the file (SIZE). */
static void
check_raw (const LmImage *image, size_t size)
{
  const LmRawInfo *r = image->raw;
  LM_FUZZ_CHECK (r != NULL, "a camera raw loaded as %s without its LmRawInfo", lm_format_name (image->format));
  LmFormat want = r->layout == LM_RAW_LINEAR ? LM_FORMAT_RGBA16 : r->layout == LM_RAW_MONO ? LM_FORMAT_GRAY16
                                                                                         : LM_FORMAT_CFA16;
  LM_FUZZ_CHECK (image->format == want, "layout %d loaded as %s", r->layout, lm_format_name (image->format));
  guint period = r->layout == LM_RAW_BAYER ? 2 : r->layout == LM_RAW_XTRANS ? 6 : 1;
  LM_FUZZ_CHECK (r->cfa_w == period && r->cfa_h == period, "layout %d with a %u×%u CFA", r->layout, r->cfa_w,
                 r->cfa_h);
  LM_FUZZ_CHECK (r->black_w >= 1 && r->black_w <= LM_RAW_BLACK_MAX && r->black_h >= 1
                   && r->black_h <= LM_RAW_BLACK_MAX,
                 "a black table of %u×%u", r->black_w, r->black_h);
  LM_FUZZ_CHECK (all_finite (r->white, 4) && all_finite (&r->black[0][0], LM_RAW_BLACK_MAX * LM_RAW_BLACK_MAX),
                 "levels that are not finite");
  for (guint y = 0; y < 48; y++)
    for (guint x = 0; x < 48; x++)
      {
        guint c = r->cfa[y % r->cfa_h][x % r->cfa_w];
        LM_FUZZ_CHECK (c <= (r->layout == LM_RAW_XTRANS ? 2u : 3u), "CFA colour %u", c);
        float black = r->black[y % r->black_h][x % r->black_w];
        for (guint p = 0; p < (r->layout == LM_RAW_LINEAR ? 3u : 1u); p++)
          {
            guint k = r->layout == LM_RAW_LINEAR ? p : c;
            LM_FUZZ_CHECK (black >= 0 && r->white[k] > black, "white %g at or below black %g", r->white[k], black);
          }
      }
  LM_FUZZ_CHECK (all_finite (r->as_shot, 4) && all_finite (r->daylight, 4) && all_finite (&r->xyz_to_cam[0][0][0], 18)
                   && all_finite (&r->forward[0][0][0], 18) && all_finite (r->analog_balance, 3)
                   && isfinite (r->baseline_exposure),
                 "colour data that is not finite");
  LM_FUZZ_CHECK (r->n_matrices >= 0 && r->n_matrices <= 2 && (r->n_matrices == 0) == (r->matrix_source == LM_RAW_MATRIX_NONE),
                 "%d matrices from source %d", r->n_matrices, r->matrix_source);
  LM_FUZZ_CHECK (r->orientation >= 1 && r->orientation <= 8, "orientation %d", r->orientation);
  LM_FUZZ_CHECK ((guint64) r->crop_x + r->crop_w <= image->width && (guint64) r->crop_y + r->crop_h <= image->height,
                 "crop %u,%u %u×%u of %u×%u", r->crop_x, r->crop_y, r->crop_w, r->crop_h, image->width, image->height);
  gsize preview_len = 0;
  const guint8 *preview = r->preview ? g_bytes_get_data (r->preview, &preview_len) : NULL;
  LM_FUZZ_CHECK (preview == NULL || (preview_len >= 4 && preview_len <= size && preview[0] == 0xff && preview[1] == 0xd8),
                 "a preview of %zu bytes from a file of %zu", preview_len, size);
  const char *texts[] = { r->make, r->model, r->lens, r->decoder };
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    LM_FUZZ_CHECK (texts[i] == NULL || g_utf8_validate (texts[i], -1, NULL), "a text that is not UTF-8");
}

int
lm_fuzz_load_image (const uint8_t *data, size_t size, const LmFileType *types, guint n_types)
{
  lm_fuzz_init ();
  /* On the whole input, as lm_io_load_from_memory sniffs: a raw among TIFFs is told by its
   * IFDs, anywhere in the file. */
  LmFileType type = lm_file_type_sniff (data, size);
  gboolean wanted = FALSE;
  for (guint i = 0; i < n_types; i++)
    wanted = wanted || type == types[i];
  if (!wanted)
    {
      if (verbose)
        g_printerr ("  rejected: %s is not this harness's format\n", lm_file_type_name (type));
      return LM_FUZZ_REJECT;
    }

  static const char path[] = "fuzz-input";
  GError *error = NULL;
  LmImage *image = lm_io_load_from_memory (path, data, size, lm_fuzz_allocator (), &error);
  if (image == NULL)
    {
      lm_fuzz_check_failure ("lm_io_load_from_memory", error, path);
      g_error_free (error);
      return 0;
    }
  LM_FUZZ_CHECK (error == NULL, "a loaded image and an error: %s", error->message);
  LM_FUZZ_CHECK (image->width > 0 && image->height > 0, "an image of %u×%u", image->width, image->height);
  LM_FUZZ_CHECK (image->stride >= image->width * lm_format_bytes_per_pixel (image->format),
                 "stride %zu for %u pixels of %s", image->stride, image->width, lm_format_name (image->format));
  /* Radiance files give radiance; a TIFF does too where its samples are floats. */
  LM_FUZZ_CHECK (lm_file_type_is_radiance (type) ? image->format == LM_FORMAT_RGBA_F32
                                                 : image->format != LM_FORMAT_RGBA_F32 || type == LM_FILE_TIFF,
                 "%s loaded as %s", lm_file_type_name (type), lm_format_name (image->format));
  if (type == LM_FILE_RAW)
    check_raw (image, size);
  else
    LM_FUZZ_CHECK (image->raw == NULL, "a %s with camera raw metadata", lm_file_type_name (type));
  if (verbose)
    g_printerr ("  loaded: %ux%u %s\n", image->width, image->height, lm_format_name (image->format));
  /* What an export does with the source's EXIF. */
  GBytes *exported = lm_exif_for_export (image->exif, image->width, image->height);
  if (exported != NULL)
    g_bytes_unref (exported);
  lm_image_unref (image);
  return 0;
}
